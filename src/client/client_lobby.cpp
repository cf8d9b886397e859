// Client's lobbies: the state comes from the LobbyStore (kept by the Gateway), the changes go over HTTP
// (docs/social-protocol.md, "Lobbies and messages") and come back as Gateway dispatches.
//
// CreateOrJoinLobby applies the lobby of its answer to the store itself (LobbyStore::ApplyJoined) before its
// callback is queued, so GetLobbyHandle works inside the callback whichever of the answer and the
// LOBBY_CREATE arrives first; waiting for the LOBBY_CREATE instead would hold the operation on a dispatch
// that a dropped connection may never deliver.
#include "api/api_session.hpp"
#include "auth/authorizer.hpp"
#include "client/client_core.hpp"
#include "core/validation_result.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_store.hpp"
#include "lobby/lobby_validation.hpp"
#include "net/http_result.hpp"
#include "net/url.hpp"
#include "social/social_json.hpp"
#include "social/social_store.hpp"

#include <platformpp/client.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp {
namespace {

template <class... Args>
using Done = core::Completion<Args...>;

/// A lobby route. Besides the token (the API session checks it) the lobby routes need the game's application
/// id: a request with no rule broken and a token, but no SetApplicationId, is refused as ClientNotReady.
api::ApiRequest LobbyRequest(client::ClientCore& core, std::string method, std::string path,
                             std::optional<std::string> body, std::vector<FieldError> violations = {}) {
  api::ApiRequest request(std::move(method), std::move(path), std::move(body), std::move(violations));
  if (request.violations.empty() && core.Api().Authorization() && core.Runtime().applicationId.load() == 0) {
    request.refusal =
        ClientResult::Failure(ErrorType::ClientNotReady, "no application id: call SetApplicationId first");
  }
  return request;
}

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
  if (lobbyMetadata) lobby::AddMetadata(body, "lobby_metadata", *lobbyMetadata, a);
  if (memberMetadata) lobby::AddMetadata(body, "member_metadata", *memberMetadata, a);
  return json::Serialize(body);
}

void CreateOrJoin(client::ClientCore& core, const std::string& secret, const Metadata* lobbyMetadata,
                  const Metadata* memberMetadata, Done<uint64_t> done) {
  std::vector<FieldError> errors;
  lobby::CheckSecret(secret, "secret", errors);
  if (lobbyMetadata) lobby::CheckMetadata(*lobbyMetadata, "lobby_metadata", errors);
  if (memberMetadata) lobby::CheckMetadata(*memberMetadata, "member_metadata", errors);
  if (errors.empty())
    core.Log().Secrets().AddSecret(secret);  // a lobby secret lets anyone join: kept out of logs
  api::ApiRequest request = LobbyRequest(core, "PUT", "/lobbies",
                                         JoinBody(secret, lobbyMetadata, memberMetadata), std::move(errors));
  uint64_t generation = core.Lobbies().Generation();
  auto shared = std::make_shared<Done<uint64_t>>(std::move(done));
  core.Api().SendJson(std::move(request),
                      [&core, shared, generation](ClientResult result, json::Document& document) {
                        if (!result.Successful()) return (*shared)(std::move(result), 0);
                        auto lobby = lobby::ParseLobby(document);
                        if (!lobby) return (*shared)(api::ApiSession::MalformedAnswer("not a lobby"), 0);
                        uint64_t id = lobby->id;
                        if (core.GetStatus() == Client::Status::Ready)
                          core.Lobbies().ApplyJoined(std::move(*lobby), generation);
                        (*shared)({}, id);
                      });
}

std::string ChannelLinkBody(std::optional<uint64_t> channelId) {
  return channelId ? "{\"channel_id\":\"" + std::to_string(*channelId) + "\"}" : "{\"channel_id\":null}";
}

// Whether the player's account is provisional: from READY when known, else from GET /users/@me.
void IsProvisional(client::ClientCore& core, std::function<void(ClientResult, bool)> then) {
  if (auto self = core.Social().CurrentUser()) return then({}, self->IsProvisional());
  core.Api().SendJson(api::ApiRequest("GET", "/users/@me"),
                      [then = std::move(then)](ClientResult result, json::Document& document) {
                        if (!result.Successful()) return then(std::move(result), false);
                        then({}, json::GetBool(document, "provisional").value_or(false));
                      });
}

}  // namespace

void Client::CreateOrJoinLobby(const std::string& secret, CreateOrJoinLobbyCallback callback) {
  if (auto done = core_->Api().Start<uint64_t>(std::move(callback)))
    CreateOrJoin(*core_, secret, nullptr, nullptr, std::move(*done));
}

void Client::CreateOrJoinLobbyWithMetadata(const std::string& secret, const Metadata& lobbyMetadata,
                                           const Metadata& memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
  if (auto done = core_->Api().Start<uint64_t>(std::move(callback)))
    CreateOrJoin(*core_, secret, &lobbyMetadata, &memberMetadata, std::move(*done));
}

