#pragma once
// Who the current player is and what the Client knows of other users: all that lobbies, messages, presence
// and voice need from the social store, so that they depend on this and not on the store.

#include <platformpp/social.hpp>

#include <cstdint>
#include <optional>

namespace platformpp::social {

class UserDirectory {
 public:
  virtual ~UserDirectory() = default;
  /// The player, once READY (or a fetched user) made them known. Any thread.
  virtual std::optional<UserHandle> CurrentUser() const = 0;
  /// A known user (a relationship, a lobby member, a message author...). Any thread.
  virtual std::optional<UserHandle> User(uint64_t userId) const = 0;

 protected:
  UserDirectory() = default;
  UserDirectory(const UserDirectory&) = default;
  UserDirectory& operator=(const UserDirectory&) = default;
};

}  // namespace platformpp::social
