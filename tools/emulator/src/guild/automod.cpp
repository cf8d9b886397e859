#include "guild/automod.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <utility>

#include "core/http_message.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/validation.hpp"
#include "guild/guild_state.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kTriggerTypes[] = {automod::kKeyword, automod::kSpam, automod::kKeywordPreset,
                                 automod::kMentionSpam, automod::kMemberProfile};
constexpr int kPresetTypes[] = {1, 2, 3};  // PROFANITY, SEXUAL_CONTENT, SLURS

// A word character: ASCII letters and digits, and every byte of a non-ASCII character (letters of other
// scripts count as letters). Anything else separates words.
bool word_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x80 || std::isalnum(byte) != 0;
}

struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t next = 0;  // where the search for a further match goes on
};

// Where `keyword` (with its wildcards) matches in `lower` (lowercased content) at or after `from`.
std::optional<Span> find_keyword(std::string_view lower, std::string_view keyword, std::size_t from) {
  const bool any_before = !keyword.empty() && keyword.front() == '*';
  const bool any_after = keyword.size() > 1 && keyword.back() == '*';
  auto core = keyword.substr(any_before ? 1 : 0);
  if (any_after) core.remove_suffix(1);
  if (core.empty()) return std::nullopt;
  const auto needle = ascii_lower(core);
  for (auto at = lower.find(needle, from); at != std::string_view::npos; at = lower.find(needle, at + 1)) {
    const auto end = at + needle.size();
    const bool starts_word = at == 0 || !word_byte(lower[at - 1]);
    const bool ends_word = end == lower.size() || !word_byte(lower[end]);
    if ((any_before || starts_word) && (any_after || ends_word)) {
      // What matched is the whole word (or phrase) the keyword sits in.
      auto begin = at;
      while (begin > 0 && word_byte(lower[begin - 1]))
        --begin;
      auto stop = end;
      while (stop < lower.size() && word_byte(lower[stop]))
        ++stop;
      return Span{begin, stop, at + 1};
    }
  }
  return std::nullopt;
}

// Whether an allow_list entry matches a span that covers `span`.
bool allowed(const AutoModRule& rule, std::string_view lower, Span span) {
  for (const auto& entry : rule.allow_list) {
    for (auto found = find_keyword(lower, entry, 0); found; found = find_keyword(lower, entry, found->next)) {
      if (found->begin <= span.begin && found->end >= span.end) return true;
      if (found->begin >= span.end) break;
    }
  }
  return false;
}

// A list of strings of at most `max_items`, each 1 to `max_characters` long; issues under `name`.
std::optional<std::vector<std::string>> read_strings(const rapidjson::Value& object, const char* name,
                                                     std::size_t max_items, std::size_t max_characters,
                                                     const std::vector<std::string>& path,
                                                     FieldErrors& errors) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return std::nullopt;
  auto at = path;
  at.emplace_back(name);
  if (!it->value.IsArray()) {
    errors.add(at, {"BASE_TYPE_ARRAY", "Must be an array."});
    return std::nullopt;
  }
  if (it->value.Size() > max_items) {
    errors.add(at, {"BASE_TYPE_MAX_LENGTH", "Must be " + std::to_string(max_items) + " or fewer in length."});
    return std::nullopt;
  }
  std::vector<std::string> values;
  for (rapidjson::SizeType i = 0; i < it->value.Size(); ++i) {
    const auto& item = it->value[i];
    auto item_path = at;
    item_path.push_back(std::to_string(i));
    if (!item.IsString()) {
      errors.add(item_path, {"BASE_TYPE_STRING", "Must be a string."});
      continue;
    }
    std::string text(item.GetString(), item.GetStringLength());
    const auto length = utf8_length(text);
    if (length < 1 || length > max_characters) {
      errors.add(item_path, length_issue(1, max_characters));
      continue;
    }
    values.push_back(std::move(text));
  }
  return values;
}

