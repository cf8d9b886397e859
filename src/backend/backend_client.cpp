// platformpp::backend::BackendClient: the game server's calls with the bot token, on the API session a
// Client's HTTP requests use too (api::ApiSession: its HTTP client, rate limits, callback queue and logger;
// no Gateway session, no IPC). Each call builds its request (route, body, the rules its arguments broke) and
// hands it to the session in one line; rules are checked before anything is sent, as the Client does.
#include "api/api_session.hpp"
#include "backend/application_command_json.hpp"
#include "backend/audit_log_json.hpp"
#include "backend/backend_access.hpp"
#include "backend/game_stats_widget.hpp"
#include "backend/interaction_json.hpp"
#include "backend/message_json.hpp"
#include "backend/request_parts.hpp"
#include "backend/role_json.hpp"
#include "core/utf8.hpp"
#include "core/validation_result.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_validation.hpp"
#include "net/http_result.hpp"
#include "premium/premium_json.hpp"

#include <platformpp/backend.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

json::Value Snowflake(uint64_t id, Allocator& a) {
  return json::StringValue(std::to_string(id), a);
}

ClientOptions CoreOptions(const BackendOptions& options) {
  ClientOptions core;
  core.apiBase = options.apiBase;
  core.caFile = options.caFile;
  core.useSystemCertificates = options.useSystemCertificates;
  core.ioContext = options.ioContext;
  core.userAgentSuffix = options.userAgentSuffix;
  core.ipcEnabled = false;
  core.clock = options.clock;
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

std::string LobbyPath(uint64_t lobbyId) {
  return "/lobbies/" + std::to_string(lobbyId);
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
  if (member.additionalName)
    object.AddMember("additional_name", json::StringValue(*member.additionalName, a), a);
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
    body.AddMember(json::StringValue(key, a), json::StringValue(value, a), a);
  return json::Serialize(body);
}

// --- Decoders: an answer's JSON into the public types -----------------------------------------------------

std::optional<Lobby> DecodeLobby(const json::Value& value) {
  auto record = lobby::ParseLobby(value);
  if (!record) return std::nullopt;
  return ToLobby(std::move(*record));
}

std::optional<LobbyMember> DecodeMember(const json::Value& value) {
  auto record = lobby::ParseMember(value);
  if (!record) return std::nullopt;
  return ToMember(std::move(*record));
}

std::optional<std::vector<LobbyMember>> DecodeMembers(const json::Value& value) {
  if (!value.IsArray()) return std::nullopt;
  std::vector<LobbyMember> list;
  for (const json::Value& item : value.GetArray()) {
    auto member = DecodeMember(item);
    if (!member) return std::nullopt;
    list.push_back(std::move(*member));
  }
  return list;
}

std::optional<std::string> DecodeInviteCode(const json::Value& value) {
  auto code = json::GetString(value, "code");
  if (!code || code->empty()) return std::nullopt;
  return std::string(*code);
}

template <class T>
auto ListOf(std::optional<T> (*parse)(const json::Value&)) {
  return [parse](const json::Value& value) { return premium::ParseList<T>(value, parse); };
}

// --- Requests: each call's route, body and checks ---------------------------------------------------------

api::ApiRequest CreateLobbyRequest(const LobbyArgs& args) {
  std::vector<FieldError> errors;
  std::string body = LobbyBody(args, true, errors);
  return api::ApiRequest("POST", "/lobbies", std::move(body), std::move(errors));
}

api::ApiRequest GetLobbyRequest(uint64_t lobbyId) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  return api::ApiRequest("GET", LobbyPath(lobbyId), std::nullopt, std::move(errors));
}

api::ApiRequest UpdateLobbyRequest(uint64_t lobbyId, const LobbyArgs& args) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  std::string body = LobbyBody(args, false, errors);
  return api::ApiRequest("PATCH", LobbyPath(lobbyId), std::move(body), std::move(errors));
}

api::ApiRequest DeleteLobbyRequest(uint64_t lobbyId) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  return api::ApiRequest("DELETE", LobbyPath(lobbyId), std::nullopt, std::move(errors));
}

api::ApiRequest AddMemberRequest(uint64_t lobbyId, const LobbyMemberArgs& member) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  CheckMember(member, "member", errors);
  if (member.remove) {
    errors.push_back(FieldError{"member.remove", "BASE_TYPE_INVALID",
                                "member.remove: use RemoveLobbyMember or a bulk update"});
  }
  json::Document holder;
  std::string body = json::Serialize(MemberBody(member, false, false, holder.GetAllocator()));
  return api::ApiRequest("PUT", LobbyPath(lobbyId) + "/members/" + std::to_string(member.id), std::move(body),
                         std::move(errors));
}

api::ApiRequest RemoveMemberRequest(uint64_t lobbyId, uint64_t userId) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(userId, "userId", errors);
  return api::ApiRequest("DELETE", LobbyPath(lobbyId) + "/members/" + std::to_string(userId), std::nullopt,
                         std::move(errors));
}

api::ApiRequest BulkUpdateMembersRequest(uint64_t lobbyId, const std::vector<LobbyMemberArgs>& members) {
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
  return api::ApiRequest("POST", LobbyPath(lobbyId) + "/members/bulk", json::Serialize(body),
                         std::move(errors));
}

