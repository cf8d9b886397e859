#pragma once
// Drive platformpp-emulator from tests, bots and samples: start it on a free port, read its connection file,
// seed it through the admin API, move its clock, inject faults, and stop it. Calls here block the calling
// thread and throw std::runtime_error when the emulator answers with an error: they are for test code, not
// for a game loop.

#include <platformpp/client.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

/// Test helpers that start platformpp-emulator (EmulatorProcess) and drive it through its admin API
/// (EmulatorAdmin). They block and throw std::runtime_error: for tests, bots and samples, not a game loop.
namespace platformpp::testkit {

/// The emulator's connection file.
struct ConnectionInfo {
  /// Base address of the emulator's HTTP API (`api_base`, e.g. "https://127.0.0.1:41234/api/v10").
  std::string apiBase;
  /// The Gateway's WebSocket address (`gateway_url`).
  std::string gatewayUrl;
  /// Base address of the admin API (`admin_base`, ".../_emulator"), which EmulatorAdmin calls.
  std::string adminBase;
  /// The admin API's token (`admin_token`): EmulatorAdmin sends it as `Authorization: Bearer` on every admin
  /// request. A new one at each start of the emulator (one kept in the state file under `--state`); the
  /// connection file is readable by its user alone.
  std::string adminToken;
  std::string webBase;  ///< where /oauth2/authorize lives
  /// PEM file of the CA that signed the emulator's certificate (`ca_file`); empty with plain HTTP.
  std::string caFile;
  std::string ipcPath;       ///< the desktop-client stand-in's socket; empty when the emulator runs --no-ipc
  std::string ipcName;       ///< its name prefix: the socket is `<ipcDirectory>/<ipcName>-ipc-<n>`
  std::string ipcDirectory;  ///< where the SDK should look for it
  /// The TCP port the emulator listens on (`port`); 0 when the file has none.
  int port = 0;
  /// Whether `apiBase` is https (false under --plain-http).
  bool tls = true;

  /// Reads and validates a connection file; throws std::runtime_error when it is missing or incomplete.
  static ConnectionInfo Load(const std::string& path);
  /// ClientOptions that reach this emulator: API base, web base and CA file, and its IPC socket (ipcName,
  /// ipcDirectory) so the SDK finds the emulator's desktop-client stand-in and never a real desktop client.
  ClientOptions ClientOptionsFor() const;
};

/// platformpp-emulator running as a child process of the test, with its own private temporary data
/// directory (removed on destruction).
class EmulatorProcess {
 public:
  /// How Start runs the emulator.
  struct Options {
    /// Path of platformpp-emulator; empty = $PLATFORMPP_EMULATOR, else found on $PATH.
    std::string binary;
    /// Serve plain HTTP and WebSocket instead of TLS (passes --plain-http).
    bool plainHttp = false;
    /// Serve the desktop-client stand-in on IPC; false passes --no-ipc.
    bool ipc = true;
    /// The IPC socket's name prefix; the socket lives in the process's private (0700) data directory. On
    /// Windows, where pipe names are global, the default gets a suffix unique to this process and start, so
    /// that a client finds its own emulator's pipe and not another test's.
    std::string ipcName = "platformpp-test";
    /// A snapshot file (ExportState's text) the emulator starts from (passes --import): a test's known
    /// world, read at start in milliseconds. Empty: an empty emulator.
    std::string importFile;
    /// Where the emulator writes its whole state as a snapshot when it stops cleanly, at Stop() (passes
    /// --export-on-exit): what a failed test left, to look at or to start the next run from. Empty: none.
    std::string exportOnExit;
    /// Where the emulator writes its event log (passes --event-log): every HTTP exchange, frame, connection
    /// and webhook POST, one JSON object a line, secrets redacted; what a failed CI run leaves to read.
    /// Empty: none.
    std::string eventLog;
    /// A scenario file (passes --scenario): the world the emulator sets up before it says it is ready, and a
    /// timeline of admin calls it plays on the fake clock (tools/emulator/README.md, "Scenarios"). Start
    /// throws with the file's line when it cannot be used. EmulatorAdmin::ScenarioValue reads what it
    /// created. Empty: none.
    std::string scenario;
    /// More command-line arguments, appended after the ones Start passes.
    std::vector<std::string> extraArguments;
    /// How long Start waits for the connection file before it throws.
    std::chrono::milliseconds startTimeout{15000};
  };

  /// Starts the emulator on a free loopback port and waits for its connection file. Throws when it cannot.
  static std::unique_ptr<EmulatorProcess> Start(Options options);