void Client::LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback) {
  core_->Api().Perform(std::move(callback),
                       LobbyRequest(*core_, "DELETE", LobbyPath(lobbyId) + "/members/@me", std::nullopt,
                                    CheckLobbyId(lobbyId)));
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const {
  return core_->Lobbies().Get(lobbyId);
}

std::vector<uint64_t> Client::GetLobbyIds() const {
  return core_->Lobbies().Ids();
}

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
  std::vector<FieldError> errors = CheckLobbyId(lobbyId);
  // (One violation at a time, the lobby's first, as before: the channel is checked once the lobby id is set.)
  if (errors.empty() && channelId == 0)
    errors.push_back(FieldError{"channel_id", "BASE_TYPE_REQUIRED", "channel_id: must not be 0"});
  core_->Api().Perform(std::move(callback),
                       LobbyRequest(*core_, "PATCH", LobbyPath(lobbyId) + "/channel-linking",
                                    ChannelLinkBody(channelId), std::move(errors)));
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
  core_->Api().Perform(std::move(callback),
                       LobbyRequest(*core_, "PATCH", LobbyPath(lobbyId) + "/channel-linking",
                                    ChannelLinkBody(std::nullopt), CheckLobbyId(lobbyId)));
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId,
                                  ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                  JoinLinkedLobbyGuildCallback callback) {
  auto done = core_->Api().Start<std::string>(std::move(callback));
  if (!done) return;
  client::ClientCore& core = *core_;
  api::ApiRequest invite = LobbyRequest(core, "POST", LobbyPath(lobbyId) + "/members/@me/invites",
                                        std::nullopt, CheckLobbyId(lobbyId));
  // Refused before anything is asked, the account's kind included.
  if (auto refused = core.Api().Refusal(invite)) return (*done)(std::move(*refused), {});
  auto shared = std::make_shared<Done<std::string>>(std::move(*done));
  auto mergeRequired =
      std::make_shared<ProvisionalUserMergeRequiredCallback>(std::move(provisionalUserMergeRequiredCallback));
  IsProvisional(core, [&core, invite = std::move(invite), shared, mergeRequired](ClientResult result,
                                                                                 bool provisional) mutable {
    if (!result.Successful()) return (*shared)(std::move(result), {});
    if (provisional) {
      // A provisional account cannot join a guild: the game asks the player to link a full account.
      core::PostEvent(core.Queue(), [mergeRequired] {
        if (*mergeRequired) (*mergeRequired)();
      });
      return (*shared)(ClientResult::Failure(ErrorType::ValidationError,
                                             "a provisional account cannot join a guild: merge it first"),
                       {});
    }
    if (core.Destroying()) return;  // dropping `shared` reports ClientDestroyed
    core.Api().SendJson(std::move(invite), [&core, shared](ClientResult answer, json::Document& document) {
      if (!answer.Successful()) return (*shared)(std::move(answer), {});
      auto code = json::GetString(document, "code");
      if (!code || code->empty()) return (*shared)(api::ApiSession::MalformedAnswer("no invite code"), {});
      std::string url = core.Options().webBase + "/invite/" + net::UrlEncode(*code);
      // The opener is the game's code (or starts a browser): it runs inside RunCallbacks, before the
      // operation's callback.
      auto opener = core.Authorizer().Opener();
      core::PostEvent(core.Queue(), [&core, opener, url] {
        bool opened = opener ? (*opener)(url) : auth::OpenWithSystemBrowser(url);
        if (!opened) core.Log().Warning("JoinLinkedLobbyGuild: the invite could not be opened");
      });
      (*shared)({}, std::move(url));
    });
  });
}

void Client::SetLobbyCreatedCallback(LobbyCreatedCallback callback) {
  core_->Lobbies().callbacks.created.Set(std::move(callback));
}

void Client::SetLobbyUpdatedCallback(LobbyUpdatedCallback callback) {
  core_->Lobbies().callbacks.updated.Set(std::move(callback));
}

void Client::SetLobbyDeletedCallback(LobbyDeletedCallback callback) {
  core_->Lobbies().callbacks.deleted.Set(std::move(callback));
}

void Client::SetLobbyMemberAddedCallback(LobbyMemberAddedCallback callback) {
  core_->Lobbies().callbacks.memberAdded.Set(std::move(callback));
}

void Client::SetLobbyMemberUpdatedCallback(LobbyMemberUpdatedCallback callback) {
  core_->Lobbies().callbacks.memberUpdated.Set(std::move(callback));
}

void Client::SetLobbyMemberRemovedCallback(LobbyMemberRemovedCallback callback) {
  core_->Lobbies().callbacks.memberRemoved.Set(std::move(callback));
}

}  // namespace platformpp
