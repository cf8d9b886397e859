// EmulatorAdmin: the admin API client, its HTTP plumbing, and the calls on applications, users, tokens, the
// clock, faults, rate limits and the desktop client (IPC).
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "json/json.hpp"
#include "net/http_client.hpp"
#include "net/url.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>

namespace platformpp::testkit {

using detail::Expect;
using detail::JsonObject;
using detail::ParseOrThrow;
using detail::RequireSnowflake;
using detail::RequireString;

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
  // A long run's state export is large: the 100-player hour of the fault soak exported more than the SDK's
  // 16 MiB default. The emulator is the test's own.
  options.maxResponseBytes = std::size_t{1} << 30;
  impl_->http = std::make_unique<net::HttpClient>(*impl_->io, impl_->logger, options);
}

EmulatorAdmin::~EmulatorAdmin() {
  impl_->http->Shutdown();
  impl_->queue->Shutdown();
}

namespace {
// A state export or import of a long run takes longer than the other admin requests' 10 s.
constexpr std::chrono::milliseconds kStateTransferTimeout(120000);
}  // namespace

void EmulatorAdmin::SetRequestTimeout(std::chrono::milliseconds timeout) {
  impl_->http->SetTimeout(timeout);
}

EmulatorAdmin::Response EmulatorAdmin::Request(const std::string& method, const std::string& path,
                                               const std::string& jsonBody) {
  net::HttpRequest request;
  if (path.rfind("/state/export", 0) == 0 || path.rfind("/state/import", 0) == 0)
    request.timeout = std::max(kStateTransferTimeout, impl_->http->Timeout());
  request.method = method;
  request.url = connection_.adminBase + path;
  request.headers.emplace_back("Authorization", "Bearer " + connection_.adminToken);
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
  return {
      RequireSnowflake(document, "id", "create app"), RequireString(document, "client_secret", "create app"),
      RequireString(document, "bot_token", "create app"), RequireString(document, "verify_key", "create app"),
      RequireSnowflake(document, "bot_user_id", "create app")};
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

std::map<std::string, int64_t> EmulatorAdmin::StateCounts() {
  auto document = Expect(Request("GET", "/state"), 200, "state");
  std::map<std::string, int64_t> counts;
  const json::Value* list = json::Member(document, "counts");
  if (list == nullptr || !list->IsObject()) throw std::runtime_error("state: missing counts");
  for (const auto& entry : list->GetObject()) {
    if (entry.value.IsInt64()) counts[entry.name.GetString()] = entry.value.GetInt64();
  }
  return counts;
}

std::string EmulatorAdmin::ExportState() {
  auto response = Request("GET", "/state/export");
  if (response.status != 200)
    throw std::runtime_error("export state: HTTP " + std::to_string(response.status));
  return std::move(response.body);
}

void EmulatorAdmin::ImportState(const std::string& snapshot) {
  Expect(Request("POST", "/state/import", snapshot), 200, "import state");
}

std::string EmulatorAdmin::ScenarioStatus() {
  auto response = Request("GET", "/scenario");
  if (response.status != 200)
    throw std::runtime_error("scenario: HTTP " + std::to_string(response.status) + ": " + response.body);
  return std::move(response.body);
}

std::string EmulatorAdmin::ScenarioValue(const std::string& reference) {
  // The emulator resolves the reference as a scenario's own steps do.
  auto response = Request("GET", "/scenario/values/" + reference);
  rapidjson::Document value;
  value.Parse(response.body.data(), response.body.size());
  if (response.status != 200 || value.HasParseError())
    throw std::runtime_error("scenario: " + reference + ": HTTP " + std::to_string(response.status) + ": " +
                             response.body);
  if (value.IsString()) return {value.GetString(), value.GetStringLength()};
  if (!value.IsNumber() && !value.IsBool())
    throw std::runtime_error("scenario: " + reference + " is not a string, number or boolean");
  return response.body;
}

uint64_t EmulatorAdmin::ScenarioId(const std::string& name) {
  const auto text = ScenarioValue(name);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("scenario: " + name + " is not an id: " + text);
  return std::stoull(text);
}

bool EmulatorAdmin::HasScenarioName(const std::string& name) {
  auto response = Request("GET", "/scenario");
  if (response.status != 200) return false;
  rapidjson::Document document;
  document.Parse(response.body.data(), response.body.size());
  return !document.HasParseError() && document.IsObject() && document.HasMember("names") &&
         document["names"].IsObject() && document["names"].HasMember(name.c_str());
}

EmulatorAdmin::App EmulatorAdmin::ScenarioApp(const std::string& name) {
  App app;
  app.id = ScenarioId(name);
  app.clientSecret = ScenarioValue(name + ".client_secret");
  app.botToken = ScenarioValue(name + ".bot_token");
  app.verifyKey = ScenarioValue(name + ".verify_key");
  app.botUserId = ScenarioId(name + ".bot_user_id");
  return app;
}

EmulatorAdmin::User EmulatorAdmin::ScenarioUser(const std::string& name) {
  return {ScenarioId(name), ScenarioValue(name + ".username")};
}

void EmulatorAdmin::ResetState() {
  Expect(Request("POST", "/state/reset"), 200, "reset state");
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

void EmulatorAdmin::CloseIpc(int code, const std::string& message) {
  Expect(Request("POST", "/ipc/close",
                 JsonObject().Add("code", static_cast<int64_t>(code)).Add("message", message).Done()),
         200, "close ipc");
}

}  // namespace platformpp::testkit
