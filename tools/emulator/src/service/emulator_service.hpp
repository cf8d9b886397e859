// The emulator, independent of sockets: the composition of its feature modules, and the one object the server
// (server/) and the tests talk to. It owns the ServiceContext every module shares, builds the modules in
// dependency order (each names the modules it uses in its constructor, and registers its own routes), and
// wires what a lower module hears from a higher one: the Gateway's listeners in their order, the desktop
// client's activities, friendships (social) and activity invites (messaging) for presence, lobbies' calls
// and messages. The calls below only forward to the module concerned.
//
// HTTP handling is two-phase so that a fault's delay can be waited for asynchronously in between: plan()
// picks the fault (if any), complete() produces what to send after the delay.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admin/admin_module.hpp"
#include "auth/auth_module.hpp"
#include "console/console_module.hpp"
#include "console/console_stream.hpp"
#include "core/service_context.hpp"
#include "events/event_log.hpp"
#include "events/logged_peers.hpp"
#include "expressions/application_emoji_module.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_module.hpp"
#include "http/http_module.hpp"
#include "identity/identity_module.hpp"
#include "identity/user_connections_module.hpp"
#include "interactions/interactions_module.hpp"
#include "ipc/ipc_module.hpp"
#include "lobby/lobby_module.hpp"
#include "messaging/messaging_module.hpp"
#include "premium/premium_module.hpp"
#include "presence/presence_module.hpp"
#include "scenario/scenario_player.hpp"
#include "social/social_module.hpp"
#include "state/state_module.hpp"
#include "state/state_store.hpp"
#include "voice/voice_module.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

class EmulatorService {
 public:
  EmulatorService(FakeClock& clock, ServiceEndpoints endpoints, RateLimitSettings rate_limits = {});
  ~EmulatorService();
  EmulatorService(const EmulatorService&) = delete;
  EmulatorService& operator=(const EmulatorService&) = delete;

  // Sees every API answer of every service in the process (tests check them against the platform's
  // published schemas). Set before any service handles a request; not thread-safe.
  static void set_api_observer(ApiObserver observer) { HttpModule::set_api_observer(std::move(observer)); }
  // Sees every Gateway dispatch of every service in the process, the same way.
  static void set_dispatch_observer(DispatchObserver observer) {
    GatewayModule::set_dispatch_observer(std::move(observer));
  }
  // "<METHOD> <route>" of every platform API route it serves (routes as the OpenAPI document writes them).
  [[nodiscard]] std::vector<std::string> api_routes() const { return context_.api_router.keys(); }

  // HTTP (http/).
  RequestPlan plan(const HttpRequest& request) {
    const FakeClock::Turn turn(context_.clock);
    return http_.plan(request);
  }
  Outcome complete(const HttpRequest& request, const RequestPlan& plan);
  // Convenience for tests and callers that need no delay: plan() then complete() immediately.
  Outcome handle(const HttpRequest& request) { return complete(request, plan(request)); }
  // Counts accepted connections (reported by /_emulator/health, so tests can see keep-alive reuse).
  void note_connection_accepted() { admin_.note_connection_accepted(); }
  // The admin API's token (http/admin_access.hpp): every /_emulator request but the console's files must
  // carry it. Empty (a service built inside a test's process) leaves the admin API open.
  void set_admin_token(std::string token) { http_.admin_access().set_token(std::move(token)); }
  [[nodiscard]] const AdminAccess& admin_access() { return http_.admin_access(); }
  // --no-social-rate-limits (and POST /_emulator/social-rate-limits).
  void set_social_rate_limits_enabled(bool enabled) { http_.social_limits().set_enabled(enabled); }

  [[nodiscard]] EmulatorState& state() noexcept { return context_.state; }
  // The platform data as documents (core/state_changes.hpp): what the state file and the console see.
  [[nodiscard]] StateChanges& changes() noexcept { return context_.changes; }
  // The state (state/): --state's file, opened by the caller and loaded here into the modules (throws
  // StateFileError when it cannot be used); the end of an event-loop turn, which commits its changes (throws
  // std::runtime_error when the file cannot be written); and the first change of a turn, on which the server
  // schedules that end.
  void attach_state_file(std::unique_ptr<StateFile> file) { store_.attach(std::move(file)); }
  [[nodiscard]] StateStore& state_store() noexcept { return store_; }
  void end_turn() { store_.commit(); }
  // The web console's files (console/).
  void set_console_directory(std::string directory) { console_.set_directory(std::move(directory)); }
  [[nodiscard]] bool turn_has_changes() const noexcept { return context_.changes.pending(); }
  void set_on_first_change(std::function<void()> callback) {
    context_.changes.set_on_first_change(std::move(callback));
  }
  [[nodiscard]] FakeClock& clock() noexcept { return context_.clock; }

  // The desktop-client stand-in on IPC (ipc/). `listener` is null when IPC is off (--no-ipc).
  void set_ipc_listener(IpcListenerControl* listener) noexcept { ipc_.set_listener(listener); }
  std::uint64_t ipc_connected(IpcPeer& peer);
  void ipc_received(std::uint64_t connection, std::string_view bytes) {
    const FakeClock::Turn turn(context_.clock);
    ipc_.received(connection, bytes);
  }
  void ipc_disconnected(std::uint64_t connection);
  [[nodiscard]] std::size_t ipc_connection_count() const noexcept { return ipc_.connection_count(); }

