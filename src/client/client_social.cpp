// Client's relationships, users and guilds: the state comes from the SocialStore (kept by the Gateway), the
// changes go over HTTP (docs/social-protocol.md) and come back as Gateway dispatches.
#include "api/api_session.hpp"
#include "client/client_core.hpp"
#include "core/utf8.hpp"
#include "json/json.hpp"
#include "net/http_result.hpp"
#include "social/social_json.hpp"
#include "social/social_store.hpp"

#include <platformpp/client.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp {
namespace {

using Done = core::Completion<>;

constexpr std::string_view kRelationships = "/users/@me/relationships";
constexpr std::string_view kGameRelationships = "/users/@me/game-relationships";
constexpr int kUnknownRelationship = 10070;

/// One relationship call: 2xx is success, anything else the platform's error.
void SendRelationshipCall(client::ClientCore& core, std::string method, std::string path,
                          std::optional<std::string> body, Done done) {
  core.Api().Send(api::ApiRequest(std::move(method), std::move(path), std::move(body)), std::move(done));
}

std::string UsernameBody(std::string_view username) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("username",
                 json::Value(username.data(), static_cast<rapidjson::SizeType>(username.size()), a), a);
  return json::Serialize(body);
}

// A user id the player may act on; the error otherwise.
std::optional<ClientResult> CheckUserId(client::ClientCore& core, uint64_t userId) {
  if (userId == 0) return ClientResult::Failure(ErrorType::ValidationError, "userId: must not be 0");
  auto self = core.Social().CurrentUser();
  if (self && self->Id() == userId) {
    return ClientResult::Failure(ErrorType::ValidationError, "userId: must not be the player's own id");
  }
  return std::nullopt;
}

void ByUsername(client::ClientCore& core, std::string_view route, const std::string& username, Done done) {
  std::string_view name = core::TrimAsciiSpace(username);
  if (name.empty()) {
    return done(ClientResult::Failure(ErrorType::ValidationError, "username: must not be empty"));
  }
  SendRelationshipCall(core, "POST", std::string(route), UsernameBody(name), std::move(done));
}

void OnUser(client::ClientCore& core, std::string method, std::string_view route, uint64_t userId,
            std::optional<std::string> body, Done done) {
  if (auto invalid = CheckUserId(core, userId)) return done(std::move(*invalid));
  SendRelationshipCall(core, std::move(method), std::string(route) + "/" + std::to_string(userId),
                       std::move(body), std::move(done));
}

bool NoSuchRelationship(const ClientResult& result) {
  return result.Status() == 404 && result.ErrorCode() == kUnknownRelationship;
}

}  // namespace

// --- Relationships ---------------------------------------------------------------------------------------

std::vector<RelationshipHandle> Client::GetRelationships() const {
  return core_->Social().Relationships();
}

std::vector<RelationshipHandle> Client::GetRelationshipsByGroup(RelationshipGroupType group) const {
  return core_->Social().RelationshipsByGroup(group);
}

RelationshipHandle Client::GetRelationshipHandle(uint64_t userId) const {
  return core_->Social().Relationship(userId);
}

void Client::SendDiscordFriendRequest(const std::string& username, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    ByUsername(*core_, kRelationships, username, std::move(*done));
}

void Client::SendDiscordFriendRequestById(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "PUT", kRelationships, userId, "{}", std::move(*done));
}

void Client::SendGameFriendRequest(const std::string& username, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    ByUsername(*core_, kGameRelationships, username, std::move(*done));
}

void Client::SendGameFriendRequestById(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "PUT", kGameRelationships, userId, "{}", std::move(*done));
}

void Client::AcceptDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "PUT", kRelationships, userId, "{}", std::move(*done));
}

void Client::AcceptGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "PUT", kGameRelationships, userId, "{}", std::move(*done));
}

void Client::RejectDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kRelationships, userId, std::nullopt, std::move(*done));
}

void Client::RejectGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kGameRelationships, userId, std::nullopt, std::move(*done));
}

void Client::CancelDiscordFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kRelationships, userId, std::nullopt, std::move(*done));
}

void Client::CancelGameFriendRequest(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kGameRelationships, userId, std::nullopt, std::move(*done));
}

