// Lobbies of the emulated platform: their members, secrets, linked channels, messages and guild invites.
// Plain data; the rules live in LobbyModule (lobby_module.hpp) and MessagingModule (messaging/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::emulator {

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
  std::int64_t idle_since_ms = 0;             // fake clock: when its last member disconnected (or created)

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

// A single-use invite to a guild (Create Lobby Channel Invite), valid one hour.
struct GuildInvite {
  std::string code;
  std::string guild_id;
  std::string channel_id;
  std::string user_id;  // who may use it
  std::int64_t expires_ms = 0;
  bool used = false;
};

struct LobbyState {
  std::map<std::string, Lobby> lobbies;  // by id
  // (app id, secret) -> lobby id and when the secret was bound (it maps for 30 days).
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::int64_t>> secrets;
  std::map<std::string, GuildInvite> invites;  // by code
  // (user id, app id) pairs last announced as connected (LOBBY_MEMBER_CONNECT), so that only changes of
  // the live-connection state are dispatched.
  std::set<std::pair<std::string, std::string>> announced_connected;

  // The lobby with this id if it belongs to the application.
  [[nodiscard]] Lobby* find(const std::string& id, const std::string& app_id);
  // Ids of the application's lobbies the user is a member of, by id.
  [[nodiscard]] std::vector<std::string> lobbies_of(const std::string& user_id,
                                                    const std::string& app_id) const;
  // The live lobby the secret maps to at `now_ms` (bound less than 30 days ago), if any.
  [[nodiscard]] Lobby* find_by_secret(const std::string& app_id, const std::string& secret,
                                      std::int64_t now_ms);
  // Forgets the lobby and the secrets that map to it.
  void erase(const std::string& id);
};

}  // namespace platformpp::emulator
