// AutoMod on guild messages: the KEYWORD rules (MESSAGE_SEND) of the message's author, checked before a
// bot's or a member's message is posted or edited, interaction responses and follow-ups included. The rules
// and what the guild does about a match (events, audit entries, timeouts) are GuildModule's
// (guild/automod_routes.cpp); the alert message is posted here.
#include "core/api_error.hpp"
#include "core/json.hpp"
#include "guild/permissions.hpp"
#include "messaging/messaging_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kBlockedByAutoMod = 200000;
constexpr int kAutoModerationActionMessage = 24;

// The alert's embed: the platform's auto_moderation_message, with the rule, channel and what matched.
std::string alert_embeds_json(const AutoModRule& rule, const std::string& channel_id,
                              const AutoModMatch& match, const std::string& content) {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    writer.StartObject();
    writer.Key("type");
    writer.String("auto_moderation_message");
    writer.Key("description");
    write_string(writer, content);
    writer.Key("fields");
    writer.StartArray();
    const auto field = [&](const char* name, const std::string& value) {
      writer.StartObject();
      writer.Key("name");
      writer.String(name);
      writer.Key("value");
      write_string(writer, value);
      writer.Key("inline");
      writer.Bool(false);
      writer.EndObject();
    };
    field("rule_name", rule.name);
    field("channel_id", channel_id);
    field("keyword", match.keyword);
    field("keyword_matched_content", match.content);
    writer.EndArray();
    writer.EndObject();
    writer.EndArray();
  });
}

}  // namespace

std::optional<HttpResponse> MessagingModule::automod_refusal(const Message& message) {
  if (!message.guild_id || message.content.empty()) return std::nullopt;
  const auto [guild, channel] = guilds_.guilds().find_channel(message.channel_id);
  if (guild == nullptr || channel == nullptr) return std::nullopt;
  bool blocked = false;
  // Rules are evaluated in their order; each rule that trips runs all its actions.
  for (const auto* rule :
       guilds_.automod_rules_for(*guild, channel, message.author_id, automod::kMessageSend)) {
    auto match = automod_match(*rule, message.content);
    if (!match) continue;
    for (const auto& action : rule->actions) {
      GuildModule::AutoModExecution execution{rule,         &action,      message.author_id, channel,
                                              std::nullopt, std::nullopt, message.content,   *match};
      if (action.type == automod::kBlockMessage) {
        blocked = true;
      } else if (action.type == automod::kSendAlertMessage && action.channel_id) {
        Message alert;
        alert.id = snowflakes_.next_string();
        alert.channel_id = *action.channel_id;
        alert.guild_id = guild->id;
        alert.author_id = message.author_id;
        alert.type = kAutoModerationActionMessage;
        alert.timestamp_ms = clock_.now_ms();
        alert.embeds = alert_embeds_json(*rule, channel->id, *match, message.content);
        execution.alert_system_message_id = post_app_message(std::move(alert)).id;
      }
      // A message that stays (not blocked) is named by its id when it has one.
      if (!blocked && !message.id.empty() &&
          messages_.find_message(message.channel_id, message.id) != nullptr)
        execution.message_id = message.id;
      guilds_.automod_executed(*guild, execution);
    }
  }
  if (!blocked) return std::nullopt;
  return error_response(400, kBlockedByAutoMod, "Message was blocked by automatic moderation");
}

}  // namespace platformpp::emulator
