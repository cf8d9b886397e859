// platformpp::backend::BackendClient: the game server's lobby and messaging calls with the bot token, over
// the same core as a Client (client::ClientCore: its HTTP client, callback queue and logger; no Gateway
// session, no IPC). Rules are checked before anything is sent, as the Client does.
#include "backend/backend_access.hpp"
#include "backend/game_stats_widget.hpp"
#include "client/client_core.hpp"
#include "core/utf8.hpp"
#include "core/validation_result.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_validation.hpp"
#include "net/http_result.hpp"
#include "premium/premium_json.hpp"

#include <platformpp/backend.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace platformpp::backend {
namespace {

template <class... Args>
using Done = core::Completion<Args...>;
using Allocator = json::Document::AllocatorType;

json::Value String(std::string_view text, Allocator& a) {
  return json::Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), a);
}

json::Value Snowflake(uint64_t id, Allocator& a) {
  return String(std::to_string(id), a);
}

ClientOptions CoreOptions(const BackendOptions& options) {
  ClientOptions core;
  core.apiBase = options.apiBase;
  core.caFile = options.caFile;
  core.useSystemCertificates = options.useSystemCertificates;
  core.ioContext = options.ioContext;
  core.userAgentSuffix = options.userAgentSuffix;
  core.ipcEnabled = false;
  return core;
}

LobbyMember ToMember(lobby::MemberRecord record) {
  LobbyMember member;
  member.id = record.id;
  member.metadata = std::move(record.metadata);
  member.flags = record.flags;
  member.additionalName = std::move(record.additionalName);
  return member;
}

Lobby ToLobby(lobby::LobbyRecord record) {
  Lobby lobby;
  lobby.id = record.id;
  lobby.applicationId = record.applicationId;
  lobby.metadata = std::move(record.metadata);
  for (auto& member : record.members)
    lobby.members.push_back(ToMember(std::move(member)));
  if (record.linkedChannel) lobby.linkedChannelId = record.linkedChannel->id;
  lobby.flags = record.flags;
  return lobby;
}

ClientResult Malformed(const char* what) {
  return ClientResult::Failure(ErrorType::HTTPError, std::string("malformed response: ") + what);
}

std::string LobbyPath(uint64_t lobbyId) {
  return "/lobbies/" + std::to_string(lobbyId);
}

void RequireId(uint64_t id, const char* path, std::vector<FieldError>& errors) {
  if (id == 0)
    errors.push_back(FieldError{path, "BASE_TYPE_REQUIRED", std::string(path) + ": must not be 0"});
}

// The calls whose path names the application (premium, the Game Stats Widget) take it from the options.
void RequireApplicationId(uint64_t applicationId, std::vector<FieldError>& errors) {
  if (applicationId == 0) {
    errors.push_back(FieldError{"applicationId", "BASE_TYPE_REQUIRED",
                                "applicationId: set BackendOptions::applicationId (the bot's application)"});
  }
}

// Checks one member operation (path "members.N" or "member") and adds it to `array` / `object`.
void CheckMember(const LobbyMemberArgs& member, const std::string& path, std::vector<FieldError>& errors) {
  if (member.id == 0)
    errors.push_back(FieldError{path + ".id", "BASE_TYPE_REQUIRED", path + ".id: must not be 0"});
  if (member.metadata) lobby::CheckMetadata(*member.metadata, path + ".metadata", errors);
  if (member.additionalName)
    lobby::CheckAdditionalName(*member.additionalName, path + ".additional_name", errors);
}

json::Value MemberBody(const LobbyMemberArgs& member, bool withId, bool withRemove, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  if (withId) object.AddMember("id", Snowflake(member.id, a), a);
  if (member.metadata) lobby::AddMetadata(object, "metadata", *member.metadata, a);
  if (member.flags) object.AddMember("flags", json::Value(*member.flags), a);
  if (member.additionalName) object.AddMember("additional_name", String(*member.additionalName, a), a);
  if (withRemove && member.remove) object.AddMember("remove_member", true, a);
  return object;
}

