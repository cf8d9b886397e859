#pragma once
// A guild's roles as the backend reads and changes them with the bot token (BackendClient's role calls):
// Role, the role object the platform answers with, read leniently (unknown fields kept in `rawJson`), and
// RoleChanges, what creating or modifying a role sends, checked against the platform's limits by
// CheckRoleChanges before anything leaves the process.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// Permission bits a role grants (`permissions`), as the platform numbers them; the ones role management
/// needs.
namespace role_permissions {
/// Every permission, and past every channel overwrite.
inline constexpr uint64_t Administrator = uint64_t{1} << 3;
/// Create, edit, reorder and delete the roles below the caller's highest role.
inline constexpr uint64_t ManageRoles = uint64_t{1} << 28;
}  // namespace role_permissions

/// A role's colors (`colors`). Without the guild's ENHANCED_ROLE_COLORS feature only `primary` may be set;
/// sending a tertiary color makes the platform store its holographic style instead of the values sent.
struct RoleColors {
  /// `primary_color`, 0x000000 to 0xFFFFFF; 0: the role does not color its members' names.
  uint32_t primary = 0;
  /// `secondary_color`: a gradient from `primary` to it; unset (null) when none.
  std::optional<uint32_t> secondary;
  /// `tertiary_color`: a holographic style; needs `secondary`.
  std::optional<uint32_t> tertiary;
};

/// A guild's role as the platform answers it. The \@everyone role has the guild's id.
struct Role {
  /// The role's id.
  uint64_t id = 0;
  /// Its name.
  std::string name;
  /// The permission bits it grants (`permissions`, a decimal string on the wire).
  uint64_t permissions = 0;
  /// Its position (roles with the same position are sorted by id); \@everyone is 0.
  int32_t position = 0;
  /// Its colors; `primary` is `color` when the answer has no `colors`.
  RoleColors colors;
  /// Deprecated by the platform: the same value as `colors.primary` (`color`).
  uint32_t color = 0;
  /// Members shown apart in the member list.
  bool hoist = false;
  /// Managed by an integration (a bot's own role, a booster role): it cannot be given or deleted.
  bool managed = false;
  /// Anyone may mention it.
  bool mentionable = false;
  /// The icon's image hash; unset when none.
  std::optional<std::string> icon;
  /// Its unicode emoji; unset when none.
  std::optional<std::string> unicodeEmoji;
  /// Role flags (`flags`): 1 is IN_PROMPT (selectable in an onboarding prompt).
  uint64_t flags = 0;
  /// The bot a bot's managed role belongs to (`tags.bot_id`); unset otherwise.
  std::optional<uint64_t> botId;
  /// The whole role object as JSON text, for the fields not read here.
  std::string rawJson;
};

/// What CreateRole and ModifyRole send. Unset fields are not sent: CreateRole then takes the platform's
/// defaults ("new role", the \@everyone permissions, no color, ...), ModifyRole keeps the role's values.
struct RoleChanges {
  /// 1 to 100 characters (code points).
  std::optional<std::string> name;
  /// The permission bits to grant (sent as a decimal string); the bot may only grant bits it has itself.
  std::optional<uint64_t> permissions;
  /// The role's colors (sent as `colors`); each at most 0xFFFFFF, `tertiary` only with `secondary`.
  std::optional<RoleColors> colors;
  /// Show its members apart in the member list.
  std::optional<bool> hoist;
  /// Let anyone mention it.
  std::optional<bool> mentionable;
  /// The role's unicode emoji (the guild needs ROLE_ICONS); empty removes it (sent as null).
  std::optional<std::string> unicodeEmoji;
  /// The role's icon as an image data URI ("data:image/png;base64,...", the guild needs ROLE_ICONS); empty
  /// removes it (sent as null).
  std::optional<std::string> iconDataUri;
};

/// Reads a role object; nullopt when `json` is not an object with an `id`. `permissions` may be a string or
/// a number; a field of the wrong type is left at its default. Never throws.
std::optional<Role> ParseRole(std::string_view json);

/// Every rule `changes` breaks, at its wire path ("name", "colors.secondary_color", "icon"); empty when it
/// may be sent.
std::vector<FieldError> CheckRoleChanges(const RoleChanges& changes);

}  // namespace platformpp::backend