  /// What Replay needs besides the log.
  struct ReplayOptions {
    /// Path of platformpp-emulator, as Options::binary.
    std::string binary;
    /// Where the run's scenario file is now, if it moved since the run (its SHA-256 must still be the
    /// run's). Empty: where the log's start line says.
    std::string scenario;
    /// Where the run's --import snapshot is now, if it moved (the same rule).
    std::string importFile;
  };
  /// The outcome of Replay.
  struct ReplayResult {
    /// 0: identical; 8: the replay differs from the log; 9: the log cannot be replayed (see `report`).
    int exitCode = -1;
    /// The emulator's report: a summary line, then each difference with the recorded line's seq.
    std::string report;
    /// Whether the fresh emulator wrote every line as the log has it.
    bool Identical() const noexcept { return exitCode == 0; }
  };
  /// Replays an event log (Options::eventLog of an earlier run) against a fresh emulator, as
  /// `platformpp-emulator --replay` does: the log's client side is fed again, in its order and at its
  /// times, and every line the fresh emulator writes is compared with the log's (tools/emulator/README.md,
  /// "Record and replay"). Blocks until the replay ends; throws when the emulator cannot be run.
  static ReplayResult Replay(const std::string& eventLog, const ReplayOptions& options);
  /// Replay with the default ReplayOptions.
  static ReplayResult Replay(const std::string& eventLog) { return Replay(eventLog, ReplayOptions{}); }
  /// Start with the default Options.
  static std::unique_ptr<EmulatorProcess> Start() { return Start(Options{}); }
  ~EmulatorProcess();  ///< Stop()
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  /// The connection file as read at start.
  const ConnectionInfo& Connection() const noexcept { return connection_; }
  /// Path of the connection file, inside the process's data directory.
  const std::string& ConnectionFile() const noexcept { return connectionFile_; }
  /// The child's process id; -1 once stopped.
  int Pid() const noexcept { return pid_; }
  /// SIGTERM, then waits (SIGKILL after 10 s). Returns the exit status (0 = clean), -1 if killed by a signal.
  /// On Windows the emulator's named stop event (its SIGTERM there; tools/emulator/README.md), then
  /// TerminateProcess after 10 s, which counts as killed (-1).
  int Stop();
  /// Kills the emulator at once, as a crash would (SIGKILL; TerminateProcess on Windows), and reaps it: it
  /// writes nothing more, not even its state file. Stop then returns -1. Nothing happens once stopped.
  void Kill();

 private:
  EmulatorProcess() = default;
#ifdef _WIN32
  void* process_ = nullptr;  // the child's process HANDLE
#endif
  int pid_ = -1;
  int exitStatus_ = -1;
  std::string dataDir_;
  std::string connectionFile_;
  ConnectionInfo connection_;
};

/// Typed wrappers of the admin API (tools/emulator/README.md).
///
/// Each call is one blocking HTTP request to the admin API (10 s timeout); unless said otherwise, a call
/// throws std::runtime_error when the emulator answers with an unexpected status, naming the call, the status
/// and the emulator's answer.
class EmulatorAdmin {
 public:
  /// A raw admin or API answer.
  struct Response {
    int status = 0;    ///< the HTTP status
    std::string body;  ///< the body as received
  };
  /// An application created by CreateApp.
  struct App {
    /// The application's id (also its OAuth2 client id).
    uint64_t id = 0;
    /// The OAuth2 client secret.
    std::string clientSecret;
    /// The token of the application's bot user (for BackendClient).
    std::string botToken;
    std::string verifyKey;   ///< the public key (64 hex digits) webhook events are signed for
    uint64_t botUserId = 0;  ///< the user id of the application's bot (a guild member once installed)
  };
  /// A user created by CreateUser.
  struct User {
    uint64_t id = 0;       ///< the user's id
    std::string username;  ///< the username as stored
  };
  /// An OAuth2 token pair minted by MintToken.
  struct Token {
    std::string accessToken;   ///< the bearer token for Client::UpdateToken
    std::string refreshToken;  ///< the refresh token of the same grant
    int64_t expiresIn = 0;     ///< seconds until the access token expires, by the fake clock
  };
  /// One handshaken IPC connection (GET /_emulator/ipc).
  struct IpcConnection {
    uint64_t clientId = 0;                   ///< the application id the connection handshook with
    std::vector<std::string> subscriptions;  ///< event names, sorted
    std::string activityJson;                ///< the last SET_ACTIVITY activity as JSON; empty when none
  };
  /// The desktop-client stand-in (GET /_emulator/ipc).
  struct IpcState {
    bool listening = false;                  ///< false under --no-ipc or after DropIpc
    std::string path;                        ///< the socket's path; empty under --no-ipc
    std::vector<IpcConnection> connections;  ///< the handshaken connections
    int64_t handshakes = 0;  ///< successful handshakes since start: grows with every reconnect
    /// The number of handshaken connections.
    size_t ConnectionCount() const noexcept { return connections.size(); }
  };
  /// A fault on the emulator's API requests (POST /_emulator/faults; tools/emulator/README.md, "Faults").
  /// Unset fields are not sent and take the emulator's default.
  struct Fault {
    std::string route;  ///< "<METHOD> <path pattern>", e.g. "GET /users/@me"
    /// Answer with this status (the platform's error body, or with `body` its content; with 429 the
    /// rate-limit body and headers).
    std::optional<int> status{};
    /// A 429's `retry_after` in seconds (default 1.0).
    std::optional<double> retryAfter{};
    /// A 429 marked as the global rate limit.
    std::optional<bool> global{};
    /// Milliseconds to wait before the request is answered or handled.
    std::optional<int> delayMs{};
    /// Close the connection without answering (the request is not handled).
    std::optional<bool> drop{};
    /// Handle the request (its effects and dispatches happen), then close without answering: a lost response.
    std::optional<bool> dropAfter{};
    /// Announce the full Content-Length, send half of the body, then close.
    std::optional<bool> truncate{};
    /// Answer exactly these bytes (status 200 unless `status` is set).
    std::optional<std::string> body{};
    /// The Content-Type of `body` (default application/json).
    std::optional<std::string> contentType{};
    /// How many matching requests the fault affects (default 1; 0: unlimited).
    std::optional<int> count{};
  };

