#include "service/emulator_service.hpp"

#include <sodium.h>

#include <stdexcept>

#include "voice/voice_media_routes.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kVoiceStateUpdateOpcode = 4;

}  // namespace

EmulatorService::EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits)
    : ServiceContextOwner(clock, std::move(endpoints)),
      FeatureModule(context_),
      http_(context_, rate_limits),
      admin_(context_, [this] { lobby_sweep_idle(); }),
      auth_(context_),
      gateway_(context_),
      presence_(context_, gateway_),
      social_(context_, gateway_, presence_),
      guilds_(context_, gateway_),
      social_limits_(http_.social_limits()) {
  // Application key pairs (admin/) and the transport ciphers use libsodium.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  gateway_.add_listener(guilds_);
  gateway_.add_listener(presence_);
  gateway_.add_listener(social_);
  gateway_.add_listener(*this);
  gateway_.set_op_handler(kVoiceStateUpdateOpcode,
                          [this](std::uint64_t connection, const rapidjson::Value& d) {
                            gateway_voice_state_update(connection, d);
                          });
  presence_.set_desktop_activities(this);
  register_ipc_routes();
  register_lobby_routes();
  register_message_routes();
  register_voice_routes();
  register_voice_media_routes(admin_router_, forwarding_unit_);
}

void EmulatorService::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  ready.lobbies = lobby_ready_json(session);
}

void EmulatorService::connection_changed(const std::string& user_id, const std::string& app_id,
                                         ConnectionChange) {
  lobby_connection_changed(user_id, app_id);
}

void EmulatorService::session_ending(const GatewaySession& session) {
  voice_end_gateway_session(session.id);
}

void EmulatorService::tick() {
  lobby_sweep_idle();
  voice_tick();
}

std::vector<std::string> EmulatorService::desktop_activities(std::string_view user_id) const {
  std::vector<std::string> result;
  for (const auto& [connection_id, owner] : ipc_activity_users_) {
    if (owner != user_id) continue;
    const auto connection = ipc_connections_.find(connection_id);
    if (connection != ipc_connections_.end() && connection->second.activity)
      result.push_back(*connection->second.activity);
  }
  return result;
}

}  // namespace platformpp::emulator