api::ApiRequest LinkedChannelRequest(uint64_t lobbyId, std::optional<uint64_t> channelId) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  if (channelId) RequireId(*channelId, "channel_id", errors);
  std::string body = channelId ? "{\"channel_id\":\"" + std::to_string(*channelId) + "\"}"
                               : std::string("{\"channel_id\":null}");
  return api::ApiRequest("PATCH", LobbyPath(lobbyId) + "/channel-linking", std::move(body),
                         std::move(errors));
}

api::ApiRequest GuildInviteRequest(uint64_t lobbyId, uint64_t userId) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(userId, "userId", errors);
  return api::ApiRequest("POST", LobbyPath(lobbyId) + "/members/" + std::to_string(userId) + "/invites",
                         std::nullopt, std::move(errors));
}

api::ApiRequest LobbyModerationRequest(uint64_t lobbyId, uint64_t messageId, const Metadata& metadata) {
  std::vector<FieldError> errors;
  RequireId(lobbyId, "lobbyId", errors);
  RequireId(messageId, "messageId", errors);
  lobby::CheckModerationMetadata(metadata, "moderation_metadata", errors);
  return api::ApiRequest(
      "PUT", LobbyPath(lobbyId) + "/messages/" + std::to_string(messageId) + "/moderation-metadata",
      MetadataBody(metadata), std::move(errors));
}

api::ApiRequest UserModerationRequest(uint64_t userId1, uint64_t userId2, uint64_t messageId,
                                      const Metadata& metadata) {
  std::vector<FieldError> errors;
  RequireId(userId1, "userId1", errors);
  RequireId(userId2, "userId2", errors);
  RequireId(messageId, "messageId", errors);
  lobby::CheckModerationMetadata(metadata, "moderation_metadata", errors);
  return api::ApiRequest("PUT",
                         "/partner-sdk/dms/" + std::to_string(userId1) + "/" + std::to_string(userId2) +
                             "/messages/" + std::to_string(messageId) + "/moderation-metadata",
                         MetadataBody(metadata), std::move(errors));
}

api::ApiRequest ProvisionalTokenRequest(const std::string& externalUserId,
                                        const std::optional<std::string>& preferredGlobalName) {
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
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("external_user_id", json::StringValue(externalUserId, a), a);
  if (preferredGlobalName)
    body.AddMember("preferred_global_name", json::StringValue(*preferredGlobalName, a), a);
  return api::ApiRequest("POST", "/partner-sdk/token/bot", json::Serialize(body), std::move(errors));
}

// The profile's path; the checks of its parts into `errors`.
std::string ProfilePath(uint64_t applicationId, uint64_t userId, const std::string& providerIssuedUserId,
                        std::vector<FieldError>& errors) {
  RequireApplicationId(applicationId, errors);
  RequireId(userId, "userId", errors);
  game_stats::CheckProviderIssuedUserId(providerIssuedUserId, errors);
  return "/applications/" + std::to_string(applicationId) + "/users/" + std::to_string(userId) +
         "/identities/" + providerIssuedUserId + "/profile";
}

api::ApiRequest UpdateProfileRequest(uint64_t applicationId, uint64_t userId,
                                     const std::string& providerIssuedUserId,
                                     const GameStatsProfile& profile) {
  std::vector<FieldError> errors;
  std::string path = ProfilePath(applicationId, userId, providerIssuedUserId, errors);
  std::string body = game_stats::ProfileBody(profile, errors);
  return api::ApiRequest("PATCH", std::move(path), std::move(body), std::move(errors));
}

api::ApiRequest GetProfileRequest(uint64_t applicationId, uint64_t userId,
                                  const std::string& providerIssuedUserId) {
  std::vector<FieldError> errors;
  std::string path = ProfilePath(applicationId, userId, providerIssuedUserId, errors);
  return api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors));
}

// --- Premium apps: SKUs, entitlements, subscriptions (docs/premium-protocol.md) ---------------------------

constexpr int32_t kMaxPremiumPageLimit = 100;

void CheckLimit(const std::optional<int32_t>& limit, std::vector<FieldError>& errors) {
  if (limit && (*limit < 1 || *limit > kMaxPremiumPageLimit)) {
    errors.push_back(FieldError{"limit", "NUMBER_TYPE_OUT_OF_RANGE",
                                "limit: must be 1 to " + std::to_string(kMaxPremiumPageLimit)});
  }
}

std::string EntitlementsPath(uint64_t applicationId) {
  return "/applications/" + std::to_string(applicationId) + "/entitlements";
}

std::string SubscriptionsPath(uint64_t skuId) {
  return "/skus/" + std::to_string(skuId) + "/subscriptions";
}

api::ApiRequest ListSkusRequest(uint64_t applicationId) {
  std::vector<FieldError> errors;
  RequireApplicationId(applicationId, errors);
  return api::ApiRequest("GET", "/applications/" + std::to_string(applicationId) + "/skus", std::nullopt,
                         std::move(errors));
}

api::ApiRequest ListEntitlementsRequest(uint64_t applicationId, const EntitlementFilters& filters) {
  std::vector<FieldError> errors;
  RequireApplicationId(applicationId, errors);
  CheckLimit(filters.limit, errors);
  if (filters.userId) RequireId(*filters.userId, "user_id", errors);
  if (filters.guildId) RequireId(*filters.guildId, "guild_id", errors);
  for (std::size_t i = 0; i < filters.skuIds.size(); ++i)
    RequireId(filters.skuIds[i], "sku_ids." + std::to_string(i), errors);
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
  return api::ApiRequest("GET", EntitlementsPath(applicationId) + query, std::nullopt, std::move(errors));
}

