#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "json/json.hpp"
#include "net/http_client.hpp"
#include "net/url.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

extern char** environ;

namespace platformpp::testkit {
namespace {

std::string RequireString(const json::Document& document, const char* name, const std::string& where) {
  auto value = json::GetString(document, name);
  if (!value) throw std::runtime_error(where + ": missing string field '" + name + "'");
  return std::string(*value);
}

json::Document ParseOrThrow(const std::string& text, const std::string& where) {
  json::Document document;
  std::string error;
  if (!json::Parse(text, document, &error) || !document.IsObject()) {
    throw std::runtime_error(where + ": invalid JSON (" + error + "): " + text.substr(0, 200));
  }
  return document;
}

// Minimal JSON object builder for admin request bodies.
class JsonObject {
 public:
  JsonObject() { writer_.StartObject(); }
  JsonObject& Add(const char* key, const std::string& value) {
    writer_.Key(key);
    writer_.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
    return *this;
  }
  JsonObject& Add(const char* key, int64_t value) {
    writer_.Key(key);
    writer_.Int64(value);
    return *this;
  }
  JsonObject& Add(const char* key, double value) {
    writer_.Key(key);
    writer_.Double(value);
    return *this;
  }
  JsonObject& Add(const char* key, bool value) {
    writer_.Key(key);
    writer_.Bool(value);
    return *this;
  }
  /// `json` must be valid JSON text.
  JsonObject& AddRaw(const char* key, const std::string& json) {
    writer_.Key(key);
    writer_.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
    return *this;
  }
  std::string Done() {
    writer_.EndObject();
    return std::string(buffer_.GetString(), buffer_.GetSize());
  }

 private:
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_{buffer_};
};

std::string FindBinary(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("PLATFORMPP_EMULATOR"); env && *env) return env;
  return "platformpp-emulator";
}

}  // namespace

ConnectionInfo ConnectionInfo::Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read connection file " + path);
  std::stringstream text;
  text << in.rdbuf();
  json::Document document = ParseOrThrow(text.str(), path);
  ConnectionInfo info;
  info.apiBase = RequireString(document, "api_base", path);
  info.gatewayUrl = RequireString(document, "gateway_url", path);
  info.adminBase = RequireString(document, "admin_base", path);
  info.webBase = json::GetString(document, "web_base").value_or("");
  info.caFile = json::GetString(document, "ca_file").value_or("");
  info.ipcPath = json::GetString(document, "ipc_path").value_or("");
  info.ipcName = json::GetString(document, "ipc_name").value_or("");
  info.ipcDirectory = json::GetString(document, "ipc_dir").value_or("");
  info.port = static_cast<int>(json::GetInt(document, "port").value_or(0));
  info.tls = info.apiBase.rfind("https://", 0) == 0;
  if (info.tls && info.caFile.empty()) throw std::runtime_error(path + ": TLS without a ca_file");
  return info;
}

ClientOptions ConnectionInfo::ClientOptionsFor() const {
  ClientOptions options;
  options.apiBase = apiBase;
  options.caFile = caFile;
  if (!webBase.empty()) options.webBase = webBase;
  if (!ipcName.empty()) options.ipcName = ipcName;
  if (!ipcDirectory.empty()) options.ipcDirectory = ipcDirectory;
  return options;
}

std::unique_ptr<EmulatorProcess> EmulatorProcess::Start(Options options) {
  std::unique_ptr<EmulatorProcess> process(new EmulatorProcess());
  std::string base = (std::filesystem::temp_directory_path() / "platformpp-emulator-XXXXXX").string();
  if (!::mkdtemp(base.data()))
    throw std::runtime_error(std::string("mkdtemp failed: ") + std::strerror(errno));
  process->dataDir_ = base;
  process->connectionFile_ = base + "/connection.json";
  // Private: it holds the IPC socket, which must be reachable by this user only.
  if (::chmod(base.c_str(), 0700) != 0)
    throw std::runtime_error("chmod " + base + " failed: " + std::strerror(errno));

  std::string binary = FindBinary(options.binary);
  std::vector<std::string> args = {binary,       "--port", "0", "--connection-file", process->connectionFile_,
                                   "--data-dir", base};
  if (options.plainHttp) args.push_back("--plain-http");
  if (options.ipc) {
    args.insert(args.end(), {"--ipc-dir", base, "--ipc-name", options.ipcName});
  } else {
    args.push_back("--no-ipc");
  }
  args.insert(args.end(), options.extraArguments.begin(), options.extraArguments.end());
  std::vector<char*> argv;
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  std::string log = base + "/emulator.log";
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + binary + ": " + std::strerror(rc));
  process->pid_ = pid;

  auto deadline = std::chrono::steady_clock::now() + options.startTimeout;
  while (!std::filesystem::exists(process->connectionFile_)) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      process->pid_ = -1;
      std::ifstream in(log);
      std::stringstream text;
      text << in.rdbuf();
      throw std::runtime_error("the emulator exited before it was ready: " + text.str());
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("the emulator did not start in time");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  process->connection_ = ConnectionInfo::Load(process->connectionFile_);
  return process;
}

