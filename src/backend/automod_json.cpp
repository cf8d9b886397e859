// AutoMod rules on the wire (automod_json.hpp) and CheckAutoModRuleChanges. The reader is lenient as the
// other answer readers are: a wrong-typed field keeps its default rather than losing the rule.
#include "backend/automod_json.hpp"
#include "backend/request_parts.hpp"

#include "core/utf8.hpp"

#include <charconv>
#include <cstdint>
#include <exception>
#include <string_view>
#include <system_error>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

// An array of snowflakes; an id the SDK cannot read is skipped, not the rule.
std::vector<uint64_t> Ids(const json::Value& object, std::string_view name) {
  std::vector<uint64_t> ids;
  if (const json::Value* list = json::Member(object, name); list != nullptr && list->IsArray()) {
    for (const json::Value& item : list->GetArray())
      if (auto id = json::AsSnowflake(item)) ids.push_back(*id);
  }
  return ids;
}

std::vector<std::string> Strings(const json::Value& object, std::string_view name) {
  std::vector<std::string> strings;
  if (const json::Value* list = json::Member(object, name); list != nullptr && list->IsArray()) {
    for (const json::Value& item : list->GetArray())
      if (item.IsString()) strings.emplace_back(item.GetString(), item.GetStringLength());
  }
  return strings;
}

AutoModTriggerMetadata ReadMetadata(const json::Value& value) {
  AutoModTriggerMetadata metadata;
  if (!value.IsObject()) return metadata;
  metadata.keywordFilter = Strings(value, "keyword_filter");
  metadata.regexPatterns = Strings(value, "regex_patterns");
  metadata.allowList = Strings(value, "allow_list");
  if (const json::Value* presets = json::Member(value, "presets"); presets != nullptr && presets->IsArray()) {
    for (const json::Value& preset : presets->GetArray())
      if (preset.IsInt()) metadata.presets.push_back(static_cast<AutoModKeywordPreset>(preset.GetInt()));
  }
  if (auto limit = json::GetInt(value, "mention_total_limit");
      limit && *limit >= INT32_MIN && *limit <= INT32_MAX) {
    metadata.mentionTotalLimit = static_cast<int32_t>(*limit);
  }
  metadata.mentionRaidProtectionEnabled = json::GetBool(value, "mention_raid_protection_enabled");
  return metadata;
}

std::optional<AutoModAction> ReadAction(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto type = json::GetInt(value, "type");
  if (!type || *type < INT32_MIN || *type > INT32_MAX) return std::nullopt;
  AutoModAction action;
  action.type = static_cast<AutoModActionType>(*type);
  if (const json::Value* metadata = json::Member(value, "metadata");
      metadata != nullptr && metadata->IsObject()) {
    action.channelId = json::GetSnowflake(*metadata, "channel_id").value_or(0);
    action.durationSeconds = json::GetInt(*metadata, "duration_seconds").value_or(0);
    action.customMessage = std::string(json::GetString(*metadata, "custom_message").value_or(""));
  }
  return action;
}

// Text of `min` to `max` code points, as the platform counts.
void CheckText(const std::string& text, const std::string& path, std::size_t min, std::size_t max,
               std::vector<FieldError>& errors) {
  auto length = core::CountCodePoints(text);
  if (!length) {
    AddViolation(errors, path, "BASE_TYPE_INVALID", "must be valid UTF-8");
  } else if (*length < min || *length > max) {
    AddViolation(errors, path, "BASE_TYPE_BAD_LENGTH",
                 "must be " + std::to_string(min) + " to " + std::to_string(max) + " characters");
  }
}

void CheckList(const std::vector<std::string>& list, const std::string& path, std::size_t maxItems,
               std::size_t maxLength, std::vector<FieldError>& errors) {
  if (list.size() > maxItems) {
    AddViolation(errors, path, "BASE_TYPE_MAX_LENGTH", "at most " + std::to_string(maxItems) + " entries");
  }
  for (std::size_t i = 0; i < list.size(); ++i)
    CheckText(list[i], path + "." + std::to_string(i), 1, maxLength, errors);
}

void CheckIds(const std::vector<uint64_t>& ids, const std::string& path, std::size_t maxItems,
              std::vector<FieldError>& errors) {
  if (ids.size() > maxItems) {
    AddViolation(errors, path, "BASE_TYPE_MAX_LENGTH", "at most " + std::to_string(maxItems) + " ids");
  }
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == 0)
      AddViolation(errors, path + "." + std::to_string(i), "BASE_TYPE_REQUIRED", "must not be 0");
}

