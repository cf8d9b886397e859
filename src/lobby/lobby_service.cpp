#include "lobby/lobby_service.hpp"

#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_validation.hpp"
#include "net/http_result.hpp"
#include "net/url.hpp"

#include <memory>
#include <utility>

namespace platformpp::lobby {

namespace {

std::string LobbyPath(uint64_t lobbyId) {
  return "/lobbies/" + std::to_string(lobbyId);
}

std::vector<FieldError> CheckLobbyId(uint64_t lobbyId) {
  if (lobbyId != 0) return {};
  return {FieldError{"lobbyId", "BASE_TYPE_REQUIRED", "lobbyId: must not be 0"}};
}

std::string JoinBody(const std::string& secret, const Metadata* lobbyMetadata,
                     const Metadata* memberMetadata) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("secret", json::Value(secret.data(), static_cast<rapidjson::SizeType>(secret.size()), a), a);
  if (lobbyMetadata) AddMetadata(body, "lobby_metadata", *lobbyMetadata, a);
  if (memberMetadata) AddMetadata(body, "member_metadata", *memberMetadata, a);
  return json::Serialize(body);
}

std::string ChannelLinkBody(std::optional<uint64_t> channelId) {
  return channelId ? "{\"channel_id\":\"" + std::to_string(*channelId) + "\"}" : "{\"channel_id\":null}";
}

}  // namespace

LobbyService::LobbyService(api::ApiSession& api, LobbyStore& store, const social::UserDirectory& users,
                           SessionReady sessionReady, OpenInvite openInvite)
    : api_(api),
      store_(store),
      users_(users),
      sessionReady_(std::move(sessionReady)),
      openInvite_(std::move(openInvite)) {}

api::ApiRequest LobbyService::Request(std::string method, std::string path, std::optional<std::string> body,
                                      std::vector<FieldError> violations) const {
  api::ApiRequest request(std::move(method), std::move(path), std::move(body), std::move(violations));
  // (Set only when nothing else refuses it, so that broken rules and a missing token are reported first.)
  if (request.violations.empty() && api_.Authorization() && api_.Runtime().applicationId.load() == 0) {
    request.refusal =
        ClientResult::Failure(ErrorType::ClientNotReady, "no application id: call SetApplicationId first");
  }
  return request;
}

void LobbyService::CreateOrJoin(const std::string& secret, const Metadata* lobbyMetadata,
                                const Metadata* memberMetadata, CreateOrJoinLobbyCallback callback) {
  auto done = api_.Start<uint64_t>(std::move(callback));
  if (!done) return;
  std::vector<FieldError> errors;
  CheckSecret(secret, "secret", errors);
  if (lobbyMetadata) CheckMetadata(*lobbyMetadata, "lobby_metadata", errors);
  if (memberMetadata) CheckMetadata(*memberMetadata, "member_metadata", errors);
  if (errors.empty())
    api_.Log().Secrets().AddSecret(secret);  // a lobby secret lets anyone join: kept out of logs
  api::ApiRequest request =
      Request("PUT", "/lobbies", JoinBody(secret, lobbyMetadata, memberMetadata), std::move(errors));
  uint64_t generation = store_.Generation();
  auto shared = std::make_shared<core::Completion<uint64_t>>(std::move(*done));
  api_.SendJson(std::move(request),
                [this, shared, generation](ClientResult result, json::Document& document) {
                  if (!result.Successful()) return (*shared)(std::move(result), 0);
                  auto lobby = ParseLobby(document);
                  if (!lobby) return (*shared)(api::ApiSession::MalformedAnswer("not a lobby"), 0);
                  uint64_t id = lobby->id;
                  if (sessionReady_()) store_.ApplyJoined(std::move(*lobby), generation);
                  (*shared)({}, id);
                });
}

