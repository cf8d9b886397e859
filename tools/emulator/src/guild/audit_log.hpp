// A guild's audit log: the entries the API's administrative routes leave (who did what to which target, the
// changes, the options of the action and the X-Audit-Log-Reason). Plain data and the reason header's
// reading; GuildState keeps the entries (guild_state.hpp), GuildModule::audit() appends them and the route
// lists them (audit_log_routes.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/http_message.hpp"

namespace platformpp::emulator {

// The platform's audit log events (action_type) of the actions the emulator has.
namespace audit_action {
inline constexpr int kChannelCreate = 10;
inline constexpr int kChannelUpdate = 11;
inline constexpr int kChannelDelete = 12;
inline constexpr int kChannelOverwriteCreate = 13;
inline constexpr int kChannelOverwriteUpdate = 14;
inline constexpr int kChannelOverwriteDelete = 15;
inline constexpr int kMemberKick = 20;
inline constexpr int kMemberPrune = 21;
inline constexpr int kMemberUpdate = 24;
inline constexpr int kMemberRoleUpdate = 25;
inline constexpr int kMemberMove = 26;
inline constexpr int kMemberDisconnect = 27;
inline constexpr int kBotAdd = 28;
inline constexpr int kRoleCreate = 30;
inline constexpr int kRoleUpdate = 31;
inline constexpr int kRoleDelete = 32;
inline constexpr int kInviteCreate = 40;
inline constexpr int kInviteUpdate = 41;
inline constexpr int kInviteDelete = 42;
inline constexpr int kMessageDelete = 72;
inline constexpr int kMessagePin = 74;
inline constexpr int kMessageUnpin = 75;
inline constexpr int kSoundboardSoundCreate = 130;
inline constexpr int kSoundboardSoundUpdate = 131;
inline constexpr int kSoundboardSoundDelete = 132;
inline constexpr int kAutoModerationRuleCreate = 140;
inline constexpr int kAutoModerationRuleUpdate = 141;
inline constexpr int kAutoModerationRuleDelete = 142;
inline constexpr int kAutoModerationBlockMessage = 143;
inline constexpr int kAutoModerationFlagToChannel = 144;
inline constexpr int kAutoModerationUserCommunicationDisabled = 145;
inline constexpr int kAutoModerationQuarantineUser = 146;
inline constexpr int kVoiceChannelStatusCreate = 192;
inline constexpr int kVoiceChannelStatusDelete = 193;
}  // namespace audit_action

// Entries are kept 45 days (the platform's figure), by the fake clock.
inline constexpr std::int64_t kAuditLogRetentionMs = std::int64_t{45} * 24 * 60 * 60 * 1000;
// X-Audit-Log-Reason: 1 to 512 characters once percent-decoded.
inline constexpr std::size_t kMaxAuditLogReasonCharacters = 512;

// One change: `key`, and the old and new values as JSON texts (absent: null before, or reset).
struct AuditLogChange {
  std::string key;
  std::optional<std::string> old_value{};
  std::optional<std::string> new_value{};
};

struct AuditLogEntry {
  std::string id;  // a snowflake: its time is the entry's
  std::optional<std::string> user_id{};
  std::optional<std::string> target_id{};
  int action_type = 0;
  std::vector<AuditLogChange> changes{};
  // Optional Audit Entry Info: every member the platform documents is a string (snowflakes and counts too).
  std::vector<std::pair<std::string, std::string>> options{};
  std::optional<std::string> reason{};
};

// A change from plain values, written as JSON. A value equal on both sides makes no change (nullopt).
[[nodiscard]] std::optional<AuditLogChange> audit_change(std::string key,
                                                         const std::optional<std::string>& before,
                                                         const std::optional<std::string>& after);
[[nodiscard]] std::optional<AuditLogChange> audit_change(std::string key, std::optional<std::int64_t> before,
                                                         std::optional<std::int64_t> after);
[[nodiscard]] std::optional<AuditLogChange> audit_change(std::string key, bool before, bool after);
// A change whose values are JSON texts already (arrays, objects, permission strings).
[[nodiscard]] std::optional<AuditLogChange> audit_json_change(std::string key,
                                                              std::optional<std::string> before,
                                                              std::optional<std::string> after);
// Adds the change to the entry when there is one.
void add_change(AuditLogEntry& entry, std::optional<AuditLogChange> change);

// The reason a request gives (X-Audit-Log-Reason, percent-decoded, UTF-8). Undecodable, empty or not UTF-8:
// none (the platform keeps only a valid reason; the action still happens). Longer than 512 characters: its
// first 512 (our choice; the platform gives no error for it).
[[nodiscard]] std::optional<std::string> audit_log_reason(const HttpRequest& request);

// The entry as the API writes it (audit_log_entries[]); with a `guild_id` first when one is given (the
// Gateway's GUILD_AUDIT_LOG_ENTRY_CREATE).
[[nodiscard]] std::string audit_log_entry_json(const AuditLogEntry& entry, std::string_view guild_id = {});

}  // namespace platformpp::emulator
