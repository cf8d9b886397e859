// The Gateway (docs/gateway-protocol.md): its connections and sessions, the session protocol (Hello,
// heartbeats, Identify -> READY, Resume with replay, op 3 presence updates), the limits, and the dispatches
// every feature sends through it (sequenced and buffered for Resume). Its admin routes (/_emulator/gateway/*)
// and the API's GET /gateway, /gateway/bot live in gateway_routes.cpp.
//
// It knows no feature above it. What they add to a session's life (READY's arrays, GUILD_CREATEs, lobby
// connection state, friends' presence, lobby calls) they do as GatewayListeners, which the composition
// registers in a fixed order; the opcodes they serve (4 voice states, 8 guild members) they register as
// handlers.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway.hpp"

namespace platformpp::emulator {

// One Gateway dispatch as a session is sent it (event name, `d` as JSON), for a conformance check.
using DispatchObserver = std::function<void(std::string_view type, std::string_view d_json)>;

// READY's arrays (JSON array texts) that the features above the Gateway fill in.
struct ReadyContent {
  std::string guilds = "[]";
  std::string relationships = "[]";
  std::string game_relationships = "[]";
  std::string user_application_profiles = "[]";
  std::string presences = "[]";
  std::string lobbies = "[]";
  std::string private_channels = "[]";  // a user's DM channels, with their newest message; none for a bot
};

// What the features above the Gateway hear of its sessions.
class GatewayListener {
 public:
  // How a user's live connection to an application changed.
  enum class ConnectionChange {
    identified,  // a new session, after its READY (and a bot's GUILD_CREATEs)
    resumed,     // after RESUMED
    lost,        // closed or dropped; the session stays resumable for the window
    detached,    // op 7 or op 9 (true): the session waits for a resume
    ended,       // the session is gone (and with the user's last one, the presence they set)
  };

  virtual ~GatewayListener() = default;
  // Fills in this feature's parts of a new session's READY.
  virtual void fill_ready(const GatewaySession& /*session*/, ReadyContent& /*ready*/) {}
  // READY went out to a new session; what follows it now.
  virtual void session_ready(const GatewaySession& /*session*/) {}
  virtual void connection_changed(const std::string& /*user_id*/, const std::string& /*app_id*/,
                                  ConnectionChange /*change*/) {}
  // The session is about to end (it still exists).
  virtual void session_ending(const GatewaySession& /*session*/) {}
  // Op 3 replaced the user's presence (presence_of) from this session.
  virtual void presence_updated(const std::string& /*user_id*/, const std::string& /*session_id*/) {}
  // Every few tens of ms, after the Gateway's own timeouts.
  virtual void tick() {}
};

class GatewayModule : public FeatureModule {
 public:
  explicit GatewayModule(ServiceContext& context);

  // Sees every Gateway dispatch of every module in the process, the way HttpModule::set_api_observer does.
  static void set_dispatch_observer(DispatchObserver observer) { dispatch_observer() = std::move(observer); }

  // Listeners hear of sessions in the order they were added.
  void add_listener(GatewayListener& listener) { listeners_.push_back(&listener); }
  // The handler of a client opcode the Gateway accepts only from an identified connection and leaves to a
  // feature (4 Voice State Update, 8 Request Guild Members); others of those are accepted and ignored.
  using OpHandler = std::function<void(std::uint64_t connection, const rapidjson::Value& d)>;
  void set_op_handler(int opcode, OpHandler handler) { op_handlers_[opcode] = std::move(handler); }

  // The server reports WebSocket events here and the module answers through the GatewayPeer. A freshly
  // accepted WebSocket at `target` ("/?v=10&encoding=json..."): sends Hello, or closes it (bad query); the
  // returned id names it in the calls below.
  std::uint64_t opened(GatewayPeer& peer, std::string_view target);
  // One complete WebSocket message (`text` false for a binary frame).
  void received(std::uint64_t id, std::string_view message, bool text);
  // The peer is gone, with the client's close code if it sent a close frame. A no-op for connections the
  // module closed or dropped.
  void disconnected(std::uint64_t id, std::optional<int> close_code);
  // Closes zombies (no heartbeat in time), forgets sessions past their resume window, then ticks the
  // listeners.
  void tick();
  [[nodiscard]] std::size_t connection_count() const noexcept { return connections_.size(); }

  // ---- for the features ----
  // Sequences, buffers and (if connected) sends one dispatch; returns its s (0 if no such session).
  std::int64_t dispatch(const std::string& session_id, std::string_view type, std::string_view d_json);
  // The same dispatch to each of these sessions (from sessions_of_user, in this turn), built once for all
  // of them.
  void dispatch_shared(const std::vector<const GatewaySession*>& sessions, std::string_view type,
                       std::string_view d_json);
  // To every session of the user (live or resumable): (session id, s) of each.
  std::vector<std::pair<std::string, std::int64_t>> dispatch_to_user(std::string_view user_id,
                                                                     std::string_view type,
                                                                     std::string_view d_json);
  // To every session of the user, with d built per session (e.g. premium_type depends on its token).
  void dispatch_each(std::string_view user_id, std::string_view type,
                     const std::function<std::optional<std::string>(const GatewaySession&)>& d_json);
  // Whether the user has a session (live, or resumable: a brief drop does not flap their presence).
  [[nodiscard]] bool user_online(std::string_view user_id) const;
  // The presence the user's sessions set (Identify's or op 3), if any.
  [[nodiscard]] const Presence* presence_of(std::string_view user_id) const;
  // Sessions by id, live or resumable.
  [[nodiscard]] const std::map<std::string, GatewaySession>& sessions() const noexcept { return sessions_; }
  // The user's sessions, live or resumable, oldest first (empty if none): what a dispatch to a user or a
  // lobby's members looks up, so that it costs the same with 10 or 10,000 sessions. Valid until a session
  // begins or ends.
  [[nodiscard]] const std::vector<const GatewaySession*>& sessions_of_user(std::string_view user_id) const;
  // Whether the user has a live connection identified with a token (not a bot's) of the application.
  [[nodiscard]] bool user_connected(std::string_view user_id, std::string_view app_id) const;
  // The session a connection identified or resumed, if any.
  [[nodiscard]] const GatewaySession* session_of(std::uint64_t connection) const;
  // Changes whenever a connection gains or loses its session, or a session ends: what session_of() said
  // (and the views into that session) stays true while this is the same.
  [[nodiscard]] std::uint64_t owners_changed() const noexcept { return owners_changed_; }
  void close_connection(std::uint64_t id, int code, std::string_view reason);
  // Every connection closed with 4009 (session timed out) and every session forgotten, resumable ones too:
  // the platform data was replaced (state import, reset), so clients identify again into the new data.
  void end_all_sessions();

