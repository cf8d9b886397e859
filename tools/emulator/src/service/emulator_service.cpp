#include "service/emulator_service.hpp"

#include <sodium.h>

#include <stdexcept>
#include <utility>

#include "core/api_error.hpp"

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
  context_.admin_router.add("GET", "/scenario", [this](const RouteContext&) {
    if (!scenario_)
      return error_response(404, 0, "No scenario: the emulator was started without --scenario.");
    return HttpResponse::json(200, scenario_->status_json());
  });
  context_.admin_router.add("GET", "/scenario/values/{reference}", [this](const RouteContext& route) {
    if (!scenario_)
      return error_response(404, 0, "No scenario: the emulator was started without --scenario.");
    try {
      return HttpResponse::json(200, scenario_->resolve_reference(route.params.at("reference")));
    } catch (const std::invalid_argument& e) {
      return error_response(404, 0, e.what());
    }
  });
}

// ---- scenarios --------------------------------------------------------------------------------------

void EmulatorService::play_scenario(Scenario scenario, const std::string& admin_token) {
  const FakeClock::Turn turn(context_.clock);
  auto call = [this, admin_token](const std::string& method, const std::string& target,
                                  const std::string& authorization, const std::string& body) {
    HttpRequest request;
    request.method = method;
    request.target = target;
    if (target.rfind("/_emulator/", 0) == 0) {
      request.headers.emplace_back("Authorization", "Bearer " + admin_token);
    } else if (!authorization.empty()) {
      request.headers.emplace_back("Authorization", authorization);
    }
    if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
    request.body = body;
    request.client_address = "127.0.0.1";
    // The event log names these the scenario's: a replay lets the scenario make them again.
    scenario_calling_ = true;
    const auto outcome = handle(request);
    scenario_calling_ = false;
    if (const auto& later = outcome.response.deferred) {
      // A route that finishes an exchange on the network first (a webhook URL's PING, an interaction's
      // answer): the scenario goes on; the answer, if it is not there already, is not kept.
      if (later->answer()) return ScenarioPlayer::Answer{later->answer()->status, later->answer()->body};
      return ScenarioPlayer::Answer{202, R"({"answered_later":true})"};
    }
    return ScenarioPlayer::Answer{outcome.response.status, outcome.response.body};
  };
  scenario_ = std::make_unique<ScenarioPlayer>(std::move(scenario), std::move(call));
  scenario_->run_setup(context_.clock.now_ms());
}

// ---- the event log --------------------------------------------------------------------------------

// A webhook or interaction POST and its outcome, on the way to the real transport.
class EmulatorService::LoggedWebhookTransport final : public WebhookTransport {
 public:
  LoggedWebhookTransport(WebhookTransport& inner, EventLog& log, FakeClock& clock)
      : inner_(inner), log_(log), clock_(clock) {}
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override {
    auto url = post.url.text;
    auto body = post.body;
    inner_.post(std::move(post), [this, url = std::move(url), body = std::move(body),
                                  done = std::move(done)](WebhookPostResult result) {
      const FakeClock::Turn turn(clock_);
      log_.webhook(url, body, result.status, result.error, result.body);
      done(std::move(result));
    });
  }

 private:
  WebhookTransport& inner_;
  EventLog& log_;
  FakeClock& clock_;
};

EmulatorService::~EmulatorService() = default;

void EmulatorService::set_webhook_transport(WebhookTransport* transport) {
  logged_webhooks_.reset();
  // Always behind the log's wrapper (it writes only while the log is on): a console page that starts
  // recording later sees the POSTs too, and each outcome is a turn of its own, as every other input is.
  if (transport != nullptr) {
    logged_webhooks_ = std::make_unique<LoggedWebhookTransport>(*transport, events_, context_.clock);
    transport = logged_webhooks_.get();
  }
  webhooks_.set_transport(transport);
  interactions_.set_transport(transport);
}

Outcome EmulatorService::complete(const HttpRequest& request, const RequestPlan& plan) {
  const FakeClock::Turn turn(context_.clock);
  if (!events_.enabled()) return http_.complete(request, plan);
  // Who the request speaks for, copied before it runs (it may revoke the very token).
  std::string user;
  std::string application;
  if (const auto principal = http_.authenticate(request)) {
    user = principal->user->id;
    if (principal->application != nullptr) application = principal->application->id;
  }
  auto outcome = http_.complete(request, plan);
  const char* delivery = "respond";
  if (outcome.delivery == Outcome::Delivery::drop) delivery = "drop";
  if (outcome.delivery == Outcome::Delivery::truncate) delivery = "truncate";
  if (outcome.response.deferred) delivery = "deferred";
  events_.http(
      request, user, application,
      outcome.delivery == Outcome::Delivery::drop && !outcome.response.deferred ? nullptr : &outcome.response,
      delivery, scenario_calling_ ? "scenario" : "");
  return outcome;
}

ConnectionOwner EmulatorService::gateway_owner(std::uint64_t connection) const {
  const auto* session = gateway_.session_of(connection);
  if (session == nullptr) return {};
  return {session->id, session->user_id};
}

ConnectionOwner EmulatorService::voice_owner(std::uint64_t connection) const {
  const auto [session, user] = voice_.owner_of(connection);
  return {session, user};
}

