// Messages an application posts with an interaction's token (interactions/ calls these): kept in their guild
// channel or DM like any other message, and dispatched to who sees them, as the platform does: guild
// messages to the sessions of members who can view the channel (bots with GUILD_MESSAGES, on the guild's
// shard), DMs to both participants (bots with DIRECT_MESSAGES), an ephemeral message to its one user.
// Without the MESSAGE_CONTENT intent (or with the application's flag for it off) a bot's copy of someone
// else's message has no content, embeds, attachments or components.
#include <algorithm>
#include <utility>

#include "core/json.hpp"
#include "guild/permissions.hpp"
#include "messaging/message_body.hpp"
#include "messaging/messaging_module.hpp"

namespace platformpp::emulator {

namespace {

// The message object for a Gateway dispatch: the API's object plus guild_id, or with the content fields
// emptied for a bot without the MESSAGE_CONTENT intent.
std::string dispatch_json(const std::string& api_json, const std::optional<std::string>& guild_id,
                          bool stripped) {
  rapidjson::Document d;
  auto text = stripped ? without_content(api_json) : api_json;
  parse_stored_json(text, d);
  if (!d.IsObject() || !guild_id) return text;
  d.AddMember("guild_id", rapidjson::Value(guild_id->c_str(), d.GetAllocator()), d.GetAllocator());
  return json_text(d);
}

bool content_visible(const GatewaySession& session, const Message& message, const Application* app) {
  if (!session.bot || session.user_id == message.author_id) return true;
  return (session.intents & gateway_intent::kMessageContent) != 0 && app != nullptr &&
         app->intent_message_content;
}

}  // namespace

const Message& MessagingModule::post_app_message(Message message) {
  const auto& kept = messages_.add_message(std::move(message));
  dispatch_app_message(kept, "MESSAGE_CREATE", false);
  return kept;
}

const DmChannel& MessagingModule::open_dm_channel(const std::string& user_id, const std::string& other_id) {
  if (const auto* channel = messages_.find_dm_channel_between(user_id, other_id)) return *channel;
  return messages_.add_dm_channel(DmChannel{snowflakes_.next_string(), {user_id, other_id}});
}

const Message& MessagingModule::update_app_message(Message message) {
  auto* kept = messages_.find_message_mutable(message.channel_id, message.id);
  if (kept == nullptr) return post_app_message(std::move(message));
  *kept = std::move(message);  // find_message_mutable noted the change for the state file
  dispatch_app_message(*kept, "MESSAGE_UPDATE", false);
  return *kept;
}

bool MessagingModule::delete_app_message(std::string_view channel_id, std::string_view id) {
  const auto* message = messages_.find_message(channel_id, id);
  if (message == nullptr) return false;
  const Message gone = *message;
  messages_.remove_message(channel_id, id);
  dispatch_app_message(gone, "MESSAGE_DELETE", true);
  return true;
}

std::vector<std::string> MessagingModule::audience_of(const Message& message, std::uint64_t guild_intent,
                                                      std::uint64_t& bot_intent) const {
  std::vector<std::string> audience;
  bot_intent = gateway_intent::kDirectMessages;
  if (message.ephemeral_for) {
    audience.push_back(*message.ephemeral_for);
  } else if (message.guild_id) {
    bot_intent = guild_intent;
    const auto [guild, channel] = guilds_.guilds().find_channel(message.channel_id);
    if (guild == nullptr || channel == nullptr) return audience;
    for (const auto& [user_id, member] : guild->members) {
      if (can_view_channel(*guild, *channel, user_id)) audience.push_back(user_id);
    }
  } else if (const auto* dm = messages_.find_dm_channel(message.channel_id)) {
    audience = dm->recipient_ids;
  }
  return audience;
}

void MessagingModule::dispatch_channel_event(const Message& message, std::string_view type,
                                             const std::string& d_json) {
  std::uint64_t bot_intent = 0;
  const auto audience = audience_of(message, gateway_intent::kGuilds, bot_intent);
  for (const auto& user_id : audience) {
    for (const auto* session : gateway_.sessions_of_user(user_id)) {
      if (session->bot && (session->intents & bot_intent) == 0) continue;
      if (session->bot && message.guild_id && !guild_in_shard(*session, *message.guild_id)) continue;
      gateway_.dispatch(session->id, type, d_json);
    }
  }
}

void MessagingModule::dispatch_app_message(const Message& message, std::string_view type, bool deleted) {
  std::string api_json;
  if (deleted) {
    api_json = to_json([&](JsonWriter& writer) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, message.id);
      writer.Key("channel_id");
      write_string(writer, message.channel_id);
      writer.EndObject();
    });
  } else {
    api_json = message_json(message);
  }
  std::uint64_t bot_intent = gateway_intent::kDirectMessages;
  const auto audience = audience_of(message, gateway_intent::kGuildMessages, bot_intent);
  for (const auto& user_id : audience) {
    for (const auto* session : gateway_.sessions_of_user(user_id)) {
      if (session->bot && (session->intents & bot_intent) == 0) continue;
      if (session->bot && message.guild_id && !guild_in_shard(*session, *message.guild_id)) continue;
      const Application* app = state_.find_application(session->app_id);
      const bool stripped = !deleted && !content_visible(*session, message, app);
      gateway_.dispatch(session->id, type, dispatch_json(api_json, message.guild_id, stripped));
    }
  }
}

}  // namespace platformpp::emulator