bool KnownTrigger(AutoModTriggerType type) {
  switch (type) {
    case AutoModTriggerType::Keyword:
    case AutoModTriggerType::Spam:
    case AutoModTriggerType::KeywordPreset:
    case AutoModTriggerType::MentionSpam:
    case AutoModTriggerType::MemberProfile:
      return true;
  }
  return false;
}

void CheckMetadata(const AutoModTriggerMetadata& metadata, std::optional<AutoModTriggerType> trigger,
                   std::vector<FieldError>& errors) {
  const std::string at = "trigger_metadata.";
  CheckList(metadata.keywordFilter, at + "keyword_filter", automod_limits::MaxKeywords,
            automod_limits::MaxKeywordLength, errors);
  CheckList(metadata.regexPatterns, at + "regex_patterns", automod_limits::MaxRegexPatterns,
            automod_limits::MaxRegexLength, errors);
  // Without the trigger type the larger limit is the only one the SDK can be sure of.
  const std::size_t maxAllow = !trigger || *trigger == AutoModTriggerType::KeywordPreset
                                   ? automod_limits::MaxPresetAllowList
                                   : automod_limits::MaxAllowList;
  CheckList(metadata.allowList, at + "allow_list", maxAllow, automod_limits::MaxKeywordLength, errors);
  for (std::size_t i = 0; i < metadata.presets.size(); ++i) {
    auto value = static_cast<int32_t>(metadata.presets[i]);
    if (value < 1 || value > 3)
      AddViolation(errors, at + "presets." + std::to_string(i), "BASE_TYPE_CHOICES", "must be 1, 2 or 3");
  }
  if (metadata.mentionTotalLimit && (*metadata.mentionTotalLimit < 0 ||
                                     *metadata.mentionTotalLimit > automod_limits::MaxMentionTotalLimit)) {
    AddViolation(errors, at + "mention_total_limit", "NUMBER_TYPE_OUT_OF_RANGE", "must be 0 to 50");
  }
}

void CheckActions(const std::vector<AutoModAction>& actions, std::optional<AutoModTriggerType> trigger,
                  std::vector<FieldError>& errors) {
  if (actions.empty()) AddViolation(errors, "actions", "BASE_TYPE_MIN_LENGTH", "at least one action");
  auto notFor = [&](const std::string& at, bool allowed) {
    if (trigger && !allowed)
      AddViolation(errors, at + "type", "AUTO_MODERATION_INVALID_ACTION", "not for this trigger");
  };
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const AutoModAction& action = actions[i];
    const std::string at = "actions." + std::to_string(i) + ".";
    switch (action.type) {
      case AutoModActionType::BlockMessage:
        CheckText(action.customMessage, at + "metadata.custom_message", 0,
                  automod_limits::MaxCustomMessageLength, errors);
        notFor(at, trigger != AutoModTriggerType::MemberProfile);
        break;
      case AutoModActionType::SendAlertMessage:
        if (action.channelId == 0)
          AddViolation(errors, at + "metadata.channel_id", "BASE_TYPE_REQUIRED", "must not be 0");
        break;
      case AutoModActionType::Timeout:
        if (action.durationSeconds < 0 || action.durationSeconds > automod_limits::MaxTimeoutSeconds)
          AddViolation(errors, at + "metadata.duration_seconds", "NUMBER_TYPE_OUT_OF_RANGE",
                       "must be 0 to 2419200");
        notFor(at, trigger == AutoModTriggerType::Keyword || trigger == AutoModTriggerType::MentionSpam);
        break;
      case AutoModActionType::BlockMemberInteraction:
        notFor(at, trigger == AutoModTriggerType::MemberProfile);
        break;
      default:
        AddViolation(errors, at + "type", "BASE_TYPE_CHOICES", "must be 1, 2, 3 or 4");
    }
  }
}

json::Value StringArray(const std::vector<std::string>& strings, Allocator& a) {
  json::Value array(rapidjson::kArrayType);
  for (const auto& text : strings)
    array.PushBack(json::StringValue(text, a), a);
  return array;
}