  /// One Gateway session (GET /_emulator/gateway/sessions).
  struct GatewaySession {
    std::string sessionId;           ///< the session_id READY gave
    uint64_t userId = 0;             ///< the identified user
    uint64_t applicationId = 0;      ///< the application of the token it identified with
    bool connected = false;          ///< has a live connection
    bool resumable = false;          ///< connected, or disconnected within the resume window
    int64_t seq = 0;                 ///< the last dispatch's s
    uint64_t capabilities = 0;       ///< as its Identify sent them
    bool compress = false;           ///< its connection uses zlib-stream
    bool stalled = false;            ///< its connection gets no heartbeat ACKs
    int64_t heartbeatsReceived = 0;  ///< on the current connection
    int64_t acksSent = 0;            ///< on the current connection
  };
  /// Which Gateway connections an admin fault hits: a session, all of a user's, or (both empty) every one.
  struct GatewayTarget {
    std::string sessionId;  ///< this session's connection; empty: not chosen by session
    uint64_t userId = 0;    ///< every connection of this user; 0: not chosen by user
  };
  /// The Gateway's tunables (POST /_emulator/gateway/limits); unset fields keep their value.
  struct GatewayLimits {
    /// Hello's heartbeat_interval for new connections (default 45000).
    std::optional<int64_t> heartbeatIntervalMs{};
    /// A connection silent for heartbeat_interval times this is closed with 4009 (default 1.5).
    std::optional<double> zombieTimeoutFactor{};
    /// Client payloads allowed per connection per window; one more closes with 4008 (default 120).
    std::optional<int64_t> eventsPerWindow{};
    /// That window, in fake-clock milliseconds (default 60000).
    std::optional<int64_t> eventWindowMs{};
    /// Identifies allowed per application per window; one more closes with 4008 (default 1000).
    std::optional<int64_t> identifyBudget{};
    /// That window, in fake-clock milliseconds (default 86400000).
    std::optional<int64_t> identifyWindowMs{};
    /// How long a dropped session stays resumable, in real milliseconds (default 60000).
    std::optional<int64_t> resumeWindowMs{};
    /// Dispatches a session keeps for a resume (default 1000).
    std::optional<int64_t> bufferSize{};
    /// Largest client payload; a bigger one closes with 4002 (default 4096).
    std::optional<int64_t> maxPayloadBytes{};
    bool reset = false;  ///< back to the platform's defaults (applied instead of the fields)
  };

  /// A user's public profile (POST /_emulator/users/{id}/profile); unset fields keep their value.
  struct UserProfile {
    std::optional<std::string> globalName{};  ///< display name, 1 to 32 characters
    std::optional<std::string> avatar{};      ///< avatar hash
    std::optional<std::string> tag{};         ///< primary guild tag, 1 to 4 characters (others are refused)
    std::optional<std::string> guildId{};     ///< the tag's identity_guild_id (default: a fresh snowflake)
    std::optional<std::string> badge{};       ///< the primary guild tag's badge (`badge`)
    std::optional<int> premiumType{};         ///< the real subscription level (shown only to approved apps)
    bool clearGlobalName = false;             ///< sends null instead
    bool clearAvatar = false;                 ///< sends null instead: no avatar
    bool clearTag = false;                    ///< no primary guild
  };
  /// A client of the admin API at `connection.adminBase`, trusting `connection.caFile` only (not the system
  /// store), with a network thread of its own. Sends nothing yet.
  explicit EmulatorAdmin(ConnectionInfo connection);
  ~EmulatorAdmin();
  EmulatorAdmin(const EmulatorAdmin&) = delete;
  EmulatorAdmin& operator=(const EmulatorAdmin&) = delete;

  /// Any admin or API route; `path` is relative to the admin base ("/apps"). Throws only on network failure.
  Response Request(const std::string& method, const std::string& path, const std::string& jsonBody = {});
  /// How long each later request may take before it fails with a network error: 10 s unless set (a state
  /// export or import gets at least 120 s). For a test that starves the emulator of CPU on purpose, such as
  /// the fault soak's long mode.
  void SetRequestTimeout(std::chrono::milliseconds timeout);