api::ApiRequest EntitlementRequest(std::string method, uint64_t applicationId, uint64_t entitlementId,
                                   const char* suffix = "") {
  std::vector<FieldError> errors;
  RequireApplicationId(applicationId, errors);
  RequireId(entitlementId, "entitlementId", errors);
  return api::ApiRequest(std::move(method),
                         EntitlementsPath(applicationId) + "/" + std::to_string(entitlementId) + suffix,
                         std::nullopt, std::move(errors));
}

api::ApiRequest CreateTestEntitlementRequest(uint64_t applicationId, uint64_t skuId, uint64_t ownerId,
                                             EntitlementOwnerType ownerType) {
  std::vector<FieldError> errors;
  RequireApplicationId(applicationId, errors);
  RequireId(skuId, "sku_id", errors);
  RequireId(ownerId, "owner_id", errors);
  if (ownerType != EntitlementOwnerType::Guild && ownerType != EntitlementOwnerType::User) {
    errors.push_back(
        FieldError{"owner_type", "ENUM_TYPE_COERCE", "owner_type: must be Guild (1) or User (2)"});
  }
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("sku_id", Snowflake(skuId, a), a);
  body.AddMember("owner_id", Snowflake(ownerId, a), a);
  body.AddMember("owner_type", static_cast<int32_t>(ownerType), a);
  return api::ApiRequest("POST", EntitlementsPath(applicationId), json::Serialize(body), std::move(errors));
}

api::ApiRequest ListSubscriptionsRequest(uint64_t skuId, const SubscriptionFilters& filters) {
  std::vector<FieldError> errors;
  RequireId(skuId, "skuId", errors);
  CheckLimit(filters.limit, errors);
  if (filters.userId) RequireId(*filters.userId, "user_id", errors);
  std::string query;
  AddQuery(query, "before", filters.before);
  AddQuery(query, "after", filters.after);
  if (filters.limit) AddQuery(query, "limit", std::to_string(*filters.limit));
  AddQuery(query, "user_id", filters.userId);
  return api::ApiRequest("GET", SubscriptionsPath(skuId) + query, std::nullopt, std::move(errors));
}

api::ApiRequest GetSubscriptionRequest(uint64_t skuId, uint64_t subscriptionId) {
  std::vector<FieldError> errors;
  RequireId(skuId, "skuId", errors);
  RequireId(subscriptionId, "subscriptionId", errors);
  return api::ApiRequest("GET", SubscriptionsPath(skuId) + "/" + std::to_string(subscriptionId), std::nullopt,
                         std::move(errors));
}

// ---- Application commands

// "/applications/{app}/commands" or "/applications/{app}/guilds/{guild}/commands".
std::string CommandsPath(uint64_t applicationId, std::optional<uint64_t> guildId) {
  std::string path = "/applications/" + std::to_string(applicationId);
  if (guildId) path += "/guilds/" + std::to_string(*guildId);
  return path + "/commands";
}

void RequireScope(uint64_t applicationId, std::optional<uint64_t> guildId, std::vector<FieldError>& errors) {
  RequireApplicationId(applicationId, errors);
  if (guildId) RequireId(*guildId, "guildId", errors);
}

api::ApiRequest CommandRequest(const char* method, uint64_t applicationId, std::optional<uint64_t> guildId,
                               std::optional<uint64_t> commandId, const ApplicationCommand* command) {
  std::vector<FieldError> errors;
  RequireScope(applicationId, guildId, errors);
  std::string path = CommandsPath(applicationId, guildId);
  if (commandId) {
    RequireId(*commandId, "commandId", errors);
    path += "/" + std::to_string(*commandId);
  }
  std::optional<std::string> body;
  if (command != nullptr) {
    for (auto& error : CheckApplicationCommand(*command, !guildId))
      errors.push_back(std::move(error));
    body = CommandBodyJson(*command);
  }
  return api::ApiRequest(method, std::move(path), std::move(body), std::move(errors));
}

api::ApiRequest OverwriteCommandsRequest(uint64_t applicationId, std::optional<uint64_t> guildId,
                                         const std::vector<ApplicationCommand>& commands) {
  std::vector<FieldError> errors;
  RequireScope(applicationId, guildId, errors);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    for (auto& error : CheckApplicationCommand(commands[i], !guildId)) {
      error.path = std::to_string(i) + (error.path.empty() ? "" : "." + error.path);
      error.message = std::to_string(i) + "." + error.message;
      errors.push_back(std::move(error));
    }
  }
  return api::ApiRequest("PUT", CommandsPath(applicationId, guildId), CommandListJson(commands),
                         std::move(errors));
}

// ---- Interactions

// An interaction token goes in the path: URL-safe text only (the platform's tokens are). The error never
// quotes it.
void RequireToken(const std::string& token, std::vector<FieldError>& errors) {
  const bool safe = !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.' || c == '~';
  });
  if (!safe) {
    errors.push_back(FieldError{"interactionToken", "BASE_TYPE_INVALID",
                                "interactionToken: must be the interaction's token (URL-safe text)"});
  }
}