void read_trigger_metadata(const rapidjson::Value& metadata, AutoModRule& rule, FieldErrors& errors) {
  const std::vector<std::string> at{"trigger_metadata"};
  if (!metadata.IsObject()) {
    errors.add(at, {"MODEL_TYPE_CONVERT", "Must be an object."});
    return;
  }
  const bool keywords =
      rule.trigger_type == automod::kKeyword || rule.trigger_type == automod::kMemberProfile;
  if (keywords) {
    if (auto list = read_strings(metadata, "keyword_filter", automod::kMaxKeywords,
                                 automod::kMaxKeywordCharacters, at, errors))
      rule.keyword_filter = std::move(*list);
    if (auto list = read_strings(metadata, "regex_patterns", automod::kMaxRegexPatterns,
                                 automod::kMaxRegexCharacters, at, errors)) {
      for (std::size_t i = 0; i < list->size(); ++i) {
        try {
          std::regex compiled((*list)[i], std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error&) {
          errors.add({"trigger_metadata", "regex_patterns", std::to_string(i)},
                     {"AUTO_MODERATION_INVALID_REGEX", "Invalid regular expression."});
        }
      }
      rule.regex_patterns = std::move(*list);
    }
  }
  if (keywords || rule.trigger_type == automod::kKeywordPreset) {
    const auto max =
        rule.trigger_type == automod::kKeywordPreset ? automod::kMaxPresetAllowList : automod::kMaxAllowList;
    if (auto list = read_strings(metadata, "allow_list", max, automod::kMaxKeywordCharacters, at, errors))
      rule.allow_list = std::move(*list);
  }
  if (rule.trigger_type == automod::kKeywordPreset) {
    if (const auto it = metadata.FindMember("presets"); it != metadata.MemberEnd() && !it->value.IsNull()) {
      std::vector<int> presets;
      const bool valid =
          it->value.IsArray() && std::all_of(it->value.Begin(), it->value.End(), [](const auto& v) {
            return v.IsInt() && std::find(std::begin(kPresetTypes), std::end(kPresetTypes), v.GetInt()) !=
                                    std::end(kPresetTypes);
          });
      if (!valid) {
        errors.add({"trigger_metadata", "presets"}, {"BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}."});
      } else {
        for (const auto& v : it->value.GetArray())
          presets.push_back(v.GetInt());
        rule.presets = std::move(presets);
      }
    }
  }
  if (rule.trigger_type == automod::kMentionSpam) {
    FieldErrors nested;
    BodyFields fields(metadata, nested);
    if (const auto limit = fields.integer("mention_total_limit", false, 0, automod::kMaxMentionTotalLimit))
      rule.mention_total_limit = *limit;
    if (const auto raid = fields.boolean("mention_raid_protection_enabled", false))
      rule.mention_raid_protection_enabled = *raid;
    if (!nested.empty()) {
      // Reported under trigger_metadata.
      if (metadata.HasMember("mention_total_limit"))
        errors.add({"trigger_metadata", "mention_total_limit"},
                   {"NUMBER_TYPE_MAX", "int value should be between 0 and 50."});
      else
        errors.add({"trigger_metadata", "mention_raid_protection_enabled"},
                   {"BASE_TYPE_BOOLEAN", "Must be a boolean."});
    }
  }
}

void read_actions(const rapidjson::Value& list, const Guild& guild, AutoModRule& rule, FieldErrors& errors) {
  if (!list.IsArray() || list.Empty()) {
    errors.add({"actions"}, {"BASE_TYPE_MIN_LENGTH", "Must be an array of at least one action."});
    return;
  }
  std::vector<AutoModAction> actions;
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const auto index = std::to_string(i);
    const auto& item = list[i];
    if (!item.IsObject() || !item.HasMember("type") || !item["type"].IsInt()) {
      errors.add({"actions", index, "type"}, {"BASE_TYPE_REQUIRED", "This field is required"});
      continue;
    }
    AutoModAction action;
    action.type = item["type"].GetInt();
    const auto metadata = item.FindMember("metadata");
    const rapidjson::Value* meta =
        metadata != item.MemberEnd() && metadata->value.IsObject() ? &metadata->value : nullptr;
    const auto problem = [&](const char* field, FieldIssue issue) {
      errors.add({"actions", index, "metadata", field}, std::move(issue));
    };
    switch (action.type) {
      case automod::kBlockMessage:
        if (meta != nullptr && meta->HasMember("custom_message") && !(*meta)["custom_message"].IsNull()) {
          const auto& text = (*meta)["custom_message"];
          if (!text.IsString() || utf8_length({text.GetString(), text.GetStringLength()}) >
                                      automod::kMaxCustomMessageCharacters) {
            problem("custom_message", length_issue(0, automod::kMaxCustomMessageCharacters));
          } else {
            action.custom_message = std::string(text.GetString(), text.GetStringLength());
          }
        }
        if (rule.trigger_type == automod::kMemberProfile)
          errors.add({"actions", index, "type"}, {"AUTO_MODERATION_INVALID_ACTION", "Not for this trigger."});
        break;
      case automod::kSendAlertMessage: {
        const rapidjson::Value* channel =
            meta != nullptr && meta->HasMember("channel_id") ? &(*meta)["channel_id"] : nullptr;
        if (channel == nullptr || !channel->IsString() ||
            guild.channels.find(std::string_view(channel->GetString(), channel->GetStringLength())) ==
                guild.channels.end()) {
          problem("channel_id", {"AUTO_MODERATION_INVALID_CHANNEL", "Must be a channel of this guild."});
        } else {
          action.channel_id = std::string(channel->GetString(), channel->GetStringLength());
        }
        break;
      }
      case automod::kTimeout: {
        const rapidjson::Value* duration =
            meta != nullptr && meta->HasMember("duration_seconds") ? &(*meta)["duration_seconds"] : nullptr;
        if (duration == nullptr || !duration->IsInt64() || duration->GetInt64() < 0 ||
            duration->GetInt64() > automod::kMaxTimeoutSeconds) {
          problem("duration_seconds", {"NUMBER_TYPE_MAX", "int value should be between 0 and 2419200."});
        } else {
          action.duration_seconds = duration->GetInt64();
        }
        // The platform: TIMEOUT only on KEYWORD and MENTION_SPAM rules.
        if (rule.trigger_type != automod::kKeyword && rule.trigger_type != automod::kMentionSpam)
          errors.add({"actions", index, "type"}, {"AUTO_MODERATION_INVALID_ACTION", "Not for this trigger."});
        break;
      }
      case automod::kBlockMemberInteraction:
        // Currently for MEMBER_PROFILE rules only (the seed).
        if (rule.trigger_type != automod::kMemberProfile)
          errors.add({"actions", index, "type"}, {"AUTO_MODERATION_INVALID_ACTION", "Not for this trigger."});
        break;
      default:
        errors.add({"actions", index, "type"}, {"BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}."});
        continue;
    }
    actions.push_back(std::move(action));
  }
  rule.actions = std::move(actions);
}

