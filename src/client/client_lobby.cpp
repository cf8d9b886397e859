// Client's lobbies: the state comes from the LobbyStore (kept by the Gateway), the changes go over HTTP
// (docs/social-protocol.md, "Lobbies and messages") and come back as Gateway dispatches.
//
// CreateOrJoinLobby applies the lobby of its answer to the store itself (LobbyStore::ApplyJoined) before its
// callback is queued, so GetLobbyHandle works inside the callback whichever of the answer and the
// LOBBY_CREATE arrives first; waiting for the LOBBY_CREATE instead would hold the operation on a dispatch
// that a dropped connection may never deliver.
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

/// The completion of a Client call; empty while the Client is being destroyed (dropping the completion then
/// reported ClientDestroyed).
template <class... Args>
std::optional<Done<Args...>> Start(client::ClientCore& core, typename Done<Args...>::Callback callback) {
  auto completion = core.MakeCompletion<Args...>(std::move(callback));
  if (core.Destroying()) return std::nullopt;
  return completion;
}

/// The player's credentials for a lobby call; the ClientNotReady result otherwise.
std::optional<core::Credentials> Ready(client::ClientCore& core, ClientResult& notReady) {
  auto credentials = core.Runtime().credentials.Get();
  if (!credentials) {
    notReady = ClientResult::Failure(ErrorType::ClientNotReady, "no token: call UpdateToken first");
    return std::nullopt;
  }
  if (core.Runtime().applicationId.load() == 0) {
    notReady =
        ClientResult::Failure(ErrorType::ClientNotReady, "no application id: call SetApplicationId first");
    return std::nullopt;
  }
  return credentials;
}

net::HttpRequest Request(client::ClientCore& core, const core::Credentials& credentials, std::string method,
                         const std::string& path, std::optional<std::string> body) {
  net::HttpRequest request;
  request.method = std::move(method);
  request.url = core.ApiUrl(path);
  request.headers.emplace_back("Authorization", credentials.Header());
  if (body) {
    request.body = std::move(*body);
    request.contentType = "application/json";
  }
  return request;
}

std::string LobbyPath(uint64_t lobbyId) {
  return "/lobbies/" + std::to_string(lobbyId);
}

std::optional<ClientResult> CheckLobbyId(uint64_t lobbyId) {
  if (lobbyId != 0) return std::nullopt;
  return core::ValidationResult({FieldError{"lobbyId", "BASE_TYPE_REQUIRED", "lobbyId: must not be 0"}});
}

