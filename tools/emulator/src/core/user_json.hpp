// The user object as the API returns it everywhere (/users/@me, /users/{id}, READY, relationships,
// USER_UPDATE, messages, lobby members).
#pragma once

#include <string>
#include <string_view>

#include "core/emulator_state.hpp"

namespace platformpp::emulator {

// Serializes a user object as the API returns it; premium_type is the real one only if `show_premium`.
// `pii`: the user's own object (GET/PATCH /users/@me), with the fields the platform shows only to its owner.
std::string user_json(const User& user, bool show_premium = false, bool pii = false);
// A user the emulator no longer has (a message's author, a relationship's other side), in the full user shape
// the platform gives deleted accounts.
std::string deleted_user_json(std::string_view id);

}  // namespace platformpp::emulator
