#pragma once
// Lobbies as the Client keeps them from the realtime connection: the lobbies the player is a member of in
// this game, their members and metadata, the guild channel linked to each and its call. Handles are
// snapshots: each getter returns what the Client knew when the handle was made; ask the Client again after a
// callback to see a change. Names and numeric values match the platform's own Social SDK.

#include <platformpp/client_result.hpp>
#include <platformpp/social.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace platformpp {

/// String pairs a lobby or a member carries. At most 1000 characters in total per lobby and per member
/// (keys and values, counted as Unicode code points), in at most 25 pairs; the SDK checks both before
/// sending.
using Metadata = std::unordered_map<std::string, std::string>;

/// Bits of LobbyMemberHandle::Flags(); only the game's backend sets them.
enum class LobbyMemberFlags : uint32_t {
  None = 0,  ///< no flag
  /// The member may link a guild channel to the lobby and unlink it.
  CanLinkLobby = 1,
};

/// One member of a lobby the player is in, as a snapshot (LobbyHandle::LobbyMembers).
class LobbyMemberHandle {
 public:
  /// The member's user id.
  uint64_t Id() const { return id_; }
  /// The member's metadata; empty when it has none.
  platformpp::Metadata Metadata() const { return metadata_; }
  /// The member's LobbyMemberFlags bits; 0 when none are set.
  uint32_t Flags() const { return flags_; }
  /// Whether Flags() has CanLinkLobby: the member may link a guild channel to the lobby and unlink it.
  bool CanLinkLobby() const { return (flags_ & static_cast<uint32_t>(LobbyMemberFlags::CanLinkLobby)) != 0; }
  /// Whether the member has a realtime connection to this game open now.
  bool Connected() const { return connected_; }
  /// The member as a user, when the Client knows them.
  std::optional<UserHandle> User() const { return user_; }

  // Filled by the SDK.
  /// The values of a LobbyMemberHandle, which the SDK fills; each member is what the getter of the same
  /// name returns.
  struct Data {
    uint64_t id = 0;                 ///< Id()
    platformpp::Metadata metadata;   ///< Metadata()
    uint32_t flags = 0;              ///< Flags()
    bool connected = false;          ///< Connected()
    std::optional<UserHandle> user;  ///< User()
  };
  /// An empty handle: id 0, no metadata or flags, not connected.
  LobbyMemberHandle() = default;
  /// A handle with the values of `data`; the SDK makes them.
  explicit LobbyMemberHandle(Data data)
      : id_(data.id),
        metadata_(std::move(data.metadata)),
        flags_(data.flags),
        connected_(data.connected),
        user_(std::move(data.user)) {}

 private:
  uint64_t id_ = 0;
  platformpp::Metadata metadata_;
  uint32_t flags_ = 0;
  bool connected_ = false;
  std::optional<UserHandle> user_;
};

/// The guild text channel linked to a lobby: its messages and the lobby's are the same conversation.
class LinkedChannel {
 public:
  /// The guild channel's id.
  uint64_t Id() const { return id_; }
  /// The guild channel's name.
  std::string Name() const { return name_; }
  /// The guild the channel belongs to.
  uint64_t GuildId() const { return guildId_; }

  /// An empty link: ids 0, no name.
  LinkedChannel() = default;
  /// A link with these values; the SDK makes them.
  LinkedChannel(uint64_t id, std::string name, uint64_t guildId)
      : id_(id), name_(std::move(name)), guildId_(guildId) {}

 private:
  uint64_t id_ = 0;
  std::string name_;
  uint64_t guildId_ = 0;
};

/// Who is in the voice call of a lobby (from the realtime connection's voice states).
class CallInfoHandle {
 public:
  /// The call's channel: the lobby's id.
  uint64_t ChannelId() const { return channelId_; }
  /// 0: lobby calls belong to no guild.
  uint64_t GuildId() const { return guildId_; }
  /// The ids of the users in the call.
  std::vector<uint64_t> GetParticipants() const { return participants_; }

  /// An empty handle: ids 0, no participants.
  CallInfoHandle() = default;
  /// A handle with these values; the SDK makes them.
  CallInfoHandle(uint64_t channelId, uint64_t guildId, std::vector<uint64_t> participants)
      : channelId_(channelId), guildId_(guildId), participants_(std::move(participants)) {}

 private:
  uint64_t channelId_ = 0, guildId_ = 0;
  std::vector<uint64_t> participants_;
};