// The lobby fields of LobbyArgs (and its members when `withMembers`), checked into `errors`.
std::string LobbyBody(const LobbyArgs& args, bool withMembers, std::vector<FieldError>& errors) {
  if (args.metadata) lobby::CheckMetadata(*args.metadata, "metadata", errors);
  if (args.idleTimeoutSeconds)
    lobby::CheckIdleTimeout(*args.idleTimeoutSeconds, "idle_timeout_seconds", errors);
  if (!withMembers && !args.members.empty()) {
    errors.push_back(FieldError{"members", "BASE_TYPE_INVALID",
                                "members: not accepted here; use AddLobbyMember or BulkUpdateLobbyMembers"});
  }
  if (args.members.size() > lobby::kMaxBulkMembers) {
    errors.push_back(FieldError{"members", "BASE_TYPE_MAX_LENGTH",
                                "members: at most " + std::to_string(lobby::kMaxBulkMembers) + " members"});
  }
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (args.metadata) lobby::AddMetadata(body, "metadata", *args.metadata, a);
  if (args.idleTimeoutSeconds)
    body.AddMember("idle_timeout_seconds", json::Value(*args.idleTimeoutSeconds), a);
  if (args.flags) body.AddMember("flags", json::Value(*args.flags), a);
  if (withMembers && !args.members.empty()) {
    json::Value members(rapidjson::kArrayType);
    for (std::size_t i = 0; i < args.members.size(); ++i) {
      CheckMember(args.members[i], "members." + std::to_string(i), errors);
      members.PushBack(MemberBody(args.members[i], true, false, a), a);
    }
    body.AddMember("members", members, a);
  }
  return json::Serialize(body);
}

std::string MetadataBody(const Metadata& metadata) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  for (const auto& [key, value] : metadata)
    body.AddMember(String(key, a), String(value, a), a);
  return json::Serialize(body);
}

}  // namespace

class BackendClient::Impl {
 public:
  explicit Impl(const BackendOptions& options)
      : core(CoreOptions(options)),
        authorization("Bot " + options.botToken),
        applicationId(options.applicationId) {
    // By value as well as by shape: the token stays out of every log line whatever surrounds it.
    core.Log().Secrets().AddSecret(options.botToken);
    core.Http().SetTimeout(options.httpTimeout);
  }

  template <class... Args>
  std::optional<Done<Args...>> Start(typename Done<Args...>::Callback callback) {
    auto completion = core.MakeCompletion<Args...>(std::move(callback));
    if (core.Destroying()) return std::nullopt;
    return completion;
  }

  /// Sends one request; `then` gets the response on the network thread.
  void Send(std::string method, const std::string& path, std::optional<std::string> body,
            std::function<void(net::HttpResponse)> then) {
    net::HttpRequest request;
    request.method = std::move(method);
    request.url = core.ApiUrl(path);
    request.headers.emplace_back("Authorization", authorization);
    if (body) {
      request.body = std::move(*body);
      request.contentType = "application/json";
    }
    core.Http().Send(std::move(request), std::move(then));
  }

  void SendPlain(std::string method, const std::string& path, std::optional<std::string> body, Done<> done) {
    auto shared = std::make_shared<Done<>>(std::move(done));
    Send(std::move(method), path, std::move(body),
         [shared](const net::HttpResponse& response) { (*shared)(net::ResultOf(response)); });
  }

  void SendForLobby(std::string method, const std::string& path, std::optional<std::string> body,
                    Done<Lobby> done) {
    auto shared = std::make_shared<Done<Lobby>>(std::move(done));
    Send(std::move(method), path, std::move(body), [shared](const net::HttpResponse& response) {
      json::Document document;
      ClientResult result = net::ParseJsonResponse(response, document);
      if (!result.Successful()) return (*shared)(std::move(result), {});
      auto lobby = lobby::ParseLobby(document);
      if (!lobby) return (*shared)(Malformed("not a lobby"), {});
      (*shared)({}, ToLobby(std::move(*lobby)));
    });
  }

  client::ClientCore core;
  std::string authorization;
  uint64_t applicationId;
};

BackendClient::BackendClient(const BackendOptions& options) : impl_(std::make_shared<Impl>(options)) {}

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const BackendClient& backend) noexcept {
  return backend.impl_ ? backend.impl_->core.Runtime().LoggerPtr() : nullptr;
}

BackendClient::~BackendClient() {
  if (impl_) impl_->core.Destroy();
}

BackendClient::BackendClient(BackendClient&&) noexcept = default;

