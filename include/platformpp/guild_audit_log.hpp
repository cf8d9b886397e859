#pragma once
// A guild's audit log as the backend reads it with the bot token (BackendClient::GetAuditLog,
// VIEW_AUDIT_LOG): who did what to which target, the changes, the action's options and the reason given with
// it. The reason is what a mutating guild call's `reason` parameter sends as X-Audit-Log-Reason
// (percent-encoded UTF-8, 1 to 512 characters, checked by CheckAuditLogReason before anything is sent).

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// What an entry records (`action_type`), as the platform numbers it; a number this version does not know is
/// kept as it came.
enum class AuditLogEvent : int32_t {
  /// GUILD_UPDATE.
  GuildUpdate = 1,
  /// CHANNEL_CREATE.
  ChannelCreate = 10,
  /// CHANNEL_UPDATE.
  ChannelUpdate = 11,
  /// CHANNEL_DELETE.
  ChannelDelete = 12,
  /// CHANNEL_OVERWRITE_CREATE.
  ChannelOverwriteCreate = 13,
  /// CHANNEL_OVERWRITE_UPDATE.
  ChannelOverwriteUpdate = 14,
  /// CHANNEL_OVERWRITE_DELETE.
  ChannelOverwriteDelete = 15,
  /// MEMBER_KICK.
  MemberKick = 20,
  /// MEMBER_PRUNE.
  MemberPrune = 21,
  /// MEMBER_BAN_ADD.
  MemberBanAdd = 22,
  /// MEMBER_BAN_REMOVE.
  MemberBanRemove = 23,
  /// MEMBER_UPDATE.
  MemberUpdate = 24,
  /// MEMBER_ROLE_UPDATE.
  MemberRoleUpdate = 25,
  /// MEMBER_MOVE.
  MemberMove = 26,
  /// MEMBER_DISCONNECT.
  MemberDisconnect = 27,
  /// BOT_ADD.
  BotAdd = 28,
  /// ROLE_CREATE.
  RoleCreate = 30,
  /// ROLE_UPDATE.
  RoleUpdate = 31,
  /// ROLE_DELETE.
  RoleDelete = 32,
  /// INVITE_CREATE.
  InviteCreate = 40,
  /// INVITE_UPDATE.
  InviteUpdate = 41,
  /// INVITE_DELETE.
  InviteDelete = 42,
  /// WEBHOOK_CREATE.
  WebhookCreate = 50,
  /// WEBHOOK_UPDATE.
  WebhookUpdate = 51,
  /// WEBHOOK_DELETE.
  WebhookDelete = 52,
  /// EMOJI_CREATE.
  EmojiCreate = 60,
  /// EMOJI_UPDATE.
  EmojiUpdate = 61,
  /// EMOJI_DELETE.
  EmojiDelete = 62,
  /// MESSAGE_DELETE.
  MessageDelete = 72,
  /// MESSAGE_BULK_DELETE.
  MessageBulkDelete = 73,
  /// MESSAGE_PIN.
  MessagePin = 74,
  /// MESSAGE_UNPIN.
  MessageUnpin = 75,
  /// INTEGRATION_CREATE.
  IntegrationCreate = 80,
  /// INTEGRATION_UPDATE.
  IntegrationUpdate = 81,
  /// INTEGRATION_DELETE.
  IntegrationDelete = 82,
  /// STAGE_INSTANCE_CREATE.
  StageInstanceCreate = 83,
  /// STAGE_INSTANCE_UPDATE.
  StageInstanceUpdate = 84,
  /// STAGE_INSTANCE_DELETE.
  StageInstanceDelete = 85,
  /// STICKER_CREATE.
  StickerCreate = 90,
  /// STICKER_UPDATE.
  StickerUpdate = 91,
  /// STICKER_DELETE.
  StickerDelete = 92,
  /// GUILD_SCHEDULED_EVENT_CREATE.
  GuildScheduledEventCreate = 100,
  /// GUILD_SCHEDULED_EVENT_UPDATE.
  GuildScheduledEventUpdate = 101,
  /// GUILD_SCHEDULED_EVENT_DELETE.
  GuildScheduledEventDelete = 102,
  /// THREAD_CREATE.
  ThreadCreate = 110,
  /// THREAD_UPDATE.
  ThreadUpdate = 111,
  /// THREAD_DELETE.
  ThreadDelete = 112,
  /// APPLICATION_COMMAND_PERMISSION_UPDATE.
  ApplicationCommandPermissionUpdate = 121,
  /// SOUNDBOARD_SOUND_CREATE.
  SoundboardSoundCreate = 130,
  /// SOUNDBOARD_SOUND_UPDATE.
  SoundboardSoundUpdate = 131,
  /// SOUNDBOARD_SOUND_DELETE.
  SoundboardSoundDelete = 132,
  /// AUTO_MODERATION_RULE_CREATE.
  AutoModerationRuleCreate = 140,
  /// AUTO_MODERATION_RULE_UPDATE.
  AutoModerationRuleUpdate = 141,
  /// AUTO_MODERATION_RULE_DELETE.
  AutoModerationRuleDelete = 142,
  /// AUTO_MODERATION_BLOCK_MESSAGE.
  AutoModerationBlockMessage = 143,
  /// AUTO_MODERATION_FLAG_TO_CHANNEL.
  AutoModerationFlagToChannel = 144,
  /// AUTO_MODERATION_USER_COMMUNICATION_DISABLED.
  AutoModerationUserCommunicationDisabled = 145,
  /// AUTO_MODERATION_QUARANTINE_USER.
  AutoModerationQuarantineUser = 146,
  /// CREATOR_MONETIZATION_REQUEST_CREATED.
  CreatorMonetizationRequestCreated = 150,
  /// CREATOR_MONETIZATION_TERMS_ACCEPTED.
  CreatorMonetizationTermsAccepted = 151,
  /// ONBOARDING_PROMPT_CREATE.
  OnboardingPromptCreate = 163,
  /// ONBOARDING_PROMPT_UPDATE.
  OnboardingPromptUpdate = 164,
  /// ONBOARDING_PROMPT_DELETE.
  OnboardingPromptDelete = 165,
  /// ONBOARDING_CREATE.
  OnboardingCreate = 166,
  /// ONBOARDING_UPDATE.
  OnboardingUpdate = 167,
  /// HOME_SETTINGS_CREATE.
  HomeSettingsCreate = 190,
  /// HOME_SETTINGS_UPDATE.
  HomeSettingsUpdate = 191,
  /// VOICE_CHANNEL_STATUS_UPDATE.
  VoiceChannelStatusUpdate = 192,
  /// VOICE_CHANNEL_STATUS_DELETE.
  VoiceChannelStatusDelete = 193,
};

