#pragma once
// A guild's members as the backend reads and changes them with the bot token (BackendClient's member calls):
// GuildMember, the member object the platform answers with (also the member an interaction carries), read
// leniently (unknown fields kept in `rawJson`); MemberChanges and CurrentMemberChanges, what modifying a
// member or the bot's own guild profile sends, checked against the platform's limits by CheckMemberChanges
// and CheckCurrentMemberChanges before anything leaves the process; PruneArgs for the prune calls.

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// Guild member flags (`flags`), as the platform numbers them.
namespace member_flags {
/// The member left and joined the guild again.
inline constexpr uint64_t DidRejoin = uint64_t{1} << 0;
/// The member completed onboarding.
inline constexpr uint64_t CompletedOnboarding = uint64_t{1} << 1;
/// Exempt from the guild's verification requirements: the one flag a bot may set on a member.
inline constexpr uint64_t BypassesVerification = uint64_t{1} << 2;
/// The member started onboarding.
inline constexpr uint64_t StartedOnboarding = uint64_t{1} << 3;
}  // namespace member_flags

/// The limits CheckMemberChanges and CheckCurrentMemberChanges apply, as the platform sets them.
namespace member_limits {
/// A nickname is 1 to 32 characters (code points); an empty one removes it.
inline constexpr std::size_t MaxNickLength = 32;
/// A bot's guild bio is at most 190 characters (code points).
inline constexpr std::size_t MaxBioLength = 190;
/// A timeout ends at most 28 days after now.
inline constexpr uint64_t MaxTimeoutMs = uint64_t{28} * 24 * 60 * 60 * 1000;
/// Prune counts members inactive for 1 to 30 days.
inline constexpr int32_t MaxPruneDays = 30;
/// ListMembers answers 1 to 1000 members a page.
inline constexpr int32_t MaxMembersPage = 1000;
}  // namespace member_limits

/// A guild member as the platform answers it: the member routes' answer, and the invoking or a resolved
/// member of an interaction.
struct GuildMember {
  /// The member's user; absent in resolved members (the user is in Resolved::users).
  std::optional<User> user;
  /// The member's nickname in the guild; empty when none.
  std::string nick;
  /// The member's role ids.
  std::vector<uint64_t> roles;
  /// The member's permissions in the interaction's channel (bits); unset where the platform does not send it.
  std::optional<uint64_t> permissions;
  /// When the member joined (ISO 8601); empty when absent.
  std::string joinedAt;
  /// The whole member object as JSON text.
  std::string rawJson;

  // The member routes' fields (issue 36).

  /// The member's guild avatar hash; empty when none.
  std::string avatar{};
  /// The member's guild banner hash; empty when none.
  std::string banner{};
  /// A bot's guild bio (`bio`); empty when none.
  std::string bio{};
  /// When the member's timeout ends (ISO 8601, `communication_disabled_until`); empty when not timed out.
  std::string communicationDisabledUntil{};
  /// member_flags bits (`flags`).
  uint64_t flags = 0;
  /// Deafened in voice channels.
  bool deaf = false;
  /// Muted in voice channels.
  bool mute = false;
  /// Has not yet passed the guild's membership screening (`pending`).
  bool pending = false;
  /// Since when the member boosts the guild (ISO 8601, `premium_since`); empty when not boosting.
  std::string premiumSince{};
};

/// What ModifyMember sends. Unset fields are not sent, and the member keeps them.
struct MemberChanges {
  /// The member's nickname, 1 to 32 characters; empty removes it (sent as null). Another's needs
  /// MANAGE_NICKNAMES, the bot's own CHANGE_NICKNAME.
  std::optional<std::string> nick;
  /// The member's roles, all of them (MANAGE_ROLES; only roles below the bot's highest may be added or
  /// removed).
  std::optional<std::vector<uint64_t>> roles;
  /// When the member's timeout ends, in milliseconds since the Unix epoch, at most 28 days from now
  /// (MODERATE_MEMBERS); 0 ends a timeout (sent as null).
  std::optional<uint64_t> timeoutUntilMs;
  /// member_flags bits; only BypassesVerification may be changed (MANAGE_GUILD, or MANAGE_ROLES, or
  /// MODERATE_MEMBERS with KICK_MEMBERS and BAN_MEMBERS).
  std::optional<uint64_t> flags;
};

/// What ModifyCurrentMember sends for the bot's own guild profile. Unset fields are not sent.
struct CurrentMemberChanges {
  /// The bot's nickname in the guild, 1 to 32 characters; empty removes it (sent as null).
  std::optional<std::string> nick;
  /// The bot's guild avatar as an image data URI ("data:image/png;base64,..."); empty removes it.
  std::optional<std::string> avatarDataUri;
  /// The bot's guild banner as an image data URI; empty removes it.
  std::optional<std::string> bannerDataUri;
  /// The bot's guild bio, at most 190 characters; empty removes it (sent as null).
  std::optional<std::string> bio;
};

/// What GetPruneCount and BeginPrune count: members inactive for `days` with no roles, or only roles of
/// `includeRoles`.
struct PruneArgs {
  /// Days of inactivity, 1 to 30.
  int32_t days = 7;
  /// Roles whose members are counted as if they had none.
  std::vector<uint64_t> includeRoles;
  /// BeginPrune only: false answers no count (large guilds), which the platform recommends there.
  bool computePruneCount = true;
};

/// Reads a guild member object; nullopt when `json` is not an object. A field of the wrong type is left at
/// its default. Never throws.
std::optional<GuildMember> ParseGuildMember(std::string_view json);

/// Every rule `changes` breaks at `nowMs` (milliseconds since the Unix epoch: the timeout's 28 days count
/// from it), at its wire path ("nick", "communication_disabled_until", "roles.0"); empty when it may be sent.
std::vector<FieldError> CheckMemberChanges(const MemberChanges& changes, uint64_t nowMs);

/// Every rule `changes` breaks, at its wire path ("nick", "bio", "avatar", "banner"); empty when it may be
/// sent.
std::vector<FieldError> CheckCurrentMemberChanges(const CurrentMemberChanges& changes);

}  // namespace platformpp::backend
