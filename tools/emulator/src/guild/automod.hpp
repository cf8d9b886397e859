// AutoMod (auto moderation) rules as plain data, how a request body becomes one, how one is written, and how
// a rule's keywords and patterns match content. The routes are in automod_routes.cpp; messages are checked
// by MessagingModule (messaging/automod_messages.cpp), members' profiles by GuildModule.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api_error.hpp"

namespace platformpp::emulator {

struct Guild;

namespace automod {

// Trigger types, with at most this many rules of each per guild (the platform's figures).
inline constexpr int kKeyword = 1;
inline constexpr int kSpam = 3;
inline constexpr int kKeywordPreset = 4;
inline constexpr int kMentionSpam = 5;
inline constexpr int kMemberProfile = 6;
[[nodiscard]] int max_rules_of_trigger(int trigger_type);

// Event types: when a rule is checked.
inline constexpr int kMessageSend = 1;
inline constexpr int kMemberUpdate = 2;

// Action types.
inline constexpr int kBlockMessage = 1;
inline constexpr int kSendAlertMessage = 2;
inline constexpr int kTimeout = 3;
inline constexpr int kBlockMemberInteraction = 4;

// Limits of a rule's lists and strings (the platform's).
inline constexpr std::size_t kMaxKeywords = 1000;
inline constexpr std::size_t kMaxKeywordCharacters = 60;
inline constexpr std::size_t kMaxRegexPatterns = 10;
inline constexpr std::size_t kMaxRegexCharacters = 260;
inline constexpr std::size_t kMaxAllowList = 100;         // KEYWORD and MEMBER_PROFILE
inline constexpr std::size_t kMaxPresetAllowList = 1000;  // KEYWORD_PRESET
inline constexpr std::size_t kMaxExemptRoles = 20;
inline constexpr std::size_t kMaxExemptChannels = 50;
inline constexpr std::size_t kMaxCustomMessageCharacters = 150;
inline constexpr std::int64_t kMaxTimeoutSeconds = 2419200;  // 4 weeks
inline constexpr std::int64_t kMaxMentionTotalLimit = 50;

}  // namespace automod

struct AutoModAction {
  int type = automod::kBlockMessage;
  std::optional<std::string> channel_id{};         // SEND_ALERT_MESSAGE
  std::optional<std::int64_t> duration_seconds{};  // TIMEOUT
  std::optional<std::string> custom_message{};     // BLOCK_MESSAGE
};

struct AutoModRule {
  std::string id;
  std::string guild_id;
  std::string name;
  std::string creator_id;
  int event_type = automod::kMessageSend;
  int trigger_type = automod::kKeyword;
  std::vector<std::string> keyword_filter{};
  std::vector<std::string> regex_patterns{};
  std::vector<int> presets{};
  std::vector<std::string> allow_list{};
  std::optional<std::int64_t> mention_total_limit{};
  bool mention_raid_protection_enabled = false;
  std::vector<AutoModAction> actions{};
  bool enabled = false;
  std::vector<std::string> exempt_roles{};
  std::vector<std::string> exempt_channels{};
};

// What matched: the rule's keyword (or pattern) and the part of the content it matched.
struct AutoModMatch {
  std::string keyword;
  std::string content;
};

// Reads a create (every field; name, event_type, trigger_type and actions required) or modify (only the
// fields present; trigger_type cannot change) body into `rule`, checking the platform's limits and the fit
// of event, trigger and actions to each other. Field problems go to `errors`.
void read_automod_rule(const rapidjson::Value& body, const Guild& guild, bool creating, AutoModRule& rule,
                       FieldErrors& errors);

// The rule as the API writes it.
[[nodiscard]] std::string automod_rule_json(const AutoModRule& rule);
// An action as the API writes it.
[[nodiscard]] std::string automod_action_json(const AutoModAction& action);

// Whether `text` trips the rule's keyword_filter (with the platform's wildcard strategies, case-insensitive)
// or regex_patterns, and no allow_list entry covers what matched. Only KEYWORD and MEMBER_PROFILE rules match
// here: the emulator has no spam detection and the presets' wordsets are the platform's own.
[[nodiscard]] std::optional<AutoModMatch> automod_match(const AutoModRule& rule, std::string_view text);

}  // namespace platformpp::emulator
