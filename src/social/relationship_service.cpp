#include "social/relationship_service.hpp"

#include "core/utf8.hpp"
#include "json/json.hpp"
#include "net/http_result.hpp"
#include "social/social_json.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::social {

namespace {

// The platform's voice (2) and stage (13) channel types: the ones with a status.
constexpr int32_t kGuildVoiceChannelType = 2;
constexpr int32_t kGuildStageChannelType = 13;

constexpr int kUnknownRelationship = 10070;

std::string_view Route(RelationshipKind kind) {
  return kind == RelationshipKind::Platform ? "/users/@me/relationships" : "/users/@me/game-relationships";
}

std::string UsernameBody(std::string_view username) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("username",
                 json::Value(username.data(), static_cast<rapidjson::SizeType>(username.size()), a), a);
  return json::Serialize(body);
}

bool NoSuchRelationship(const ClientResult& result) {
  return result.Status() == 404 && result.ErrorCode() == kUnknownRelationship;
}

/// A list answer decoded item by item: malformed items are skipped (and counted in the log), a non-list
/// refused.
template <class T, class Parse>
auto ListSkippingMalformed(core::Logger& log, const char* call, const char* items, Parse parse) {
  return [&log, call, items, parse](const json::Value& body) -> std::optional<std::vector<T>> {
    if (!body.IsArray()) return std::nullopt;
    std::vector<T> list;
    std::size_t skipped = 0;
    for (const json::Value& item : body.GetArray()) {
      if (auto parsed = parse(item)) {
        list.push_back(std::move(*parsed));
      } else {
        ++skipped;
      }
    }
    if (skipped > 0) {
      log.Warning(std::string(call) + ": skipped " + std::to_string(skipped) + " malformed " + items);
    }
    return list;
  };
}

}  // namespace

RelationshipService::RelationshipService(api::ApiSession& api, const UserDirectory& users,
                                         VoiceChannelStatuses* statuses)
    : api_(api), users_(users), statuses_(statuses) {}

api::ApiRequest RelationshipService::OnUser(std::string method, RelationshipKind kind, uint64_t userId,
                                            std::optional<std::string> body) const {
  api::ApiRequest request(std::move(method), std::string(Route(kind)) + "/" + std::to_string(userId),
                          std::move(body));
  if (userId == 0) {
    request.refusal = ClientResult::Failure(ErrorType::ValidationError, "userId: must not be 0");
  } else if (auto self = users_.CurrentUser(); self && self->Id() == userId) {
    request.refusal =
        ClientResult::Failure(ErrorType::ValidationError, "userId: must not be the player's own id");
  }
  return request;
}

void RelationshipService::SendFriendRequest(RelationshipKind kind, const std::string& username,
                                            RelationshipCallback callback) {
  std::string_view name = core::TrimAsciiSpace(username);
  api::ApiRequest request("POST", std::string(Route(kind)), UsernameBody(name));
  if (name.empty())
    request.refusal = ClientResult::Failure(ErrorType::ValidationError, "username: must not be empty");
  api_.Perform(std::move(callback), std::move(request));
}

void RelationshipService::SendFriendRequest(RelationshipKind kind, uint64_t userId,
                                            RelationshipCallback callback) {
  api_.Perform(std::move(callback), OnUser("PUT", kind, userId, "{}"));
}

void RelationshipService::Remove(RelationshipKind kind, uint64_t userId, RelationshipCallback callback) {
  api_.Perform(std::move(callback), OnUser("DELETE", kind, userId, std::nullopt));
}

void RelationshipService::Block(uint64_t userId, RelationshipCallback callback) {
  api_.Perform(std::move(callback), OnUser("PUT", RelationshipKind::Platform, userId, R"({"type":2})"));
}

void RelationshipService::RemovePlatformAndGame(uint64_t userId, RelationshipCallback callback) {
  auto done = api_.Start<>(std::move(callback));
  if (!done) return;
  auto shared = std::make_shared<core::Completion<>>(std::move(*done));
  // Both relationships go, the platform's first; "no such relationship" on one side is not an error when the
  // other was removed.
  api_.Exchange(OnUser("DELETE", RelationshipKind::Platform, userId, std::nullopt),
                [this, userId, shared](ClientResult refused, const net::HttpResponse& response) {
                  if (!refused.Successful()) return (*shared)(std::move(refused));
                  ClientResult platform = net::ResultOf(response);
                  if (api_.Destroying()) return;  // dropping `shared` reports ClientDestroyed
                  api_.Exchange(OnUser("DELETE", RelationshipKind::Game, userId, std::nullopt),
                                [platform = std::move(platform), shared](
                                    const ClientResult& refusedToo, const net::HttpResponse& gameResponse) {
                                  ClientResult game =
                                      refusedToo.Successful() ? net::ResultOf(gameResponse) : refusedToo;
                                  bool platformFailed =
                                      !platform.Successful() && !NoSuchRelationship(platform);
                                  bool gameFailed = !game.Successful() && !NoSuchRelationship(game);
                                  if (platformFailed) return (*shared)(platform);
                                  if (gameFailed) return (*shared)(std::move(game));
                                  if (!platform.Successful() && !game.Successful())
                                    return (*shared)(platform);  // neither existed
                                  (*shared)({});
                                });
                });
}

void RelationshipService::GetUserGuilds(GetUserGuildsCallback callback) {
  api_.Perform<std::vector<GuildMinimal>>(
      std::move(callback), api::ApiRequest("GET", "/users/@me/guilds"), "guilds is not an array",
      ListSkippingMalformed<GuildMinimal>(api_.Log(), "GetUserGuilds", "guilds", ParseGuild));
}

void RelationshipService::GetGuildChannels(uint64_t guildId, GetGuildChannelsCallback callback) {
  api::ApiRequest request("GET", "/guilds/" + std::to_string(guildId) + "/channels");
  if (guildId == 0)
    request.refusal = ClientResult::Failure(ErrorType::ValidationError, "guildId: must not be 0");
  auto list = ListSkippingMalformed<GuildChannel>(api_.Log(), "GetGuildChannels", "channels", ParseChannel);
  auto started = api_.Start<std::vector<GuildChannel>>(std::move(callback));
  if (!started) return;
  auto done = std::make_shared<core::Completion<std::vector<GuildChannel>>>(std::move(*started));
  api_.SendJson(std::move(request), [list = std::move(list), done, guildId, statuses = statuses_](
                                        ClientResult result, json::Document& document) {
    if (!result.Successful()) return (*done)(std::move(result), {});
    auto channels = list(static_cast<const json::Value&>(document));
    if (!channels) return (*done)(api::ApiSession::MalformedAnswer("channels is not an array"), {});
    SortChannels(*channels);
    const bool voice = std::any_of(channels->begin(), channels->end(), [](const GuildChannel& channel) {
      return channel.Type() == kGuildVoiceChannelType || channel.Type() == kGuildStageChannelType;
    });
    if (!voice || statuses == nullptr) return (*done)({}, std::move(*channels));
    statuses->Fetch(guildId, [done, channels = std::move(*channels)](
                                 std::optional<VoiceChannelStatuses::Statuses> read) mutable {
      if (read) {
        for (auto& channel : channels) {
          const auto it = read->find(channel.Id());
          if (it == read->end() || !it->second) continue;
          channel = GuildChannel(channel.Id(), channel.Name(), channel.Type(), channel.Position(),
                                 channel.ParentCategoryId(), it->second);
        }
      }
      (*done)({}, std::move(channels));
    });
  });
}

}  // namespace platformpp::social