void write_strings(JsonWriter& writer, const char* name, const std::vector<std::string>& values) {
  writer.Key(name);
  writer.StartArray();
  for (const auto& value : values)
    write_string(writer, value);
  writer.EndArray();
}

void write_action(JsonWriter& writer, const AutoModAction& action) {
  writer.StartObject();
  writer.Key("type");
  writer.Int(action.type);
  writer.Key("metadata");
  writer.StartObject();
  if (action.channel_id) {
    writer.Key("channel_id");
    write_string(writer, *action.channel_id);
  }
  if (action.duration_seconds) {
    writer.Key("duration_seconds");
    writer.Int64(*action.duration_seconds);
  }
  if (action.custom_message) {
    writer.Key("custom_message");
    write_string(writer, *action.custom_message);
  }
  writer.EndObject();
  writer.EndObject();
}

}  // namespace

int automod::max_rules_of_trigger(int trigger_type) {
  return trigger_type == kKeyword ? 6 : 1;
}

void read_automod_rule(const rapidjson::Value& body, const Guild& guild, bool creating, AutoModRule& rule,
                       FieldErrors& errors) {
  BodyFields fields(body, errors);
  if (auto name = fields.string("name", creating)) {
    const auto length = utf8_length(*name);
    if (length < 1 || length > 100) {
      fields.add_issue("name", length_issue(1, 100));
    } else {
      rule.name = std::move(*name);
    }
  }
  if (creating) {
    if (const auto trigger = fields.integer("trigger_type", true)) {
      if (std::find(std::begin(kTriggerTypes), std::end(kTriggerTypes), *trigger) ==
          std::end(kTriggerTypes)) {
        fields.add_issue("trigger_type", {"BASE_TYPE_CHOICES", "Value must be one of {1, 3, 4, 5, 6}."});
      } else {
        rule.trigger_type = static_cast<int>(*trigger);
      }
    }
  } else if (fields.has("trigger_type")) {
    fields.add_issue("trigger_type",
                     {"AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE", "The trigger type cannot change."});
  }
  if (const auto event = fields.integer("event_type", creating)) {
    if (*event != automod::kMessageSend && *event != automod::kMemberUpdate) {
      fields.add_issue("event_type", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2}."});
    } else {
      rule.event_type = static_cast<int>(*event);
    }
  }
  // MEMBER_PROFILE rules are checked when a member updates their profile; the others on messages.
  const int expected_event =
      rule.trigger_type == automod::kMemberProfile ? automod::kMemberUpdate : automod::kMessageSend;
  if (errors.empty() && rule.event_type != expected_event)
    fields.add_issue("event_type",
                     {"AUTO_MODERATION_INVALID_EVENT_TYPE", "Not an event of this trigger type."});
  if (const auto* metadata = fields.value("trigger_metadata", false))
    read_trigger_metadata(*metadata, rule, errors);
  if (const auto* actions = fields.value("actions", creating)) read_actions(*actions, guild, rule, errors);
  if (const auto enabled = fields.boolean("enabled", false)) rule.enabled = *enabled;
  if (auto roles = read_strings(body, "exempt_roles", automod::kMaxExemptRoles, 32, {}, errors)) {
    for (std::size_t i = 0; i < roles->size(); ++i) {
      if (guild.find_role((*roles)[i]) == nullptr)
        errors.add({"exempt_roles", std::to_string(i)}, {"BASE_TYPE_INVALID", "Unknown role of this guild."});
    }
    rule.exempt_roles = std::move(*roles);
  }
  if (auto channels = read_strings(body, "exempt_channels", automod::kMaxExemptChannels, 32, {}, errors)) {
    for (std::size_t i = 0; i < channels->size(); ++i) {
      if (guild.channels.find((*channels)[i]) == guild.channels.end())
        errors.add({"exempt_channels", std::to_string(i)},
                   {"BASE_TYPE_INVALID", "Unknown channel of this guild."});
    }
    rule.exempt_channels = std::move(*channels);
  }
}

