// AutoMod: the rule routes under /guilds/{guild_id}/auto-moderation/rules (MANAGE_GUILD; a TIMEOUT action
// also MODERATE_MEMBERS), at most 6 KEYWORD rules and 1 of each other trigger per guild, the rule events and
// audit entries 140-142; what the guild does when a rule trips (automod_executed: the execution event and
// entries 143, 145, 146); and the MEMBER_PROFILE check that quarantines a member. Messages are checked by
// MessagingModule (messaging/automod_messages.cpp).
#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kUnknownAutoModRule = 10066;

HttpResponse unknown_rule() {
  return error_response(404, kUnknownAutoModRule, "Unknown auto moderation rule");
}

bool has_timeout_action(const AutoModRule& rule) {
  return std::any_of(rule.actions.begin(), rule.actions.end(),
                     [](const AutoModAction& action) { return action.type == automod::kTimeout; });
}

// The rule's audit entry: each member of the rule object that differs, as JSON (create: new values only,
// delete: old values only).
AuditLogEntry rule_audit_entry(int action, const AutoModRule* before, const AutoModRule* after) {
  AuditLogEntry entry;
  entry.action_type = action;
  entry.target_id = (after != nullptr ? after : before)->id;
  rapidjson::Document old_json;
  rapidjson::Document new_json;
  if (before != nullptr) parse_stored_json(automod_rule_json(*before), old_json);
  if (after != nullptr) parse_stored_json(automod_rule_json(*after), new_json);
  std::set<std::string> keys;
  for (const auto* document : {&old_json, &new_json}) {
    if (!document->IsObject()) continue;
    for (const auto& member : document->GetObject())
      keys.emplace(member.name.GetString(), member.name.GetStringLength());
  }
  for (const auto& key : keys) {
    if (key == "id" || key == "guild_id" || key == "creator_id") continue;
    const auto text = [&](const rapidjson::Document& document) -> std::optional<std::string> {
      if (!document.IsObject() || !document.HasMember(key.c_str())) return std::nullopt;
      return json_text(document[key.c_str()]);
    };
    add_change(entry, audit_json_change(key, text(old_json), text(new_json)));
  }
  return entry;
}

}  // namespace

void GuildModule::register_automod_routes() {
  api_router_.add("GET", "/guilds/{guild_id}/auto-moderation/rules",
                  bind(&GuildModule::api_list_automod_rules));
  api_router_.add("GET", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}",
                  bind(&GuildModule::api_get_automod_rule));
  api_router_.add("POST", "/guilds/{guild_id}/auto-moderation/rules",
                  bind(&GuildModule::api_create_automod_rule));
  api_router_.add("PATCH", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}",
                  bind(&GuildModule::api_modify_automod_rule));
  api_router_.add("DELETE", "/guilds/{guild_id}/auto-moderation/rules/{rule_id}",
                  bind(&GuildModule::api_delete_automod_rule));
}

void GuildModule::automod_rule_dispatch(const Guild& guild, std::string_view type, const AutoModRule& rule) {
  const auto now = clock_.now_ms();
  std::vector<std::string> targets;
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!session.bot || !guild.has_member(session.user_id) || !guild_in_shard(session, guild.id) ||
        (session.intents & gateway_intent::kAutoModerationConfiguration) == 0 ||
        (base_permissions(guild, session.user_id, now) & permission::kManageGuild) == 0) {
      continue;
    }
    targets.push_back(session_id);
  }
  const auto d = automod_rule_json(rule);
  for (const auto& session_id : targets)
    gateway_.dispatch(session_id, type, d);
}