void Client::RemoveDiscordAndGameFriend(uint64_t userId, RelationshipCallback callback) {
  auto done = core_->Api().Start<>(std::move(callback));
  if (!done) return;
  if (auto invalid = CheckUserId(*core_, userId)) return (*done)(std::move(*invalid));
  // Both relationships go; "no such relationship" on one side is not an error when the other was removed.
  client::ClientCore& core = *core_;
  std::string id = std::to_string(userId);
  auto game = std::make_shared<Done>(std::move(*done));
  core.Api().Exchange(api::ApiRequest("DELETE", std::string(kRelationships) + "/" + id),
                      [&core, id, game](ClientResult refused, const net::HttpResponse& response) {
                        if (!refused.Successful()) return (*game)(std::move(refused));
                        ClientResult platform = net::ResultOf(response);
                        if (core.Destroying()) return;  // dropping `game` reports ClientDestroyed
                        core.Api().Exchange(
                            api::ApiRequest("DELETE", std::string(kGameRelationships) + "/" + id),
                            [platform = std::move(platform), game](const ClientResult& refusedToo,
                                                                   const net::HttpResponse& gameResponse) {
                              ClientResult gameResult =
                                  refusedToo.Successful() ? net::ResultOf(gameResponse) : refusedToo;
                              bool platformFailed = !platform.Successful() && !NoSuchRelationship(platform);
                              bool gameFailed = !gameResult.Successful() && !NoSuchRelationship(gameResult);
                              if (platformFailed) return (*game)(platform);
                              if (gameFailed) return (*game)(std::move(gameResult));
                              if (!platform.Successful() && !gameResult.Successful())
                                return (*game)(platform);  // neither existed
                              (*game)({});
                            });
                      });
}

void Client::RemoveGameFriend(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kGameRelationships, userId, std::nullopt, std::move(*done));
}

void Client::BlockUser(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "PUT", kRelationships, userId, R"({"type":2})", std::move(*done));
}

void Client::UnblockUser(uint64_t userId, RelationshipCallback callback) {
  if (auto done = core_->Api().Start<>(std::move(callback)))
    OnUser(*core_, "DELETE", kRelationships, userId, std::nullopt, std::move(*done));
}

std::vector<UserHandle> Client::SearchFriendsByUsername(const std::string& searchStr) const {
  return core_->Social().SearchFriends(searchStr);
}

void Client::SetRelationshipCreatedCallback(RelationshipCreatedCallback callback) {
  core_->Social().callbacks.created.Set(std::move(callback));
}

void Client::SetRelationshipDeletedCallback(RelationshipDeletedCallback callback) {
  core_->Social().callbacks.deleted.Set(std::move(callback));
}

void Client::SetRelationshipGroupsUpdatedCallback(RelationshipGroupsUpdatedCallback callback) {
  core_->Social().callbacks.groupsUpdated.Set(std::move(callback));
}

// --- Users and guilds ------------------------------------------------------------------------------------

std::optional<UserHandle> Client::GetCurrentUserV2() const {
  return core_->Social().CurrentUser();
}

UserHandle Client::GetCurrentUser() const {
  return core_->Social().CurrentUser().value_or(UserHandle());
}

std::optional<UserHandle> Client::GetUser(uint64_t userId) const {
  return core_->Social().User(userId);
}

void Client::SetUserUpdatedCallback(UserUpdatedCallback callback) {
  core_->Social().callbacks.userUpdated.Set(std::move(callback));
}

void Client::GetUserGuilds(GetUserGuildsCallback callback) {
  auto done = core_->Api().Start<std::vector<GuildMinimal>>(std::move(callback));
  if (!done) return;
  core::Logger& log = core_->Log();
  core_->Api().Send<std::vector<GuildMinimal>>(
      api::ApiRequest("GET", "/users/@me/guilds"), "guilds is not an array",
      [&log](const json::Value& body) -> std::optional<std::vector<GuildMinimal>> {
        if (!body.IsArray()) return std::nullopt;
        std::vector<GuildMinimal> guilds;
        std::size_t skipped = 0;
        for (const json::Value& item : body.GetArray()) {
          if (auto guild = social::ParseGuild(item)) {
            guilds.push_back(std::move(*guild));
          } else {
            ++skipped;
          }
        }
        if (skipped > 0)
          log.Warning("GetUserGuilds: skipped " + std::to_string(skipped) + " malformed guilds");
        return guilds;
      },
      std::move(*done));
}

void Client::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
  auto done = core_->Api().Start<std::vector<GuildChannel>>(std::move(callback));
  if (!done) return;
  api::ApiRequest request("GET", "/guilds/" + std::to_string(guildId) + "/channels");
  if (guildId == 0)
    request.refusal = ClientResult::Failure(ErrorType::ValidationError, "guildId: must not be 0");
  core::Logger& log = core_->Log();
  core_->Api().Send<std::vector<GuildChannel>>(
      std::move(request), "channels is not an array",
      [&log](const json::Value& body) -> std::optional<std::vector<GuildChannel>> {
        if (!body.IsArray()) return std::nullopt;
        std::vector<GuildChannel> channels;
        std::size_t skipped = 0;
        for (const json::Value& item : body.GetArray()) {
          if (auto channel = social::ParseChannel(item)) {
            channels.push_back(std::move(*channel));
          } else {
            ++skipped;
          }
        }
        if (skipped > 0) {
          log.Warning("GetGuildChannels: skipped " + std::to_string(skipped) + " malformed channels");
        }
        social::SortChannels(channels);
        return channels;
      },
      std::move(*done));
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfiles() const {
  return core_->Social().ApplicationProfiles();
}

std::vector<UserApplicationProfileHandle> Client::GetUserApplicationProfilesNoLock() const {
  return core_->Social().ApplicationProfiles();
}

}  // namespace platformpp
