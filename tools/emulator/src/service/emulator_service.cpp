#include "service/emulator_service.hpp"

#include <sodium.h>

#include <stdexcept>

namespace platformpp::emulator {

EmulatorService::EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits)
    : context_(clock, std::move(endpoints)),
      http_(context_, rate_limits),
      webhooks_(context_),
      admin_(
          context_,
          [this] {
            lobbies_.sweep_idle();  // lobbies idle for their timeout by the new time
            premium_.sweep();       // subscriptions renew or end at their period's end
          },
          webhooks_),
      auth_(context_, webhooks_),
      gateway_(context_),
      presence_(context_, gateway_),
      social_(context_, gateway_, presence_),
      guilds_(context_, gateway_),
      lobbies_(context_, gateway_, guilds_, http_.social_limits()),
      messaging_(context_, gateway_, social_, guilds_, lobbies_, http_.social_limits(), webhooks_),
      voice_(context_, gateway_, lobbies_),
      premium_(context_, gateway_, webhooks_),
      interactions_(context_, guilds_, gateway_, messaging_, premium_),
      application_emojis_(context_),
      user_connections_(context_),
      ipc_(context_, presence_, auth_, premium_),
      identity_(context_),
      state_(context_, store_, gateway_),
      console_(context_) {
  // Application key pairs (admin/) and the transport ciphers use libsodium.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
  // What the Gateway's sessions mean to the features above it, in this order: a bot's GUILD_CREATEs follow
  // READY first; friends see presence changes before lobby members see LOBBY_MEMBER_(DIS)CONNECT; on the
  // tick, idle lobbies go before voice's timeouts, then subscriptions renew or end.
  gateway_.add_listener(guilds_);
  gateway_.add_listener(presence_);
  gateway_.add_listener(social_);
  gateway_.add_listener(lobbies_);
  gateway_.add_listener(voice_);
  gateway_.add_listener(premium_);
  gateway_.add_listener(messaging_);
  presence_.set_desktop_activities(&ipc_);
  presence_.set_audience(&social_);
  presence_.set_invites(&messaging_);
  auth_.set_guild_installs(&guilds_);
  lobbies_.set_calls(&voice_);
  voice_.set_guild_voice(&guilds_);
  lobbies_.set_messages(&messaging_);
}

}  // namespace platformpp::emulator
