#include "social/social_store.hpp"

#include "social/activity_json.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <unordered_set>
#include <utility>

namespace platformpp::social {
namespace {

enum class Kind {
  Ready,
  RelationshipAdd,
  RelationshipUpdate,
  RelationshipRemove,
  GameRelationshipAdd,
  GameRelationshipRemove,
  PresenceUpdate,
  UserUpdate,
};

// The events the store reads, in Kind's order.
constexpr gateway::DispatchClaim kClaims[] = {
    {"READY", "the player, relationships, application profiles, guilds"},
    {"RELATIONSHIP_ADD", "relationship"},
    {"RELATIONSHIP_UPDATE", "relationship"},
    {"RELATIONSHIP_REMOVE", "relationship"},
    {"GAME_RELATIONSHIP_ADD", "game relationship"},
    {"GAME_RELATIONSHIP_REMOVE", "game relationship"},
    {"PRESENCE_UPDATE", "user presence"},
    {"USER_UPDATE", "user"},
};
static_assert(std::size(kClaims) == static_cast<std::size_t>(Kind::UserUpdate) + 1);

bool IsFriend(RelationshipType platform, RelationshipType game) {
  return platform == RelationshipType::Friend || game == RelationshipType::Friend;
}

// A relationship's `type`; false when absent or not a RelationshipType value.
bool ReadType(const json::Value& relationship, RelationshipType& type) {
  auto wire = json::GetInt(relationship, "type");
  if (!wire || !RelationshipTypeFromWire(*wire)) return false;
  type = static_cast<RelationshipType>(*wire);
  return true;
}

}  // namespace

SocialStore::SocialStore(core::Runtime& runtime, const gateway::GatewayConnection& gateway)
    : runtime_(runtime), gateway_(gateway) {}
SocialStore::~SocialStore() = default;

std::span<const gateway::DispatchClaim> SocialStore::DispatchClaims() noexcept {
  return kClaims;
}

void SocialStore::OnDispatch(const gateway::Dispatch& dispatch) {
  std::optional<std::size_t> claim = gateway::FindClaim(kClaims, dispatch.type);
  if (!claim) return;  // not social state: nothing to parse
  const auto kind = static_cast<Kind>(*claim);
  const json::Value* data = dispatch.DataOrWarn(runtime_.Log());
  if (data == nullptr) return;
  const json::Value& document = *data;
  switch (kind) {
    case Kind::Ready:
      OnReady(document);
      break;
    case Kind::RelationshipAdd:
    case Kind::RelationshipUpdate:
      OnRelationshipUpsert(document, false);
      break;
    case Kind::GameRelationshipAdd:
      OnRelationshipUpsert(document, true);
      break;
    case Kind::RelationshipRemove:
      OnRelationshipRemove(document, false);
      break;
    case Kind::GameRelationshipRemove:
      OnRelationshipRemove(document, true);
      break;
    case Kind::PresenceUpdate:
      OnPresenceUpdate(document);
      break;
    case Kind::UserUpdate:
      OnUserUpdate(document);
      break;
  }
}

// --- Dispatches (network thread) ------------------------------------------------------------------------

void SocialStore::OnReady(const json::Value& d) {
  std::optional<UserRecord> self;
  if (const json::Value* user = json::Member(d, "user")) self = ParseUser(*user);
  if (!self) runtime_.Log().Warning("READY: `user` is missing or malformed; the player stays unknown");

  std::unordered_map<uint64_t, UserRecord> users;
  std::unordered_map<uint64_t, RelationshipRecord> relationships;
  std::size_t skipped = 0;
  auto load = [&](const char* name, bool game) {
    const json::Value* list = json::Member(d, name);
    if (!list) return;
    if (!list->IsArray()) {
      ++skipped;
      return;
    }
    for (const json::Value& item : list->GetArray()) {
      std::optional<UserRecord> user;
      if (const json::Value* u = json::Member(item, "user")) user = ParseUser(*u);
      std::optional<uint64_t> id = json::GetSnowflake(item, "id");
      if (!id && user) id = user->id;
      RelationshipType type = RelationshipType::None;
      if (!id || *id == 0 || !ReadType(item, type) || (user && user->id != *id)) {
        ++skipped;
        continue;
      }
      RelationshipRecord& record = relationships[*id];
      if (game) {
        record.game = type;
      } else {
        record.platform = type;
        record.spam = json::GetBool(item, "is_spam_request").value_or(false);
      }
      if (user) users[*id] = std::move(*user);
    }
  };
  load("relationships", false);
  load("game_relationships", true);

  std::vector<UserApplicationProfileHandle> profiles;
  if (const json::Value* list = json::Member(d, "user_application_profiles"); list && list->IsArray()) {
    for (const json::Value& item : list->GetArray()) {
      if (auto profile = ParseApplicationProfile(item)) {
        profiles.emplace_back(std::move(*profile));
      } else {
        ++skipped;
      }
    }
  }
  std::vector<GuildMinimal> guilds;
  if (const json::Value* list = json::Member(d, "guilds"); list && list->IsArray()) {
    for (const json::Value& item : list->GetArray()) {
      if (auto guild = ParseGuild(item)) {
        guilds.push_back(std::move(*guild));
      } else {
        ++skipped;
      }
    }
  }

  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  bool announce = ready_;
  std::unordered_set<uint64_t> ids;
  std::unordered_map<uint64_t, View> before;
  if (announce) {
    for (const auto& [id, record] : relationships_)
      ids.insert(id);
    for (const auto& [id, record] : relationships)
      ids.insert(id);
    for (const auto& [id, user] : users_)
      ids.insert(id);
    for (uint64_t id : ids)
      before.emplace(id, ViewOf(id, applicationId));
  }
  if (self) users[self->id] = *self;
  std::unordered_map<uint64_t, UserRecord> previousUsers = std::exchange(users_, std::move(users));
  relationships_ = std::move(relationships);
  presences_.clear();
  currentUserId_ = self ? self->id : 0;
  profiles_ = std::move(profiles);
  guilds_ = std::move(guilds);
  ready_ = true;
  // Presences last: they fill in users seen only there.
  if (const json::Value* list = json::Member(d, "presences"); list && list->IsArray()) {
    for (const json::Value& item : list->GetArray()) {
      if (!ApplyPresence(item)) ++skipped;
    }
  }
  if (skipped > 0) {
    runtime_.Log().Warning("READY: skipped " + std::to_string(skipped) + " malformed social entries");
  }
  if (!announce) return;
  for (const auto& [id, view] : before) {
    // Presences come new with every READY: only a changed record counts as a changed user.
    auto was = previousUsers.find(id);
    auto now = users_.find(id);
    bool userChanged = (was == previousUsers.end()) != (now == users_.end()) ||
                       (now != users_.end() && !(was->second == now->second));
    Compare(id, view, ViewOf(id, applicationId), userChanged);
  }
}

void SocialStore::OnRelationshipUpsert(const json::Value& d, bool game) {
  const char* what = game ? "GAME_RELATIONSHIP_ADD" : "RELATIONSHIP_ADD/UPDATE";
  std::optional<UserRecord> user;
  if (const json::Value* u = json::Member(d, "user")) user = ParseUser(*u);
  std::optional<uint64_t> id = json::GetSnowflake(d, "id");
  if (!id && user) id = user->id;
  RelationshipType type = RelationshipType::None;
  if (!id || *id == 0 || !ReadType(d, type) || (user && user->id != *id)) {
    runtime_.Log().Warning(std::string(what) + ": ignored, malformed relationship");
    return;
  }
  uint64_t applicationId = runtime_.applicationId.load();
  if (game) {
    auto application = json::GetSnowflake(d, "application_id");
    if (applicationId != 0 && application && *application != applicationId) {
      runtime_.Log().Verbose("GAME_RELATIONSHIP_ADD: ignored, another application's");
      return;
    }
  }
  std::lock_guard lock(mutex_);
  View before = ViewOf(*id, applicationId);
  RelationshipRecord& record = relationships_[*id];
  if (game) {
    record.game = type;
  } else {
    record.platform = type;
    record.spam = json::GetBool(d, "is_spam_request").value_or(false);
  }
  if (record.platform == RelationshipType::None && record.game == RelationshipType::None)
    relationships_.erase(*id);
  bool userChanged = user && StoreUser(std::move(*user));
  Compare(*id, before, ViewOf(*id, applicationId), userChanged);
}

void SocialStore::OnRelationshipRemove(const json::Value& d, bool game) {
  std::optional<uint64_t> id = json::GetSnowflake(d, "id");
  if (!id || *id == 0) {
    runtime_.Log().Warning(std::string(game ? "GAME_RELATIONSHIP_REMOVE" : "RELATIONSHIP_REMOVE") +
                           ": ignored, no valid `id`");
    return;
  }
  uint64_t applicationId = runtime_.applicationId.load();
  if (game) {
    auto application = json::GetSnowflake(d, "application_id");
    if (applicationId != 0 && application && *application != applicationId) {
      runtime_.Log().Verbose("GAME_RELATIONSHIP_REMOVE: ignored, another application's");
      return;
    }
  }
  std::lock_guard lock(mutex_);
  auto it = relationships_.find(*id);
  if (it == relationships_.end()) return;  // nothing known to remove
  View before = ViewOf(*id, applicationId);
  if (game) {
    it->second.game = RelationshipType::None;
  } else {
    it->second.platform = RelationshipType::None;
    it->second.spam = false;
  }
  if (it->second.platform == RelationshipType::None && it->second.game == RelationshipType::None)
    relationships_.erase(it);
  Compare(*id, before, ViewOf(*id, applicationId), false);
}

void SocialStore::OnPresenceUpdate(const json::Value& d) {
  const json::Value* user = json::Member(d, "user");
  std::optional<uint64_t> id = user ? json::GetSnowflake(*user, "id") : std::nullopt;
  if (!id || *id == 0) {
    runtime_.Log().Warning("PRESENCE_UPDATE: ignored, no valid `user.id`");
    return;
  }
  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  View before = ViewOf(*id, applicationId);
  if (!ApplyPresence(d)) {
    runtime_.Log().Warning("PRESENCE_UPDATE: ignored, malformed presence");
    return;
  }
  Compare(*id, before, ViewOf(*id, applicationId), true);
}

void SocialStore::OnUserUpdate(const json::Value& d) {
  std::optional<UserRecord> user = ParseUser(d);
  if (!user) {
    runtime_.Log().Warning("USER_UPDATE: ignored, malformed user");
    return;
  }
  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  uint64_t id = user->id;
  View before = ViewOf(id, applicationId);
  bool userChanged = StoreUser(std::move(*user));
  Compare(id, before, ViewOf(id, applicationId), userChanged);
}

bool SocialStore::ApplyPresence(const json::Value& presence) {
  const json::Value* user = json::Member(presence, "user");
  std::optional<uint64_t> id = user ? json::GetSnowflake(*user, "id") : std::nullopt;
  if (!id || *id == 0) return false;
  auto status = json::GetString(presence, "status");
  const json::Value* activities = json::Member(presence, "activities");
  if (!status || (activities && !activities->IsArray() && !activities->IsNull())) return false;

  PresenceRecord record;
  record.status = StatusFromWire(*status, *id == currentUserId_);
  if (activities && activities->IsArray()) {
    for (const json::Value& item : activities->GetArray()) {
      std::optional<Activity> activity = social::ActivityFromJson(item);
      if (activity) {
        record.activities.push_back(std::move(*activity));
      } else {
        runtime_.Log().Warning("presence: skipped a malformed activity");
      }
    }
  }
  auto known = users_.find(*id);
  if (known != users_.end()) {
    MergePartialUser(*user, known->second);
  } else if (json::GetString(*user, "username")) {
    UserRecord fresh;
    fresh.id = *id;
    MergePartialUser(*user, fresh);
    users_.emplace(*id, std::move(fresh));
  }
  presences_[*id] = std::move(record);
  return true;
}

// --- Views (mutex_ held) ---------------------------------------------------------------------------------

SocialStore::View SocialStore::ViewOf(uint64_t userId, uint64_t applicationId) const {
  View view;
  if (auto it = relationships_.find(userId); it != relationships_.end()) view.relationship = it->second;
  view.group = GroupOf(userId, applicationId);
  if (auto it = users_.find(userId); it != users_.end()) {
    view.known = true;
    view.displayName = it->second.globalName.empty() ? it->second.username : it->second.globalName;
  }
  return view;
}

void SocialStore::Compare(uint64_t userId, const View& before, const View& after, bool userChanged) const {
  core::CallbackQueue& queue = runtime_.Queue();
  const RelationshipRecord& was = before.relationship;
  const RelationshipRecord& now = after.relationship;
  auto relationship = [&](RelationshipType type, bool platform) {
    if (type != RelationshipType::None) {
      callbacks.created.PostIfSet(queue, userId, platform);
    } else {
      callbacks.deleted.PostIfSet(queue, userId, platform);
    }
  };
  if (was.platform != now.platform) relationship(now.platform, true);
  if (was.game != now.game) relationship(now.game, false);
  // Moved between groups, or (new display name) maybe within one.
  if (before.group != after.group || (after.group && before.displayName != after.displayName))
    callbacks.groupsUpdated.PostIfSet(queue, userId);
  bool relationshipChanged = was.platform != now.platform || was.game != now.game || was.spam != now.spam;
  if (after.known && (!before.known || userChanged || relationshipChanged))
    callbacks.userUpdated.PostIfSet(queue, userId);
}

bool SocialStore::StoreUser(UserRecord user) {
  auto it = users_.find(user.id);
  if (it == users_.end()) {
    uint64_t id = user.id;
    users_.emplace(id, std::move(user));
    return true;
  }
  if (it->second == user) return false;
  it->second = std::move(user);
  return true;
}

std::optional<RelationshipGroupType> SocialStore::GroupOf(uint64_t userId, uint64_t applicationId) const {
  auto relationship = relationships_.find(userId);
  if (relationship == relationships_.end() ||
      !IsFriend(relationship->second.platform, relationship->second.game)) {
    return std::nullopt;
  }
  auto presence = presences_.find(userId);
  if (presence == presences_.end() || presence->second.status == StatusType::Offline ||
      presence->second.status == StatusType::Invisible || presence->second.status == StatusType::Unknown) {
    return RelationshipGroupType::Offline;
  }
  if (applicationId != 0) {
    for (const Activity& activity : presence->second.activities) {
      if (activity.ApplicationId() == applicationId) return RelationshipGroupType::OnlinePlayingGame;
    }
  }
  return RelationshipGroupType::OnlineElsewhere;
}

UserHandle SocialStore::HandleOf(const UserRecord& user, uint64_t applicationId) const {
  UserHandle::Data data;
  data.id = user.id;
  data.username = user.username;
  data.globalName = user.globalName;
  data.avatar = user.avatar;
  data.primaryGuildTag = user.primaryGuildTag;
  data.provisional = user.provisional;
  data.premiumType = user.premiumType;
  auto presence = presences_.find(user.id);
  if (presence != presences_.end()) {
    data.status = presence->second.status;
    if (applicationId != 0) {
      for (const Activity& activity : presence->second.activities) {
        if (activity.ApplicationId() == applicationId) {
          data.gameActivity = activity;
          break;
        }
      }
    }
  } else if (user.id == currentUserId_) {
    // The player is online while the session is up, until a presence of its own says otherwise.
    data.status = gateway_.CurrentStatus() == ClientStatus::Ready ? StatusType::Online : StatusType::Offline;
  }
  if (auto relationship = relationships_.find(user.id); relationship != relationships_.end()) {
    data.relationship = relationship->second.platform != RelationshipType::None
                            ? relationship->second.platform
                            : relationship->second.game;
  }
  return UserHandle(std::move(data));
}

RelationshipHandle SocialStore::RelationshipHandleOf(uint64_t userId, const RelationshipRecord& record,
                                                     uint64_t applicationId) const {
  std::optional<UserHandle> user;
  if (auto it = users_.find(userId); it != users_.end()) user = HandleOf(it->second, applicationId);
  return RelationshipHandle(userId, record.platform, record.game, record.spam, std::move(user));
}

namespace {

// The desktop client's friends order: display name ignoring case, then id.
template <class T, class NameOf, class IdOf>
void SortByDisplayName(std::vector<T>& items, NameOf nameOf, IdOf idOf) {
  std::vector<std::pair<std::string, T>> keyed;
  keyed.reserve(items.size());
  for (auto& item : items)
    keyed.emplace_back(nameOf(item), std::move(item));
  std::sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    int order = CompareNamesCaseInsensitive(a.first, b.first);
    return order != 0 ? order < 0 : idOf(a.second) < idOf(b.second);
  });
  items.clear();
  for (auto& [name, item] : keyed)
    items.push_back(std::move(item));
}

