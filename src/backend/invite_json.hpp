#pragma once
// A guild's invites on the wire (platformpp/guild_invites.hpp): the invite object and the target-users job
// status the platform answers with, read leniently, and what creating an invite or uploading its target users
// sends (JSON, or multipart/form-data carrying the CSV file `target_users_file`).

#include "backend/message_json.hpp"
#include "json/json.hpp"

#include <platformpp/guild_invites.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// An invite object; nullopt when `value` is not an object with a `code`.
std::optional<Invite> ParseInviteValue(const json::Value& value);

/// A target-users job status; nullopt when `value` is not an object with a numeric `status`.
std::optional<InviteTargetUsersJob> ParseInviteTargetUsersJobValue(const json::Value& value);

/// The CSV file of `userIds`: the header `user_id`, then one id a line (LF).
std::string TargetUsersCsv(const std::vector<uint64_t>& userIds);

/// What CreateChannelInvite sends: the JSON of `args`, or, with target users, multipart/form-data with that
/// JSON in `payload_json` and the CSV in `target_users_file`.
EncodedBody InviteArgsBody(const InviteArgs& args);

/// What UpdateInviteTargetUsers sends: multipart/form-data with the CSV of `userIds` in `target_users_file`.
EncodedBody TargetUsersBody(const std::vector<uint64_t>& userIds);

}  // namespace platformpp::backend