api::ApiRequest CallbackRequest(uint64_t interactionId, const std::string& token,
                                const InteractionResponse& response) {
  std::vector<FieldError> errors;
  RequireId(interactionId, "interactionId", errors);
  RequireToken(token, errors);
  for (auto& error : CheckInteractionResponse(response))
    errors.push_back(std::move(error));
  EncodedBody body = InteractionResponseBody(response);
  api::ApiRequest request("POST",
                          "/interactions/" + std::to_string(interactionId) + "/" + token + "/callback",
                          std::move(body.body), std::move(errors));
  request.contentType = std::move(body.contentType);
  request.anonymous = true;
  return request;
}

// A message route's request: with `payload`, checked (CheckMessagePayload as `use`, as an interaction's
// message or a channel message) and sent as JSON, or as multipart/form-data when it has files; without,
// no body. `errors` holds the path's checks already.
api::ApiRequest MessageRequest(const char* method, std::string path, const MessagePayload* payload,
                               MessagePayloadUse use, bool interaction, std::vector<FieldError> errors) {
  if (payload == nullptr) return api::ApiRequest(method, std::move(path), std::nullopt, std::move(errors));
  for (auto& error : CheckMessagePayload(*payload, use, interaction))
    errors.push_back(std::move(error));
  json::Document holder;
  EncodedBody body =
      EncodeBody(json::Serialize(MessagePayloadValue(*payload, holder.GetAllocator())), payload->files);
  api::ApiRequest request(method, std::move(path), std::move(body.body), std::move(errors));
  request.contentType = std::move(body.contentType);
  return request;
}

// "/webhooks/{application}/{token}" and, with `message`, "/messages/{message}" after it.
api::ApiRequest WebhookRequest(const char* method, uint64_t applicationId, const std::string& token,
                               const std::string& message, const MessagePayload* payload,
                               MessagePayloadUse use) {
  std::vector<FieldError> errors;
  RequireApplicationId(applicationId, errors);
  RequireToken(token, errors);
  std::string path = "/webhooks/" + std::to_string(applicationId) + "/" + token;
  if (!message.empty()) path += "/messages/" + message;
  api::ApiRequest request = MessageRequest(method, std::move(path), payload, use, true, std::move(errors));
  request.anonymous = true;
  return request;
}

std::string FollowupId(uint64_t messageId, std::vector<FieldError>& errors) {
  RequireId(messageId, "messageId", errors);
  return std::to_string(messageId);
}

api::ApiRequest FollowupRequest(const char* method, uint64_t applicationId, const std::string& token,
                                uint64_t messageId, const MessagePayload* payload) {
  std::vector<FieldError> errors;
  std::string id = FollowupId(messageId, errors);
  api::ApiRequest request =
      WebhookRequest(method, applicationId, token, id, payload, MessagePayloadUse::Edit);
  for (auto& error : errors)
    request.violations.push_back(std::move(error));
  return request;
}

// ---- Channel messages (the bot's; Authorization: Bot)

constexpr int32_t kMaxMessagesPageLimit = 100;

// "/channels/{channel}/messages" and, with `messageId`, "/{message}" after it.
std::string ChannelMessagesPath(uint64_t channelId, std::optional<uint64_t> messageId,
                                std::vector<FieldError>& errors) {
  RequireId(channelId, "channelId", errors);
  std::string path = "/channels/" + std::to_string(channelId) + "/messages";
  if (messageId) {
    RequireId(*messageId, "messageId", errors);
    path += "/" + std::to_string(*messageId);
  }
  return path;
}

api::ApiRequest ChannelMessageRequest(const char* method, uint64_t channelId,
                                      std::optional<uint64_t> messageId, const MessagePayload* payload,
                                      MessagePayloadUse use) {
  std::vector<FieldError> errors;
  std::string path = ChannelMessagesPath(channelId, messageId, errors);
  return MessageRequest(method, std::move(path), payload, use, false, std::move(errors));
}

api::ApiRequest ListMessagesRequest(uint64_t channelId, const MessageQuery& query) {
  std::vector<FieldError> errors;
  std::string path = ChannelMessagesPath(channelId, std::nullopt, errors);
  if (query.limit < 1 || query.limit > kMaxMessagesPageLimit) {
    errors.push_back(FieldError{"limit", "NUMBER_TYPE_OUT_OF_RANGE",
                                "limit: must be 1 to " + std::to_string(kMaxMessagesPageLimit)});
  }
  const int anchors = (query.before ? 1 : 0) + (query.after ? 1 : 0) + (query.around ? 1 : 0);
  if (anchors > 1) {
    // The platform would take one and ignore the others: a page other than the one asked for.
    errors.push_back(
        FieldError{"before", "BASE_TYPE_INVALID", "before, after, around: at most one of them may be set"});
  }
  if (query.before) RequireId(*query.before, "before", errors);
  if (query.after) RequireId(*query.after, "after", errors);
  if (query.around) RequireId(*query.around, "around", errors);
  std::string parameters;
  AddQuery(parameters, "before", query.before);
  AddQuery(parameters, "after", query.after);
  AddQuery(parameters, "around", query.around);
  AddQuery(parameters, "limit", std::to_string(query.limit));
  return api::ApiRequest("GET", path + parameters, std::nullopt, std::move(errors));
}

// ---- A guild's roles (the bot's; Authorization: Bot)