std::uint64_t EmulatorService::gateway_opened(GatewayPeer& peer, std::string_view target) {
  const FakeClock::Turn turn(context_.clock);
  if (!events_.enabled()) return gateway_.opened(peer, target);
  auto logged = std::make_unique<LoggedGatewayPeer>(
      peer, events_, [this](std::uint64_t id) { return gateway_owner(id); },
      [this] { return gateway_.owners_changed(); });
  logged->record([this, target = std::string(target)](std::uint64_t id, const ConnectionOwner&) {
    events_.connection(EventLog::Protocol::gateway, "open", id, {}, {}, std::nullopt, target);
  });
  const auto id = gateway_.opened(*logged, target);
  logged->set_id(id);
  logged_gateway_[id] = std::move(logged);
  return id;
}

void EmulatorService::gateway_received(std::uint64_t connection, std::string_view message, bool text) {
  const FakeClock::Turn turn(context_.clock);
  if (events_.enabled() && logged_gateway_.count(connection) != 0) {
    const auto owner = gateway_owner(connection);
    if (text) {
      events_.frame(EventLog::Protocol::gateway, EventLog::Direction::in, connection, owner.session,
                    owner.user, message, false);
    } else {
      events_.binary(EventLog::Protocol::gateway, EventLog::Direction::in, connection, owner.session,
                     owner.user, -1, message.size(), message);
    }
  }
  gateway_.received(connection, message, text);
}

void EmulatorService::gateway_disconnected(std::uint64_t connection, std::optional<int> close_code) {
  const FakeClock::Turn turn(context_.clock);
  const auto logged = logged_gateway_.find(connection);
  if (logged != logged_gateway_.end()) {
    const auto owner = gateway_owner(connection);
    events_.connection(EventLog::Protocol::gateway, "gone", connection, owner.session, owner.user, close_code,
                       {});
  }
  gateway_.disconnected(connection, close_code);
  if (logged != logged_gateway_.end()) logged_gateway_.erase(logged);
}

std::uint64_t EmulatorService::voice_opened(VoiceGatewayPeer& peer, std::string_view target) {
  const FakeClock::Turn turn(context_.clock);
  if (!events_.enabled()) return voice_.opened(peer, target);
  auto logged =
      std::make_unique<LoggedVoicePeer>(peer, events_, [this](std::uint64_t id) { return voice_owner(id); });
  logged->record([this, target = std::string(target)](std::uint64_t id, const ConnectionOwner&) {
    events_.connection(EventLog::Protocol::voice, "open", id, {}, {}, std::nullopt, target);
  });
  const auto id = voice_.opened(*logged, target);
  logged->set_id(id);
  logged_voice_[id] = std::move(logged);
  return id;
}

void EmulatorService::voice_received(std::uint64_t connection, std::string_view message, bool text) {
  const FakeClock::Turn turn(context_.clock);
  if (events_.enabled() && logged_voice_.count(connection) != 0) {
    const auto owner = voice_owner(connection);
    if (text) {
      events_.frame(EventLog::Protocol::voice, EventLog::Direction::in, connection, owner.session, owner.user,
                    message, false);
    } else {
      // A client's DAVE binary frame: `u8 opcode | payload`.
      const int opcode = message.empty() ? -1 : static_cast<unsigned char>(message[0]);
      events_.binary(EventLog::Protocol::voice, EventLog::Direction::in, connection, owner.session,
                     owner.user, opcode, message.size(), message);
    }
  }
  voice_.received(connection, message, text);
}

void EmulatorService::voice_disconnected(std::uint64_t connection, std::optional<int> close_code) {
  const FakeClock::Turn turn(context_.clock);
  const auto logged = logged_voice_.find(connection);
  if (logged != logged_voice_.end()) {
    const auto owner = voice_owner(connection);
    events_.connection(EventLog::Protocol::voice, "gone", connection, owner.session, owner.user, close_code,
                       {});
  }
  voice_.disconnected(connection, close_code);
  if (logged != logged_voice_.end()) logged_voice_.erase(logged);
}

std::uint64_t EmulatorService::ipc_connected(IpcPeer& peer) {
  const FakeClock::Turn turn(context_.clock);
  if (!events_.enabled()) return ipc_.connected(peer);
  auto logged =
      std::make_unique<LoggedIpcPeer>(peer, events_, [](std::uint64_t) { return ConnectionOwner{}; });
  logged->record([this](std::uint64_t id, const ConnectionOwner&) {
    events_.connection(EventLog::Protocol::ipc, "open", id, {}, {}, std::nullopt, {});
  });
  const auto id = ipc_.connected(*logged);
  logged->set_id(id);
  if (logged_ipc_.empty()) {
    ipc_.set_frame_listener([this](std::uint64_t connection, const IpcFrame& frame) {
      const auto it = logged_ipc_.find(connection);
      if (it == logged_ipc_.end()) return;
      events_.frame(EventLog::Protocol::ipc, EventLog::Direction::in, connection, {}, {}, frame.payload,
                    false, static_cast<int>(frame.opcode));
    });
  }
  logged_ipc_[id] = std::move(logged);
  return id;
}

void EmulatorService::ipc_disconnected(std::uint64_t connection) {
  const FakeClock::Turn turn(context_.clock);
  const auto logged = logged_ipc_.find(connection);
  if (logged != logged_ipc_.end())
    events_.connection(EventLog::Protocol::ipc, "gone", connection, {}, {}, std::nullopt, {});
  ipc_.disconnected(connection);
  if (logged != logged_ipc_.end()) logged_ipc_.erase(logged);
}

}  // namespace platformpp::emulator