EmulatorProcess::~EmulatorProcess() {
  Stop();
  std::error_code ignored;
  if (!dataDir_.empty()) std::filesystem::remove_all(dataDir_, ignored);
}

int EmulatorProcess::Stop() {
  if (pid_ <= 0) return exitStatus_;
  ::kill(pid_, SIGTERM);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return exitStatus_;
}

struct EmulatorAdmin::Impl {
  std::shared_ptr<IoContext> io = std::make_shared<IoContext>(1);
  std::shared_ptr<core::CallbackQueue> queue = std::make_shared<core::CallbackQueue>();
  std::shared_ptr<core::Logger> logger = std::make_shared<core::Logger>(queue);
  std::unique_ptr<net::HttpClient> http;
};

EmulatorAdmin::EmulatorAdmin(ConnectionInfo connection)
    : impl_(std::make_unique<Impl>()), connection_(std::move(connection)) {
  net::HttpClientOptions options;
  options.caFile = connection_.caFile;
  options.useSystemCertificates = false;
  options.userAgent = "platformpp-testkit";
  options.timeout = std::chrono::milliseconds(10000);
  impl_->http = std::make_unique<net::HttpClient>(*impl_->io, impl_->logger, options);
}

EmulatorAdmin::~EmulatorAdmin() {
  impl_->http->Shutdown();
  impl_->queue->Shutdown();
}

EmulatorAdmin::Response EmulatorAdmin::Request(const std::string& method, const std::string& path,
                                               const std::string& jsonBody) {
  net::HttpRequest request;
  request.method = method;
  request.url = connection_.adminBase + path;
  request.body = jsonBody;
  if (!jsonBody.empty()) request.contentType = "application/json";
  auto promise = std::make_shared<std::promise<net::HttpResponse>>();
  auto future = promise->get_future();
  impl_->http->Send(std::move(request),
                    [promise](net::HttpResponse response) { promise->set_value(std::move(response)); });
  net::HttpResponse response = future.get();
  if (!response.transport.Successful()) {
    throw std::runtime_error("emulator admin " + method + " " + path + ": " + response.transport.ToString());
  }
  return {response.status, std::move(response.body)};
}

namespace {

json::Document Expect(EmulatorAdmin::Response response, int status, const std::string& what) {
  if (response.status != status) {
    throw std::runtime_error(what + ": HTTP " + std::to_string(response.status) + ": " + response.body);
  }
  if (response.body.empty()) return json::Document(rapidjson::kObjectType);
  return ParseOrThrow(response.body, what);
}

uint64_t RequireSnowflake(const json::Document& document, const char* name, const std::string& where) {
  auto value = json::GetSnowflake(document, name);
  if (!value) throw std::runtime_error(where + ": missing snowflake '" + name + "'");
  return *value;
}

}  // namespace

bool EmulatorAdmin::Healthy() {
  try {
    return Request("GET", "/health").status == 200;
  } catch (const std::exception&) {
    return false;
  }
}

int64_t EmulatorAdmin::ConnectionsAccepted() {
  auto document = Expect(Request("GET", "/health"), 200, "health");
  auto count = json::GetInt(document, "connections_accepted");
  if (!count) throw std::runtime_error("health: missing connections_accepted");
  return *count;
}

EmulatorAdmin::App EmulatorAdmin::CreateApp(const std::string& name) {
  auto document = Expect(Request("POST", "/apps", JsonObject().Add("name", name).Done()), 200, "create app");
  return {RequireSnowflake(document, "id", "create app"),
          RequireString(document, "client_secret", "create app"),
          RequireString(document, "bot_token", "create app")};
}

EmulatorAdmin::User EmulatorAdmin::CreateUser(const std::string& username, const std::string& globalName) {
  JsonObject body;
  body.Add("username", username);
  if (!globalName.empty()) body.Add("global_name", globalName);
  auto document = Expect(Request("POST", "/users", body.Done()), 200, "create user");
  return {RequireSnowflake(document, "id", "create user"),
          RequireString(document, "username", "create user")};
}