// "/guilds/{guild}/roles" and, with `roleId`, "/{role}" after it.
std::string RolesPath(uint64_t guildId, std::optional<uint64_t> roleId, std::vector<FieldError>& errors) {
  RequireId(guildId, "guildId", errors);
  std::string path = "/guilds/" + std::to_string(guildId) + "/roles";
  if (roleId) {
    RequireId(*roleId, "roleId", errors);
    path += "/" + std::to_string(*roleId);
  }
  return path;
}

// A role route's request: with `changes`, checked (CheckRoleChanges) and sent as JSON; without, no body.
api::ApiRequest RoleRequest(const char* method, uint64_t guildId, std::optional<uint64_t> roleId,
                            const RoleChanges* changes, const std::string& reason = {}) {
  std::vector<FieldError> errors;
  std::string path = RolesPath(guildId, roleId, errors);
  if (changes == nullptr) {
    api::ApiRequest request(method, std::move(path), std::nullopt, std::move(errors));
    AddAuditLogReason(request, reason);
    return request;
  }
  for (auto& error : CheckRoleChanges(*changes))
    errors.push_back(std::move(error));
  api::ApiRequest request(method, std::move(path), RoleChangesBody(*changes), std::move(errors));
  AddAuditLogReason(request, reason);
  return request;
}

api::ApiRequest RoleMemberCountsRequest(uint64_t guildId) {
  std::vector<FieldError> errors;
  std::string path = RolesPath(guildId, std::nullopt, errors) + "/member-counts";
  return api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors));
}

api::ApiRequest RolePositionsRequest(uint64_t guildId,
                                     const std::vector<std::pair<uint64_t, int32_t>>& positions,
                                     const std::string& reason) {
  std::vector<FieldError> errors;
  std::string path = RolesPath(guildId, std::nullopt, errors);
  // An empty list would change nothing but still cost a request and an answer of every role.
  if (positions.empty())
    errors.push_back(FieldError{"positions", "BASE_TYPE_REQUIRED", "positions: at least one role to move"});
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const std::string index = std::to_string(i);
    RequireId(positions[i].first, index + ".id", errors);
    // @everyone keeps position 0: the platform refuses anything below 1.
    if (positions[i].second < 1) {
      errors.push_back(
          FieldError{index + ".position", "NUMBER_TYPE_MIN", index + ".position: must be at least 1"});
    }
  }
  api::ApiRequest request("PATCH", std::move(path), RolePositionsBody(positions), std::move(errors));
  AddAuditLogReason(request, reason);
  return request;
}

}  // namespace

class BackendClient::Impl {
 public:
  explicit Impl(const BackendOptions& options)
      : api(CoreOptions(options), "Bot " + options.botToken, options.botToken),
        applicationId(options.applicationId),
        botToken(options.botToken) {
    api.Http().SetTimeout(options.httpTimeout);
  }

  api::ApiSession api;
  uint64_t applicationId;
  std::string botToken;
};

BackendClient::BackendClient(const BackendOptions& options) : impl_(std::make_shared<Impl>(options)) {}

std::shared_ptr<core::Logger> BackendAccess::LoggerOf(const BackendClient& backend) noexcept {
  return backend.impl_ ? backend.impl_->api.Runtime().LoggerPtr() : nullptr;
}

std::string BackendAccess::BotTokenOf(const BackendClient& backend) {
  return backend.impl_ ? backend.impl_->botToken : std::string();
}

api::ApiSession* BackendAccess::SessionOf(BackendClient& backend) noexcept {
  return backend.impl_ ? &backend.impl_->api : nullptr;
}

uint64_t BackendAccess::ApplicationIdOf(const BackendClient& backend) noexcept {
  return backend.impl_ ? backend.impl_->applicationId : 0;
}

BackendClient::~BackendClient() {
  if (impl_) impl_->api.FinishShutdown();
}

BackendClient::BackendClient(BackendClient&&) noexcept = default;

BackendClient& BackendClient::operator=(BackendClient&& other) noexcept {
  if (this != &other) {
    if (impl_) impl_->api.FinishShutdown();
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void BackendClient::RunCallbacks() {
  if (impl_) impl_->api.RunCallbacks();
}

bool BackendClient::WaitForCallbacks(int32_t timeoutMilliseconds) {
  if (!impl_) return false;
  return impl_->api.WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

void BackendClient::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  if (impl_) impl_->api.Log().AddCallback(std::move(callback), minSeverity);
}

// --- Lobbies and messages
// -----------------------------------------------------------------------------------

void BackendClient::CreateLobby(const LobbyArgs& args, LobbyCallback callback) {
  if (impl_)
    impl_->api.Perform<Lobby>(std::move(callback), CreateLobbyRequest(args), "not a lobby", DecodeLobby);
}

void BackendClient::GetLobby(uint64_t lobbyId, LobbyCallback callback) {
  if (impl_)
    impl_->api.Perform<Lobby>(std::move(callback), GetLobbyRequest(lobbyId), "not a lobby", DecodeLobby);
}

void BackendClient::UpdateLobby(uint64_t lobbyId, const LobbyArgs& args, LobbyCallback callback) {
  if (impl_)
    impl_->api.Perform<Lobby>(std::move(callback), UpdateLobbyRequest(lobbyId, args), "not a lobby",
                              DecodeLobby);
}

void BackendClient::DeleteLobby(uint64_t lobbyId, ResultCallback callback) {
  if (impl_) impl_->api.Perform(std::move(callback), DeleteLobbyRequest(lobbyId));
}

void BackendClient::AddLobbyMember(uint64_t lobbyId, const LobbyMemberArgs& member, MemberCallback callback) {
  if (impl_) {
    impl_->api.Perform<LobbyMember>(std::move(callback), AddMemberRequest(lobbyId, member),
                                    "not a lobby member", DecodeMember);
  }
}

void BackendClient::RemoveLobbyMember(uint64_t lobbyId, uint64_t userId, ResultCallback callback) {
  if (impl_) impl_->api.Perform(std::move(callback), RemoveMemberRequest(lobbyId, userId));
}

// (The public signature takes the list by value; the request builder only reads it.)
void BackendClient::BulkUpdateLobbyMembers(uint64_t lobbyId,
                                           std::vector<LobbyMemberArgs> members,  // NOLINT(performance-*)
                                           MembersCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<LobbyMember>>(std::move(callback),
                                                 BulkUpdateMembersRequest(lobbyId, members),
                                                 "not a list of lobby members", DecodeMembers);
  }
}

void BackendClient::SetLobbyLinkedChannel(uint64_t lobbyId, std::optional<uint64_t> channelId,
                                          LobbyCallback callback) {
  if (impl_) {
    impl_->api.Perform<Lobby>(std::move(callback), LinkedChannelRequest(lobbyId, channelId), "not a lobby",
                              DecodeLobby);
  }
}

void BackendClient::CreateLinkedLobbyGuildInviteForUser(uint64_t lobbyId, uint64_t userId,
                                                        InviteCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::string>(std::move(callback), GuildInviteRequest(lobbyId, userId),
                                    "no invite code", DecodeInviteCode);
  }
}