/// A call whose answer matters only as success or failure.
void SendPlain(client::ClientCore& core, std::string method, const std::string& path,
               std::optional<std::string> body, Done<> done) {
  ClientResult notReady;
  auto credentials = Ready(core, notReady);
  if (!credentials) return done(std::move(notReady));
  auto shared = std::make_shared<Done<>>(std::move(done));
  core.Http().Send(Request(core, *credentials, std::move(method), path, std::move(body)),
                   [shared](const net::HttpResponse& response) { (*shared)(net::ResultOf(response)); });
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
  if (!errors.empty()) return done(core::ValidationResult(std::move(errors)), 0);
  ClientResult notReady;
  auto credentials = Ready(core, notReady);
  if (!credentials) return done(std::move(notReady), 0);
  core.Log().Secrets().AddSecret(secret);  // a lobby secret lets anyone join: kept out of logs
  uint64_t generation = core.Lobbies().Generation();
  auto shared = std::make_shared<Done<uint64_t>>(std::move(done));
  core.Http().Send(
      Request(core, *credentials, "PUT", "/lobbies", JoinBody(secret, lobbyMetadata, memberMetadata)),
      [&core, shared, generation](const net::HttpResponse& response) {
        json::Document document;
        ClientResult result = net::ParseJsonResponse(response, document);
        if (!result.Successful()) return (*shared)(std::move(result), 0);
        auto lobby = lobby::ParseLobby(document);
        if (!lobby) {
          return (*shared)(ClientResult::Failure(ErrorType::HTTPError, "malformed response: not a lobby"), 0);
        }
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
void IsProvisional(client::ClientCore& core, const core::Credentials& credentials,
                   std::function<void(ClientResult, bool)> then) {
  if (auto self = core.Social().CurrentUser()) return then({}, self->IsProvisional());
  core.Http().Send(Request(core, credentials, "GET", "/users/@me", std::nullopt),
                   [then = std::move(then)](const net::HttpResponse& response) {
                     json::Document document;
                     ClientResult result = net::ParseJsonResponse(response, document);
                     if (!result.Successful()) return then(std::move(result), false);
                     then({}, json::GetBool(document, "provisional").value_or(false));
                   });
}

}  // namespace

void Client::CreateOrJoinLobby(const std::string& secret, CreateOrJoinLobbyCallback callback) {
  if (auto done = Start<uint64_t>(*core_, std::move(callback)))
    CreateOrJoin(*core_, secret, nullptr, nullptr, std::move(*done));
}

void Client::CreateOrJoinLobbyWithMetadata(const std::string& secret, const Metadata& lobbyMetadata,
                                           const Metadata& memberMetadata,
                                           CreateOrJoinLobbyCallback callback) {
  if (auto done = Start<uint64_t>(*core_, std::move(callback)))
    CreateOrJoin(*core_, secret, &lobbyMetadata, &memberMetadata, std::move(*done));
}

void Client::LeaveLobby(uint64_t lobbyId, LeaveLobbyCallback callback) {
  auto done = Start<>(*core_, std::move(callback));
  if (!done) return;
  if (auto invalid = CheckLobbyId(lobbyId)) return (*done)(std::move(*invalid));
  SendPlain(*core_, "DELETE", LobbyPath(lobbyId) + "/members/@me", std::nullopt, std::move(*done));
}

std::optional<LobbyHandle> Client::GetLobbyHandle(uint64_t lobbyId) const {
  return core_->Lobbies().Get(lobbyId);
}

std::vector<uint64_t> Client::GetLobbyIds() const {
  return core_->Lobbies().Ids();
}

void Client::LinkChannelToLobby(uint64_t lobbyId, uint64_t channelId, LinkOrUnlinkChannelCallback callback) {
  auto done = Start<>(*core_, std::move(callback));
  if (!done) return;
  if (auto invalid = CheckLobbyId(lobbyId)) return (*done)(std::move(*invalid));
  if (channelId == 0) {
    return (*done)(core::ValidationResult(
        {FieldError{"channel_id", "BASE_TYPE_REQUIRED", "channel_id: must not be 0"}}));
  }
  SendPlain(*core_, "PATCH", LobbyPath(lobbyId) + "/channel-linking", ChannelLinkBody(channelId),
            std::move(*done));
}

void Client::UnlinkChannelFromLobby(uint64_t lobbyId, LinkOrUnlinkChannelCallback callback) {
  auto done = Start<>(*core_, std::move(callback));
  if (!done) return;
  if (auto invalid = CheckLobbyId(lobbyId)) return (*done)(std::move(*invalid));
  SendPlain(*core_, "PATCH", LobbyPath(lobbyId) + "/channel-linking", ChannelLinkBody(std::nullopt),
            std::move(*done));
}

void Client::JoinLinkedLobbyGuild(uint64_t lobbyId,
                                  ProvisionalUserMergeRequiredCallback provisionalUserMergeRequiredCallback,
                                  JoinLinkedLobbyGuildCallback callback) {
  auto done = Start<std::string>(*core_, std::move(callback));
  if (!done) return;
  if (auto invalid = CheckLobbyId(lobbyId)) return (*done)(std::move(*invalid), {});
  client::ClientCore& core = *core_;
  ClientResult notReady;
  auto credentials = Ready(core, notReady);
  if (!credentials) return (*done)(std::move(notReady), {});
  auto shared = std::make_shared<Done<std::string>>(std::move(*done));
  auto mergeRequired =
      std::make_shared<ProvisionalUserMergeRequiredCallback>(std::move(provisionalUserMergeRequiredCallback));
  IsProvisional(
      core, *credentials,
      [&core, credentials = *credentials, lobbyId, shared, mergeRequired](ClientResult result,
                                                                          bool provisional) {
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
        core.Http().Send(
            Request(core, credentials, "POST", LobbyPath(lobbyId) + "/members/@me/invites", std::nullopt),
            [&core, shared](const net::HttpResponse& response) {
              json::Document document;
              ClientResult answer = net::ParseJsonResponse(response, document);
              if (!answer.Successful()) return (*shared)(std::move(answer), {});
              auto code = json::GetString(document, "code");
              if (!code || code->empty()) {
                return (*shared)(
                    ClientResult::Failure(ErrorType::HTTPError, "malformed response: no invite code"), {});
              }
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
