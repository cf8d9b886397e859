#pragma once
// A guild's AutoMod rules as the backend reads and changes them with the bot token (BackendClient's AutoMod
// calls, MANAGE_GUILD): AutoModRule, the rule object the platform answers with (read leniently, unknown
// fields kept in `rawJson`); AutoModRuleChanges, what creating or modifying a rule sends, checked against the
// platform's limits by CheckAutoModRuleChanges before anything leaves the process.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// When a rule is checked (`event_type`), as the platform numbers it.
enum class AutoModEventType : int32_t {
  /// A member sends or edits a message.
  MessageSend = 1,
  /// A member joins or changes their profile (MEMBER_PROFILE rules).
  MemberUpdate = 2,
};

/// What a rule looks for (`trigger_type`), as the platform numbers it.
enum class AutoModTriggerType : int32_t {
  /// Words of the rule's own lists (at most 6 such rules a guild).
  Keyword = 1,
  /// Generic spam (one a guild).
  Spam = 3,
  /// The platform's own word sets (one a guild).
  KeywordPreset = 4,
  /// Too many mentions in one message (one a guild).
  MentionSpam = 5,
  /// Words in a member's profile (one a guild).
  MemberProfile = 6,
};

/// The platform's word sets a KeywordPreset rule uses (`presets`).
enum class AutoModKeywordPreset : int32_t {
  /// Swearing and cursing.
  Profanity = 1,
  /// Sexually explicit words.
  SexualContent = 2,
  /// Personal insults and hate speech.
  Slurs = 3,
};

/// What a rule does when it trips (`actions[].type`).
enum class AutoModActionType : int32_t {
  /// The message is not posted (not for MemberProfile rules).
  BlockMessage = 1,
  /// An alert message goes to `channelId`.
  SendAlertMessage = 2,
  /// The member is timed out for `durationSeconds` (Keyword and MentionSpam rules; MODERATE_MEMBERS).
  Timeout = 3,
  /// The member can no longer interact in the guild (MemberProfile rules only).
  BlockMemberInteraction = 4,
};

/// The limits CheckAutoModRuleChanges applies, as the platform sets them.
namespace automod_limits {
/// A rule's name is 1 to 100 characters.
inline constexpr std::size_t MaxNameLength = 100;
/// `keywordFilter` holds at most 1000 keywords...
inline constexpr std::size_t MaxKeywords = 1000;
/// ...of 1 to 60 characters each (allow list entries too).
inline constexpr std::size_t MaxKeywordLength = 60;
/// `regexPatterns` holds at most 10 patterns...
inline constexpr std::size_t MaxRegexPatterns = 10;
/// ...of 1 to 260 characters each.
inline constexpr std::size_t MaxRegexLength = 260;
/// `allowList` of a Keyword or MemberProfile rule holds at most 100 entries.
inline constexpr std::size_t MaxAllowList = 100;
/// `allowList` of a KeywordPreset rule holds at most 1000 entries.
inline constexpr std::size_t MaxPresetAllowList = 1000;
/// `mentionTotalLimit` is 0 to 50.
inline constexpr int32_t MaxMentionTotalLimit = 50;
/// At most 20 exempt roles.
inline constexpr std::size_t MaxExemptRoles = 20;
/// At most 50 exempt channels.
inline constexpr std::size_t MaxExemptChannels = 50;
/// A BlockMessage action's custom message is at most 150 characters.
inline constexpr std::size_t MaxCustomMessageLength = 150;
/// A Timeout action lasts 0 to 2419200 seconds (4 weeks).
inline constexpr int64_t MaxTimeoutSeconds = 2419200;
}  // namespace automod_limits

/// What a rule looks for (`trigger_metadata`); which fields count depends on the trigger type.
struct AutoModTriggerMetadata {
  /// Keyword and MemberProfile: the keywords (wildcards `*` at either end choose the matching strategy).
  std::vector<std::string> keywordFilter;
  /// Keyword and MemberProfile: regular expressions (the platform's Rust flavour).
  std::vector<std::string> regexPatterns;
  /// KeywordPreset: the word sets.
  std::vector<AutoModKeywordPreset> presets;
  /// Keyword, KeywordPreset and MemberProfile: what never trips the rule.
  std::vector<std::string> allowList;
  /// MentionSpam: unique role and user mentions allowed in one message (0 to 50); unset: not sent.
  std::optional<int32_t> mentionTotalLimit;
  /// MentionSpam: also look for mention raids; unset: not sent.
  std::optional<bool> mentionRaidProtectionEnabled;
};

/// One action of a rule: its type and that type's metadata.
struct AutoModAction {
  /// What the action does.
  AutoModActionType type = AutoModActionType::BlockMessage;
  /// SendAlertMessage: the channel the alert goes to (not 0).
  uint64_t channelId = 0;
  /// Timeout: how long, 0 to 2419200 seconds.
  int64_t durationSeconds = 0;
  /// BlockMessage: shown to the member whose message was blocked, at most 150 characters; empty: none.
  std::string customMessage;
};