json::Value MetadataBody(const AutoModTriggerMetadata& metadata, std::optional<AutoModTriggerType> trigger,
                         Allocator& a) {
  json::Value body(rapidjson::kObjectType);
  // A known trigger sends its own fields, empty lists included (they clear the rule's); an unknown one only
  // what is set, so a modify cannot clear a list it did not mean to.
  const bool all = !trigger;
  const bool keywords =
      trigger == AutoModTriggerType::Keyword || trigger == AutoModTriggerType::MemberProfile;
  const bool preset = trigger == AutoModTriggerType::KeywordPreset;
  const bool mentions = all || trigger == AutoModTriggerType::MentionSpam;
  auto add = [&](const char* name, const std::vector<std::string>& list, bool belongs) {
    if (belongs || (all && !list.empty())) body.AddMember(json::Value(name, a), StringArray(list, a), a);
  };
  add("keyword_filter", metadata.keywordFilter, keywords);
  add("regex_patterns", metadata.regexPatterns, keywords);
  if (preset || (all && !metadata.presets.empty())) {
    json::Value presets(rapidjson::kArrayType);
    for (auto value : metadata.presets)
      presets.PushBack(json::Value(static_cast<int32_t>(value)), a);
    body.AddMember("presets", presets, a);
  }
  add("allow_list", metadata.allowList, keywords || preset);
  if (mentions && metadata.mentionTotalLimit)
    body.AddMember("mention_total_limit", json::Value(*metadata.mentionTotalLimit), a);
  if (mentions && metadata.mentionRaidProtectionEnabled)
    body.AddMember("mention_raid_protection_enabled", json::Value(*metadata.mentionRaidProtectionEnabled), a);
  return body;
}

json::Value ActionBody(const AutoModAction& action, Allocator& a) {
  json::Value body(rapidjson::kObjectType);
  body.AddMember("type", json::Value(static_cast<int32_t>(action.type)), a);
  json::Value metadata(rapidjson::kObjectType);
  switch (action.type) {
    case AutoModActionType::BlockMessage:
      if (!action.customMessage.empty())
        metadata.AddMember("custom_message", json::StringValue(action.customMessage, a), a);
      break;
    case AutoModActionType::SendAlertMessage:
      metadata.AddMember("channel_id", json::StringValue(std::to_string(action.channelId), a), a);
      break;
    case AutoModActionType::Timeout:
      metadata.AddMember("duration_seconds", json::Value(action.durationSeconds), a);
      break;
    default:
      break;
  }
  body.AddMember("metadata", metadata, a);
  return body;
}

}  // namespace

std::optional<AutoModRule> ParseAutoModRuleValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  AutoModRule rule;
  rule.id = json::GetSnowflake(value, "id").value_or(0);
  rule.guildId = json::GetSnowflake(value, "guild_id").value_or(0);
  rule.name = std::string(json::GetString(value, "name").value_or(""));
  rule.creatorId = json::GetSnowflake(value, "creator_id").value_or(0);
  if (auto event = json::GetInt(value, "event_type"); event && *event >= INT32_MIN && *event <= INT32_MAX)
    rule.eventType = static_cast<AutoModEventType>(*event);
  if (auto trigger = json::GetInt(value, "trigger_type");
      trigger && *trigger >= INT32_MIN && *trigger <= INT32_MAX) {
    rule.triggerType = static_cast<AutoModTriggerType>(*trigger);
  }
  if (const json::Value* metadata = json::Member(value, "trigger_metadata"))
    rule.triggerMetadata = ReadMetadata(*metadata);
  if (const json::Value* actions = json::Member(value, "actions"); actions != nullptr && actions->IsArray()) {
    for (const json::Value& item : actions->GetArray())
      if (auto action = ReadAction(item)) rule.actions.push_back(std::move(*action));
  }
  rule.enabled = json::GetBool(value, "enabled").value_or(false);
  rule.exemptRoles = Ids(value, "exempt_roles");
  rule.exemptChannels = Ids(value, "exempt_channels");
  rule.rawJson = json::Serialize(value);
  return rule;
}

std::optional<std::vector<AutoModRule>> ParseAutoModRules(const json::Value& value) {
  if (!value.IsArray()) return std::nullopt;
  std::vector<AutoModRule> rules;
  for (const json::Value& item : value.GetArray()) {
    auto rule = ParseAutoModRuleValue(item);
    if (!rule) return std::nullopt;
    rules.push_back(std::move(*rule));
  }
  return rules;
}

std::optional<AutoModRule> ParseAutoModRule(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseAutoModRuleValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not a rule this process can hold
  }
}

