// BackendClient's guild member, prune, pin and audit log calls (backend.hpp): each call's route, query, body
// and checks, then the API session's one line. Kept apart from backend_client.cpp, which has the lobby,
// premium, interaction, message and role calls; the session is reached through BackendAccess.
#include "api/api_session.hpp"
#include "backend/audit_log_json.hpp"
#include "backend/backend_access.hpp"
#include "backend/member_json.hpp"
#include "backend/pin_json.hpp"
#include "backend/request_parts.hpp"
#include "json/timestamp.hpp"
#include "net/url.hpp"
#include "premium/premium_json.hpp"

#include <platformpp/backend.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::backend {
namespace {

void CheckRange(int64_t value, int64_t min, int64_t max, const char* path, std::vector<FieldError>& errors) {
  if (value < min || value > max) {
    errors.push_back(
        FieldError{path, "NUMBER_TYPE_OUT_OF_RANGE",
                   std::string(path) + ": must be " + std::to_string(min) + " to " + std::to_string(max)});
  }
}

uint64_t NowMs(api::ApiSession& api) {
  auto since = api.Runtime().Now().time_since_epoch();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
  return ms < 0 ? 0 : static_cast<uint64_t>(ms);
}

// "/guilds/{guild}/members" and, with `userId`, "/{user}" after it.
std::string MembersPath(uint64_t guildId, std::optional<uint64_t> userId, std::vector<FieldError>& errors) {
  RequireId(guildId, "guildId", errors);
  std::string path = "/guilds/" + std::to_string(guildId) + "/members";
  if (userId) {
    RequireId(*userId, "userId", errors);
    path += "/" + std::to_string(*userId);
  }
  return path;
}

api::ApiRequest ListMembersRequest(uint64_t guildId, int32_t limit, uint64_t after) {
  std::vector<FieldError> errors;
  std::string path = MembersPath(guildId, std::nullopt, errors);
  CheckRange(limit, 1, member_limits::MaxMembersPage, "limit", errors);
  std::string query;
  AddQuery(query, "limit", std::to_string(limit));
  if (after != 0) AddQuery(query, "after", std::to_string(after));
  return api::ApiRequest("GET", path + query, std::nullopt, std::move(errors));
}

api::ApiRequest MemberRoleRequest(const char* method, uint64_t guildId, uint64_t userId, uint64_t roleId,
                                  const std::string& reason) {
  std::vector<FieldError> errors;
  std::string path = MembersPath(guildId, userId, errors);
  RequireId(roleId, "roleId", errors);
  path += "/roles/" + std::to_string(roleId);
  return AuditedRequest(method, std::move(path), std::nullopt, std::move(errors), reason);
}

std::string PrunePath(uint64_t guildId, const PruneArgs& args, std::vector<FieldError>& errors) {
  RequireId(guildId, "guildId", errors);
  CheckRange(args.days, 1, member_limits::MaxPruneDays, "days", errors);
  for (std::size_t i = 0; i < args.includeRoles.size(); ++i)
    RequireId(args.includeRoles[i], "include_roles." + std::to_string(i), errors);
  return "/guilds/" + std::to_string(guildId) + "/prune";
}

api::ApiRequest PruneCountRequest(uint64_t guildId, const PruneArgs& args) {
  std::vector<FieldError> errors;
  std::string path = PrunePath(guildId, args, errors);
  std::string query;
  AddQuery(query, "days", std::to_string(args.days));
  if (!args.includeRoles.empty()) {
    std::string roles;
    for (uint64_t id : args.includeRoles)
      roles += (roles.empty() ? "" : ",") + std::to_string(id);
    AddQuery(query, "include_roles", net::UrlEncode(roles));
  }
  return api::ApiRequest("GET", path + query, std::nullopt, std::move(errors));
}

// "/channels/{channel}/messages/pins" and, with `messageId`, "/{message}" after it.
std::string PinsPath(uint64_t channelId, std::optional<uint64_t> messageId, std::vector<FieldError>& errors) {
  RequireId(channelId, "channelId", errors);
  std::string path = "/channels/" + std::to_string(channelId) + "/messages/pins";
  if (messageId) {
    RequireId(*messageId, "messageId", errors);
    path += "/" + std::to_string(*messageId);
  }
  return path;
}

api::ApiRequest PinsRequest(uint64_t channelId, const PinsQuery& query) {
  std::vector<FieldError> errors;
  std::string path = PinsPath(channelId, std::nullopt, errors);
  CheckRange(query.limit, 1, pin_limits::MaxPinsPage, "limit", errors);
  std::string parameters;
  if (!query.before.empty()) {
    if (!json::ParseTimestampMs(query.before)) {
      errors.push_back(FieldError{"before", "DATE_TIME_TYPE_PARSE", "before: must be an ISO 8601 time"});
    }
    AddQuery(parameters, "before", net::UrlEncode(query.before));
  }
  AddQuery(parameters, "limit", std::to_string(query.limit));
  return api::ApiRequest("GET", path + parameters, std::nullopt, std::move(errors));
}

api::ApiRequest AuditLogRequest(uint64_t guildId, const AuditLogQuery& query) {
  std::vector<FieldError> errors;
  RequireId(guildId, "guildId", errors);
  std::string path = "/guilds/" + std::to_string(guildId) + "/audit-logs";
  CheckRange(query.limit, 1, audit_log_limits::MaxEntriesPage, "limit", errors);
  std::string parameters;
  if (query.userId) {
    RequireId(*query.userId, "user_id", errors);
    AddQuery(parameters, "user_id", std::to_string(*query.userId));
  }
  if (query.actionType) {
    AddQuery(parameters, "action_type", std::to_string(static_cast<int32_t>(*query.actionType)));
  }
  if (query.before) {
    RequireId(*query.before, "before", errors);
    AddQuery(parameters, "before", std::to_string(*query.before));
  }
  if (query.after) {
    RequireId(*query.after, "after", errors);
    AddQuery(parameters, "after", std::to_string(*query.after));
  }
  AddQuery(parameters, "limit", std::to_string(query.limit));
  return api::ApiRequest("GET", path + parameters, std::nullopt, std::move(errors));
}

std::optional<std::vector<GuildMember>> ParseMembers(const json::Value& value) {
  return premium::ParseList<GuildMember>(value, ParseGuildMemberValue);
}

}  // namespace