  /// True when GET /_emulator/health answers 200; false otherwise, also on a network failure (never throws).
  bool Healthy();
  /// TCP connections the emulator has accepted since it started (its health report).
  int64_t ConnectionsAccepted();
  /// Creates an application named `name` (1 to 100 characters), with a bot user of its own.
  App CreateApp(const std::string& name);
  /// Creates a regular user: `username` 2 to 32 characters of a-z, 0-9, '_' and '.', unique; `globalName`
  /// (1 to 32 characters) is sent when not empty.
  User CreateUser(const std::string& username, const std::string& globalName = {});
  /// Issues a token pair of `userId` for `appId` with `scopes` (space-separated) without any OAuth2 flow.
  Token MintToken(uint64_t userId, uint64_t appId, const std::string& scopes);
  /// Epoch milliseconds of the emulator's fake clock.
  int64_t ClockMs();
  /// Moves the fake clock forward by `by` (every time-based rule reads it); a negative step is refused.
  void AdvanceClock(std::chrono::milliseconds by);
  /// Adds a fault on the API requests its route matches; returns its id (e.g. "fault-1").
  std::string AddFault(const Fault& fault);
  /// The user the emulator consents as in the authorize step (default: the first user); `deny` refuses
  /// consent.
  void SetConsent(uint64_t userId, bool deny = false);
  /// Runs the authorize step headlessly and returns the redirect it answers with (code and state in its
  /// query).
  std::string Authorize(uint64_t appId, const std::string& scopes, const std::string& redirectUri,
                        const std::string& codeChallenge, const std::string& state = {});
  /// A headless browser: GETs `url` (the emulator's authorize page), follows its redirect (to the game's
  /// loopback listener) and returns the final HTTP status.
  int Browse(const std::string& url);
  /// The `code` query parameter of an authorize redirect, empty when there is none.
  static std::string CodeFromRedirect(const std::string& location);
  /// Bans the user: their tokens die. A permanent ban cannot be lifted, and banning again does not make it
  /// temporary.
  void Ban(uint64_t userId, bool permanent = false);
  /// Lifts a temporary ban (succeeds when the user is not banned); throws for a permanent one.
  void Unban(uint64_t userId);
  /// Deletes a token the way the platform does when a user unlinks; its pair dies with it.
  void DeleteToken(const std::string& token);

  /// An application's webhook events URL (PUT /_emulator/applications/{id}/webhook-events).
  struct WebhookEventsConfig {
    std::string url;                       ///< http or https on a loopback host
    std::vector<std::string> eventTypes;   ///< the events sent; empty: every event
    std::optional<int64_t> retryBaseMs{};  ///< the first retry's delay, doubled after each (default 1000)
    std::string caFile;                    ///< https: the CA (PEM file) to trust instead of the system's
    int64_t dropAnswers = 0;  ///< fault: the answers to the next this many event POSTs are lost (retried)
  };
  /// One POST of a delivery.
  struct WebhookAttempt {
    std::string signatureTimestamp;  ///< the X-Signature-Timestamp it carried
    int status = 0;                  ///< the answer's status; 0 when none came
    std::string error;               ///< why it failed; empty when it succeeded or is in flight
  };
  /// One event (or the URL's PING) on its way, as GET /_emulator/applications/{id}/webhook-events lists it.
  struct WebhookDelivery {
    std::string eventType;  ///< "PING" for the URL check
    std::string state;      ///< "pending", "sending", "delivered" or "failed" (after 5 attempts)
    std::string body;       ///< the exact bytes POSTed at every attempt
    std::vector<WebhookAttempt> attempts;  ///< the POSTs made so far
  };
  /// Sets the URL after the emulator's signed PING to it was answered 204; throws with the emulator's reason
  /// when the URL is refused (not loopback, PING not answered 204).
  void SetWebhookEvents(uint64_t appId, const WebhookEventsConfig& config);