EmulatorAdmin::Token EmulatorAdmin::MintToken(uint64_t userId, uint64_t appId, const std::string& scopes) {
  std::string body = JsonObject()
                         .Add("user_id", std::to_string(userId))
                         .Add("app_id", std::to_string(appId))
                         .Add("scopes", scopes)
                         .Done();
  auto document = Expect(Request("POST", "/tokens", body), 200, "mint token");
  return {RequireString(document, "access_token", "mint token"),
          RequireString(document, "refresh_token", "mint token"),
          json::GetInt(document, "expires_in").value_or(0)};
}

int64_t EmulatorAdmin::ClockMs() {
  auto document = Expect(Request("GET", "/clock"), 200, "clock");
  auto now = json::GetInt(document, "now_ms");
  if (!now) throw std::runtime_error("clock: missing now_ms");
  return *now;
}

void EmulatorAdmin::AdvanceClock(std::chrono::milliseconds by) {
  Expect(Request("POST", "/clock", JsonObject().Add("advance_ms", static_cast<int64_t>(by.count())).Done()),
         200, "advance clock");
}

std::string EmulatorAdmin::AddFault(const Fault& fault) {
  JsonObject body;
  body.Add("route", fault.route);
  if (fault.status) body.Add("status", static_cast<int64_t>(*fault.status));
  if (fault.retryAfter) body.Add("retry_after", *fault.retryAfter);
  if (fault.global) body.Add("global", *fault.global);
  if (fault.delayMs) body.Add("delay_ms", static_cast<int64_t>(*fault.delayMs));
  if (fault.drop) body.Add("drop", *fault.drop);
  if (fault.dropAfter) body.Add("drop_after", *fault.dropAfter);
  if (fault.truncate) body.Add("truncate", *fault.truncate);
  if (fault.body) body.Add("body", *fault.body);
  if (fault.contentType) body.Add("content_type", *fault.contentType);
  if (fault.count) body.Add("count", static_cast<int64_t>(*fault.count));
  auto document = Expect(Request("POST", "/faults", body.Done()), 200, "add fault");
  return std::string(json::GetString(document, "id").value_or(""));
}

void EmulatorAdmin::SetConsent(uint64_t userId, bool deny) {
  Expect(Request("POST", "/consent",
                 JsonObject().Add("user_id", std::to_string(userId)).Add("deny", deny).Done()),
         200, "set consent");
}

std::string EmulatorAdmin::Authorize(uint64_t appId, const std::string& scopes,
                                     const std::string& redirectUri, const std::string& codeChallenge,
                                     const std::string& state) {
  std::string query = "?response_type=code&client_id=" + std::to_string(appId) +
                      "&scope=" + net::UrlEncode(scopes) + "&redirect_uri=" + net::UrlEncode(redirectUri) +
                      "&code_challenge=" + net::UrlEncode(codeChallenge) + "&code_challenge_method=S256";
  if (!state.empty()) query += "&state=" + net::UrlEncode(state);
  auto document = Expect(Request("GET", "/authorize" + query), 200, "authorize");
  return RequireString(document, "location", "authorize");
}

int EmulatorAdmin::Browse(const std::string& url) {
  std::string next = url;
  for (int hop = 0; hop < 5; ++hop) {
    net::HttpRequest request;
    request.url = next;
    auto promise = std::make_shared<std::promise<net::HttpResponse>>();
    auto future = promise->get_future();
    impl_->http->Send(std::move(request),
                      [promise](net::HttpResponse r) { promise->set_value(std::move(r)); });
    net::HttpResponse response = future.get();
    if (!response.transport.Successful())
      throw std::runtime_error("browse " + next + ": " + response.transport.ToString());
    if (response.status < 300 || response.status >= 400) return response.status;
    next = std::string(response.Header("Location"));
    if (next.empty()) return response.status;
  }
  throw std::runtime_error("browse: too many redirects");
}