HttpResponse GuildModule::api_list_automod_rules(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& rule : guilds_.automod_rules(guild.id))
                                write_raw(writer, automod_rule_json(rule), rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

HttpResponse GuildModule::api_get_automod_rule(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& guild = *std::get<GuildCaller>(found).guild;
  for (const auto& rule : guilds_.automod_rules(guild.id)) {
    if (rule.id == context.params.at("rule_id")) return HttpResponse::json(200, automod_rule_json(rule));
  }
  return unknown_rule();
}

HttpResponse GuildModule::api_create_automod_rule(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  AutoModRule rule;
  read_automod_rule(body, guild, true, rule, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (has_timeout_action(rule) && (caller.permissions & permission::kModerateMembers) == 0)
    return missing_permissions();
  const auto& rules = guilds_.automod_rules(guild.id);
  const auto same_trigger = std::count_if(rules.begin(), rules.end(), [&](const AutoModRule& other) {
    return other.trigger_type == rule.trigger_type;
  });
  if (same_trigger >= automod::max_rules_of_trigger(rule.trigger_type)) {
    errors.add({"trigger_type"},
               {"AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED",
                "Maximum number of rules of this trigger type reached (" +
                    std::to_string(automod::max_rules_of_trigger(rule.trigger_type)) + ")"});
    return invalid_form_body(errors);
  }
  rule.id = snowflakes_.next_string();
  rule.guild_id = guild.id;
  rule.creator_id = caller.user_id;
  const auto& stored = guilds_.set_automod_rule(std::move(rule));
  automod_rule_dispatch(guild, "AUTO_MODERATION_RULE_CREATE", stored);
  audit(guild, context.request, caller.user_id,
        rule_audit_entry(audit_action::kAutoModerationRuleCreate, nullptr, &stored));
  if (stored.trigger_type == automod::kMemberProfile && stored.enabled) {
    // A new profile rule applies to the members already there.
    std::vector<std::string> members;
    for (const auto& entry : guild.members)
      members.push_back(entry.first);
    const auto rule_json = automod_rule_json(stored);
    for (const auto& user_id : members)
      check_member_profile(guild.id, user_id);
    return HttpResponse::json(200, rule_json);
  }
  return HttpResponse::json(200, automod_rule_json(stored));
}

HttpResponse GuildModule::api_modify_automod_rule(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  const AutoModRule* existing = nullptr;
  for (const auto& rule : guilds_.automod_rules(guild.id)) {
    if (rule.id == context.params.at("rule_id")) existing = &rule;
  }
  if (existing == nullptr) return unknown_rule();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  AutoModRule rule = *existing;
  read_automod_rule(body, guild, false, rule, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (has_timeout_action(rule) && (caller.permissions & permission::kModerateMembers) == 0)
    return missing_permissions();
  auto entry = rule_audit_entry(audit_action::kAutoModerationRuleUpdate, existing, &rule);
  const auto& stored = guilds_.set_automod_rule(std::move(rule));
  automod_rule_dispatch(guild, "AUTO_MODERATION_RULE_UPDATE", stored);
  if (!entry.changes.empty()) audit(guild, context.request, caller.user_id, std::move(entry));
  const auto answer = automod_rule_json(stored);
  if (stored.trigger_type == automod::kMemberProfile) {
    std::vector<std::string> members;
    for (const auto& member : guild.members)
      members.push_back(member.first);
    for (const auto& user_id : members)
      check_member_profile(guild.id, user_id);
  }
  return HttpResponse::json(200, answer);
}

HttpResponse GuildModule::api_delete_automod_rule(const RouteContext& context) {
  auto found = guild_caller(context, permission::kManageGuild);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& caller = std::get<GuildCaller>(found);
  const auto& guild = *caller.guild;
  std::optional<AutoModRule> gone;
  for (const auto& rule : guilds_.automod_rules(guild.id)) {
    if (rule.id == context.params.at("rule_id")) gone = rule;
  }
  if (!gone) return unknown_rule();
  guilds_.remove_automod_rule(guild.id, gone->id);
  automod_rule_dispatch(guild, "AUTO_MODERATION_RULE_DELETE", *gone);
  audit(guild, context.request, caller.user_id,
        rule_audit_entry(audit_action::kAutoModerationRuleDelete, &*gone, nullptr));
  if (gone->trigger_type == automod::kMemberProfile) {
    std::vector<std::string> members;
    for (const auto& member : guild.members)
      members.push_back(member.first);
    for (const auto& user_id : members)
      check_member_profile(guild.id, user_id);
  }
  return HttpResponse::empty(204);
}

std::vector<const AutoModRule*> GuildModule::automod_rules_for(const Guild& guild,
                                                               const GuildChannel* channel,
                                                               const std::string& user_id,
                                                               int event_type) const {
  std::vector<const AutoModRule*> rules;
  const auto* member = guild.find_member(user_id);
  if (member == nullptr) return rules;
  const auto permissions = base_permissions(guild, user_id);
  if ((permissions & (permission::kAdministrator | permission::kManageGuild)) != 0) return rules;
  for (const auto& rule : guilds_.automod_rules(guild.id)) {
    if (!rule.enabled || rule.event_type != event_type) continue;
    if (channel != nullptr && std::find(rule.exempt_channels.begin(), rule.exempt_channels.end(),
                                        channel->id) != rule.exempt_channels.end()) {
      continue;
    }
    const bool exempt_role =
        std::any_of(member->roles.begin(), member->roles.end(), [&](const std::string& id) {
          return std::find(rule.exempt_roles.begin(), rule.exempt_roles.end(), id) != rule.exempt_roles.end();
        });
    if (!exempt_role) rules.push_back(&rule);
  }
  return rules;
}

void GuildModule::automod_executed(const Guild& guild, const AutoModExecution& execution) {
  const auto& rule = *execution.rule;
  const auto& action = *execution.action;
  const auto now = clock_.now_ms();
  std::vector<std::pair<std::string, bool>> targets;  // (session, with content)
  for (const auto& [session_id, session] : gateway_.sessions()) {
    if (!session.bot || !guild.has_member(session.user_id) || !guild_in_shard(session, guild.id) ||
        (session.intents & gateway_intent::kAutoModerationExecution) == 0 ||
        (base_permissions(guild, session.user_id, now) & permission::kManageGuild) == 0) {
      continue;
    }
    targets.emplace_back(session_id, (session.intents & gateway_intent::kMessageContent) != 0);
  }
  for (const auto& target : targets) {
    const auto& session_id = target.first;
    const bool with_content = target.second;  // a plain name: the lambda below captures it
    gateway_.dispatch(session_id, "AUTO_MODERATION_ACTION_EXECUTION", to_json([&](JsonWriter& writer) {
                        writer.StartObject();
                        writer.Key("guild_id");
                        write_string(writer, guild.id);
                        writer.Key("action");
                        write_raw(writer, automod_action_json(action), rapidjson::kObjectType);
                        writer.Key("rule_id");
                        write_string(writer, rule.id);
                        writer.Key("rule_trigger_type");
                        writer.Int(rule.trigger_type);
                        writer.Key("user_id");
                        write_string(writer, execution.user_id);
                        if (execution.channel != nullptr) {
                          writer.Key("channel_id");
                          write_string(writer, execution.channel->id);
                        }
                        if (execution.message_id) {
                          writer.Key("message_id");
                          write_string(writer, *execution.message_id);
                        }
                        if (execution.alert_system_message_id) {
                          writer.Key("alert_system_message_id");
                          write_string(writer, *execution.alert_system_message_id);
                        }
                        // Without MESSAGE_CONTENT the content fields are empty, as the platform sends them.
                        writer.Key("content");
                        write_string(writer, with_content ? execution.content : std::string());
                        writer.Key("matched_keyword");
                        write_string(writer, execution.match.keyword);
                        writer.Key("matched_content");
                        write_string(writer, with_content ? execution.match.content : std::string());
                        writer.EndObject();
                      }));
  }
  int audit_type = 0;
  if (action.type == automod::kBlockMessage) audit_type = audit_action::kAutoModerationBlockMessage;
  if (action.type == automod::kTimeout) audit_type = audit_action::kAutoModerationUserCommunicationDisabled;
  if (action.type == automod::kBlockMemberInteraction)
    audit_type = audit_action::kAutoModerationQuarantineUser;
  if (action.type == automod::kSendAlertMessage) audit_type = audit_action::kAutoModerationFlagToChannel;
  AuditLogEntry entry;
  entry.action_type = audit_type;
  entry.target_id = execution.user_id;
  entry.options = {{"auto_moderation_rule_name", rule.name},
                   {"auto_moderation_rule_trigger_type", std::to_string(rule.trigger_type)}};
  if (execution.channel != nullptr) entry.options.emplace_back("channel_id", execution.channel->id);
  // The platform logs the action as taken by the member whose content tripped it.
  audit(guild, execution.user_id, std::move(entry));

  if (action.type == automod::kTimeout && action.duration_seconds) {
    if (const auto* member = guild.find_member(execution.user_id)) {
      GuildMember timed_out = *member;
      timed_out.timeout_until_ms = now + *action.duration_seconds * 1000;
      guilds_.set_member(guild.id, timed_out);
      member_dispatch(*guilds_.find_guild(guild.id), "GUILD_MEMBER_UPDATE",
                      *guilds_.find_guild(guild.id)->find_member(execution.user_id));
    }
  }
}

void GuildModule::check_member_profile(const std::string& guild_id, const std::string& user_id) {
  const auto* guild = guilds_.find_guild(guild_id);
  if (guild == nullptr) return;
  const auto* member = guild->find_member(user_id);
  const auto* user = state_.find_user(user_id);
  if (member == nullptr || user == nullptr) return;
  // The parts of a profile the rules read, each on its own (a keyword never spans two of them).
  std::vector<std::string> parts{user->username};
  if (user->global_name) parts.push_back(*user->global_name);
  if (member->nick) parts.push_back(*member->nick);
  if (member->bio) parts.push_back(*member->bio);
  std::optional<AutoModExecution> quarantine;
  for (const auto* rule : automod_rules_for(*guild, nullptr, user_id, automod::kMemberUpdate)) {
    const auto action = std::find_if(rule->actions.begin(), rule->actions.end(), [](const AutoModAction& a) {
      return a.type == automod::kBlockMemberInteraction;
    });
    if (action == rule->actions.end()) continue;
    for (const auto& part : parts) {
      if (auto match = automod_match(*rule, part)) {
        quarantine = AutoModExecution{rule,         &*action,     user_id, nullptr,
                                      std::nullopt, std::nullopt, part,    std::move(*match)};
        break;
      }
    }
    if (quarantine) break;
  }
  const bool was = (member->flags & kAutomodQuarantinedFlag) != 0;
  if (quarantine.has_value() == was) return;
  GuildMember changed = *member;
  changed.flags =
      quarantine ? (changed.flags | kAutomodQuarantinedFlag) : (changed.flags & ~kAutomodQuarantinedFlag);
  guilds_.set_member(guild_id, changed);
  const auto& after = *guilds_.find_guild(guild_id);
  member_dispatch(after, "GUILD_MEMBER_UPDATE", *after.find_member(user_id));
  if (quarantine) automod_executed(after, *quarantine);
}

}  // namespace platformpp::emulator