  /// Interactions (tools/emulator/README.md, "Interactions"): the admin API plays a user, and each call
  /// returns once the application gave its initial response, or failed to within 3 s of the fake clock.
  struct InteractionOutcome {
    uint64_t interactionId = 0;       ///< the interaction's id
    std::string token;                ///< its token (the webhook routes' for 15 minutes)
    int type = 0;                     ///< 2 command, 3 component, 4 autocomplete, 5 modal submit
    std::optional<int> responseType;  ///< the initial response's callback type; none when it failed
    std::string responseJson;         ///< the initial response {type, data?} as the application sent it
    uint64_t messageId = 0;           ///< the message the response made or updated; 0 if none
    std::string error;                ///< why it failed (no response in time, an answer refused...)
  };
  /// A user invoking one of the application's commands.
  struct CommandInvocation {
    uint64_t userId = 0;        ///< who invokes it
    uint64_t channelId = 0;     ///< a guild channel or a DM; 0: the user's DM with the application's bot
    std::string name;           ///< the command's name (with `type`), or give `commandId`
    uint64_t commandId = 0;     ///< the command's id, instead of `name`
    int type = 1;               ///< with `name`: 1 CHAT_INPUT, 2 USER, 3 MESSAGE, 4 PRIMARY_ENTRY_POINT
    std::string optionsJson;    ///< the options as the platform's client sends them: [{"name", "value"}]
    uint64_t targetId = 0;      ///< USER and MESSAGE commands: the user or message
    bool autocomplete = false;  ///< an autocomplete request: one option has "focused": true
    /// Files the user attaches, [{"filename", "size", "content_type"?}]: ATTACHMENT options name them by
    /// index.
    std::string attachmentsJson;
    std::string locale;  ///< the user's language (default en-US)
  };
  /// Invokes a command; throws when the emulator refuses the invocation (an unknown command, a context it is
  /// not allowed in, options the client would not send).
  InteractionOutcome InvokeCommand(uint64_t appId, const CommandInvocation& invocation);
  /// Clicks a button (no `values`) or chooses in a select of one of the application's messages.
  InteractionOutcome UseComponent(uint64_t appId, uint64_t userId, uint64_t channelId, uint64_t messageId,
                                  const std::string& customId, const std::vector<std::string>& values = {});
  /// Submits the modal that `interactionId` was answered with: `valuesJson` {"custom_id": value} (a string,
  /// an array of values, or a checkbox's boolean), `attachmentsJson` {"custom_id": [{"filename", "size"}]}
  /// for File Uploads.
  InteractionOutcome SubmitModal(uint64_t appId, uint64_t interactionId, const std::string& valuesJson,
                                 const std::string& attachmentsJson = {});
  /// Sets the application's interactions endpoint URL once it refused a forged signature (401) and answered
  /// the signed PING with type 1; an empty `url` sends interactions to the bot's Gateway session again.
  /// Throws with the emulator's reason when the URL is refused.
  void SetInteractionsEndpoint(uint64_t appId, const std::string& url, const std::string& caFile = {});
  /// The application's deliveries, oldest first.
  std::vector<WebhookDelivery> WebhookDeliveries(uint64_t appId);
  /// The user removes the application from their authorized apps: its tokens die (a refresh gets
  /// invalid_grant), game accounts linked through it are severed, and APPLICATION_DEAUTHORIZED is sent.
  void RemoveApplication(uint64_t userId, uint64_t appId);
  /// Removes every fault.
  void ClearFaults();
  /// A rate-limit rule: API routes matching `route` ("<METHOD> <path>") share one bucket of `limit`
  /// requests per `window`. A rule with the same route text is replaced; the latest matching rule wins.
  void SetRateLimit(const std::string& route, int limit, std::chrono::milliseconds window);
  /// Sets the global rate limit: requests per second per identity, every route together (default 50).
  void SetGlobalRateLimit(int perSecond);
  /// Restores the default rate limits (50 requests per 1000 ms per route, 50 per second globally).
  void ResetRateLimits();
  /// The Social SDK development rate limits (lobbies, messages, DMs): on by default; off for load tests.
  void SetSocialRateLimits(bool enabled);
  /// Voice media: faults on every datagram the forwarding unit sends from now on (POST
  /// /_emulator/voice/udp-faults). Loss and reorder in percent (0 to 100); each datagram delayed by 0 to
  /// `jitterMs` (at most 10000). The same seed makes the same decisions for the same traffic.
  void SetVoiceUdpFaults(double lossPercent, double reorderPercent, int64_t jitterMs, uint64_t seed = 1);
  /// Ends the voice UDP faults (a packet held back for reordering is released).
  void ClearVoiceUdpFaults();

  /// The emulator's stored data (docs/emulator-state.md): documents per kind (GET /_emulator/state).
  std::map<std::string, int64_t> StateCounts();
  /// Every stored document and the clock as one JSON snapshot (tokens and keys included), to seed another
  /// emulator or a later run with ImportState.
  std::string ExportState();
  /// Replaces everything with a snapshot from ExportState, all or nothing (throws with the emulator's
  /// reason when it is refused). Every Gateway session ends: clients identify again into the new data.
  void ImportState(const std::string& snapshot);
  /// Forgets every account, token, relationship, lobby and message (the clock goes on).
  void ResetState();

  /// What the scenario (Options::scenario) named, as a scenario refers to it: "alice" is the id of the
  /// answer named alice, "alice_token.access_token" a member of one. Numbers and booleans as JSON writes
  /// them. Throws when the emulator runs no scenario or the answer has no such member.
  std::string ScenarioValue(const std::string& reference);
  /// ScenarioValue(name) as an id.
  uint64_t ScenarioId(const std::string& name);
  /// Whether the emulator runs a scenario that named an answer `name` (false without a scenario).
  bool HasScenarioName(const std::string& name);
  /// The application the scenario made and named `name` (its `POST /apps` answer), as CreateApp returns it.
  App ScenarioApp(const std::string& name);
  /// The user the scenario made and named `name` (its `POST /users` answer), as CreateUser returns it.
  User ScenarioUser(const std::string& name);
  /// The scenario's report (GET /_emulator/scenario): its names with their answers, and each timeline
  /// step with whether and when it ran and its answer's status.
  std::string ScenarioStatus();

