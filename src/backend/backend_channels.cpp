// BackendClient's guild channel, voice, invite and search calls (backend.hpp): each call's route, query, body
// and checks, then the API session's one line. Kept apart from backend_guild.cpp (members, pins, audit log);
// the session is reached through BackendAccess.
#include "api/api_session.hpp"
#include "backend/audit_log_json.hpp"
#include "backend/backend_access.hpp"
#include "backend/channel_json.hpp"
#include "backend/invite_json.hpp"
#include "backend/request_parts.hpp"
#include "backend/search_json.hpp"
#include "net/http_result.hpp"
#include "premium/premium_json.hpp"

#include <platformpp/backend.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::backend {
namespace {

// "/channels/{channel}" and `rest` after it.
std::string ChannelPath(uint64_t channelId, const char* rest, std::vector<FieldError>& errors) {
  RequireId(channelId, "channelId", errors);
  return "/channels/" + std::to_string(channelId) + rest;
}

// "/invites/{code}" and `rest` after it. A code is letters, digits, '-' and '_': anything else would change
// the path, so it is refused here.
std::string InvitePath(const std::string& code, const char* rest, std::vector<FieldError>& errors) {
  bool valid = !code.empty();
  for (char c : code) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    valid = valid && (alnum || c == '-' || c == '_');
  }
  if (!valid) {
    errors.push_back(FieldError{"code", "INVITE_CODE_INVALID", "code: letters, digits, '-' and '_' only"});
  }
  return "/invites/" + code + rest;
}

std::optional<std::vector<Invite>> ParseInvites(const json::Value& value) {
  return premium::ParseList<Invite>(value, ParseInviteValue);
}

}  // namespace

// --- A guild's channels -----------------------------------------------------------------------------------

void BackendClient::GetChannel(uint64_t channelId, ChannelCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "", errors);
    api->Perform<Channel>(std::move(callback),
                          api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                          "not a channel", ParseChannelValue);
  }
}

void BackendClient::CreateGuildChannel(uint64_t guildId, const ChannelChanges& changes,
                                       ChannelCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(guildId, "guildId", errors);
    std::string path = "/guilds/" + std::to_string(guildId) + "/channels";
    for (auto& error : CheckChannelChanges(changes, true))
      errors.push_back(std::move(error));
    api->Perform<Channel>(
        std::move(callback),
        AuditedRequest("POST", std::move(path), ChannelChangesBody(changes), std::move(errors), reason),
        "not a channel", ParseChannelValue);
  }
}

void BackendClient::ModifyChannel(uint64_t channelId, const ChannelChanges& changes, ChannelCallback callback,
                                  const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "", errors);
    for (auto& error : CheckChannelChanges(changes, false))
      errors.push_back(std::move(error));
    api->Perform<Channel>(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), ChannelChangesBody(changes), std::move(errors), reason),
        "not a channel", ParseChannelValue);
  }
}

void BackendClient::ModifyGuildChannelPositions(uint64_t guildId,
                                                const std::vector<ChannelPosition>& positions,
                                                ResultCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(guildId, "guildId", errors);
    std::string path = "/guilds/" + std::to_string(guildId) + "/channels";
    if (positions.empty())
      errors.push_back(FieldError{"positions", "BASE_TYPE_REQUIRED", "positions: empty"});
    for (std::size_t i = 0; i < positions.size(); ++i) {
      RequireId(positions[i].id, std::to_string(i) + ".id", errors);
      if (positions[i].position && *positions[i].position < 0) {
        const std::string at = std::to_string(i) + ".position";
        errors.push_back(FieldError{at, "NUMBER_TYPE_MIN", at + ": must be at least 0"});
      }
    }
    api->Perform(
        std::move(callback),
        AuditedRequest("PATCH", std::move(path), ChannelPositionsBody(positions), std::move(errors), reason));
  }
}

void BackendClient::DeleteChannel(uint64_t channelId, ChannelCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "", errors);
    api->Perform<Channel>(std::move(callback),
                          AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason),
                          "not a channel", ParseChannelValue);
  }
}

void BackendClient::EditChannelPermissions(uint64_t channelId, const PermissionOverwrite& overwrite,
                                           ResultCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "/permissions/", errors);
    RequireId(overwrite.id, "overwriteId", errors);
    path += std::to_string(overwrite.id);
    api->Perform(std::move(callback),
                 AuditedRequest("PUT", std::move(path), OverwriteBody(overwrite), std::move(errors), reason));
  }
}

void BackendClient::DeleteChannelPermission(uint64_t channelId, uint64_t overwriteId, ResultCallback callback,
                                            const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "/permissions/", errors);
    RequireId(overwriteId, "overwriteId", errors);
    path += std::to_string(overwriteId);
    api->Perform(std::move(callback),
                 AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason));
  }
}

// --- Voice ------------------------------------------------------------------------------------------------

void BackendClient::GetCurrentUserVoiceState(uint64_t guildId, VoiceStateCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(guildId, "guildId", errors);
    std::string path = "/guilds/" + std::to_string(guildId) + "/voice-states/@me";
    api->Perform<VoiceState>(std::move(callback),
                             api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                             "not a voice state", ParseVoiceStateValue);
  }
}