void BackendClient::SetLobbyMessageModerationMetadata(uint64_t lobbyId, uint64_t messageId,
                                                      const Metadata& metadata, ResultCallback callback) {
  if (impl_) impl_->api.Perform(std::move(callback), LobbyModerationRequest(lobbyId, messageId, metadata));
}

void BackendClient::SetUserMessageModerationMetadata(uint64_t userId1, uint64_t userId2, uint64_t messageId,
                                                     const Metadata& metadata, ResultCallback callback) {
  if (impl_)
    impl_->api.Perform(std::move(callback), UserModerationRequest(userId1, userId2, messageId, metadata));
}

// --- Provisional accounts and the Game Stats Widget
// ---------------------------------------------------------

// (The public signature takes the name by value; the request builder only reads it.)
void BackendClient::GetProvisionalToken(
    const std::string& externalUserId,
    std::optional<std::string> preferredGlobalName,  // NOLINT(performance-*)
    ProvisionalTokenCallback callback) {
  if (!impl_) return;
  // The issued tokens join the secrets before the callback can log them.
  auto decode = [logger = impl_->api.Runtime().LoggerPtr()](
                    const json::Value& value) -> std::optional<ProvisionalToken> {
    auto access = json::GetString(value, "access_token");
    if (!access || access->empty()) return std::nullopt;
    ProvisionalToken token;
    token.accessToken = std::string(*access);
    token.tokenType = std::string(json::GetString(value, "token_type").value_or(""));
    auto expiresIn = json::GetInt(value, "expires_in").value_or(0);
    token.expiresIn = expiresIn > 0 && expiresIn <= INT32_MAX ? static_cast<int32_t>(expiresIn) : 0;
    token.scopes = std::string(json::GetString(value, "scope").value_or(""));
    token.idToken = std::string(json::GetString(value, "id_token").value_or(""));
    logger->Secrets().AddSecret(token.accessToken);
    logger->Secrets().AddSecret(token.idToken);
    return token;
  };
  impl_->api.Perform<ProvisionalToken>(std::move(callback),
                                       ProvisionalTokenRequest(externalUserId, preferredGlobalName),
                                       "no access_token", std::move(decode));
}

void BackendClient::UpdateGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                                           const GameStatsProfile& profile, ResultCallback callback) {
  // 201 with the profile on the first write, 204 afterwards: both are success.
  if (impl_) {
    impl_->api.Perform(std::move(callback),
                       UpdateProfileRequest(impl_->applicationId, userId, providerIssuedUserId, profile));
  }
}

void BackendClient::GetGameStatsProfile(uint64_t userId, const std::string& providerIssuedUserId,
                                        GameStatsProfileCallback callback) {
  if (impl_) {
    impl_->api.Perform<GameStatsProfile>(
        std::move(callback), GetProfileRequest(impl_->applicationId, userId, providerIssuedUserId),
        "not an application identity profile", game_stats::ParseProfile);
  }
}

// --- Premium apps
// -------------------------------------------------------------------------------------------

void BackendClient::ListSkus(SkusCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<Sku>>(std::move(callback), ListSkusRequest(impl_->applicationId),
                                         "not a list of SKUs", ListOf<Sku>(premium::ParseSku));
  }
}

void BackendClient::ListEntitlements(const EntitlementFilters& filters, EntitlementsCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<Entitlement>>(
        std::move(callback), ListEntitlementsRequest(impl_->applicationId, filters),
        "not a list of entitlements", ListOf<Entitlement>(premium::ParseEntitlement));
  }
}

void BackendClient::GetEntitlement(uint64_t entitlementId, EntitlementCallback callback) {
  if (impl_) {
    impl_->api.Perform<Entitlement>(std::move(callback),
                                    EntitlementRequest("GET", impl_->applicationId, entitlementId),
                                    "not an entitlement", premium::ParseEntitlement);
  }
}