  /// IPC: the stand-in's state.
  IpcState IpcStatus();
  /// Dispatches AUTHORIZE_REQUEST to every connection subscribed to it (of `appId` only, if set); returns how
  /// many got it.
  int RaiseAuthorizeRequest(std::optional<uint64_t> appId = std::nullopt);
  /// The desktop client quits: every IPC connection closes and the socket is removed. Idempotent.
  void DropIpc();
  /// The desktop client comes back on the same socket path. Idempotent.
  void RestoreIpc();
  /// Sends CLOSE {code, message} on every IPC connection, then closes them; the socket keeps listening.
  void CloseIpc(int code, const std::string& message);

  /// Gateway: a friendship (type 1 both ways); RELATIONSHIP_ADD goes to both users' sessions.
  void MakeFriends(uint64_t userId, uint64_t otherUserId);
  /// Shows a user who has no Gateway session to their friends as `status` ("online", "idle" or "dnd";
  /// "offline" or "invisible" ends it) with `activitiesJson` (a JSON array of activities, each with a name
  /// and a type 0, 2, 3 or 5): a friend who comes online without a Client. Friends' sessions get
  /// PRESENCE_UPDATE. Returns its d (JSON).
  std::string SetPresence(uint64_t userId, const std::string& status,
                          const std::string& activitiesJson = "[]");
  /// Sets a user's name, avatar, guild tag or premium type; a visible change dispatches USER_UPDATE to the
  /// user and RELATIONSHIP_UPDATE to those with a relationship to them. Returns the user object (JSON).
  std::string SetUserProfile(uint64_t userId, const UserProfile& profile);
  /// Flags (or unflags) a user as a spammer: their friend requests arrive with is_spam_request.
  void FlagSpammer(uint64_t userId, bool spammer = true);
  /// Approves (or not) an application for identify.premium: its tokens with that scope see premium_type.
  void ApprovePremium(uint64_t appId, bool approved = true);
  /// Marks a game as claimed on the platform (or not, the default): only a claimed game may write its
  /// players' Game Stats Widget data (PUT /_emulator/applications/{id}/claimed).
  void SetGameClaimed(uint64_t appId, bool claimed = true);
  /// IPC: the player joins from the desktop client; ACTIVITY_JOIN {secret} goes to every connection
  /// subscribed to it (of `appId` only, if set). Returns how many got it.
  int RaiseActivityJoin(const std::string& secret, std::optional<uint64_t> appId = std::nullopt);
  /// The Gateway sessions the emulator holds, with their connection state and counters.
  std::vector<GatewaySession> GatewaySessions();
  /// Cuts the TCP connection(s) without a close frame; the sessions stay resumable. Returns how many.
  int DropGateway(const GatewayTarget& target);
  int DropGateway() { return DropGateway(GatewayTarget{}); }  ///< every connection
  /// Stops (or resumes) heartbeat ACKs, so the SDK sees a zombie connection. Returns how many.
  int StallGateway(const GatewayTarget& target, bool stalled = true);
  /// Closes with `code` (1000-4999) and `reason`. Returns how many.
  int CloseGateway(const GatewayTarget& target, int code, const std::string& reason = {});
  /// Sends op 7 Reconnect; later dispatches wait for the resume. Returns how many.
  int ReconnectGateway(const GatewayTarget& target);
  int ReconnectGateway() { return ReconnectGateway(GatewayTarget{}); }  ///< every connection
  /// Sends op 9 with d = `resumable`; false ends the session. Returns how many.
  int InvalidateGateway(const GatewayTarget& target, bool resumable);
  /// Sends a server op 1 (asks for an immediate heartbeat). Returns how many.
  int RequestHeartbeat(const GatewayTarget& target);
  int RequestHeartbeat() { return RequestHeartbeat(GatewayTarget{}); }  ///< every connection
  /// The heartbeat_interval sent in Hello to new connections.
  void SetHeartbeatInterval(std::chrono::milliseconds interval);
  /// Changes the Gateway's tunables; with `limits.reset` restores the defaults and forgets identify counts.
  void SetGatewayLimits(const GatewayLimits& limits);
  /// A dispatch `t` with `dJson` (JSON text) to every session of the user, sequenced like any other;
  /// returns the s it got in each session.
  std::vector<int64_t> InjectDispatch(uint64_t userId, const std::string& t, const std::string& dJson);