std::string automod_rule_json(const AutoModRule& rule) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, rule.id);
    writer.Key("guild_id");
    write_string(writer, rule.guild_id);
    writer.Key("name");
    write_string(writer, rule.name);
    writer.Key("creator_id");
    write_string(writer, rule.creator_id);
    writer.Key("event_type");
    writer.Int(rule.event_type);
    writer.Key("trigger_type");
    writer.Int(rule.trigger_type);
    writer.Key("trigger_metadata");
    writer.StartObject();
    if (rule.trigger_type == automod::kKeyword || rule.trigger_type == automod::kMemberProfile) {
      write_strings(writer, "keyword_filter", rule.keyword_filter);
      write_strings(writer, "regex_patterns", rule.regex_patterns);
    }
    if (rule.trigger_type == automod::kKeywordPreset) {
      writer.Key("presets");
      writer.StartArray();
      for (const auto preset : rule.presets)
        writer.Int(preset);
      writer.EndArray();
    }
    if (rule.trigger_type == automod::kKeyword || rule.trigger_type == automod::kMemberProfile ||
        rule.trigger_type == automod::kKeywordPreset) {
      write_strings(writer, "allow_list", rule.allow_list);
    }
    if (rule.trigger_type == automod::kMentionSpam) {
      writer.Key("mention_total_limit");
      writer.Int64(rule.mention_total_limit.value_or(0));
      writer.Key("mention_raid_protection_enabled");
      writer.Bool(rule.mention_raid_protection_enabled);
    }
    writer.EndObject();
    writer.Key("actions");
    writer.StartArray();
    for (const auto& action : rule.actions)
      write_action(writer, action);
    writer.EndArray();
    writer.Key("enabled");
    writer.Bool(rule.enabled);
    write_strings(writer, "exempt_roles", rule.exempt_roles);
    write_strings(writer, "exempt_channels", rule.exempt_channels);
    writer.EndObject();
  });
}

std::string automod_action_json(const AutoModAction& action) {
  return to_json([&](JsonWriter& writer) { write_action(writer, action); });
}

std::optional<AutoModMatch> automod_match(const AutoModRule& rule, std::string_view text) {
  if (rule.trigger_type != automod::kKeyword && rule.trigger_type != automod::kMemberProfile)
    return std::nullopt;
  const auto lower = ascii_lower(text);
  for (const auto& keyword : rule.keyword_filter) {
    for (auto span = find_keyword(lower, keyword, 0); span; span = find_keyword(lower, keyword, span->next)) {
      if (!allowed(rule, lower, *span)) {
        return AutoModMatch{keyword, std::string(text.substr(span->begin, span->end - span->begin))};
      }
    }
  }
  for (const auto& pattern : rule.regex_patterns) {
    try {
      const std::regex compiled(pattern, std::regex::ECMAScript | std::regex::icase);
      const std::string subject(text);
      for (std::sregex_iterator it(subject.begin(), subject.end(), compiled), end; it != end; ++it) {
        const auto begin = static_cast<std::size_t>(it->position(0));
        const Span span{begin, begin + static_cast<std::size_t>(it->length(0)), 0};
        if (span.begin == span.end) continue;  // an empty match trips nothing
        if (!allowed(rule, lower, span)) return AutoModMatch{pattern, it->str(0)};
      }
    } catch (const std::regex_error&) {
      // A pattern too complex for this content: not a match (the platform's engine has no such limit).
    }
  }
  return std::nullopt;
}

}  // namespace platformpp::emulator
