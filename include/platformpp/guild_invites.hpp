#pragma once
// A guild's invites as the backend makes and reads them with the bot token (BackendClient's invite calls):
// Invite, the invite object the platform answers with (its metadata too where the route has it), read
// leniently; InviteArgs, what creating one sends, checked by CheckInviteArgs before anything leaves the
// process; the target users of an invite (a CSV file of user ids the platform processes as a job) and that
// job's status.

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// The limits CheckInviteArgs applies, as the platform sets them.
namespace invite_limits {
/// An invite lasts 0 (never expires) to 604800 seconds (7 days).
inline constexpr int32_t MaxAgeSeconds = 604800;
/// An invite is used 0 (unlimited) to 100 times.
inline constexpr int32_t MaxUses = 100;
/// An invite gives at most 250 roles.
inline constexpr std::size_t MaxRoleIds = 250;
}  // namespace invite_limits

/// A role an invite gives, as the invite shows it.
struct InviteRole {
  /// The role's id.
  uint64_t id = 0;
  /// Its name.
  std::string name;
  /// Its position.
  int32_t position = 0;
  /// Its colour (RGB).
  uint32_t color = 0;
};

/// An invite as the platform answers it.
struct Invite {
  /// The invite code (as in `discord.gg/CODE`).
  std::string code;
  /// The guild's id.
  uint64_t guildId = 0;
  /// The guild's name.
  std::string guildName;
  /// The channel's id.
  uint64_t channelId = 0;
  /// The channel's name.
  std::string channelName;
  /// Who made it; unset when the answer has no inviter.
  std::optional<User> inviter;
  /// Its target type (1 a stream, 2 an embedded application); 0 when none.
  int32_t targetType = 0;
  /// When it expires (ISO 8601); empty when it never does.
  std::string expiresAt;
  /// The roles it gives.
  std::vector<InviteRole> roles;
  /// The guild's approximate member count (GetInvite with counts); 0 when absent.
  int64_t approximateMemberCount = 0;
  /// The guild's approximate count of members online (GetInvite with counts); 0 when absent.
  int64_t approximatePresenceCount = 0;
  /// Metadata (the create and channel-invites answers): how often it was used.
  int64_t uses = 0;
  /// Metadata: its use limit (0 unlimited).
  int64_t maxUses = 0;
  /// Metadata: its lifetime in seconds (0 never expires).
  int64_t maxAge = 0;
  /// Metadata: it grants temporary membership.
  bool temporary = false;
  /// Metadata: when it was made (ISO 8601); empty when the answer has no metadata.
  std::string createdAt;
  /// The whole invite object as JSON text.
  std::string rawJson;
};

/// What CreateChannelInvite sends.
struct InviteArgs {
  /// Lifetime in seconds, 0 (never expires) to 604800.
  int32_t maxAge = 86400;
  /// Uses, 0 (unlimited) to 100.
  int32_t maxUses = 0;
  /// Members who join through it leave when they go offline without a role.
  bool temporary = false;
  /// A new invite even when one with these settings exists.
  bool unique = false;
  /// Roles members get by accepting (MANAGE_ROLES), at most 250, ids not 0.
  std::vector<uint64_t> roleIds;
  /// The only users who may see and accept it (MANAGE_GUILD): sent as the CSV file `target_users_file`
  /// (header `user_id`, one id a line) of a multipart body; ids not 0. Empty: anyone may.
  std::vector<uint64_t> targetUserIds;
  /// An embedded application the invite opens (target type 2); 0 for none.
  uint64_t targetApplicationId = 0;
};

/// The state of an invite's target-users job.
enum class InviteTargetUsersJobState : int32_t {
  /// Not known (a number this version does not know).
  Unspecified = 0,
  /// The file is being processed.
  Processing = 1,
  /// The users apply.
  Completed = 2,
  /// Processing failed; `errorMessage` says why, the users are unchanged.
  Failed = 3,
};

/// The status of an invite's target-users job (GET /invites/{code}/target-users/job-status).
struct InviteTargetUsersJob {
  /// Where the job is.
  InviteTargetUsersJobState status = InviteTargetUsersJobState::Unspecified;
  /// Users in the file.
  int64_t totalUsers = 0;
  /// Users processed so far.
  int64_t processedUsers = 0;
  /// When the job started (ISO 8601).
  std::string createdAt;
  /// When it completed (ISO 8601); empty while processing or when it failed.
  std::string completedAt;
  /// Why it failed; empty otherwise.
  std::string errorMessage;
};

/// Reads an invite object; nullopt when `json` is not an object with a `code`. Never throws.
std::optional<Invite> ParseInvite(std::string_view json);

/// Reads a target-users CSV (the header `user_id`, then one id a line; CRLF, blank lines and spaces allowed):
/// the ids in order; nullopt when a line is neither the header nor an id. Never throws.
std::optional<std::vector<uint64_t>> ParseInviteTargetUsersCsv(std::string_view csv);

/// Reads a target-users job status; nullopt when `json` is not an object with a numeric `status`.
std::optional<InviteTargetUsersJob> ParseInviteTargetUsersJob(std::string_view json);

/// Every rule `args` breaks, at its wire path ("max_age", "max_uses", "role_ids.0", "target_users_file");
/// empty when it may be sent.
std::vector<FieldError> CheckInviteArgs(const InviteArgs& args);

}  // namespace platformpp::backend