  /// One voice gateway session (GET /_emulator/voice/sessions).
  struct VoiceSession {
    uint64_t userId = 0;            ///< the user in the call
    uint64_t lobbyId = 0;           ///< the lobby whose call it is
    std::string sessionId;          ///< the main Gateway session that joined the call
    uint32_t ssrc = 0;              ///< the RTP SSRC Ready assigned
    std::string mode;               ///< the selected transport mode; empty before Select Protocol
    bool connected = false;         ///< has a live voice gateway connection (else resumable for the window)
    std::string mediaAddress;       ///< "ip:port" from Select Protocol; empty before it
    uint64_t packetsReceived = 0;   ///< RTP packets from this session the forwarding unit could open
    uint64_t packetsForwarded = 0;  ///< packets of other sessions forwarded to this one
    uint64_t packetsRejected = 0;   ///< packets from this session dropped as tampered, replayed or too short
    /// Of the packets from this session, what the forwarding unit sees without a key: payloads ending with
    /// the DAVE frame marker (end-to-end encrypted) and payloads that are Opus in clear (not silence).
    uint64_t payloadsE2ee = 0;
    uint64_t payloadsClear = 0;  ///< see payloadsE2ee
  };
  /// The voice gateway's tunables (POST /_emulator/voice/settings), for later Hellos and Readys; unset
  /// fields keep their value.
  struct VoiceSettings {
    std::optional<std::vector<std::string>>
        modes{};                                   ///< what Ready offers (deprecated ones are still refused)
    std::optional<int64_t> heartbeatIntervalMs{};  ///< Hello's heartbeat interval, 10 to 3600000 ms
    std::optional<int64_t> resumeWindowMs{};       ///< real time a dropped voice session stays resumable
    std::optional<int64_t> bufferSize{};           ///< server messages kept per voice session for resume
    /// End-to-end encryption: "by_date" (required from 1 March 2026 on the fake clock, the default),
    /// "required" or "optional". Requiring it ends the calls of clients that cannot do DAVE (4017).
    std::optional<std::string> e2ee{};
    std::optional<int64_t> daveTransitionTimeoutMs{};  ///< a DAVE transition executes after it anyway
    bool reset = false;                                ///< back to the platform's defaults (applied instead)
  };
  /// A lobby call as the voice gateway's DAVE external sender sees it (GET /_emulator/voice/calls).
  struct VoiceCall {
    uint64_t lobbyId = 0;                 ///< the lobby whose call it is
    int daveProtocolVersion = 0;          ///< 1: end-to-end encrypted (DAVE), 0: transport encryption only
    bool established = false;             ///< the MLS group exists (its first commit was announced)
    uint64_t epoch = 0;                   ///< the MLS group's current epoch
    std::map<uint64_t, uint32_t> leaves;  ///< each member's leaf in the group, by user id
    uint64_t pendingTransitions = 0;      ///< transitions announced and not executed yet
    /// Commits accepted (each one starts a new epoch).
    uint64_t commitsAccepted = 0, commitsRefused = 0, welcomesSent = 0, invalidReports = 0;
    /// Transitions executed, on time or not.
    uint64_t transitionsExecuted = 0, transitionsTimedOut = 0;
    /// New groups whose Adds went out after `dave_new_group_wait_ms` without every member's key package.
    uint64_t newGroupWaitsExpired = 0;
    /// \var commitsRefused
    /// Commits dropped: unreadable or breaking the rules of docs/dave.md.
    /// \var welcomesSent
    /// Welcome messages sent to added members.
    /// \var invalidReports
    /// Members' reports of an invalid commit or welcome (op 31); each such member starts over.
    /// \var transitionsTimedOut
    /// Transitions executed after the timeout rather than once every member said ready.
  };
  /// Every lobby call as DAVE's external sender sees it.
  std::vector<VoiceCall> VoiceCalls();
  /// A DAVE protocol change in the lobby's call: "downgrade" (to transport encryption only, until
  /// "upgrade"; refused while E2EE is required), "upgrade", or "new_group" (members form a new MLS group).
  /// Whether it changed anything.
  bool DaveAction(uint64_t lobbyId, const std::string& action);
  /// Every voice gateway session, with its forwarding counters.
  std::vector<VoiceSession> VoiceSessions();
  /// Changes the voice gateway's tunables (or, with `settings.reset`, restores the defaults).
  void SetVoiceSettings(const VoiceSettings& settings);
  /// Cuts the user's voice gateway connection(s) (every one when `userId` is 0) without a close frame; the
  /// sessions stay resumable. Returns how many.
  int DropVoice(uint64_t userId = 0);
  /// Closes them with `code` (1000-4999): 4015 and codes below 4000 keep the sessions resumable, any other
  /// ends the voice session and the user's voice state. Returns how many.
  int CloseVoice(uint64_t userId, int code, const std::string& reason = {});
  /// Moves the user's calls (every call when `userId` is 0) to another voice server, as a failover does: a
  /// new token in LOBBY_VOICE_SERVER_UPDATE; the old voice session lives until its client leaves it. Returns
  /// how many voice states moved.
  int MoveVoice(uint64_t userId = 0);