void BackendClient::GetUserVoiceState(uint64_t guildId, uint64_t userId, VoiceStateCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(guildId, "guildId", errors);
    RequireId(userId, "userId", errors);
    std::string path = "/guilds/" + std::to_string(guildId) + "/voice-states/" + std::to_string(userId);
    api->Perform<VoiceState>(std::move(callback),
                             api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                             "not a voice state", ParseVoiceStateValue);
  }
}

void BackendClient::SetVoiceChannelStatus(uint64_t channelId, const std::string& status,
                                          ResultCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "/voice-status", errors);
    for (auto& error : CheckVoiceChannelStatus(status))
      errors.push_back(std::move(error));
    api->Perform(std::move(callback),
                 AuditedRequest("PUT", std::move(path), VoiceStatusBody(status), std::move(errors), reason));
  }
}

// --- Invites ----------------------------------------------------------------------------------------------

void BackendClient::CreateChannelInvite(uint64_t channelId, const InviteArgs& args,
                                        GuildInviteCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "/invites", errors);
    for (auto& error : CheckInviteArgs(args))
      errors.push_back(std::move(error));
    EncodedBody body = InviteArgsBody(args);
    api::ApiRequest request =
        AuditedRequest("POST", std::move(path), std::move(body.body), std::move(errors), reason);
    request.contentType = std::move(body.contentType);
    api->Perform<Invite>(std::move(callback), std::move(request), "not an invite", ParseInviteValue);
  }
}

void BackendClient::GetChannelInvites(uint64_t channelId, GuildInvitesCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = ChannelPath(channelId, "/invites", errors);
    api->Perform<std::vector<Invite>>(
        std::move(callback), api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
        "not a list of invites", ParseInvites);
  }
}

void BackendClient::GetInvite(const std::string& code, bool withCounts, GuildInviteCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = InvitePath(code, withCounts ? "?with_counts=true" : "", errors);
    api->Perform<Invite>(std::move(callback),
                         api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                         "not an invite", ParseInviteValue);
  }
}

void BackendClient::DeleteInvite(const std::string& code, GuildInviteCallback callback,
                                 const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = InvitePath(code, "", errors);
    api->Perform<Invite>(std::move(callback),
                         AuditedRequest("DELETE", std::move(path), std::nullopt, std::move(errors), reason),
                         "not an invite", ParseInviteValue);
  }
}

void BackendClient::GetInviteTargetUsers(const std::string& code, InviteTargetUsersCallback callback) {
  auto* api = BackendAccess::SessionOf(*this);
  if (api == nullptr) return;
  auto done = api->Start<std::vector<uint64_t>>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  std::string path = InvitePath(code, "/target-users", errors);
  // The answer is CSV, not JSON: read from the raw exchange.
  auto shared = std::make_shared<core::Completion<std::vector<uint64_t>>>(std::move(*done));
  api->Exchange(api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
                [shared](ClientResult refused, const net::HttpResponse& response) {
                  if (!refused.Successful()) return (*shared)(std::move(refused), {});
                  ClientResult result = net::ResultOf(response);
                  if (!result.Successful()) return (*shared)(std::move(result), {});
                  auto ids = ParseInviteTargetUsersCsv(response.body);
                  if (!ids) return (*shared)(api::ApiSession::MalformedAnswer("not a target users CSV"), {});
                  (*shared)({}, std::move(*ids));
                });
}

void BackendClient::UpdateInviteTargetUsers(const std::string& code, const std::vector<uint64_t>& userIds,
                                            ResultCallback callback, const std::string& reason) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = InvitePath(code, "/target-users", errors);
    if (userIds.empty()) {
      errors.push_back(
          FieldError{"target_users_file", "BASE_TYPE_REQUIRED", "target_users_file: no user ids"});
    }
    for (std::size_t i = 0; i < userIds.size(); ++i)
      RequireId(userIds[i], "target_users_file." + std::to_string(i), errors);
    EncodedBody body = TargetUsersBody(userIds);
    api::ApiRequest request =
        AuditedRequest("PUT", std::move(path), std::move(body.body), std::move(errors), reason);
    request.contentType = std::move(body.contentType);
    api->Perform(std::move(callback), std::move(request));
  }
}

void BackendClient::GetInviteTargetUsersJobStatus(const std::string& code,
                                                  InviteTargetUsersJobCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    std::string path = InvitePath(code, "/target-users/job-status", errors);
    api->Perform<InviteTargetUsersJob>(
        std::move(callback), api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
        "not a target users job status", ParseInviteTargetUsersJobValue);
  }
}

// --- Search -----------------------------------------------------------------------------------------------

void BackendClient::SearchGuildMessages(uint64_t guildId, const MessageSearchQuery& query,
                                        MessageSearchCallback callback) {
  if (auto* api = BackendAccess::SessionOf(*this)) {
    std::vector<FieldError> errors;
    RequireId(guildId, "guildId", errors);
    for (auto& error : CheckMessageSearchQuery(query))
      errors.push_back(std::move(error));
    std::string path =
        "/guilds/" + std::to_string(guildId) + "/messages/search" + MessageSearchQueryString(query);
    api->Perform<MessageSearchResult>(
        std::move(callback), api::ApiRequest("GET", std::move(path), std::nullopt, std::move(errors)),
        "not a search result", ParseMessageSearchResultValue);
  }
}

}  // namespace platformpp::backend
