// Lobbies of the emulated platform: their members, secrets and linked channels. Plain data; the rules live in
// LobbyModule (lobby_module.hpp) and MessagingModule (messaging/). Kept as documents (core/state_changes.hpp,
// lobby_state.cpp): lobbies and secret bindings; who is connected is not (sessions do not survive a restart).
// Lobby messages are messaging's (messaging/message_state.hpp); the guild invites a lobby makes are the
// guild's (guild/invite_state.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::emulator {

class StateChanges;

// The document kinds of LobbyState (core/state_changes.hpp), and how composite ids are written.
namespace document_kind {
inline constexpr std::string_view kLobby = "lobby";
inline constexpr std::string_view kLobbySecret = "lobby_secret";  // id: "<app>:<secret>"
}  // namespace document_kind

using StringMap = std::map<std::string, std::string>;

// The platform's lobby limits (docs/social-protocol.md, "Lobbies and messages").
inline constexpr std::size_t kLobbyMaxMembers = 1000;
inline constexpr std::size_t kLobbySecretMax = 250;         // characters (code points)
inline constexpr std::size_t kLobbyMetadataMax = 1000;      // code points of all keys and values together
inline constexpr std::size_t kLobbyMetadataMaxPairs = 25;   // openapi maxProperties
inline constexpr std::size_t kLobbyAdditionalNameMax = 80;  // 1..80 characters
inline constexpr std::size_t kLobbyBulkMax = 25;  // entries per bulk request, and POST /lobbies members
inline constexpr std::int64_t kLobbyIdleTimeoutMinS = 5;
inline constexpr std::int64_t kLobbyIdleTimeoutMaxS = 604800;
inline constexpr std::int64_t kLobbyIdleTimeoutDefaultS = 300;
inline constexpr std::int64_t kLobbySecretLifetimeMs = 30LL * 24 * 60 * 60 * 1000;
inline constexpr std::int64_t kLobbyInviteLifetimeMs = 60LL * 60 * 1000;
inline constexpr std::uint32_t kLobbyMemberCanLinkLobby = 1;

// Code points of every key and value together: what the metadata limit counts.
std::size_t metadata_length(const StringMap& metadata);

struct LobbyMember {
  std::string user_id;
  StringMap metadata;
  std::uint32_t flags = 0;  // 1 = CanLinkLobby
  std::optional<std::string> additional_name;
};

struct Lobby {
  std::string id;
  std::string app_id;
  StringMap metadata;
  std::vector<LobbyMember> members;  // in join order
  std::uint32_t flags = 0;
  std::int64_t idle_timeout_s = kLobbyIdleTimeoutDefaultS;
  bool created_by_backend = false;
  std::optional<std::string> secret;          // set for lobbies made by PUT /lobbies
  std::optional<std::string> linked_channel;  // a guild text channel id
  std::optional<std::string> linked_guild;    // the linked channel's guild
  std::int64_t created_ms = 0;                // fake clock
  // Fake clock: since when none of its members has been connected (from its creation, or from the last
  // connected member going away). None while a member is connected: the timer stands still, and a document
  // saved then says so. After a restart nobody is connected: such a lobby's timer starts at the first sweep.
  std::optional<std::int64_t> idle_since_ms;

  [[nodiscard]] const LobbyMember* member(const std::string& user_id) const {
    for (const auto& m : members)
      if (m.user_id == user_id) return &m;
    return nullptr;
  }
  [[nodiscard]] LobbyMember* member(const std::string& user_id) {
    for (auto& m : members)
      if (m.user_id == user_id) return &m;
    return nullptr;
  }
  // Returns whether the user was a member.
  bool remove_member(const std::string& user_id);
};

struct LobbyState {
  // Whoever changes these names the change (touch_*), or goes through the functions below that do.
  std::map<std::string, Lobby> lobbies;  // by id
  // (app id, secret) -> lobby id and when the secret was bound (it maps for 30 days).
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::int64_t>> secrets;
  // (user id, app id) pairs last announced as connected (LOBBY_MEMBER_CONNECT), so that only changes of
  // the live-connection state are dispatched. Not kept: after a restart nobody is connected.
  std::set<std::pair<std::string, std::string>> announced_connected;

  // Registers the document kinds and from then on names every document changed here.
  void register_documents(StateChanges& changes);
  // The lobby (its settings, members or idle timer) or the secret binding was created, changed or removed.
  void touch_lobby(const std::string& id);
  void touch_secret(const std::string& app_id, const std::string& secret);

  Lobby& add(Lobby lobby);
  // Binds the application's secret to the lobby from `now_ms`.
  void bind_secret(const std::string& app_id, const std::string& secret, const std::string& lobby_id,
                   std::int64_t now_ms);
  // Sets the lobby's idle timer, naming the change if it is one.
  void set_idle_since(Lobby& lobby, std::optional<std::int64_t> idle_since_ms);

  // The lobby with this id if it belongs to the application.
  [[nodiscard]] Lobby* find(const std::string& id, const std::string& app_id);
  [[nodiscard]] const Lobby* find(const std::string& id, const std::string& app_id) const;
  // Ids of the application's lobbies the user is a member of, by id.
  [[nodiscard]] std::vector<std::string> lobbies_of(const std::string& user_id,
                                                    const std::string& app_id) const;
  // The live lobby the secret maps to at `now_ms` (bound less than 30 days ago), if any. An expired binding
  // stays until the secret is bound again (joining by it makes a new lobby) or its lobby goes.
  [[nodiscard]] Lobby* find_by_secret(const std::string& app_id, const std::string& secret,
                                      std::int64_t now_ms);
  // Forgets the lobby and the secrets that map to it.
  void erase(const std::string& id);

 private:
  StateChanges* changes_ = nullptr;
};

}  // namespace platformpp::emulator