 private:
  static DispatchObserver& dispatch_observer() {
    static DispatchObserver observer;
    return observer;
  }
  static SharedDispatchBody dispatch_body(std::string_view type, std::string_view d_json);
  static GatewaySession& owned(const GatewaySession& session);
  std::int64_t dispatch(GatewaySession& session, const SharedDispatchBody& body, std::string_view type,
                        std::string_view d_json);
  void notify(const std::string& user_id, const std::string& app_id,
              GatewayListener::ConnectionChange change);
  // Zombies and sessions past their resume window (tick); the next scan is due at next_expiry_check_ms_.
  void expire(std::int64_t now_steady_ms);
  void check_expiry_by(std::int64_t steady_ms);
  [[nodiscard]] std::int64_t zombie_timeout_ms(const GatewayConnection& connection) const;

  // Connections and sessions (gateway_module.cpp).
  void drop_connection(std::uint64_t id);
  // Unbinds the connection from its session (op 7, op 9 true): later dispatches wait for a resume.
  void detach(std::uint64_t id);
  void end_session(const std::string& session_id);
  void heartbeat(std::uint64_t id);
  void identify(std::uint64_t id, const rapidjson::Value& d);
  void resume(std::uint64_t id, const rapidjson::Value& d);
  void presence_update(std::uint64_t id, const rapidjson::Value& d);
  std::optional<Principal> authenticate_token(std::string_view token);
  // The application's Identifies still in the budget's window at `now` (older ones forgotten).
  std::deque<std::int64_t>& identify_starts(const std::string& app_id, std::int64_t now);

  // Routes (gateway_routes.cpp).
  void register_routes();
  HttpResponse api_get_gateway(const RouteContext& context);
  // What a bot library asks first: GET /gateway/bot (the URL, the shard count, the identify budget left).
  HttpResponse api_get_gateway_bot(const RouteContext& context);
  [[nodiscard]] std::string limits_json() const;
  // The admin routes that act on the live connections a body selects: {session_id?, user_id?}, all when
  // neither is given.
  [[nodiscard]] std::vector<std::uint64_t> select(BodyFields& fields) const;
  HttpResponse act_on_selected(const RouteContext& context,
                               const std::function<void(BodyFields& fields)>& read_fields,
                               const std::function<void(std::uint64_t id)>& act);
  HttpResponse admin_sessions(const RouteContext& context);
  HttpResponse admin_drop(const RouteContext& context);
  HttpResponse admin_stall(const RouteContext& context);
  HttpResponse admin_close(const RouteContext& context);
  HttpResponse admin_reconnect(const RouteContext& context);
  HttpResponse admin_invalidate(const RouteContext& context);
  HttpResponse admin_heartbeat(const RouteContext& context);
  HttpResponse admin_heartbeat_interval(const RouteContext& context);
  HttpResponse admin_dispatch(const RouteContext& context);
  HttpResponse admin_limits(const RouteContext& context);
  HttpResponse admin_set_limits(const RouteContext& context);
  HttpResponse admin_set_privileged_intents(const RouteContext& context);
  HttpResponse admin_set_channel_obfuscation(const RouteContext& context);
  HttpResponse admin_set_application_flags(const RouteContext& context);

  std::vector<GatewayListener*> listeners_;
  std::map<int, OpHandler> op_handlers_;
  GatewaySettings settings_;
  // Hashed: every dispatch finds its session's connection here. Where order shows (closing many, the admin's
  // selections), ids are sorted first.
  std::unordered_map<std::uint64_t, GatewayConnection> connections_;
  std::uint64_t next_connection_ = 1;
  std::map<std::string, GatewaySession> sessions_;
  // sessions_ by user (map nodes do not move, so the pointers hold until the session is erased).
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept {
      return std::hash<std::string_view>{}(text);
    }
  };
  std::unordered_map<std::string, std::vector<const GatewaySession*>, StringHash, std::equal_to<>>
      sessions_by_user_;
  std::int64_t next_expiry_check_ms_ = 0;                           // steady ms; 0: at the next tick
  std::map<std::string, std::deque<std::int64_t>> identify_times_;  // per application, fake clock
  std::map<std::string, Presence> presences_;                       // by user id
  // Set while the admin API injects an arbitrary dispatch: the dispatch observer sees only the emulator's
  // own.
  bool injecting_dispatch_ = false;
  std::uint64_t owners_changed_ = 0;  // owners_changed()
};

}  // namespace platformpp::emulator