  // The Gateway (gateway/).
  std::uint64_t gateway_opened(GatewayPeer& peer, std::string_view target);
  void gateway_received(std::uint64_t connection, std::string_view message, bool text);
  void gateway_disconnected(std::uint64_t connection, std::optional<int> close_code);
  // Called every few tens of ms: the Gateway's timeouts, then its listeners' (idle lobbies, voice), then the
  // webhook events due for a (re)try, then the interactions' deadlines.
  void gateway_tick() {
    const FakeClock::Turn turn(context_.clock);
    gateway_.tick();
    webhooks_.tick();
    interactions_.tick();
    if (scenario_) scenario_->tick(context_.clock.now_ms());
    events_.flush_if_due(steady_now_ms());
  }
  [[nodiscard]] std::size_t gateway_connection_count() const noexcept { return gateway_.connection_count(); }

  // Webhook events (webhook/): the network side that POSTs them (null at shutdown), and the module other
  // modules emit events through.
  // The same transport POSTs interactions to interactions endpoint URLs.
  // While the event log is on, the POSTs and their outcomes are logged on the way.
  void set_webhook_transport(WebhookTransport* transport);
  [[nodiscard]] WebhookModule& webhooks() noexcept { return webhooks_; }

  // Lobby calls: the voice gateway and the media relay (voice/).
  [[nodiscard]] ForwardingUnit& forwarding_unit() noexcept { return voice_.forwarding_unit(); }
  void set_voice_udp_port(std::uint16_t port) noexcept { voice_.set_udp_port(port); }
  std::uint64_t voice_opened(VoiceGatewayPeer& peer, std::string_view target);
  void voice_received(std::uint64_t connection, std::string_view message, bool text);
  void voice_disconnected(std::uint64_t connection, std::optional<int> close_code);
  // Part of gateway_tick(); tests call it alone.
  void voice_tick() { voice_.tick(); }
  [[nodiscard]] std::size_t voice_connection_count() const noexcept { return voice_.connection_count(); }

  // A scenario (scenario/, --scenario): its setup runs now, through the admin API's routes with
  // `admin_token` (throws ScenarioError naming the line of a step that failed); its timeline from the tick,
  // by the fake clock. GET /_emulator/scenario reports it.
  void play_scenario(Scenario scenario, const std::string& admin_token);
  [[nodiscard]] const ScenarioPlayer* scenario() const noexcept { return scenario_.get(); }

  // The event log (events/): --event-log's file, and the console's inspector as its observer.
  [[nodiscard]] EventLog& event_log() noexcept { return events_; }
  // The console pages reading the log live (console/console_stream.hpp): its observer while any does.
  [[nodiscard]] InspectorHub& inspector() noexcept { return inspector_; }

  // Premium apps (premium/): the webhook events sender hears of every entitlement created or migrated here.
  void set_entitlement_created_listener(PremiumModule::EntitlementCreatedListener listener) {
    premium_.set_entitlement_created_listener(std::move(listener));
  }

 private:
  class LoggedWebhookTransport;
  [[nodiscard]] ConnectionOwner gateway_owner(std::uint64_t connection) const;
  [[nodiscard]] ConnectionOwner voice_owner(std::uint64_t connection) const;

  ServiceContext context_;
  StateStore store_{context_.changes};
  // In dependency order: each module is built after the ones it names.
  HttpModule http_;
  WebhookModule webhooks_;
  AdminModule admin_;
  AuthModule auth_;
  GatewayModule gateway_;
  PresenceModule presence_;
  SocialModule social_;
  GuildModule guilds_;
  LobbyModule lobbies_;
  MessagingModule messaging_;
  VoiceModule voice_;
  PremiumModule premium_;
  InteractionsModule interactions_;
  ApplicationEmojiModule application_emojis_;
  UserConnectionsModule user_connections_;
  IpcModule ipc_;
  IdentityModule identity_;
  StateModule state_;
  ConsoleModule console_;
  // The event log's decorators of each connection's peer (events/logged_peers.hpp), by connection id, while
  // the log is on. Destroyed before the modules: a module uses a peer only while its connection is open, and
  // every connection has ended before the service goes.
  EventLog events_{context_.clock};
  std::map<std::uint64_t, std::unique_ptr<LoggedGatewayPeer>> logged_gateway_;
  std::map<std::uint64_t, std::unique_ptr<LoggedVoicePeer>> logged_voice_;
  std::map<std::uint64_t, std::unique_ptr<LoggedIpcPeer>> logged_ipc_;
  std::unique_ptr<LoggedWebhookTransport> logged_webhooks_;
  std::unique_ptr<ScenarioPlayer> scenario_;
  bool scenario_calling_ = false;  // a scenario's call is running (the event log names its origin)
  // After the log: takes its observer away first.
  InspectorHub inspector_{events_};
};

}  // namespace platformpp::emulator