/// A lobby the player is a member of (Client::GetLobbyHandle), with its members, as a snapshot.
class LobbyHandle {
 public:
  /// The lobby's id, which is also the id of its message channel and its call's channel.
  uint64_t Id() const { return id_; }
  /// The lobby's metadata; empty when it has none.
  platformpp::Metadata Metadata() const { return metadata_; }
  /// The user ids of the members, in the order of LobbyMembers().
  std::vector<uint64_t> LobbyMemberIds() const;
  /// The lobby's members, the player included.
  std::vector<LobbyMemberHandle> LobbyMembers() const { return members_; }
  /// The member with user id `memberId`; empty when they are not a member.
  std::optional<LobbyMemberHandle> GetLobbyMemberHandle(uint64_t memberId) const;
  /// The guild channel linked to the lobby; empty when none is linked.
  std::optional<platformpp::LinkedChannel> LinkedChannel() const { return linkedChannel_; }
  /// The lobby's call while anyone is in it: its channel is the lobby, its participants the users in it.
  std::optional<CallInfoHandle> GetCallInfoHandle() const { return call_; }

  // Filled by the SDK.
  /// The values of a LobbyHandle, which the SDK fills; each member is what the getter of the same name
  /// returns.
  struct Data {
    uint64_t id = 0;                                         ///< Id()
    platformpp::Metadata metadata;                           ///< Metadata()
    std::vector<LobbyMemberHandle> members;                  ///< LobbyMembers()
    std::optional<platformpp::LinkedChannel> linkedChannel;  ///< LinkedChannel()
    std::optional<CallInfoHandle> call;                      ///< GetCallInfoHandle()
  };
  /// An empty handle: id 0, no metadata or members.
  LobbyHandle() = default;
  /// A handle with the values of `data`; the SDK makes them.
  explicit LobbyHandle(Data data)
      : id_(data.id),
        metadata_(std::move(data.metadata)),
        members_(std::move(data.members)),
        linkedChannel_(std::move(data.linkedChannel)),
        call_(std::move(data.call)) {}

 private:
  uint64_t id_ = 0;
  platformpp::Metadata metadata_;
  std::vector<LobbyMemberHandle> members_;
  std::optional<platformpp::LinkedChannel> linkedChannel_;
  std::optional<CallInfoHandle> call_;
};

inline std::vector<uint64_t> LobbyHandle::LobbyMemberIds() const {
  std::vector<uint64_t> ids;
  ids.reserve(members_.size());
  for (const auto& member : members_)
    ids.push_back(member.Id());
  return ids;
}

inline std::optional<LobbyMemberHandle> LobbyHandle::GetLobbyMemberHandle(uint64_t memberId) const {
  for (const auto& member : members_)
    if (member.Id() == memberId) return member;
  return std::nullopt;
}

// The callbacks of Client's lobby calls (also reachable as Client::<name>), inside RunCallbacks.

/// Client::CreateOrJoinLobby and CreateOrJoinLobbyWithMetadata: the lobby's id.
using CreateOrJoinLobbyCallback = std::function<void(ClientResult result, uint64_t lobbyId)>;
/// Client::LeaveLobby.
using LeaveLobbyCallback = std::function<void(ClientResult result)>;
/// Client::LinkChannelToLobby and UnlinkChannelFromLobby.
using LinkOrUnlinkChannelCallback = std::function<void(ClientResult result)>;
/// Client::JoinLinkedLobbyGuild: the URL of the guild invite it created and opened.
using JoinLinkedLobbyGuildCallback = std::function<void(ClientResult result, std::string inviteUrl)>;
/// Client::JoinLinkedLobbyGuild for a provisional account, which must be merged before it can join a guild.
using ProvisionalUserMergeRequiredCallback = std::function<void()>;
/// A lobby appeared in the Client's state (created or joined).
using LobbyCreatedCallback = std::function<void(uint64_t lobbyId)>;
/// A lobby's metadata, linked channel or call changed.
using LobbyUpdatedCallback = std::function<void(uint64_t lobbyId)>;
/// A lobby left the Client's state (deleted, or the player left it).
using LobbyDeletedCallback = std::function<void(uint64_t lobbyId)>;
/// A member joined a lobby the player is in.
using LobbyMemberAddedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
/// A member's metadata, flags or connection changed.
using LobbyMemberUpdatedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;
/// A member left (or was removed from) a lobby the player is in.
using LobbyMemberRemovedCallback = std::function<void(uint64_t lobbyId, uint64_t memberId)>;

}  // namespace platformpp
