// DMs (docs/social-protocol.md): DM channels, sending (with activity invites), history, edits, deletes,
// message summaries and moderation metadata.
#include <algorithm>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/snowflake.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"
#include "messaging/messaging_module.hpp"
#include "messaging/messaging_protocol.hpp"

namespace platformpp::emulator {

namespace {

namespace message_error = messaging_protocol::message_error;
using messaging_protocol::cannot_message_user;
using messaging_protocol::history_limit;
using messaging_protocol::kContentMax;
using messaging_protocol::read_moderation_metadata;

bool participant(const DmChannel& channel, const std::string& user_id) {
  const auto& r = channel.recipient_ids;
  return std::find(r.begin(), r.end(), user_id) != r.end();
}

}  // namespace

std::variant<ActivityInvites::Invite, HttpResponse> MessagingModule::find_invite(
    const std::string& channel_id, const std::string& message_id, const std::string& user_id) const {
  const auto* channel = messages_.find_dm_channel(channel_id);
  if (channel == nullptr) return unknown_channel();
  if (!participant(*channel, user_id)) return missing_access();
  const auto* message = messages_.find_message(channel->id, message_id);
  if (message == nullptr) return unknown_message();
  Invite invite{message->author_id, std::nullopt};
  if (message->activity) invite.party_id = message->activity->party_id;
  return invite;
}

HttpResponse MessagingModule::api_get_dm_messages(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = messages_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) {
    auto place = channel_place(context.params.at("channel_id"), *principal);
    if (auto* error = std::get_if<HttpResponse>(&place)) return std::move(*error);
    return api_list_channel_messages(context, *principal, std::get<ChannelPlace>(place));
  }
  if (!participant(*channel, principal->user->id)) return missing_access();
  auto limit = history_limit(context.request);
  if (auto* error = std::get_if<HttpResponse>(&limit)) return std::move(*error);
  auto messages = messages_.channel_messages(channel->id);
  // An ephemeral interaction response is in the history of its one user only.
  std::erase_if(messages, [&](const Message* message) {
    return message->ephemeral_for && *message->ephemeral_for != principal->user->id;
  });
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              std::int64_t count = 0;
                              for (auto it = messages.rbegin();
                                   it != messages.rend() && count < std::get<std::int64_t>(limit);
                                   ++it, ++count) {
                                const auto json = message_json(**it);
                                write_raw(writer, json, rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

HttpResponse MessagingModule::api_edit_dm_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = messages_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr || principal->grant == nullptr) {
    auto place = channel_place(context.params.at("channel_id"), *principal);
    if (auto* error = std::get_if<HttpResponse>(&place)) return std::move(*error);
    return api_edit_channel_message(context, *principal, std::get<ChannelPlace>(place));
  }
  if (!participant(*channel, principal->user->id)) return missing_access();
  Message* message = messages_.find_message_mutable(channel->id, context.params.at("message_id"));
  if (message == nullptr) return unknown_message();
  if (message->author_id != principal->user->id)
    return error_response(403, message_error::kNotAuthor, "Cannot edit a message authored by another user");
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto content = fields.string("content", true);
  if (content && (content->empty() || utf8_length(*content) > kContentMax))
    fields.add_issue("content", length_issue(1, kContentMax));
  if (!errors.empty()) return invalid_form_body(errors);
  message->content = std::move(*content);
  message->edited_ms = clock_.now_ms();
  // Moderation metadata judged the old text; the backend sets it again for the new one.
  message->moderation_metadata.clear();
  const auto json = message_json(*message);
  dispatch_dm(*channel, "MESSAGE_UPDATE", json);
  emit_game_dm(*message, webhook_event::kGameDirectMessageUpdate, json);
  return HttpResponse::json(200, json);
}

HttpResponse MessagingModule::api_delete_dm_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = messages_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr || principal->grant == nullptr) {
    auto place = channel_place(context.params.at("channel_id"), *principal);
    if (auto* error = std::get_if<HttpResponse>(&place)) return std::move(*error);
    return api_delete_channel_message(context, *principal, std::get<ChannelPlace>(place));
  }
  if (!participant(*channel, principal->user->id)) return missing_access();
  const auto& message_id = context.params.at("message_id");
  const Message* message = messages_.find_message(channel->id, message_id);
  if (message == nullptr) return unknown_message();
  if (message->author_id != principal->user->id)
    return error_response(403, message_error::kNotAuthor, "Cannot delete a message authored by another user");
  // The webhook event carries the deleted message, as the platform's documentation shows.
  emit_game_dm(*message, webhook_event::kGameDirectMessageDelete, message_json(*message));
  messages_.remove_message(channel->id, message_id);
  const auto d = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, message_id);
    writer.Key("channel_id");
    write_string(writer, channel->id);
    writer.EndObject();
  });
  dispatch_dm(*channel, "MESSAGE_DELETE", d);
  return HttpResponse::empty(204);
}