std::optional<AutoModActionExecution> ParseAutoModActionExecution(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document) || !document.IsObject()) return std::nullopt;
    AutoModActionExecution execution;
    const auto guild = json::GetSnowflake(document, "guild_id");
    const auto rule = json::GetSnowflake(document, "rule_id");
    const auto user = json::GetSnowflake(document, "user_id");
    if (!guild || !rule || !user) return std::nullopt;
    execution.guildId = *guild;
    execution.ruleId = *rule;
    execution.userId = *user;
    if (const json::Value* action = json::Member(document, "action"))
      if (auto read = ReadAction(*action)) execution.action = std::move(*read);
    if (auto trigger = json::GetInt(document, "rule_trigger_type");
        trigger && *trigger >= INT32_MIN && *trigger <= INT32_MAX) {
      execution.ruleTriggerType = static_cast<AutoModTriggerType>(*trigger);
    }
    execution.channelId = json::GetSnowflake(document, "channel_id");
    execution.messageId = json::GetSnowflake(document, "message_id");
    execution.alertSystemMessageId = json::GetSnowflake(document, "alert_system_message_id");
    execution.content = std::string(json::GetString(document, "content").value_or(""));
    if (auto keyword = json::GetString(document, "matched_keyword"))
      execution.matchedKeyword = std::string(*keyword);
    execution.matchedContent = std::string(json::GetString(document, "matched_content").value_or(""));
    execution.rawJson = json::Serialize(document);
    return execution;
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document
  }
}

std::vector<FieldError> CheckAutoModRuleChanges(const AutoModRuleChanges& changes, bool creating) {
  std::vector<FieldError> errors;
  if (creating) {
    if (!changes.name) AddViolation(errors, "name", "BASE_TYPE_REQUIRED", "required to create a rule");
    if (!changes.eventType)
      AddViolation(errors, "event_type", "BASE_TYPE_REQUIRED", "required to create a rule");
    if (!changes.triggerType)
      AddViolation(errors, "trigger_type", "BASE_TYPE_REQUIRED", "required to create a rule");
    if (!changes.actions) AddViolation(errors, "actions", "BASE_TYPE_REQUIRED", "required to create a rule");
  }
  if (changes.name) CheckText(*changes.name, "name", 1, automod_limits::MaxNameLength, errors);
  std::optional<AutoModTriggerType> trigger = changes.triggerType;
  if (trigger && !KnownTrigger(*trigger)) {
    AddViolation(errors, "trigger_type", "BASE_TYPE_CHOICES", "must be 1, 3, 4, 5 or 6");
    trigger.reset();
  }
  if (changes.eventType) {
    const auto event = *changes.eventType;
    if (event != AutoModEventType::MessageSend && event != AutoModEventType::MemberUpdate) {
      AddViolation(errors, "event_type", "BASE_TYPE_CHOICES", "must be 1 or 2");
    } else if (trigger &&
               event != (*trigger == AutoModTriggerType::MemberProfile ? AutoModEventType::MemberUpdate
                                                                       : AutoModEventType::MessageSend)) {
      AddViolation(errors, "event_type", "AUTO_MODERATION_INVALID_EVENT_TYPE",
                   "MEMBER_UPDATE for MEMBER_PROFILE rules, MESSAGE_SEND for the others");
    }
  }
  if (changes.triggerMetadata) CheckMetadata(*changes.triggerMetadata, trigger, errors);
  if (changes.actions) CheckActions(*changes.actions, trigger, errors);
  if (changes.exemptRoles)
    CheckIds(*changes.exemptRoles, "exempt_roles", automod_limits::MaxExemptRoles, errors);
  if (changes.exemptChannels)
    CheckIds(*changes.exemptChannels, "exempt_channels", automod_limits::MaxExemptChannels, errors);
  return errors;
}

std::string AutoModRuleBody(const AutoModRuleChanges& changes, bool creating) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  if (changes.name) body.AddMember("name", json::StringValue(*changes.name, a), a);
  if (changes.eventType)
    body.AddMember("event_type", json::Value(static_cast<int32_t>(*changes.eventType)), a);
  if (creating && changes.triggerType)
    body.AddMember("trigger_type", json::Value(static_cast<int32_t>(*changes.triggerType)), a);
  if (changes.triggerMetadata)
    body.AddMember("trigger_metadata", MetadataBody(*changes.triggerMetadata, changes.triggerType, a), a);
  if (changes.actions) {
    json::Value actions(rapidjson::kArrayType);
    for (const auto& action : *changes.actions)
      actions.PushBack(ActionBody(action, a), a);
    body.AddMember("actions", actions, a);
  }
  if (changes.enabled) body.AddMember("enabled", json::Value(*changes.enabled), a);
  if (changes.exemptRoles) body.AddMember("exempt_roles", json::SnowflakeArray(*changes.exemptRoles, a), a);
  if (changes.exemptChannels)
    body.AddMember("exempt_channels", json::SnowflakeArray(*changes.exemptChannels, a), a);
  return json::Serialize(body);
}

}  // namespace platformpp::backend