void BackendClient::ConsumeEntitlement(uint64_t entitlementId, ResultCallback callback) {
  if (impl_) {
    impl_->api.Perform(std::move(callback),
                       EntitlementRequest("POST", impl_->applicationId, entitlementId, "/consume"));
  }
}

void BackendClient::CreateTestEntitlement(uint64_t skuId, uint64_t ownerId, EntitlementOwnerType ownerType,
                                          EntitlementCallback callback) {
  if (impl_) {
    impl_->api.Perform<Entitlement>(
        std::move(callback), CreateTestEntitlementRequest(impl_->applicationId, skuId, ownerId, ownerType),
        "not an entitlement", premium::ParseEntitlement);
  }
}

void BackendClient::DeleteTestEntitlement(uint64_t entitlementId, ResultCallback callback) {
  if (impl_)
    impl_->api.Perform(std::move(callback),
                       EntitlementRequest("DELETE", impl_->applicationId, entitlementId));
}

void BackendClient::ListSkuSubscriptions(uint64_t skuId, const SubscriptionFilters& filters,
                                         SubscriptionsCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<Subscription>>(
        std::move(callback), ListSubscriptionsRequest(skuId, filters), "not a list of subscriptions",
        ListOf<Subscription>(premium::ParseSubscription));
  }
}

void BackendClient::GetSkuSubscription(uint64_t skuId, uint64_t subscriptionId,
                                       SubscriptionCallback callback) {
  if (impl_) {
    impl_->api.Perform<Subscription>(std::move(callback), GetSubscriptionRequest(skuId, subscriptionId),
                                     "not a subscription", premium::ParseSubscription);
  }
}

// --- Application commands
// ------------------------------------------------------------------------------------------

void BackendClient::ListCommands(std::optional<uint64_t> guildId, CommandsCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<ApplicationCommand>>(
        std::move(callback), CommandRequest("GET", impl_->applicationId, guildId, std::nullopt, nullptr),
        "not a list of commands", ParseCommands);
  }
}

void BackendClient::GetCommand(std::optional<uint64_t> guildId, uint64_t commandId,
                               CommandCallback callback) {
  if (impl_) {
    impl_->api.Perform<ApplicationCommand>(
        std::move(callback), CommandRequest("GET", impl_->applicationId, guildId, commandId, nullptr),
        "not a command", ParseCommand);
  }
}

void BackendClient::CreateCommand(std::optional<uint64_t> guildId, const ApplicationCommand& command,
                                  CommandCallback callback) {
  if (impl_) {
    impl_->api.Perform<ApplicationCommand>(
        std::move(callback), CommandRequest("POST", impl_->applicationId, guildId, std::nullopt, &command),
        "not a command", ParseCommand);
  }
}

void BackendClient::EditCommand(std::optional<uint64_t> guildId, uint64_t commandId,
                                const ApplicationCommand& command, CommandCallback callback) {
  if (impl_) {
    impl_->api.Perform<ApplicationCommand>(
        std::move(callback), CommandRequest("PATCH", impl_->applicationId, guildId, commandId, &command),
        "not a command", ParseCommand);
  }
}

void BackendClient::DeleteCommand(std::optional<uint64_t> guildId, uint64_t commandId,
                                  ResultCallback callback) {
  if (impl_)
    impl_->api.Perform(std::move(callback),
                       CommandRequest("DELETE", impl_->applicationId, guildId, commandId, nullptr));
}

void BackendClient::BulkOverwriteCommands(std::optional<uint64_t> guildId,
                                          const std::vector<ApplicationCommand>& commands,
                                          CommandsCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<ApplicationCommand>>(
        std::move(callback), OverwriteCommandsRequest(impl_->applicationId, guildId, commands),
        "not a list of commands", ParseCommands);
  }
}

// --- Interactions
// ------------------------------------------------------------------------------------------------

void BackendClient::CreateInteractionResponse(uint64_t interactionId, const std::string& interactionToken,
                                              const InteractionResponse& response, ResultCallback callback) {
  if (impl_)
    impl_->api.Perform(std::move(callback), CallbackRequest(interactionId, interactionToken, response));
}

void BackendClient::GetOriginalResponse(const std::string& interactionToken, MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(std::move(callback),
                                       WebhookRequest("GET", impl_->applicationId, interactionToken,
                                                      "@original", nullptr, MessagePayloadUse::Edit),
                                       "not a message", ParseMessage);
  }
}

void BackendClient::EditOriginalResponse(const std::string& interactionToken, const MessagePayload& changes,
                                         MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(std::move(callback),
                                       WebhookRequest("PATCH", impl_->applicationId, interactionToken,
                                                      "@original", &changes, MessagePayloadUse::Edit),
                                       "not a message", ParseMessage);
  }
}

void BackendClient::DeleteOriginalResponse(const std::string& interactionToken, ResultCallback callback) {
  if (impl_) {
    impl_->api.Perform(std::move(callback), WebhookRequest("DELETE", impl_->applicationId, interactionToken,
                                                           "@original", nullptr, MessagePayloadUse::Edit));
  }
}

void BackendClient::CreateFollowup(const std::string& interactionToken, const MessagePayload& message,
                                   MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(std::move(callback),
                                       WebhookRequest("POST", impl_->applicationId, interactionToken, "",
                                                      &message, MessagePayloadUse::Create),
                                       "not a message", ParseMessage);
  }
}