HttpResponse MessagingModule::api_message_summaries(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  struct Summary {
    std::string user_id;
    std::string channel_id;
    const Message* last = nullptr;
  };
  std::vector<Summary> summaries;
  for (const auto* channel : messages_.dm_channels_of(user_id)) {
    const auto messages = messages_.channel_messages(channel->id);
    if (messages.empty()) continue;
    const auto& r = channel->recipient_ids;
    const auto other = std::find_if(r.begin(), r.end(), [&](const auto& id) { return id != user_id; });
    summaries.push_back({other != r.end() ? *other : user_id, channel->id, messages.back()});
  }
  std::sort(summaries.begin(), summaries.end(), [](const Summary& a, const Summary& b) {
    if (a.last->timestamp_ms != b.last->timestamp_ms) return a.last->timestamp_ms > b.last->timestamp_ms;
    return snowflake_less(b.last->id, a.last->id);
  });
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto& summary : summaries) {
                                writer.StartObject();
                                writer.Key("user_id");
                                write_string(writer, summary.user_id);
                                writer.Key("channel_id");
                                write_string(writer, summary.channel_id);
                                writer.Key("last_message_id");
                                write_string(writer, summary.last->id);
                                writer.EndObject();
                              }
                              writer.EndArray();
                            }));
}

HttpResponse MessagingModule::api_put_dm_message_moderation(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();  // the game's backend only
  const auto* channel =
      messages_.find_dm_channel_between(context.params.at("user_id_1"), context.params.at("user_id_2"));
  if (channel == nullptr) return unknown_channel();
  Message* message = messages_.find_message_mutable(channel->id, context.params.at("message_id"));
  if (message == nullptr) return unknown_message();
  auto pairs = read_moderation_metadata(context.request);
  if (auto* error = std::get_if<HttpResponse>(&pairs)) return std::move(*error);
  message->moderation_metadata = std::move(std::get<0>(pairs));
  const auto json = message_json(*message);
  dispatch_dm(*channel, "MESSAGE_UPDATE", json);
  emit_game_dm(*message, webhook_event::kGameDirectMessageUpdate, json);
  return HttpResponse::empty(204);
}

// ---- DM channels and DMs with activity invites ----------------------------------------------------------

void MessagingModule::write_last_message_id(JsonWriter& writer, const std::string& channel_id) const {
  writer.Key("last_message_id");
  if (const auto messages = messages_.channel_messages(channel_id); !messages.empty()) {
    write_string(writer, messages.back()->id);
  } else {
    writer.Null();
  }
}

void MessagingModule::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  if (session.bot) return;
  ready.private_channels = to_json([&](JsonWriter& writer) {
    writer.StartArray();
    for (const auto* channel : messages_.dm_channels_of(session.user_id)) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, channel->id);
      writer.Key("type");
      writer.Int(1);
      write_last_message_id(writer, channel->id);
      writer.Key("recipients");
      writer.StartArray();
      for (const auto& id : channel->recipient_ids) {
        if (id == session.user_id) continue;
        if (const auto* user = state_.find_user(id))
          write_raw(writer, user_json(*user), rapidjson::kObjectType);
      }
      writer.EndArray();
      writer.EndObject();
    }
    writer.EndArray();
  });
}

HttpResponse MessagingModule::api_create_dm_channel(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto recipient_id = fields.string("recipient_id", true);
  if (!errors.empty()) return invalid_form_body(errors);
  const auto* recipient = state_.find_user(*recipient_id);
  if (recipient == nullptr) return unknown_user();
  const auto& user_id = principal->user->id;
  if (recipient->id == user_id) {
    return cannot_message_user();
  }
  const auto* channel = messages_.find_dm_channel_between(user_id, recipient->id);
  if (channel == nullptr) {
    channel = &messages_.add_dm_channel(DmChannel{snowflakes_.next_string(), {user_id, recipient->id}});
  }
  const auto recipient_text = user_json(*recipient, premium_visible(*principal));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, channel->id);
                              writer.Key("type");
                              writer.Int(1);
                              writer.Key("flags");
                              writer.Int(0);
                              write_last_message_id(writer, channel->id);
                              writer.Key("recipients");
                              writer.StartArray();
                              write_raw(writer, recipient_text, rapidjson::kObjectType);
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