void SortRelationships(std::vector<RelationshipHandle>& handles) {
  SortByDisplayName(
      handles,
      [](const RelationshipHandle& h) {
        auto user = h.User();
        return user ? user->DisplayName() : std::string();
      },
      [](const RelationshipHandle& h) { return h.Id(); });
}

}  // namespace

// --- Queries (any thread) --------------------------------------------------------------------------------

std::optional<UserHandle> SocialStore::CurrentUser() const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  if (currentUserId_ == 0) return std::nullopt;
  auto it = users_.find(currentUserId_);
  if (it == users_.end()) return std::nullopt;
  return HandleOf(it->second, applicationId);
}

std::optional<UserHandle> SocialStore::User(uint64_t userId) const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  auto it = users_.find(userId);
  if (it == users_.end()) return std::nullopt;
  return HandleOf(it->second, applicationId);
}

std::vector<RelationshipHandle> SocialStore::Relationships() const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::vector<RelationshipHandle> handles;
  {
    std::lock_guard lock(mutex_);
    handles.reserve(relationships_.size());
    for (const auto& [id, record] : relationships_)
      handles.push_back(RelationshipHandleOf(id, record, applicationId));
  }
  SortRelationships(handles);
  return handles;
}

std::vector<RelationshipHandle> SocialStore::RelationshipsByGroup(RelationshipGroupType group) const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::vector<RelationshipHandle> handles;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, record] : relationships_) {
      if (GroupOf(id, applicationId) == group)
        handles.push_back(RelationshipHandleOf(id, record, applicationId));
    }
  }
  SortRelationships(handles);
  return handles;
}