void BackendClient::GetFollowup(const std::string& interactionToken, uint64_t messageId,
                                MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(
        std::move(callback),
        FollowupRequest("GET", impl_->applicationId, interactionToken, messageId, nullptr), "not a message",
        ParseMessage);
  }
}

void BackendClient::EditFollowup(const std::string& interactionToken, uint64_t messageId,
                                 const MessagePayload& changes, MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(
        std::move(callback),
        FollowupRequest("PATCH", impl_->applicationId, interactionToken, messageId, &changes),
        "not a message", ParseMessage);
  }
}

void BackendClient::DeleteFollowup(const std::string& interactionToken, uint64_t messageId,
                                   ResultCallback callback) {
  if (impl_) {
    impl_->api.Perform(std::move(callback),
                       FollowupRequest("DELETE", impl_->applicationId, interactionToken, messageId, nullptr));
  }
}

// --- Channel messages
// -------------------------------------------------------------------------------------------

void BackendClient::CreateMessage(uint64_t channelId, const MessagePayload& message,
                                  MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(
        std::move(callback),
        ChannelMessageRequest("POST", channelId, std::nullopt, &message, MessagePayloadUse::Create),
        "not a message", ParseMessage);
  }
}

void BackendClient::ForwardMessage(uint64_t channelId, uint64_t sourceChannelId, uint64_t messageId,
                                   MessageCallback callback) {
  // CheckMessagePayload refuses a forward without its channel or message id, before anything is sent.
  CreateMessage(channelId, MessagePayload::Forward(sourceChannelId, messageId), std::move(callback));
}

void BackendClient::GetMessage(uint64_t channelId, uint64_t messageId, MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(
        std::move(callback),
        ChannelMessageRequest("GET", channelId, messageId, nullptr, MessagePayloadUse::Edit), "not a message",
        ParseMessage);
  }
}

void BackendClient::GetMessages(uint64_t channelId, const MessageQuery& query, MessagesCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<ChannelMessage>>(
        std::move(callback), ListMessagesRequest(channelId, query), "not a list of messages",
        ListOf<ChannelMessage>(ParseMessage));
  }
}

void BackendClient::EditMessage(uint64_t channelId, uint64_t messageId, const MessagePayload& changes,
                                MessageCallback callback) {
  if (impl_) {
    impl_->api.Perform<ChannelMessage>(
        std::move(callback),
        ChannelMessageRequest("PATCH", channelId, messageId, &changes, MessagePayloadUse::Edit),
        "not a message", ParseMessage);
  }
}

void BackendClient::DeleteMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                                  const std::string& reason) {
  if (impl_) {
    api::ApiRequest request =
        ChannelMessageRequest("DELETE", channelId, messageId, nullptr, MessagePayloadUse::Edit);
    AddAuditLogReason(request, reason);
    impl_->api.Perform(std::move(callback), std::move(request));
  }
}

// --- A guild's roles --------------------------------------------------------------------------------------

void BackendClient::GetRoles(uint64_t guildId, RolesCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::vector<Role>>(std::move(callback),
                                          RoleRequest("GET", guildId, std::nullopt, nullptr),
                                          "not a list of roles", ListOf<Role>(ParseRoleValue));
  }
}

void BackendClient::GetRole(uint64_t guildId, uint64_t roleId, RoleCallback callback) {
  if (impl_) {
    impl_->api.Perform<Role>(std::move(callback), RoleRequest("GET", guildId, roleId, nullptr), "not a role",
                             ParseRoleValue);
  }
}

void BackendClient::GetRoleMemberCounts(uint64_t guildId, RoleMemberCountsCallback callback) {
  if (impl_) {
    impl_->api.Perform<std::map<uint64_t, uint64_t>>(std::move(callback), RoleMemberCountsRequest(guildId),
                                                     "not role member counts", ParseRoleMemberCounts);
  }
}

void BackendClient::CreateRole(uint64_t guildId, const RoleChanges& changes, RoleCallback callback,
                               const std::string& reason) {
  if (impl_) {
    impl_->api.Perform<Role>(std::move(callback),
                             RoleRequest("POST", guildId, std::nullopt, &changes, reason), "not a role",
                             ParseRoleValue);
  }
}

void BackendClient::ModifyRole(uint64_t guildId, uint64_t roleId, const RoleChanges& changes,
                               RoleCallback callback, const std::string& reason) {
  if (impl_) {
    impl_->api.Perform<Role>(std::move(callback), RoleRequest("PATCH", guildId, roleId, &changes, reason),
                             "not a role", ParseRoleValue);
  }
}

void BackendClient::ModifyRolePositions(uint64_t guildId,
                                        const std::vector<std::pair<uint64_t, int32_t>>& positions,
                                        RolesCallback callback, const std::string& reason) {
  if (impl_) {
    impl_->api.Perform<std::vector<Role>>(std::move(callback),
                                          RolePositionsRequest(guildId, positions, reason),
                                          "not a list of roles", ListOf<Role>(ParseRoleValue));
  }
}

void BackendClient::DeleteRole(uint64_t guildId, uint64_t roleId, ResultCallback callback,
                               const std::string& reason) {
  if (impl_) impl_->api.Perform(std::move(callback), RoleRequest("DELETE", guildId, roleId, nullptr, reason));
}

}  // namespace platformpp::backend