  /// A guild channel's permission overwrite: a role's (type 0; the guild's id is \@everyone's role) or a
  /// member's (type 1). VIEW_CHANNEL is 1 << 10.
  struct ChannelOverwrite {
    uint64_t id = 0;     ///< the role's or the member's id
    int type = 0;        ///< 0 role, 1 member
    uint64_t allow = 0;  ///< permission bits added
    uint64_t deny = 0;   ///< permission bits removed (before `allow` is added)
  };
  /// A guild channel to create, or the changes to one (UpdateChannel leaves unset fields alone).
  struct ChannelSpec {
    std::optional<std::string> name{};   ///< 1 to 100 characters; needed to create
    std::optional<int> type{};           ///< 0 text (default), 2 voice, 4 category, 5, 13, 15, 16
    std::optional<int> position{};       ///< sort position (default 0)
    std::optional<uint64_t> parentId{};  ///< a category of the same guild; 0 clears it
    /// The channel's permission overwrites; on an update, they replace the list.
    std::optional<std::vector<ChannelOverwrite>> permissionOverwrites{};
    std::optional<std::string> topic{};  ///< 0 to 1024 characters
  };
  /// Guilds: a guild owned by `ownerId` (its first member); its \@everyone role has the guild's id.
  uint64_t CreateGuild(const std::string& name, uint64_t ownerId, const std::string& banner = {});
  /// Adds a member (or replaces a member's roles).
  void AddGuildMember(uint64_t guildId, uint64_t userId, const std::vector<uint64_t>& roleIds = {});
  /// A role with these permission bits; returns its id.
  uint64_t CreateRole(uint64_t guildId, const std::string& name, uint64_t permissions);
  /// Returns the channel's id; members' sessions get CHANNEL_CREATE (obfuscated where they cannot view it).
  uint64_t CreateChannel(uint64_t guildId, const ChannelSpec& channel);
  /// Changes a guild channel (`parentId` 0 clears its category); members' sessions get CHANNEL_UPDATE.
  void UpdateChannel(uint64_t guildId, uint64_t channelId, const ChannelSpec& changes);
  /// Deletes a guild channel; members' sessions get CHANNEL_DELETE.
  void DeleteChannel(uint64_t guildId, uint64_t channelId);

  /// Premium apps (tools/emulator/README.md, "Premium apps"; docs/premium-protocol.md). SKU types.
  enum class SkuType { Durable = 2, Consumable = 3, Subscription = 5 };
  /// \var Durable
  /// A one-time purchase the user keeps.
  /// \var Consumable
  /// A one-time purchase the game consumes (BackendClient::ConsumeEntitlement).
  /// \var Subscription
  /// A subscription, renewed every period (30 days of the fake clock).

  /// One SKU to publish.
  struct SkuSpec {
    std::string name;                 ///< 1 to 100 characters
    SkuType type = SkuType::Durable;  ///< what it sells
  };
  /// What a purchase (or a legacy subscription) created.
  struct PurchaseResult {
    std::vector<uint64_t> entitlementIds;  ///< the entitlements it created
    uint64_t subscriptionId = 0;           ///< 0 for a one-time item
    std::string json;                      ///< the admin answer as it came
  };
  /// What the desktop client's checkout does with the next purchases (START_PURCHASE and Purchase).
  enum class PurchaseFlow { Complete, Cancel, Fail };
  /// \var Complete
  /// The purchase goes through (the default).
  /// \var Cancel
  /// The user cancels it: START_PURCHASE error 5005; Purchase throws.
  /// \var Fail
  /// It fails: START_PURCHASE error 5006; Purchase throws.

  /// Publishes SKUs for the application (several subscription SKUs allowed); returns their ids in order.
  std::vector<uint64_t> CreateSkus(uint64_t appId, const std::vector<SkuSpec>& skus);
  /// Publishes one SKU; returns its id.
  uint64_t CreateSku(uint64_t appId, const std::string& name, SkuType type);
  /// The user buys the SKU through the checkout START_PURCHASE uses (so the purchase-flow outcome applies:
  /// cancel and fail throw, as does an SKU already owned).
  PurchaseResult Purchase(uint64_t appId, uint64_t userId, uint64_t skuId);
  /// What the application's next checkouts do, until changed.
  void SetPurchaseFlow(uint64_t appId, PurchaseFlow outcome);
  /// Subscription lifecycle; each returns the subscription object (JSON) afterwards. Cancel: ENDING until the
  /// period's end. End: INACTIVE now. Renew: the renewal the fake clock would do, now. ChangePlan: upgrade or
  /// downgrade to `skuId`, effective at the renewal.
  std::string CancelSubscription(uint64_t appId, uint64_t subscriptionId);
  /// Ends an active or ending subscription now (INACTIVE); returns it (JSON).
  std::string EndSubscription(uint64_t appId, uint64_t subscriptionId);
  /// Renews an active subscription now, as the fake clock would at the period's end; returns it (JSON).
  std::string RenewSubscription(uint64_t appId, uint64_t subscriptionId);
  /// Moves an active subscription to `skuId` from its next renewal; returns it (JSON).
  std::string ChangePlan(uint64_t appId, uint64_t subscriptionId, uint64_t skuId);
  /// A subscription as before the 2024 migration: its entitlement is type 8 with ends_at set.
  PurchaseResult CreateLegacySubscription(uint64_t appId, uint64_t userId, uint64_t skuId);
  /// Migrates a legacy entitlement (same id, type 1, ends_at null, ENTITLEMENT_CREATE); returns it (JSON).
  std::string MigrateEntitlement(uint64_t appId, uint64_t entitlementId);
  /// {purchase_flow, skus, entitlements, subscriptions} of the application (JSON).
  std::string PremiumState(uint64_t appId);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ConnectionInfo connection_;
};

}  // namespace platformpp::testkit