RelationshipHandle SocialStore::Relationship(uint64_t userId) const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::lock_guard lock(mutex_);
  auto it = relationships_.find(userId);
  return RelationshipHandleOf(userId, it == relationships_.end() ? RelationshipRecord{} : it->second,
                              applicationId);
}

std::vector<UserHandle> SocialStore::SearchFriends(std::string_view prefix) const {
  uint64_t applicationId = runtime_.applicationId.load();
  std::vector<UserHandle> found;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, record] : relationships_) {
      if (!IsFriend(record.platform, record.game)) continue;
      auto user = users_.find(id);
      if (user == users_.end()) continue;
      const UserRecord& u = user->second;
      if (StartsWithCaseInsensitive(u.username, prefix) ||
          StartsWithCaseInsensitive(u.globalName.empty() ? u.username : u.globalName, prefix)) {
        found.push_back(HandleOf(u, applicationId));
      }
    }
  }
  SortByDisplayName(
      found, [](const UserHandle& u) { return u.DisplayName(); }, [](const UserHandle& u) { return u.Id(); });
  return found;
}

std::vector<UserApplicationProfileHandle> SocialStore::ApplicationProfiles() const {
  std::lock_guard lock(mutex_);
  return profiles_;
}

std::vector<GuildMinimal> SocialStore::ReadyGuilds() const {
  std::lock_guard lock(mutex_);
  return guilds_;
}

}  // namespace platformpp::social