/// An AutoMod rule as the platform answers it.
struct AutoModRule {
  /// The rule's id.
  uint64_t id = 0;
  /// The guild's id.
  uint64_t guildId = 0;
  /// The rule's name.
  std::string name;
  /// Who created the rule.
  uint64_t creatorId = 0;
  /// When the rule is checked.
  AutoModEventType eventType = AutoModEventType::MessageSend;
  /// What the rule looks for; it never changes.
  AutoModTriggerType triggerType = AutoModTriggerType::Keyword;
  /// The trigger's settings.
  AutoModTriggerMetadata triggerMetadata;
  /// What the rule does when it trips.
  std::vector<AutoModAction> actions;
  /// Whether the rule is on.
  bool enabled = false;
  /// Roles whose members the rule ignores.
  std::vector<uint64_t> exemptRoles;
  /// Channels the rule ignores.
  std::vector<uint64_t> exemptChannels;
  /// The whole rule object as JSON text.
  std::string rawJson;
};

/// What CreateAutoModRule and ModifyAutoModRule send. Unset fields are not sent (a modified rule keeps them).
/// Creating needs `name`, `eventType`, `triggerType` and `actions`.
struct AutoModRuleChanges {
  /// The rule's name, 1 to 100 characters.
  std::optional<std::string> name;
  /// When the rule is checked: MemberUpdate for MemberProfile rules, MessageSend for the others.
  std::optional<AutoModEventType> eventType;
  /// Create: the rule's trigger type (sent). Modify: never sent (a rule's trigger type never changes), but
  /// when set to the rule's trigger type the checks that depend on it (event type, actions, allow list size)
  /// are made before sending.
  std::optional<AutoModTriggerType> triggerType;
  /// The trigger's settings; with a known trigger type only its own fields are sent (lists even when empty,
  /// which clears them), otherwise the non-empty lists and the set values.
  std::optional<AutoModTriggerMetadata> triggerMetadata;
  /// What the rule does, at least one action.
  std::optional<std::vector<AutoModAction>> actions;
  /// Whether the rule is on (the platform's default: off).
  std::optional<bool> enabled;
  /// Roles whose members the rule ignores, at most 20.
  std::optional<std::vector<uint64_t>> exemptRoles;
  /// Channels the rule ignores, at most 50.
  std::optional<std::vector<uint64_t>> exemptChannels;
};

/// Reads an AutoMod rule object; nullopt when `json` is not an object. A field of the wrong type is left at
/// its default. Never throws.
std::optional<AutoModRule> ParseAutoModRule(std::string_view json);

/// Every rule `changes` breaks, at its wire path ("name", "trigger_metadata.keyword_filter.3",
/// "actions.0.metadata.duration_seconds", "event_type"); empty when it may be sent. `creating`: the fields
/// creating needs must be set; otherwise (modify) nothing is required.
std::vector<FieldError> CheckAutoModRuleChanges(const AutoModRuleChanges& changes, bool creating);

/// AUTO_MODERATION_ACTION_EXECUTION: one action of a rule ran. A bot's Gateway session receives it with the
/// AUTO_MODERATION_EXECUTION intent (1 << 21) and MANAGE_GUILD in the guild (InteractionsGateway's
/// SetAutoModActionCallback).
struct AutoModActionExecution {
  /// The guild's id.
  uint64_t guildId = 0;
  /// The action that ran.
  AutoModAction action;
  /// The rule that tripped.
  uint64_t ruleId = 0;
  /// That rule's trigger type.
  AutoModTriggerType ruleTriggerType = AutoModTriggerType::Keyword;
  /// The member whose message or profile tripped it.
  uint64_t userId = 0;
  /// The channel of the message; unset for profiles and blocked messages outside a channel.
  std::optional<uint64_t> channelId;
  /// The message; unset when it was blocked (never posted).
  std::optional<uint64_t> messageId;
  /// The alert a SendAlertMessage action posted; unset for other actions.
  std::optional<uint64_t> alertSystemMessageId;
  /// What the member wrote; empty without the MESSAGE_CONTENT intent.
  std::string content;
  /// The keyword or pattern that matched; unset for triggers without one.
  std::optional<std::string> matchedKeyword;
  /// The part of `content` that matched; empty without the MESSAGE_CONTENT intent.
  std::string matchedContent;
  /// The whole event object (`d`) as JSON text.
  std::string rawJson;
};

/// Reads an AUTO_MODERATION_ACTION_EXECUTION object; nullopt when `json` is not an object or lacks the guild,
/// the rule or the user. A field of the wrong type is left at its default. Never throws.
std::optional<AutoModActionExecution> ParseAutoModActionExecution(std::string_view json);

}  // namespace platformpp::backend