std::string EmulatorAdmin::CodeFromRedirect(const std::string& location) {
  std::size_t query = location.find('?');
  if (query == std::string::npos) return {};
  std::string_view rest = std::string_view(location).substr(query + 1);
  while (!rest.empty()) {
    std::size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    if (pair.substr(0, 5) == "code=") return std::string(pair.substr(5));
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return {};
}

void EmulatorAdmin::Ban(uint64_t userId, bool permanent) {
  Expect(Request("POST", "/users/" + std::to_string(userId) + "/ban",
                 JsonObject().Add("permanent", permanent).Done()),
         200, "ban");
}

void EmulatorAdmin::Unban(uint64_t userId) {
  auto response = Request("DELETE", "/users/" + std::to_string(userId) + "/ban");
  if (response.status != 204 && response.status != 200) throw std::runtime_error("unban: " + response.body);
}

void EmulatorAdmin::DeleteToken(const std::string& token) {
  auto response = Request("DELETE", "/tokens/" + net::UrlEncode(token));
  if (response.status != 204 && response.status != 200)
    throw std::runtime_error("delete token: " + response.body);
}

void EmulatorAdmin::ClearFaults() {
  auto response = Request("DELETE", "/faults");
  if (response.status != 204 && response.status != 200)
    throw std::runtime_error("clear faults: " + response.body);
}

void EmulatorAdmin::SetRateLimit(const std::string& route, int limit, std::chrono::milliseconds window) {
  Expect(Request("POST", "/ratelimits",
                 JsonObject()
                     .Add("route", route)
                     .Add("limit", static_cast<int64_t>(limit))
                     .Add("window_ms", static_cast<int64_t>(window.count()))
                     .Done()),
         200, "set rate limit");
}

void EmulatorAdmin::SetGlobalRateLimit(int perSecond) {
  Expect(Request("POST", "/ratelimits",
                 JsonObject().Add("global_per_second", static_cast<int64_t>(perSecond)).Done()),
         200, "set global rate limit");
}

void EmulatorAdmin::ResetRateLimits() {
  auto response = Request("DELETE", "/ratelimits");
  if (response.status != 204 && response.status != 200)
    throw std::runtime_error("reset rate limits: " + response.body);
}

void EmulatorAdmin::SetSocialRateLimits(bool enabled) {
  Expect(Request("POST", "/social-rate-limits", JsonObject().Add("enabled", enabled).Done()), 200,
         "set social rate limits");
}

void EmulatorAdmin::SetVoiceUdpFaults(double lossPercent, double reorderPercent, int64_t jitterMs,
                                      uint64_t seed) {
  Expect(Request("POST", "/voice/udp-faults",
                 JsonObject()
                     .Add("loss_percent", lossPercent)
                     .Add("reorder_percent", reorderPercent)
                     .Add("jitter_ms", jitterMs)
                     .AddRaw("seed", std::to_string(seed))  // a u64: beyond what Add(int64_t) holds
                     .Done()),
         200, "set voice UDP faults");
}

void EmulatorAdmin::ClearVoiceUdpFaults() {
  auto response = Request("DELETE", "/voice/udp-faults");
  if (response.status != 204) throw std::runtime_error("clear voice UDP faults: " + response.body);
}

EmulatorAdmin::IpcState EmulatorAdmin::IpcStatus() {
  auto document = Expect(Request("GET", "/ipc"), 200, "ipc status");
  IpcState state;
  state.listening = json::GetBool(document, "listening").value_or(false);
  state.path = std::string(json::GetString(document, "path").value_or(""));
  state.handshakes = json::GetInt(document, "handshakes").value_or(0);
  if (const json::Value* connections = json::Member(document, "connections");
      connections && connections->IsArray()) {
    for (const auto& entry : connections->GetArray()) {
      if (!entry.IsObject()) continue;
      IpcConnection connection;
      connection.clientId = json::GetSnowflake(entry, "client_id").value_or(0);
      if (const json::Value* events = json::Member(entry, "subscriptions"); events && events->IsArray()) {
        for (const auto& event : events->GetArray()) {
          if (event.IsString())
            connection.subscriptions.emplace_back(event.GetString(), event.GetStringLength());
        }
      }
      if (const json::Value* activity = json::Member(entry, "activity"); activity && activity->IsObject()) {
        connection.activityJson = json::Serialize(*activity);
      }
      state.connections.push_back(std::move(connection));
    }
  }
  return state;
}

int EmulatorAdmin::RaiseAuthorizeRequest(std::optional<uint64_t> appId) {
  std::string body;
  if (appId) body = JsonObject().Add("application_id", std::to_string(*appId)).Done();
  auto document = Expect(Request("POST", "/ipc/authorize-request", body), 200, "raise authorize request");
  return static_cast<int>(json::GetInt(document, "delivered").value_or(0));
}

void EmulatorAdmin::DropIpc() {
  Expect(Request("POST", "/ipc/drop"), 200, "drop ipc");
}

void EmulatorAdmin::RestoreIpc() {
  Expect(Request("POST", "/ipc/restore"), 200, "restore ipc");
}

void EmulatorAdmin::CloseIpc(int code, std::string message) {
  Expect(Request("POST", "/ipc/close",
                 JsonObject().Add("code", static_cast<int64_t>(code)).Add("message", message).Done()),
         200, "close ipc");
}

namespace {

// `body` (which may hold other members already) plus the target's members.
std::string GatewayTargetBody(const EmulatorAdmin::GatewayTarget& target, JsonObject& body) {
  if (!target.sessionId.empty()) body.Add("session_id", target.sessionId);
  if (target.userId != 0) body.Add("user_id", std::to_string(target.userId));
  return body.Done();
}

std::string GatewayTargetBody(const EmulatorAdmin::GatewayTarget& target) {
  JsonObject body;
  return GatewayTargetBody(target, body);
}

int ConnectionCount(const json::Document& document) {
  return static_cast<int>(json::GetInt(document, "connections").value_or(0));
}

}  // namespace

void EmulatorAdmin::MakeFriends(uint64_t userId, uint64_t otherUserId) {
  Expect(Request("POST", "/friendships",
                 JsonObject()
                     .Add("user_id", std::to_string(userId))
                     .Add("other_user_id", std::to_string(otherUserId))
                     .Done()),
         200, "make friends");
}

std::string EmulatorAdmin::SetUserProfile(uint64_t userId, const UserProfile& profile) {
  JsonObject body;
  const auto field = [&](const char* key, const std::optional<std::string>& value, bool clear) {
    if (clear) {
      body.AddRaw(key, "null");
    } else if (value) {
      body.Add(key, *value);
    }
  };
  field("global_name", profile.globalName, profile.clearGlobalName);
  field("avatar", profile.avatar, profile.clearAvatar);
  field("tag", profile.tag, profile.clearTag);
  field("identity_guild_id", profile.guildId, false);
  field("badge", profile.badge, false);
  if (profile.premiumType) body.Add("premium_type", static_cast<int64_t>(*profile.premiumType));
  const auto response = Request("POST", "/users/" + std::to_string(userId) + "/profile", body.Done());
  Expect(response, 200, "set user profile");
  return response.body;
}

void EmulatorAdmin::FlagSpammer(uint64_t userId, bool spammer) {
  Expect(Request("POST", "/users/" + std::to_string(userId) + "/spammer",
                 JsonObject().Add("spammer", spammer).Done()),
         200, "flag spammer");
}

void EmulatorAdmin::ApprovePremium(uint64_t appId, bool approved) {
  Expect(Request("POST", "/apps/" + std::to_string(appId) + "/premium",
                 JsonObject().Add("approved", approved).Done()),
         200, "approve premium");
}

int EmulatorAdmin::RaiseActivityJoin(const std::string& secret, std::optional<uint64_t> appId) {
  JsonObject body;
  body.Add("secret", secret);
  if (appId) body.Add("application_id", std::to_string(*appId));
  auto document = Expect(Request("POST", "/ipc/activity-join", body.Done()), 200, "raise activity join");
  return static_cast<int>(json::GetInt(document, "delivered").value_or(0));
}

std::vector<EmulatorAdmin::GatewaySession> EmulatorAdmin::GatewaySessions() {
  auto document = Expect(Request("GET", "/gateway/sessions"), 200, "gateway sessions");
  std::vector<GatewaySession> sessions;
  if (const json::Value* list = json::Member(document, "sessions"); list && list->IsArray()) {
    for (const auto& entry : list->GetArray()) {
      if (!entry.IsObject()) continue;
      GatewaySession session;
      session.sessionId = std::string(json::GetString(entry, "session_id").value_or(""));
      session.userId = json::GetSnowflake(entry, "user_id").value_or(0);
      session.applicationId = json::GetSnowflake(entry, "application_id").value_or(0);
      session.connected = json::GetBool(entry, "connected").value_or(false);
      session.resumable = json::GetBool(entry, "resumable").value_or(false);
      session.seq = json::GetInt(entry, "seq").value_or(0);
      session.compress = json::GetBool(entry, "compress").value_or(false);
      session.stalled = json::GetBool(entry, "stalled").value_or(false);
      session.heartbeatsReceived = json::GetInt(entry, "heartbeats_received").value_or(0);
      session.acksSent = json::GetInt(entry, "acks_sent").value_or(0);
      sessions.push_back(std::move(session));
    }
  }
  return sessions;
}

int EmulatorAdmin::DropGateway(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/drop", GatewayTargetBody(target)), 200, "drop gateway"));
}

int EmulatorAdmin::StallGateway(const GatewayTarget& target, bool stalled) {
  JsonObject body;
  body.Add("stalled", stalled);
  return ConnectionCount(
      Expect(Request("POST", "/gateway/stall", GatewayTargetBody(target, body)), 200, "stall gateway"));
}

int EmulatorAdmin::CloseGateway(const GatewayTarget& target, int code, const std::string& reason) {
  JsonObject body;
  body.Add("code", static_cast<int64_t>(code));
  if (!reason.empty()) body.Add("reason", reason);
  return ConnectionCount(
      Expect(Request("POST", "/gateway/close", GatewayTargetBody(target, body)), 200, "close gateway"));
}

int EmulatorAdmin::ReconnectGateway(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/reconnect", GatewayTargetBody(target)), 200, "reconnect gateway"));
}

int EmulatorAdmin::InvalidateGateway(const GatewayTarget& target, bool resumable) {
  JsonObject body;
  body.Add("resumable", resumable);
  return ConnectionCount(Expect(Request("POST", "/gateway/invalidate", GatewayTargetBody(target, body)), 200,
                                "invalidate gateway"));
}

int EmulatorAdmin::RequestHeartbeat(const GatewayTarget& target) {
  return ConnectionCount(
      Expect(Request("POST", "/gateway/heartbeat", GatewayTargetBody(target)), 200, "request heartbeat"));
}

void EmulatorAdmin::SetHeartbeatInterval(std::chrono::milliseconds interval) {
  Expect(Request("POST", "/gateway/heartbeat-interval",
                 JsonObject().Add("ms", static_cast<int64_t>(interval.count())).Done()),
         200, "set heartbeat interval");
}

void EmulatorAdmin::SetGatewayLimits(const GatewayLimits& limits) {
  JsonObject body;
  if (limits.heartbeatIntervalMs) body.Add("heartbeat_interval_ms", *limits.heartbeatIntervalMs);
  if (limits.zombieTimeoutFactor) body.Add("zombie_timeout_factor", *limits.zombieTimeoutFactor);
  if (limits.eventsPerWindow) body.Add("events_per_window", *limits.eventsPerWindow);
  if (limits.eventWindowMs) body.Add("event_window_ms", *limits.eventWindowMs);
  if (limits.identifyBudget) body.Add("identify_budget", *limits.identifyBudget);
  if (limits.identifyWindowMs) body.Add("identify_window_ms", *limits.identifyWindowMs);
  if (limits.resumeWindowMs) body.Add("resume_window_ms", *limits.resumeWindowMs);
  if (limits.bufferSize) body.Add("buffer_size", *limits.bufferSize);
  if (limits.maxPayloadBytes) body.Add("max_payload_bytes", *limits.maxPayloadBytes);
  if (limits.reset) body.Add("reset", true);
  Expect(Request("POST", "/gateway/limits", body.Done()), 200, "set gateway limits");
}

std::vector<int64_t> EmulatorAdmin::InjectDispatch(uint64_t userId, const std::string& t,
                                                   const std::string& dJson) {
  auto document = Expect(Request("POST", "/gateway/dispatch",
                                 JsonObject()
                                     .Add("user_id", std::to_string(userId))
                                     .Add("t", t)
                                     .AddRaw("d", dJson.empty() ? std::string("null") : dJson)
                                     .Done()),
                         200, "inject dispatch");
  std::vector<int64_t> seqs;
  if (const json::Value* list = json::Member(document, "sessions"); list && list->IsArray()) {
    for (const auto& entry : list->GetArray()) {
      if (entry.IsObject()) seqs.push_back(json::GetInt(entry, "s").value_or(0));
    }
  }
  return seqs;
}

std::vector<EmulatorAdmin::VoiceSession> EmulatorAdmin::VoiceSessions() {
  // The answer is a bare array (docs/voice-protocol.md), which Expect (objects only) refuses.
  const auto response = Request("GET", "/voice/sessions");
  if (response.status != 200) {
    throw std::runtime_error("voice sessions: HTTP " + std::to_string(response.status) + ": " +
                             response.body);
  }
  json::Document document;
  std::string error;
  if (!json::Parse(response.body, document, &error) || !document.IsArray()) {
    throw std::runtime_error("voice sessions: invalid JSON (" + error + "): " + response.body.substr(0, 200));
  }
  std::vector<VoiceSession> sessions;
  for (const auto& entry : document.GetArray()) {
    if (!entry.IsObject()) continue;
    VoiceSession session;
    session.userId = json::GetSnowflake(entry, "user_id").value_or(0);
    session.lobbyId = json::GetSnowflake(entry, "lobby_id").value_or(0);
    session.sessionId = std::string(json::GetString(entry, "session_id").value_or(""));
    session.ssrc = static_cast<uint32_t>(json::GetInt(entry, "ssrc").value_or(0));
    session.mode = std::string(json::GetString(entry, "mode").value_or(""));
    session.connected = json::GetBool(entry, "connected").value_or(false);
    session.mediaAddress = std::string(json::GetString(entry, "media_address").value_or(""));
    session.packetsReceived = static_cast<uint64_t>(json::GetInt(entry, "packets_received").value_or(0));
    session.packetsForwarded = static_cast<uint64_t>(json::GetInt(entry, "packets_forwarded").value_or(0));
    session.packetsRejected = static_cast<uint64_t>(json::GetInt(entry, "packets_rejected").value_or(0));
    session.payloadsE2ee = static_cast<uint64_t>(json::GetInt(entry, "payloads_e2ee").value_or(0));
    session.payloadsClear = static_cast<uint64_t>(json::GetInt(entry, "payloads_clear").value_or(0));
    sessions.push_back(std::move(session));
  }
  return sessions;
}

std::vector<EmulatorAdmin::VoiceCall> EmulatorAdmin::VoiceCalls() {
  const auto response = Request("GET", "/voice/calls");
  json::Document document;
  std::string error;
  if (response.status != 200 || !json::Parse(response.body, document, &error) || !document.IsArray()) {
    throw std::runtime_error("voice calls: HTTP " + std::to_string(response.status) + ": " +
                             response.body.substr(0, 200));
  }
  std::vector<VoiceCall> calls;
  for (const auto& entry : document.GetArray()) {
    if (!entry.IsObject()) continue;
    VoiceCall call;
    call.lobbyId = json::GetSnowflake(entry, "lobby_id").value_or(0);
    call.daveProtocolVersion = static_cast<int>(json::GetInt(entry, "dave_protocol_version").value_or(0));
    call.established = json::GetBool(entry, "established").value_or(false);
    call.epoch = static_cast<uint64_t>(json::GetInt(entry, "epoch").value_or(0));
    call.pendingTransitions = static_cast<uint64_t>(json::GetInt(entry, "pending_transitions").value_or(0));
    const auto leaves = entry.FindMember("leaves");
    if (leaves != entry.MemberEnd() && leaves->value.IsObject()) {
      for (const auto& leaf : leaves->value.GetObject()) {
        if (leaf.value.IsUint()) call.leaves[std::stoull(leaf.name.GetString())] = leaf.value.GetUint();
      }
    }
    const auto counters = entry.FindMember("counters");
    if (counters != entry.MemberEnd() && counters->value.IsObject()) {
      const auto& c = counters->value;
      const auto count = [&](const char* name) {
        return static_cast<uint64_t>(json::GetInt(c, name).value_or(0));
      };
      call.commitsAccepted = count("commits_accepted");
      call.commitsRefused = count("commits_refused");
      call.welcomesSent = count("welcomes_sent");
      call.invalidReports = count("invalid_reports");
      call.transitionsExecuted = count("transitions_executed");
      call.transitionsTimedOut = count("transitions_timed_out");
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

bool EmulatorAdmin::DaveAction(uint64_t lobbyId, const std::string& action) {
  JsonObject body;
  body.Add("lobby_id", std::to_string(lobbyId));
  body.Add("action", action);
  const auto document = Expect(Request("POST", "/voice/dave", body.Done()), 200, "DAVE " + action);
  return json::GetBool(document, "changed").value_or(false);
}

void EmulatorAdmin::SetVoiceSettings(const VoiceSettings& settings) {
  JsonObject body;
  if (settings.modes) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartArray();
    for (const auto& mode : *settings.modes)
      writer.String(mode.c_str(), static_cast<rapidjson::SizeType>(mode.size()));
    writer.EndArray();
    body.AddRaw("modes", std::string(buffer.GetString(), buffer.GetSize()));
  }
  if (settings.heartbeatIntervalMs) body.Add("heartbeat_interval_ms", *settings.heartbeatIntervalMs);
  if (settings.resumeWindowMs) body.Add("resume_window_ms", *settings.resumeWindowMs);
  if (settings.e2ee) body.Add("e2ee", *settings.e2ee);
  if (settings.daveTransitionTimeoutMs)
    body.Add("dave_transition_timeout_ms", *settings.daveTransitionTimeoutMs);
  if (settings.bufferSize) body.Add("buffer_size", *settings.bufferSize);
  if (settings.reset) body.Add("reset", true);
  Expect(Request("POST", "/voice/settings", body.Done()), 200, "set voice settings");
}

int EmulatorAdmin::DropVoice(uint64_t userId) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  return ConnectionCount(Expect(Request("POST", "/voice/drop", body.Done()), 200, "drop voice"));
}

int EmulatorAdmin::CloseVoice(uint64_t userId, int code, const std::string& reason) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  body.Add("code", static_cast<int64_t>(code));
  if (!reason.empty()) body.Add("reason", reason);
  return ConnectionCount(Expect(Request("POST", "/voice/close", body.Done()), 200, "close voice"));
}

int EmulatorAdmin::MoveVoice(uint64_t userId) {
  JsonObject body;
  if (userId != 0) body.Add("user_id", std::to_string(userId));
  const auto answer = Expect(Request("POST", "/voice/move", body.Done()), 200, "move voice");
  return static_cast<int>(json::GetInt(answer, "moved").value_or(-1));
}

namespace {

std::string ChannelBody(const EmulatorAdmin::ChannelSpec& channel) {
  JsonObject body;
  if (channel.name) body.Add("name", *channel.name);
  if (channel.type) body.Add("type", static_cast<int64_t>(*channel.type));
  if (channel.position) body.Add("position", static_cast<int64_t>(*channel.position));
  if (channel.parentId) {
    body.AddRaw("parent_id", *channel.parentId == 0 ? std::string("null")
                                                    : "\"" + std::to_string(*channel.parentId) + "\"");
  }
  if (channel.topic) body.Add("topic", *channel.topic);
  if (channel.permissionOverwrites) {
    std::string list = "[";
    for (const auto& overwrite : *channel.permissionOverwrites) {
      if (list.size() > 1) list += ",";
      list += JsonObject()
                  .Add("id", std::to_string(overwrite.id))
                  .Add("type", static_cast<int64_t>(overwrite.type))
                  .Add("allow", std::to_string(overwrite.allow))
                  .Add("deny", std::to_string(overwrite.deny))
                  .Done();
    }
    body.AddRaw("permission_overwrites", list + "]");
  }
  return body.Done();
}

}  // namespace

uint64_t EmulatorAdmin::CreateGuild(const std::string& name, uint64_t ownerId, const std::string& banner) {
  JsonObject body;
  body.Add("name", name).Add("owner_id", std::to_string(ownerId));
  if (!banner.empty()) body.Add("banner", banner);
  return RequireSnowflake(Expect(Request("POST", "/guilds", body.Done()), 200, "create guild"), "id",
                          "create guild");
}

void EmulatorAdmin::AddGuildMember(uint64_t guildId, uint64_t userId, const std::vector<uint64_t>& roleIds) {
  std::string roles = "[";
  for (const auto role : roleIds) {
    if (roles.size() > 1) roles += ",";
    roles += "\"" + std::to_string(role) + "\"";
  }
  Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/members",
                 JsonObject().Add("user_id", std::to_string(userId)).AddRaw("roles", roles + "]").Done()),
         200, "add guild member");
}

uint64_t EmulatorAdmin::CreateRole(uint64_t guildId, const std::string& name, uint64_t permissions) {
  return RequireSnowflake(
      Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/roles",
                     JsonObject().Add("name", name).Add("permissions", std::to_string(permissions)).Done()),
             200, "create role"),
      "id", "create role");
}

uint64_t EmulatorAdmin::CreateChannel(uint64_t guildId, const ChannelSpec& channel) {
  return RequireSnowflake(
      Expect(Request("POST", "/guilds/" + std::to_string(guildId) + "/channels", ChannelBody(channel)), 200,
             "create channel"),
      "id", "create channel");
}

void EmulatorAdmin::UpdateChannel(uint64_t guildId, uint64_t channelId, const ChannelSpec& changes) {
  Expect(Request("PATCH", "/guilds/" + std::to_string(guildId) + "/channels/" + std::to_string(channelId),
                 ChannelBody(changes)),
         200, "update channel");
}

void EmulatorAdmin::DeleteChannel(uint64_t guildId, uint64_t channelId) {
  Expect(Request("DELETE", "/guilds/" + std::to_string(guildId) + "/channels/" + std::to_string(channelId)),
         200, "delete channel");
}

}  // namespace platformpp::testkit