HttpResponse MessagingModule::api_create_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = messages_.find_dm_channel(context.params.at("channel_id"));
  // Guild channels, and a bot's DMs: the full message object (channel_message_routes.cpp).
  if (channel == nullptr || principal->grant == nullptr) {
    auto place = channel_place(context.params.at("channel_id"), *principal);
    if (auto* error = std::get_if<HttpResponse>(&place)) return std::move(*error);
    return api_create_channel_message(context, *principal, std::get<ChannelPlace>(place));
  }
  const auto& user_id = principal->user->id;
  const auto& recipients = channel->recipient_ids;
  if (std::find(recipients.begin(), recipients.end(), user_id) == recipients.end()) {
    return missing_access();
  }

  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  auto content = fields.string("content", false);
  const auto application_id = fields.string("application_id", false);
  std::optional<MessageActivity> activity;
  if (const auto* raw = fields.value("activity", false)) {
    if (!raw->IsObject()) {
      fields.add_issue("activity", {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    } else {
      FieldErrors ignored;
      BodyFields activity_fields(*raw, ignored);
      const auto type = activity_fields.integer("type", false);
      const auto party_id = activity_fields.string("party_id", false);
      const auto session_id = activity_fields.string("session_id", false);
      if (!type || (*type != 1 && *type != 5))
        errors.add({"activity", "type"}, {"BASE_TYPE_CHOICES", "Value must be one of {1, 5}."});
      if (!party_id || party_id->empty()) errors.add({"activity", "party_id"}, required_field_issue());
      if (errors.empty()) activity = MessageActivity{static_cast<int>(*type), *party_id, session_id};
    }
    if (!application_id) fields.add_issue("application_id", required_field_issue());
  } else if (!content || content->empty()) {
    fields.add_issue("content", required_field_issue());
  }
  if (content && utf8_length(*content) > kContentMax)
    fields.add_issue("content", {"BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."});
  MessageInput input;
  read_message_extras(body, input, errors);
  if (!errors.empty()) return invalid_form_body(errors);
  if (application_id && state_.find_application(*application_id) == nullptr) {
    return unknown_application();
  }
  // A retry of a message that was created (its answer lost) gets that message, whatever changed since.
  if (auto earlier = nonce_duplicate(channel->id, user_id, input))
    return HttpResponse::json(200, message_json(*earlier));

  const auto& other_id = recipients[0] == user_id ? recipients[1] : recipients[0];
  const auto& relationships = social_.relationships();
  const int mine = relationships.relationship_type(user_id, other_id);
  const int theirs = relationships.relationship_type(other_id, user_id);
  // Blocks stop every message; only friends send activity invites: on the platform, or in the invite's game
  // (provisional accounts have no other friends).
  const auto* game =
      application_id ? relationships.find_game_relationship(*application_id, user_id, other_id) : nullptr;
  const bool friends =
      mine == relationship_type::kFriend || (game != nullptr && game->type == relationship_type::kFriend);
  if (mine == relationship_type::kBlocked || theirs == relationship_type::kBlocked ||
      (activity && !friends)) {
    return cannot_message_user();
  }
  // The game whose sessions count as "online in the game": the caller's token's application.
  const std::string token_app = principal->application != nullptr ? principal->application->id : "";
  bool ephemeral = false;
  if (!activity) {
    const auto allowed = dm_allowed(user_id, other_id, channel->id, token_app);
    if (!allowed) {
      return cannot_message_user();
    }
    ephemeral = *allowed;
  }
  if (auto limited = take_social_limit(token_app, SocialLimit::dm)) return std::move(*limited);

  Message message;
  message.id = snowflakes_.next_string();
  message.channel_id = channel->id;
  message.author_id = user_id;
  message.content = content.value_or("");
  message.timestamp_ms = clock_.now_ms();
  message.application_id = application_id;
  message.activity = std::move(activity);
  message.nonce = std::move(input.nonce);
  message.nonce_is_number = input.nonce_is_number;
  message.metadata = std::move(input.metadata);
  message.recipient_id = other_id;
  // A user's token of an application is that game's Social SDK session: the DM is the game's (a bot's is
  // not).
  if (principal->grant != nullptr) message.game_app_id = principal->grant->app_id;
  if (ephemeral) message.flags |= kMessageFlagEphemeral;
  // Ephemeral DMs are delivered, never kept: no history, no edit.
  const Message& sent = ephemeral ? message : messages_.add_message(std::move(message));
  if (sent.nonce) messages_.remember_nonce(sent, kNonceWindowMs);
  const auto json = message_json(sent);
  gateway_.dispatch_to_user(user_id, "MESSAGE_CREATE", json);
  gateway_.dispatch_to_user(other_id, "MESSAGE_CREATE", json);
  emit_game_dm(sent, webhook_event::kGameDirectMessageCreate, json);
  return HttpResponse::json(200, json);
}

}  // namespace platformpp::emulator
