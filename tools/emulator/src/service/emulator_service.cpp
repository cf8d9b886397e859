#include "service/emulator_service.hpp"

#include <sodium.h>

#include <stdexcept>

#include "voice/voice_media_routes.hpp"

namespace platformpp::emulator {

EmulatorService::EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits)
    : ServiceContextOwner(clock, std::move(endpoints)),
      FeatureModule(context_),
      http_(context_, rate_limits),
      admin_(context_, [this] { lobby_sweep_idle(); }),
      auth_(context_),
      social_limits_(http_.social_limits()) {
  // Application key pairs (admin/) and the transport ciphers use libsodium.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  register_api_routes();
  register_ipc_routes();
  register_gateway_routes();
  register_social_routes();
  register_guild_routes();
  register_lobby_routes();
  register_message_routes();
  register_voice_routes();
  register_voice_media_routes(admin_router_, forwarding_unit_);
}

}  // namespace platformpp::emulator