BackendClient& BackendClient::operator=(BackendClient&& other) noexcept {
  if (this != &other) {
    if (impl_) impl_->core.Destroy();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void BackendClient::RunCallbacks() {
  if (impl_) impl_->core.RunCallbacks();
}

bool BackendClient::WaitForCallbacks(int32_t timeoutMilliseconds) {
  if (!impl_) return false;
  return impl_->core.WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

void BackendClient::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  if (impl_) impl_->core.Log().AddCallback(std::move(callback), minSeverity);
}

void BackendClient::CreateLobby(const LobbyArgs& args, LobbyCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Lobby>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  std::string body = LobbyBody(args, true, errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->SendForLobby("POST", "/lobbies", std::move(body), std::move(*done));
}

void BackendClient::GetLobby(uint64_t lobbyId, LobbyCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Lobby>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->SendForLobby("GET", LobbyPath(lobbyId), std::nullopt, std::move(*done));
}

void BackendClient::UpdateLobby(uint64_t lobbyId, const LobbyArgs& args, LobbyCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Lobby>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  std::string body = LobbyBody(args, false, errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->SendForLobby("PATCH", LobbyPath(lobbyId), std::move(body), std::move(*done));
}

void BackendClient::DeleteLobby(uint64_t lobbyId, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("DELETE", LobbyPath(lobbyId), std::nullopt, std::move(*done));
}

void BackendClient::AddLobbyMember(uint64_t lobbyId, const LobbyMemberArgs& member, MemberCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<LobbyMember>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  CheckMember(member, "member", errors);
  if (member.remove) {
    errors.push_back(FieldError{"member.remove", "BASE_TYPE_INVALID",
                                "member.remove: use RemoveLobbyMember or a bulk update"});
  }
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  json::Document holder;
  std::string body = json::Serialize(MemberBody(member, false, false, holder.GetAllocator()));
  auto shared = std::make_shared<Done<LobbyMember>>(std::move(*done));
  impl_->Send("PUT", LobbyPath(lobbyId) + "/members/" + std::to_string(member.id), std::move(body),
              [shared](const net::HttpResponse& response) {
                json::Document document;
                ClientResult result = net::ParseJsonResponse(response, document);
                if (!result.Successful()) return (*shared)(std::move(result), {});
                auto parsed = lobby::ParseMember(document);
                if (!parsed) return (*shared)(Malformed("not a lobby member"), {});
                (*shared)({}, ToMember(std::move(*parsed)));
              });
}

void BackendClient::RemoveLobbyMember(uint64_t lobbyId, uint64_t userId, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(userId, "userId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("DELETE", LobbyPath(lobbyId) + "/members/" + std::to_string(userId), std::nullopt,
                   std::move(*done));
}

void BackendClient::BulkUpdateLobbyMembers(uint64_t lobbyId, std::vector<LobbyMemberArgs> members,
                                           MembersCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<std::vector<LobbyMember>>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  if (members.empty() || members.size() > lobby::kMaxBulkMembers) {
    errors.push_back(
        FieldError{"members", "BASE_TYPE_BAD_LENGTH",
                   "members: must be 1 to " + std::to_string(lobby::kMaxBulkMembers) + " entries"});
  }
  json::Document body(rapidjson::kArrayType);
  auto& a = body.GetAllocator();
  for (std::size_t i = 0; i < members.size(); ++i) {
    CheckMember(members[i], "members." + std::to_string(i), errors);
    body.PushBack(MemberBody(members[i], true, true, a), a);
  }
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  auto shared = std::make_shared<Done<std::vector<LobbyMember>>>(std::move(*done));
  impl_->Send("POST", LobbyPath(lobbyId) + "/members/bulk", json::Serialize(body),
              [shared](const net::HttpResponse& response) {
                json::Document document;
                ClientResult result = net::ParseJsonResponse(response, document);
                if (!result.Successful()) return (*shared)(std::move(result), {});
                if (!document.IsArray()) return (*shared)(Malformed("not a list of lobby members"), {});
                std::vector<LobbyMember> list;
                for (const json::Value& item : document.GetArray()) {
                  auto parsed = lobby::ParseMember(item);
                  if (!parsed) return (*shared)(Malformed("not a list of lobby members"), {});
                  list.push_back(ToMember(std::move(*parsed)));
                }
                (*shared)({}, std::move(list));
              });
}

void BackendClient::SetLobbyLinkedChannel(uint64_t lobbyId, std::optional<uint64_t> channelId,
                                          LobbyCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Lobby>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  if (channelId) RequireId(*channelId, "channel_id", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  std::string body = channelId ? "{\"channel_id\":\"" + std::to_string(*channelId) + "\"}"
                               : std::string("{\"channel_id\":null}");
  impl_->SendForLobby("PATCH", LobbyPath(lobbyId) + "/channel-linking", std::move(body), std::move(*done));
}

void BackendClient::CreateLinkedLobbyGuildInviteForUser(uint64_t lobbyId, uint64_t userId,
                                                        InviteCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<std::string>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(userId, "userId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  auto shared = std::make_shared<Done<std::string>>(std::move(*done));
  impl_->Send("POST", LobbyPath(lobbyId) + "/members/" + std::to_string(userId) + "/invites", std::nullopt,
              [shared](const net::HttpResponse& response) {
                json::Document document;
                ClientResult result = net::ParseJsonResponse(response, document);
                if (!result.Successful()) return (*shared)(std::move(result), {});
                auto code = json::GetString(document, "code");
                if (!code || code->empty()) return (*shared)(Malformed("no invite code"), {});
                (*shared)({}, std::string(*code));
              });
}

void BackendClient::SetLobbyMessageModerationMetadata(uint64_t lobbyId, uint64_t messageId,
                                                      const Metadata& metadata, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(messageId, "messageId", errors);
  lobby::CheckModerationMetadata(metadata, "moderation_metadata", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("PUT",
                   LobbyPath(lobbyId) + "/messages/" + std::to_string(messageId) + "/moderation-metadata",
                   MetadataBody(metadata), std::move(*done));
}

void BackendClient::SetUserMessageModerationMetadata(uint64_t userId1, uint64_t userId2, uint64_t messageId,
                                                     const Metadata& metadata, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(userId1, "userId1", errors);
  RequireId(userId2, "userId2", errors);
  RequireId(messageId, "messageId", errors);
  lobby::CheckModerationMetadata(metadata, "moderation_metadata", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("PUT",
                   "/partner-sdk/dms/" + std::to_string(userId1) + "/" + std::to_string(userId2) +
                       "/messages/" + std::to_string(messageId) + "/moderation-metadata",
                   MetadataBody(metadata), std::move(*done));
}

void BackendClient::GetProvisionalToken(const std::string& externalUserId,
                                        std::optional<std::string> preferredGlobalName,
                                        ProvisionalTokenCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<ProvisionalToken>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  auto check = [&](std::string_view text, std::size_t max, const char* path) {
    auto length = core::CountCodePoints(text);
    if (!length || *length < 1 || *length > max) {
      errors.push_back(
          FieldError{path, "BASE_TYPE_BAD_LENGTH",
                     std::string(path) + ": must be 1 to " + std::to_string(max) + " characters"});
    }
  };
  check(externalUserId, 1024, "external_user_id");
  if (preferredGlobalName) check(*preferredGlobalName, 32, "preferred_global_name");
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("external_user_id", String(externalUserId, a), a);
  if (preferredGlobalName) body.AddMember("preferred_global_name", String(*preferredGlobalName, a), a);
  auto shared = std::make_shared<Done<ProvisionalToken>>(std::move(*done));
  client::ClientCore& core = impl_->core;
  impl_->Send("POST", "/partner-sdk/token/bot", json::Serialize(body),
              [&core, shared](const net::HttpResponse& response) {
                json::Document document;
                ClientResult result = net::ParseJsonResponse(response, document);
                if (!result.Successful()) return (*shared)(std::move(result), {});
                auto access = json::GetString(document, "access_token");
                if (!access || access->empty()) return (*shared)(Malformed("no access_token"), {});
                ProvisionalToken token;
                token.accessToken = std::string(*access);
                token.tokenType = std::string(json::GetString(document, "token_type").value_or(""));
                auto expiresIn = json::GetInt(document, "expires_in").value_or(0);
                token.expiresIn =
                    expiresIn > 0 && expiresIn <= INT32_MAX ? static_cast<int32_t>(expiresIn) : 0;
                token.scopes = std::string(json::GetString(document, "scope").value_or(""));
                token.idToken = std::string(json::GetString(document, "id_token").value_or(""));
                core.Log().Secrets().AddSecret(token.accessToken);
                core.Log().Secrets().AddSecret(token.idToken);
                (*shared)({}, std::move(token));
              });
}

namespace {

// The profile's path; the checks of its parts into `errors`.
std::string ProfilePath(uint64_t applicationId, uint64_t userId, const std::string& providerIssuedUserId,
                        std::vector<FieldError>& errors) {
  RequireApplicationId(applicationId, errors);
  RequireId(userId, "userId", errors);
  game_stats::CheckProviderIssuedUserId(providerIssuedUserId, errors);
  return "/applications/" + std::to_string(applicationId) + "/users/" + std::to_string(userId) +
         "/identities/" + providerIssuedUserId + "/profile";
}

}  // namespace

void BackendClient::UpdateGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                                           const GameStatsProfile& profile, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  std::string path = ProfilePath(impl_->applicationId, userId, providerIssuedUserId, errors);
  std::string body = game_stats::ProfileBody(profile, errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  // 201 with the profile on the first write, 204 afterwards: both are success.
  impl_->SendPlain("PATCH", path, std::move(body), std::move(*done));
}

void BackendClient::GetGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                                        GameStatsProfileCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<GameStatsProfile>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  std::string path = ProfilePath(impl_->applicationId, userId, providerIssuedUserId, errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  auto shared = std::make_shared<Done<GameStatsProfile>>(std::move(*done));
  impl_->Send("GET", path, std::nullopt, [shared](const net::HttpResponse& response) {
    json::Document document;
    ClientResult result = net::ParseJsonResponse(response, document);
    if (!result.Successful()) return (*shared)(std::move(result), {});
    auto profile = game_stats::ParseProfile(document);
    if (!profile) return (*shared)(Malformed("not an application identity profile"), {});
    (*shared)({}, std::move(*profile));
  });
}

// --- Premium apps: SKUs, entitlements, subscriptions (docs/premium-protocol.md)
// ------------------------------

namespace {

constexpr int32_t kMaxPremiumPageLimit = 100;

void CheckLimit(const std::optional<int32_t>& limit, std::vector<FieldError>& errors) {
  if (limit && (*limit < 1 || *limit > kMaxPremiumPageLimit)) {
    errors.push_back(FieldError{"limit", "NUMBER_TYPE_OUT_OF_RANGE",
                                "limit: must be 1 to " + std::to_string(kMaxPremiumPageLimit)});
  }
}

void AddQuery(std::string& query, const char* name, const std::string& value) {
  query += query.empty() ? '?' : '&';
  query += name;
  query += '=';
  query += value;
}

void AddQuery(std::string& query, const char* name, const std::optional<uint64_t>& id) {
  if (id) AddQuery(query, name, std::to_string(*id));
}

void AddQuery(std::string& query, const char* name, const std::optional<bool>& flag) {
  if (flag) AddQuery(query, name, std::string(*flag ? "true" : "false"));
}

std::string EntitlementsPath(uint64_t applicationId) {
  return "/applications/" + std::to_string(applicationId) + "/entitlements";
}

std::string SubscriptionsPath(uint64_t skuId) {
  return "/skus/" + std::to_string(skuId) + "/subscriptions";
}

/// Completes `done` with the answer decoded by `parse` (an object, or a list of them).
template <class T>
std::function<void(net::HttpResponse)> Decoded(std::shared_ptr<Done<T>> done,
                                               std::function<std::optional<T>(const json::Value&)> parse,
                                               const char* what) {
  return [done = std::move(done), parse = std::move(parse), what](const net::HttpResponse& response) {
    json::Document document;
    ClientResult result = net::ParseJsonResponse(response, document);
    if (!result.Successful()) return (*done)(std::move(result), {});
    std::optional<T> value = parse(document);
    if (!value) return (*done)(Malformed(what), {});
    (*done)({}, std::move(*value));
  };
}

template <class T>
std::function<std::optional<std::vector<T>>(const json::Value&)> ListOf(
    std::optional<T> (*parse)(const json::Value&)) {
  return [parse](const json::Value& value) { return premium::ParseList<T>(value, parse); };
}

}  // namespace

void BackendClient::ListSkus(SkusCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<std::vector<Sku>>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->Send("GET", "/applications/" + std::to_string(impl_->applicationId) + "/skus", std::nullopt,
              Decoded<std::vector<Sku>>(std::make_shared<Done<std::vector<Sku>>>(std::move(*done)),
                                        ListOf<Sku>(premium::ParseSku), "not a list of SKUs"));
}

void BackendClient::ListEntitlements(const EntitlementFilters& filters, EntitlementsCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<std::vector<Entitlement>>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  CheckLimit(filters.limit, errors);
  if (filters.userId) RequireId(*filters.userId, "user_id", errors);
  if (filters.guildId) RequireId(*filters.guildId, "guild_id", errors);
  for (std::size_t i = 0; i < filters.skuIds.size(); ++i)
    RequireId(filters.skuIds[i], ("sku_ids." + std::to_string(i)).c_str(), errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  std::string query;
  AddQuery(query, "user_id", filters.userId);
  if (!filters.skuIds.empty()) {
    std::string list;
    for (uint64_t sku : filters.skuIds)
      list += (list.empty() ? "" : ",") + std::to_string(sku);
    AddQuery(query, "sku_ids", list);
  }
  AddQuery(query, "guild_id", filters.guildId);
  AddQuery(query, "before", filters.before);
  AddQuery(query, "after", filters.after);
  if (filters.limit) AddQuery(query, "limit", std::to_string(*filters.limit));
  AddQuery(query, "exclude_ended", filters.excludeEnded);
  AddQuery(query, "exclude_deleted", filters.excludeDeleted);
  impl_->Send("GET", EntitlementsPath(impl_->applicationId) + query, std::nullopt,
              Decoded<std::vector<Entitlement>>(
                  std::make_shared<Done<std::vector<Entitlement>>>(std::move(*done)),
                  ListOf<Entitlement>(premium::ParseEntitlement), "not a list of entitlements"));
}

void BackendClient::GetEntitlement(uint64_t entitlementId, EntitlementCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Entitlement>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  RequireId(entitlementId, "entitlementId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->Send("GET", EntitlementsPath(impl_->applicationId) + "/" + std::to_string(entitlementId),
              std::nullopt,
              Decoded<Entitlement>(std::make_shared<Done<Entitlement>>(std::move(*done)),
                                   premium::ParseEntitlement, "not an entitlement"));
}

void BackendClient::ConsumeEntitlement(uint64_t entitlementId, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  RequireId(entitlementId, "entitlementId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("POST",
                   EntitlementsPath(impl_->applicationId) + "/" + std::to_string(entitlementId) + "/consume",
                   std::nullopt, std::move(*done));
}

void BackendClient::CreateTestEntitlement(uint64_t skuId, uint64_t ownerId, EntitlementOwnerType ownerType,
                                          EntitlementCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Entitlement>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  RequireId(skuId, "sku_id", errors);
  RequireId(ownerId, "owner_id", errors);
  if (ownerType != EntitlementOwnerType::Guild && ownerType != EntitlementOwnerType::User) {
    errors.push_back(
        FieldError{"owner_type", "ENUM_TYPE_COERCE", "owner_type: must be Guild (1) or User (2)"});
  }
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("sku_id", Snowflake(skuId, a), a);
  body.AddMember("owner_id", Snowflake(ownerId, a), a);
  body.AddMember("owner_type", static_cast<int32_t>(ownerType), a);
  impl_->Send("POST", EntitlementsPath(impl_->applicationId), json::Serialize(body),
              Decoded<Entitlement>(std::make_shared<Done<Entitlement>>(std::move(*done)),
                                   premium::ParseEntitlement, "not an entitlement"));
}

void BackendClient::DeleteTestEntitlement(uint64_t entitlementId, ResultCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireApplicationId(impl_->applicationId, errors);
  RequireId(entitlementId, "entitlementId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)));
  impl_->SendPlain("DELETE", EntitlementsPath(impl_->applicationId) + "/" + std::to_string(entitlementId),
                   std::nullopt, std::move(*done));
}

void BackendClient::ListSkuSubscriptions(uint64_t skuId, const SubscriptionFilters& filters,
                                         SubscriptionsCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<std::vector<Subscription>>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(skuId, "skuId", errors);
  CheckLimit(filters.limit, errors);
  if (filters.userId) RequireId(*filters.userId, "user_id", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  std::string query;
  AddQuery(query, "before", filters.before);
  AddQuery(query, "after", filters.after);
  if (filters.limit) AddQuery(query, "limit", std::to_string(*filters.limit));
  AddQuery(query, "user_id", filters.userId);
  impl_->Send("GET", SubscriptionsPath(skuId) + query, std::nullopt,
              Decoded<std::vector<Subscription>>(
                  std::make_shared<Done<std::vector<Subscription>>>(std::move(*done)),
                  ListOf<Subscription>(premium::ParseSubscription), "not a list of subscriptions"));
}

void BackendClient::GetSkuSubscription(uint64_t skuId, uint64_t subscriptionId,
                                       SubscriptionCallback callback) {
  if (!impl_) return;
  auto done = impl_->Start<Subscription>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  RequireId(skuId, "skuId", errors);
  RequireId(subscriptionId, "subscriptionId", errors);
  if (!errors.empty()) return (*done)(core::ValidationResult(std::move(errors)), {});
  impl_->Send("GET", SubscriptionsPath(skuId) + "/" + std::to_string(subscriptionId), std::nullopt,
              Decoded<Subscription>(std::make_shared<Done<Subscription>>(std::move(*done)),
                                    premium::ParseSubscription, "not a subscription"));
}

}  // namespace platformpp::backend