/// The limits of the audit log calls, as the platform sets them.
namespace audit_log_limits {
/// GetAuditLog answers 1 to 100 entries a page (50 by default).
inline constexpr int32_t MaxEntriesPage = 100;
/// A reason is 1 to 512 characters (code points) before percent-encoding.
inline constexpr std::size_t MaxReasonLength = 512;
}  // namespace audit_log_limits

/// One changed field of an entry.
struct AuditLogChange {
  /// The field's name ("nick", "$add" for roles added, "name", ...).
  std::string key;
  /// Its value before, as JSON text ("\"old\"", "[...]"); unset when it had none.
  std::optional<std::string> oldValue;
  /// Its value after, as JSON text; unset when it has none now.
  std::optional<std::string> newValue;
};

/// One entry of the audit log.
struct AuditLogEntry {
  /// The entry's id (a snowflake: its time is the action's).
  uint64_t id = 0;
  /// Who did it; unset for the platform's own actions.
  std::optional<uint64_t> userId;
  /// What it was done to (a member, role, channel, message author...); unset when nothing.
  std::optional<uint64_t> targetId;
  /// What was done.
  AuditLogEvent actionType = AuditLogEvent::GuildUpdate;
  /// The fields it changed, in the platform's order.
  std::vector<AuditLogChange> changes;
  /// The action's extra information (`options`: channel_id, count, delete_member_days, status, ...), as
  /// text; a non-string value is kept as its JSON text.
  std::map<std::string, std::string> options;
  /// The reason given (X-Audit-Log-Reason, decoded); unset when none.
  std::optional<std::string> reason;
  /// The whole entry as JSON text, for the fields not read here.
  std::string rawJson;
};

/// One page of a guild's audit log.
struct AuditLog {
  /// The entries, newest first (oldest first when asked `after` an entry).
  std::vector<AuditLogEntry> entries;
  /// The users the entries name.
  std::vector<User> users;
  /// The whole answer as JSON text (integrations, threads, webhooks, ...).
  std::string rawJson;
};

/// Which entries GetAuditLog asks for; unset filters are not sent.
struct AuditLogQuery {
  /// Only the entries of this user's actions.
  std::optional<uint64_t> userId;
  /// Only entries of this kind.
  std::optional<AuditLogEvent> actionType;
  /// Only entries before this entry id (newest first).
  std::optional<uint64_t> before;
  /// Only entries after this entry id (oldest first, unless `before` is set too).
  std::optional<uint64_t> after;
  /// How many entries, 1 to 100.
  int32_t limit = 50;
};

/// Reads an audit log answer; nullopt when `json` is not an object whose `audit_log_entries` is a list of
/// entries with ids. A field of the wrong type is left at its default. Never throws.
std::optional<AuditLog> ParseAuditLog(std::string_view json);

/// The rules `reason` breaks as an X-Audit-Log-Reason (path "reason"): valid UTF-8 of 1 to 512 characters;
/// empty when it may be sent. (An empty reason is not sent at all by the calls that take one.)
std::vector<FieldError> CheckAuditLogReason(std::string_view reason);

}  // namespace platformpp::backend