// --- A guild's members ------------------------------------------------------------------------------------

void BackendClient::GetMember(uint64_t guildId, uint64_t userId, GuildMemberCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = MembersPath(guildId, userId, errors);
    api->Perform<GuildMember>(std::move(callback),
                              api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                              "not a member", ParseGuildMemberValue);
  }
}

void BackendClient::ListMembers(uint64_t guildId, int32_t limit, uint64_t after,
                                GuildMembersCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    api->Perform<std::vector<GuildMember>>(std::move(callback), ListMembersRequest(guildId, limit, after),
                                           "not a list of members", ParseMembers);
  }
}

void BackendClient::ModifyMember(uint64_t guildId, uint64_t userId, const MemberChanges& changes,
                                 GuildMemberCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = MembersPath(guildId, userId, errors);
    for (auto& error : CheckMemberChanges(changes, NowMs(*api)))
      errors.push_back(std::move(error));
    api->Perform<GuildMember>(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), MemberChangesBody(changes), std::move(errors), reason),
        "not a member", ParseGuildMemberValue);
  }
}

void BackendClient::ModifyCurrentMember(uint64_t guildId, const CurrentMemberChanges& changes,
                                        GuildMemberCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = MembersPath(guildId, std::nullopt, errors) + "/@me";
    for (auto& error : CheckCurrentMemberChanges(changes))
      errors.push_back(std::move(error));
    api->Perform<GuildMember>(std::move(callback),
                              AuditedRequest("PATCH", std::move(path), CurrentMemberChangesBody(changes),
                                             std::move(errors), reason),
                              "not a member", ParseGuildMemberValue);
  }
}

void BackendClient::AddMemberRole(uint64_t guildId, uint64_t userId, uint64_t roleId, ResultCallback callback,
                                  const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this))
    api->Perform(std::move(callback), MemberRoleRequest("PUT", guildId, userId, roleId, reason));
}

void BackendClient::RemoveMemberRole(uint64_t guildId, uint64_t userId, uint64_t roleId,
                                     ResultCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this))
    api->Perform(std::move(callback), MemberRoleRequest("DELETE", guildId, userId, roleId, reason));
}

void BackendClient::RemoveMember(uint64_t guildId, uint64_t userId, ResultCallback callback,
                                 const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = MembersPath(guildId, userId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

void BackendClient::GetPruneCount(uint64_t guildId, const PruneArgs& args, PruneCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    api->Perform<int64_t>(std::move(callback), PruneCountRequest(guildId, args), "not a prune count",
                          ParsePruneCount);
  }
}

void BackendClient::BeginPrune(uint64_t guildId, const PruneArgs& args, PruneCallback callback,
                               const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = PrunePath(guildId, args, errors);
    api->Perform<int64_t>(std::move(callback),
                          AuditedRequest("POST", std::move(path), PruneBody(args), std::move(errors), reason),
                          "not a prune count", ParsePruneCount);
  }
}

// --- A channel's pins -------------------------------------------------------------------------------------

void BackendClient::GetChannelPins(uint64_t channelId, const PinsQuery& query, PinsCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    api->Perform<ChannelPinsPage>(std::move(callback), PinsRequest(channelId, query), "not a page of pins",
                                  ParseChannelPinsPageValue);
  }
}

void BackendClient::PinMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                               const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = PinsPath(channelId, messageId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("PUT", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

void BackendClient::UnpinMessage(uint64_t channelId, uint64_t messageId, ResultCallback callback,
                                 const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = PinsPath(channelId, messageId, errors);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

// --- A guild's audit log ----------------------------------------------------------------------------------

void BackendClient::GetAuditLog(uint64_t guildId, const AuditLogQuery& query, AuditLogCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    api->Perform<AuditLog>(std::move(callback), AuditLogRequest(guildId, query), "not an audit log",
                           ParseAuditLogValue);
  }
}

}  // namespace platformpp::backend