void LobbyService::Leave(uint64_t lobbyId, LeaveLobbyCallback callback) {
  auto done = api_.Start<>(std::move(callback));
  if (!done) return;
  const uint64_t generation = store_.Generation();
  api_.Exchange(Request("DELETE", LobbyPath(lobbyId) + "/members/@me", std::nullopt, CheckLobbyId(lobbyId)),
                [this, lobbyId, generation, done = std::make_shared<core::Completion<>>(std::move(*done))](
                    ClientResult refused, const net::HttpResponse& response) {
                  ClientResult result = refused.Successful() ? net::ResultOf(response) : std::move(refused);
                  // Gone from the store when the callback runs; its LOBBY_DELETE may come later.
                  if (result.Successful()) store_.ApplyLeft(lobbyId, generation);
                  (*done)(std::move(result));
                });
}

void LobbyService::LinkChannel(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
  std::vector<FieldError> errors = CheckLobbyId(lobbyId);
  // (One violation at a time, the lobby's first: the channel is checked once the lobby id is set.)
  if (errors.empty() && channelId == 0)
    errors.push_back(FieldError{"channel_id", "BASE_TYPE_REQUIRED", "channel_id: must not be 0"});
  api_.Perform(std::move(callback), Request("PATCH", LobbyPath(lobbyId) + "/channel-linking",
                                            ChannelLinkBody(channelId), std::move(errors)));
}

void LobbyService::UnlinkChannel(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
  api_.Perform(std::move(callback), Request("PATCH", LobbyPath(lobbyId) + "/channel-linking",
                                            ChannelLinkBody(std::nullopt), CheckLobbyId(lobbyId)));
}

void LobbyService::IsProvisional(std::function<void(ClientResult, bool)> then) {
  if (auto self = users_.CurrentUser()) return then({}, self->IsProvisional());
  api_.SendJson(api::ApiRequest("GET", "/users/@me"),
                [then = std::move(then)](ClientResult result, json::Document& document) {
                  if (!result.Successful()) return then(std::move(result), false);
                  then({}, json::GetBool(document, "provisional").value_or(false));
                });
}

void LobbyService::JoinLinkedGuild(uint64_t lobbyId, ProvisionalUserMergeRequiredCallback mergeRequired,
                                   JoinLinkedLobbyGuildCallback callback) {
  auto done = api_.Start<std::string>(std::move(callback));
  if (!done) return;
  api::ApiRequest invite =
      Request("POST", LobbyPath(lobbyId) + "/members/@me/invites", std::nullopt, CheckLobbyId(lobbyId));
  // Refused before anything is asked, the account's kind included.
  if (auto refused = api_.Refusal(invite)) return (*done)(std::move(*refused), {});
  auto shared = std::make_shared<core::Completion<std::string>>(std::move(*done));
  auto merge = std::make_shared<ProvisionalUserMergeRequiredCallback>(std::move(mergeRequired));
  IsProvisional(
      [this, invite = std::move(invite), shared, merge](ClientResult result, bool provisional) mutable {
        if (!result.Successful()) return (*shared)(std::move(result), {});
        if (provisional) {
          // A provisional account cannot join a guild: the game asks the player to link a full account.
          core::PostEvent(api_.Runtime().Queue(), [merge] {
            if (*merge) (*merge)();
          });
          return (*shared)(ClientResult::Failure(ErrorType::ValidationError,
                                                 "a provisional account cannot join a guild: merge it first"),
                           {});
        }
        if (api_.Destroying()) return;  // dropping `shared` reports ClientDestroyed
        api_.SendJson(std::move(invite), [this, shared](ClientResult answer, json::Document& document) {
          if (!answer.Successful()) return (*shared)(std::move(answer), {});
          auto code = json::GetString(document, "code");
          if (!code || code->empty())
            return (*shared)(api::ApiSession::MalformedAnswer("no invite code"), {});
          std::string url = api_.Runtime().Options().webBase + "/invite/" + net::UrlEncode(*code);
          if (openInvite_) openInvite_(url);
          (*shared)({}, std::move(url));
        });
      });
}

}  // namespace platformpp::lobby
