// Relationships of the emulated platform: what each user sees of another on the platform (friends, blocks,
// requests) and in each application's game (game friends and requests). Plain data; the state machine and the
// dispatches live in SocialModule (social_module.hpp). Kept as documents (core/state_changes.hpp,
// social_state.cpp): one per user and one per (application, user), each holding that user's side.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/emulator_state.hpp"

namespace platformpp::emulator {

class StateChanges;

// The document kinds of SocialState (core/state_changes.hpp), and how composite ids are written.
namespace document_kind {
inline constexpr std::string_view kRelationships = "relationships";           // id: the user whose view it is
inline constexpr std::string_view kGameRelationships = "game_relationships";  // id: "<app>:<user>"
}  // namespace document_kind

// The relationship types: what Relationship::type holds.
namespace relationship_type {
inline constexpr int kNone = 0;
inline constexpr int kFriend = 1;
inline constexpr int kBlocked = 2;
inline constexpr int kIncoming = 3;
inline constexpr int kOutgoing = 4;
}  // namespace relationship_type

// One direction of a platform or game relationship: what a user sees of another.
struct Relationship {
  int type = relationship_type::kNone;  // 1 friend, 2 blocked, 3 incoming request, 4 outgoing request
  std::int64_t since_ms = 0;            // fake clock
  bool spam_request = false;            // incoming request from a user flagged as a spammer
};

// The users' platform and game relationships. A user removed from EmulatorState (a provisional account
// merged away) leaves none behind: no relationship may point at a user that is gone.
class SocialState : public UserRemovalListener {
 public:
  // Registers its document kinds and from then on names every document it changes.
  void register_documents(StateChanges& changes);

  // Relationships as the platform types them (1 friend, 2 blocked, 3 incoming, 4 outgoing), one direction:
  // what `user_id` sees of `other_id`. Type 0 removes it.
  void set_relationship(std::string_view user_id, std::string_view other_id, int type,
                        std::int64_t since_ms = 0, bool spam_request = false);
  // (other user id, type) pairs, sorted by id.
  [[nodiscard]] std::vector<std::pair<std::string, int>> relationships_of(std::string_view user_id) const;
  [[nodiscard]] const Relationship* find_relationship(std::string_view user_id,
                                                      std::string_view other_id) const;
  [[nodiscard]] int relationship_type(std::string_view user_id, std::string_view other_id) const;

  // Game relationships (types 1, 3, 4) of one application, same direction as above. Type 0 removes it.
  void set_game_relationship(std::string_view app_id, std::string_view user_id, std::string_view other_id,
                             int type, std::int64_t since_ms = 0);
  [[nodiscard]] const Relationship* find_game_relationship(std::string_view app_id, std::string_view user_id,
                                                           std::string_view other_id) const;
  // (other user id, relationship) pairs of one application, sorted by id.
  [[nodiscard]] std::vector<std::pair<std::string, Relationship>> game_relationships_of(
      std::string_view app_id, std::string_view user_id) const;
  // (application id, other user id) of each game friendship (type 1) of the user, in every application.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> game_friends_of(
      std::string_view user_id) const;
  // Applications in which the two users have a game relationship (either direction).
  [[nodiscard]] std::vector<std::string> game_relationship_apps(std::string_view user_id,
                                                                std::string_view other_id) const;

  // UserRemovalListener: forgets every relationship of the user and to them.
  void user_removed(std::string_view user_id) override;

 private:
  void touch(std::string_view kind, std::string_view id);
  static std::string game_relationships_id(std::string_view app_id, std::string_view user_id);

  StateChanges* changes_ = nullptr;
  // user id -> other user id -> relationship
  std::map<std::string, std::map<std::string, Relationship, std::less<>>, std::less<>> relationships_;
  // application id -> user id -> other user id -> relationship
  std::map<std::string, std::map<std::string, std::map<std::string, Relationship, std::less<>>, std::less<>>,
           std::less<>>
      game_relationships_;
};

}  // namespace platformpp::emulator
