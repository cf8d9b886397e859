#pragma once
// What the Client knows of users, relationships, presences and guilds, kept current from the Gateway's READY
// and dispatches. Written on the network thread (a Gateway sink), read from any thread under one mutex,
// which is never held while a callback runs.
//
// Callbacks of one dispatch are queued after its state is in place, in this order, per user: relationship
// created/deleted (platform, then game), groups updated, user updated. The first READY of a Client loads
// the state without callbacks; a later READY (a new session) announces what changed since the last one.

#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "json/json.hpp"
#include "social/social_json.hpp"
#include "social/user_directory.hpp"

#include <platformpp/client_status.hpp>
#include <platformpp/social.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace platformpp::social {

class SocialStore final : public UserDirectory {
 public:
  SocialStore(core::Runtime& runtime, const gateway::GatewayConnection& gateway);
  ~SocialStore() override;
  SocialStore(const SocialStore&) = delete;
  SocialStore& operator=(const SocialStore&) = delete;

  /// The events OnDispatch reads (gateway::DispatchRouter).
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// The Gateway sink (network thread): update the state, then queue the callbacks.
  void OnDispatch(const gateway::Dispatch& dispatch);

  /// The player; empty before the first READY.
  std::optional<UserHandle> CurrentUser() const override;
  std::optional<UserHandle> User(uint64_t userId) const override;
  std::vector<RelationshipHandle> Relationships() const;
  std::vector<RelationshipHandle> RelationshipsByGroup(RelationshipGroupType group) const;
  /// The relationship with `userId` (types None when there is none).
  RelationshipHandle Relationship(uint64_t userId) const;
  std::vector<UserHandle> SearchFriends(std::string_view prefix) const;
  std::vector<UserApplicationProfileHandle> ApplicationProfiles() const;
  /// The guilds of the last READY, in its order.
  std::vector<GuildMinimal> ReadyGuilds() const;

  /// The game's callbacks (Client::SetRelationship*Callback, SetUserUpdatedCallback).
  struct Callbacks {
    core::RegisteredCallback<RelationshipCreatedCallback> created;
    core::RegisteredCallback<RelationshipDeletedCallback> deleted;
    core::RegisteredCallback<RelationshipGroupsUpdatedCallback> groupsUpdated;
    core::RegisteredCallback<UserUpdatedCallback> userUpdated;
  };
  Callbacks callbacks;

 private:
  struct RelationshipRecord {
    RelationshipType platform = RelationshipType::None;
    RelationshipType game = RelationshipType::None;
    bool spam = false;
  };
  struct PresenceRecord {
    StatusType status = StatusType::Offline;  // as the player sees it
    std::vector<Activity> activities;
  };
  // What the callbacks compare before and after a change (mutex_ held).
  struct View {
    RelationshipRecord relationship;
    std::optional<RelationshipGroupType> group;
    std::string displayName;
    bool known = false;  // a user record exists
  };

  void OnReady(const json::Value& d);
  void OnRelationshipUpsert(const json::Value& d, bool game);
  void OnRelationshipRemove(const json::Value& d, bool game);
  void OnPresenceUpdate(const json::Value& d);
  void OnUserUpdate(const json::Value& d);
  bool ApplyPresence(const json::Value& presence);  // false when malformed

  // mutex_ held by the callers of these:
  View ViewOf(uint64_t userId, uint64_t applicationId) const;
  /// Queues the callbacks of what changed (those registered); `userChanged`: the user's record or presence
  /// changed.
  void Compare(uint64_t userId, const View& before, const View& after, bool userChanged) const;
  /// Stores `user`; true when that changed the record.
  bool StoreUser(UserRecord user);
  std::optional<RelationshipGroupType> GroupOf(uint64_t userId, uint64_t applicationId) const;
  UserHandle HandleOf(const UserRecord& user, uint64_t applicationId) const;
  RelationshipHandle RelationshipHandleOf(uint64_t userId, const RelationshipRecord& record,
                                          uint64_t applicationId) const;

  core::Runtime& runtime_;
  const gateway::GatewayConnection& gateway_;
  mutable std::mutex mutex_;
  bool ready_ = false;
  uint64_t currentUserId_ = 0;
  std::unordered_map<uint64_t, UserRecord> users_;
  std::unordered_map<uint64_t, RelationshipRecord> relationships_;
  std::unordered_map<uint64_t, PresenceRecord> presences_;
  std::vector<UserApplicationProfileHandle> profiles_;
  std::vector<GuildMinimal> guilds_;
};

}  // namespace platformpp::social
