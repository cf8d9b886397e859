// Lobby messages and what they share with DMs (docs/social-protocol.md, "Lobbies and messages"): the message
// objects, nonce dedupe, the Social SDK development rate limits, the DM rule; lobby messages' routes. The DM
// routes are in dm_routes.cpp.
#include "messaging/messaging_module.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"
#include "messaging/messaging_protocol.hpp"

namespace platformpp::emulator {

namespace {

namespace message_error = messaging_protocol::message_error;
using messaging_protocol::history_limit;
using messaging_protocol::kContentMax;
using messaging_protocol::read_moderation_metadata;

constexpr std::size_t kMetadataMax = 1000;  // code points of all keys and values together
constexpr std::size_t kNonceMax = 25;
constexpr std::size_t kModerationPairsMax = 5;
constexpr std::size_t kModerationValueMax = 2000;
constexpr std::int64_t kLobbyHistoryMs = 72LL * 60 * 60 * 1000;
constexpr std::int64_t kHistoryLimitDefault = 50;
constexpr std::int64_t kHistoryLimitMax = 200;

void write_string_map(JsonWriter& writer, const std::map<std::string, std::string>& map) {
  writer.StartObject();
  for (const auto& [key, value] : map) {
    writer.Key(key.c_str(), static_cast<rapidjson::SizeType>(key.size()));
    write_string(writer, value);
  }
  writer.EndObject();
}

// Fields every message object has, in the order the platform sends them.
void write_common_fields(JsonWriter& writer, const Message& message, const std::string& author_text) {
  writer.Key("id");
  write_string(writer, message.id);
  writer.Key("type");
  writer.Int(message.type);
  writer.Key("channel_id");
  write_string(writer, message.channel_id);
  writer.Key("content");
  write_string(writer, message.content);
  writer.Key("author");
  write_raw(writer, author_text, rapidjson::kObjectType);
  writer.Key("timestamp");
  write_string(writer, format_rfc3339_ms(message.timestamp_ms));
  writer.Key("edited_timestamp");
  if (message.edited_ms) {
    write_string(writer, format_rfc3339_ms(*message.edited_ms));
  } else {
    writer.Null();
  }
  writer.Key("flags");
  writer.Int(message.flags);
  if (message.nonce) {
    writer.Key("nonce");
    std::int64_t number = 0;
    const auto* end = message.nonce->data() + message.nonce->size();
    if (message.nonce_is_number && std::from_chars(message.nonce->data(), end, number).ptr == end) {
      writer.Int64(number);
    } else {
      write_string(writer, *message.nonce);
    }
  }
  if (message.application_id) {
    writer.Key("application_id");
    write_string(writer, *message.application_id);
  }
  if (!message.metadata.empty()) {
    writer.Key("metadata");
    write_string_map(writer, message.metadata);
  }
  if (!message.moderation_metadata.empty()) {
    writer.Key("moderation_metadata");
    write_string_map(writer, message.moderation_metadata);
  }
}

// An attachment object: its CDN address on the emulator's host (which serves no bytes: the emulator keeps no
// files), `flags` only when set, as the platform omits a zero.
void write_attachment(JsonWriter& writer, const std::string& cdn_host, const std::string& channel_id,
                      const MessageAttachment& attachment) {
  writer.StartObject();
  writer.Key("id");
  write_string(writer, attachment.id);
  writer.Key("filename");
  write_string(writer, attachment.filename);
  if (attachment.description) {
    writer.Key("description");
    write_string(writer, *attachment.description);
  }
  if (attachment.content_type) {
    writer.Key("content_type");
    write_string(writer, *attachment.content_type);
  }
  writer.Key("size");
  writer.Int64(attachment.size);
  const auto url =
      "https://" + cdn_host + "/attachments/" + channel_id + "/" + attachment.id + "/" + attachment.filename;
  writer.Key("url");
  write_string(writer, url);
  writer.Key("proxy_url");
  write_string(writer, url);
  if (attachment.flags != 0) {
    writer.Key("flags");
    writer.Int(attachment.flags);
  }
  writer.EndObject();
}

}  // namespace

MessagingModule::MessagingModule(ServiceContext& context, GatewayModule& gateway, const SocialModule& social,
                                 GuildModule& guilds, LobbyModule& lobbies, SocialRateLimits& social_limits,
                                 WebhookModule& webhooks)
    : FeatureModule(context),
      gateway_(gateway),
      social_(social),
      guilds_(guilds),
      lobbies_(lobbies),
      social_limits_(social_limits),
      webhooks_(webhooks) {
  messages_.register_documents(changes_);
  search_index_.register_documents(changes_);
  register_search_routes();
  // Before the routes with {message_id}: "pins" is not a message id (the first route that matches answers).
  register_pin_routes();
  api_router_.add("POST", "/users/@me/channels", bind(&MessagingModule::api_create_dm_channel));
  api_router_.add("POST", "/channels/{channel_id}/messages", bind(&MessagingModule::api_create_message));
  api_router_.add("POST", "/lobbies/{lobby_id}/messages", bind(&MessagingModule::api_create_lobby_message));
  api_router_.add("GET", "/lobbies/{lobby_id}/messages", bind(&MessagingModule::api_get_lobby_messages));
  api_router_.add("PUT", "/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata",
                  bind(&MessagingModule::api_put_lobby_message_moderation));
  api_router_.add("GET", "/channels/{channel_id}/messages", bind(&MessagingModule::api_get_dm_messages));
  api_router_.add("GET", "/channels/{channel_id}/messages/{message_id}",
                  bind(&MessagingModule::api_get_channel_message));
  api_router_.add("PATCH", "/channels/{channel_id}/messages/{message_id}",
                  bind(&MessagingModule::api_edit_dm_message));
  api_router_.add("DELETE", "/channels/{channel_id}/messages/{message_id}",
                  bind(&MessagingModule::api_delete_dm_message));
  api_router_.add("GET", "/users/@me/message-summaries", bind(&MessagingModule::api_message_summaries));
  api_router_.add("PUT", "/partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata",
                  bind(&MessagingModule::api_put_dm_message_moderation));

  admin_router_.add("POST", "/channels/{channel_id}/messages",
                    bind(&MessagingModule::admin_post_member_message));
  admin_router_.add("DELETE", "/lobbies/{lobby_id}/messages/{message_id}",
                    bind(&MessagingModule::admin_delete_lobby_message));
}

void MessagingModule::lobby_deleted(const std::string& lobby_id) {
  messages_.remove_channel_messages(lobby_id);
}

// ---- shared by lobby messages and DMs ---------------------------------------------------------------------

void MessagingModule::read_message_extras(const rapidjson::Value& body, MessageInput& input,
                                          FieldErrors& errors) {
  if (const auto it = body.FindMember("metadata"); it != body.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsObject()) {
      errors.add({"metadata"}, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    } else {
      std::size_t total = 0;
      for (const auto& member : it->value.GetObject()) {
        const std::string key(member.name.GetString(), member.name.GetStringLength());
        if (!member.value.IsString()) {
          errors.add({"metadata", key}, {"BASE_TYPE_STRING", "Must be a string."});
          continue;
        }
        std::string value(member.value.GetString(), member.value.GetStringLength());
        total += utf8_length(key) + utf8_length(value);
        input.metadata[key] = std::move(value);
      }
      if (total > kMetadataMax)
        errors.add({"metadata"}, {"BASE_TYPE_MAX_LENGTH", "Must be 1000 or fewer in length."});
    }
  }
  if (const auto it = body.FindMember("nonce"); it != body.MemberEnd() && !it->value.IsNull()) {
    if (it->value.IsString()) {
      std::string nonce(it->value.GetString(), it->value.GetStringLength());
      if (utf8_length(nonce) > kNonceMax)
        errors.add({"nonce"}, {"BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."});
      input.nonce = std::move(nonce);
    } else if (it->value.IsInt64()) {
      input.nonce = std::to_string(it->value.GetInt64());
      input.nonce_is_number = true;
    } else {
      errors.add({"nonce"}, {"BASE_TYPE_STRING", "Must be a string or an integer."});
    }
  }
  if (const auto it = body.FindMember("enforce_nonce"); it != body.MemberEnd() && !it->value.IsNull()) {
    if (!it->value.IsBool()) {
      errors.add({"enforce_nonce"}, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
    } else {
      input.enforce_nonce = it->value.GetBool();
    }
  }
}

std::optional<Message> MessagingModule::nonce_duplicate(const std::string& channel_id,
                                                        const std::string& author_id,
                                                        const MessageInput& input) {
  if (!input.enforce_nonce || !input.nonce) return std::nullopt;
  return messages_.find_by_nonce(channel_id, author_id, *input.nonce, clock_.now_ms(), kNonceWindowMs);
}

std::optional<HttpResponse> MessagingModule::take_social_limit(const std::string& app_id,
                                                               SocialLimit category) {
  if (const auto retry_after = social_limits_.take(app_id, category, clock_.now_ms()))
    return rate_limited_response(*retry_after, false, "shared");
  return std::nullopt;
}

// ---- lobby messages --------------------------------------------------------------------------------------

std::string MessagingModule::lobby_message_json(const Message& message) const {
  const auto* author = state_.find_user(message.author_id);
  const auto author_text = author != nullptr ? user_json(*author) : deleted_user_json(message.author_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_common_fields(writer, message, author_text);
    writer.Key("lobby_id");
    write_string(writer, message.lobby_id.value_or(message.channel_id));
    if (message.additional_name) {
      writer.Key("lobby_member");
      writer.StartObject();
      writer.Key("additional_name");
      write_string(writer, *message.additional_name);
      writer.EndObject();
    }
    writer.EndObject();
  });
}

std::optional<HttpResponse> MessagingModule::find_lobby(const RouteContext& context, bool backend_only,
                                                        Principal& principal, const Lobby*& lobby) {
  // An idle lobby is gone even if the tick has not run since the clock moved. Only this lobby is looked at: a
  // full sweep on every message was most of the emulator's time with 1,000 connected Clients.
  lobbies_.expire_if_idle(context.params.at("lobby_id"));
  const auto caller = authenticate(context.request);
  if (!caller) return status_error(401);
  if (backend_only && caller->grant != nullptr) return missing_access();
  principal = *caller;
  lobby = lobbies_.find(context.params.at("lobby_id"), principal.application->id);
  if (lobby == nullptr) return unknown_lobby();
  return std::nullopt;
}

HttpResponse MessagingModule::api_create_lobby_message(const RouteContext& context) {
  Principal principal;
  const Lobby* found = nullptr;
  if (auto error = find_lobby(context, false, principal, found)) return std::move(*error);
  const Lobby& lobby = *found;
  const bool bot = principal.grant == nullptr;
  const LobbyMember* member = lobby.member(principal.user->id);
  if (!bot && member == nullptr) return unknown_lobby();

  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  MessageInput input;
  input.content = fields.string("content", true);
  if (input.content && (input.content->empty() || utf8_length(*input.content) > kContentMax))
    fields.add_issue("content", length_issue(1, kContentMax));
  read_message_extras(body, input, errors);
  if (!errors.empty()) return invalid_form_body(errors);

  const auto& author_id = principal.user->id;
  // The earlier message, with the route's one documented status (the published document lists only 201).
  if (auto earlier = nonce_duplicate(lobby.id, author_id, input))
    return HttpResponse::json(201, lobby_message_json(*earlier));
  if (auto limited = take_social_limit(lobby.app_id, SocialLimit::lobby_message)) return std::move(*limited);

  Message message;
  message.id = snowflakes_.next_string();
  message.channel_id = lobby.id;
  message.lobby_id = lobby.id;
  message.author_id = author_id;
  message.content = std::move(*input.content);
  message.timestamp_ms = clock_.now_ms();
  message.application_id = lobby.app_id;
  message.nonce = std::move(input.nonce);
  message.nonce_is_number = input.nonce_is_number;
  message.metadata = std::move(input.metadata);
  if (member != nullptr) message.additional_name = member->additional_name;
  // History only ever shows the last 72 hours: older messages need not be kept.
  messages_.prune_messages_before(lobby.id, message.timestamp_ms - kLobbyHistoryMs);
  const auto& stored = messages_.add_message(std::move(message));
  if (stored.nonce) messages_.remember_nonce(stored, kNonceWindowMs);
  const auto json = lobby_message_json(stored);
  lobbies_.dispatch(lobby, "LOBBY_MESSAGE_CREATE", json);
  webhooks_.emit(lobby.app_id, webhook_event::kLobbyMessageCreate, json);
  return HttpResponse::json(201, json);
}

HttpResponse MessagingModule::api_get_lobby_messages(const RouteContext& context) {
  Principal principal;
  const Lobby* found = nullptr;
  if (auto error = find_lobby(context, false, principal, found)) return std::move(*error);
  const Lobby& lobby = *found;
  if (principal.grant != nullptr && lobby.member(principal.user->id) == nullptr) return unknown_lobby();
  auto limit = history_limit(context.request);
  if (auto* error = std::get_if<HttpResponse>(&limit)) return std::move(*error);

  // "The last 72 hours": a message exactly 72 hours old has left the window (as the sliding windows of the
  // rate limits count: (now - window, now]).
  const auto cutoff = clock_.now_ms() - kLobbyHistoryMs;
  const auto messages = messages_.channel_messages(lobby.id);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              std::int64_t count = 0;
                              for (auto it = messages.rbegin();
                                   it != messages.rend() && count < std::get<std::int64_t>(limit); ++it) {
                                if ((*it)->timestamp_ms <= cutoff) continue;
                                const auto json = lobby_message_json(**it);
                                write_raw(writer, json, rapidjson::kObjectType);
                                ++count;
                              }
                              writer.EndArray();
                            }));
}

HttpResponse MessagingModule::api_put_lobby_message_moderation(const RouteContext& context) {
  Principal principal;
  const Lobby* found = nullptr;
  if (auto error = find_lobby(context, true, principal, found)) return std::move(*error);  // the backend only
  const Lobby& lobby = *found;
  Message* message = messages_.find_message_mutable(lobby.id, context.params.at("message_id"));
  if (message == nullptr) return unknown_message();
  auto pairs = read_moderation_metadata(context.request);
  if (auto* error = std::get_if<HttpResponse>(&pairs)) return std::move(*error);
  message->moderation_metadata = std::move(std::get<0>(pairs));
  const auto json = lobby_message_json(*message);
  lobbies_.dispatch(lobby, "LOBBY_MESSAGE_UPDATE", json);
  webhooks_.emit(lobby.app_id, webhook_event::kLobbyMessageUpdate, json);
  return HttpResponse::empty(204);
}

// The platform's moderation removes a lobby message (the API gives games no route for it): gone from the
// history, LOBBY_MESSAGE_DELETE {id, lobby_id, channel_id} to every member.
HttpResponse MessagingModule::admin_delete_lobby_message(const RouteContext& context) {
  lobbies_.expire_if_idle(context.params.at("lobby_id"));
  const Lobby* found = lobbies_.find(context.params.at("lobby_id"));
  if (found == nullptr) return unknown_lobby();
  const Lobby& lobby = *found;
  const auto& message_id = context.params.at("message_id");
  if (!messages_.remove_message(lobby.id, message_id)) return unknown_message();
  lobbies_.dispatch(lobby, "LOBBY_MESSAGE_DELETE", to_json([&](JsonWriter& writer) {
                      writer.StartObject();
                      writer.Key("id");
                      write_string(writer, message_id);
                      writer.Key("lobby_id");
                      write_string(writer, lobby.id);
                      writer.Key("channel_id");
                      write_string(writer, lobby.id);
                      writer.EndObject();
                    }));
  // The webhook event's data is the platform's documented {id, lobby_id}.
  webhooks_.emit(lobby.app_id, webhook_event::kLobbyMessageDelete, to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("id");
                   write_string(writer, message_id);
                   writer.Key("lobby_id");
                   write_string(writer, lobby.id);
                   writer.EndObject();
                 }));
  return HttpResponse::empty(204);
}

// ---- DMs -------------------------------------------------------------------------------------------------

std::string MessagingModule::message_json(const Message& message, bool without_referenced) const {
  const auto* author = state_.find_user(message.author_id);
  const auto author_text = author != nullptr ? user_json(*author) : deleted_user_json(message.author_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_common_fields(writer, message, author_text);
    // Members the published MessageResponse requires; the emulator's messages carry no mentions.
    for (const char* empty_list : {"mentions", "mention_roles"}) {
      writer.Key(empty_list);
      writer.StartArray();
      writer.EndArray();
    }
    writer.Key("attachments");
    writer.StartArray();
    for (const auto& attachment : message.attachments)
      write_attachment(writer, endpoints_.cdn_host, message.channel_id, attachment);
    writer.EndArray();
    writer.Key("embeds");
    write_raw(writer, message.embeds, rapidjson::kArrayType);
    writer.Key("components");
    write_raw(writer, message.components, rapidjson::kArrayType);
    if (message.webhook_id) {
      writer.Key("webhook_id");
      write_string(writer, *message.webhook_id);
    }
    if (message.interaction_metadata) {
      writer.Key("interaction_metadata");
      write_raw(writer, *message.interaction_metadata, rapidjson::kObjectType);
    }
    if (message.reference) {
      const auto& reference = *message.reference;
      writer.Key("message_reference");
      writer.StartObject();
      writer.Key("type");
      writer.Int(reference.type);
      writer.Key("channel_id");
      write_string(writer, reference.channel_id);
      writer.Key("message_id");
      write_string(writer, reference.message_id);
      if (reference.guild_id) {
        writer.Key("guild_id");
        write_string(writer, *reference.guild_id);
      }
      writer.EndObject();
      // A reply carries the message it answers as it is now (null once deleted), one level deep.
      if (reference.type == kMessageReferenceDefault && !without_referenced) {
        writer.Key("referenced_message");
        if (const auto* referenced = messages_.find_message(reference.channel_id, reference.message_id)) {
          write_raw(writer, message_json(*referenced, true), rapidjson::kObjectType);
        } else {
          writer.Null();
        }
      }
    }
    if (message.snapshots) {
      writer.Key("message_snapshots");
      write_raw(writer, *message.snapshots, rapidjson::kArrayType);
    }
    writer.Key("pinned");
    writer.Bool(message.pinned_at_ms.has_value());
    for (const char* unset : {"mention_everyone", "tts"}) {
      writer.Key(unset);
      writer.Bool(false);
    }
    if (message.recipient_id) {
      writer.Key("recipient_id");
      write_string(writer, *message.recipient_id);
    }
    if (message.activity) {
      writer.Key("activity");
      writer.StartObject();
      writer.Key("type");
      writer.Int(message.activity->type);
      writer.Key("party_id");
      write_string(writer, message.activity->party_id);
      if (message.activity->session_id) {
        writer.Key("session_id");
        write_string(writer, *message.activity->session_id);
      }
      writer.EndObject();
    }
    writer.EndObject();
  });
}

std::optional<bool> MessagingModule::dm_allowed(const std::string& user_id, const std::string& other_id,
                                                const std::string& channel_id,
                                                const std::string& app_id) const {
  using relationship_type::kFriend;
  const auto& relationships = social_.relationships();
  const auto game_friends = [&](const std::string& from, const std::string& to) {
    const auto* relationship = relationships.find_game_relationship(app_id, from, to);
    return relationship != nullptr && relationship->type == kFriend;
  };
  if (relationships.relationship_type(user_id, other_id) == kFriend ||
      relationships.relationship_type(other_id, user_id) == kFriend || game_friends(user_id, other_id) ||
      game_friends(other_id, user_id)) {
    return false;
  }
  const auto in_game = [&](const std::string& id) { return gateway_.user_connected(id, app_id); };
  if (!app_id.empty() && in_game(user_id) && in_game(other_id)) return true;
  const auto mine = guilds_.guilds().guilds_of_user(user_id);
  const bool shared_guild =
      std::any_of(mine.begin(), mine.end(), [&](const Guild* guild) { return guild->has_member(other_id); });
  if (shared_guild && !messages_.channel_messages(channel_id).empty()) return false;
  return std::nullopt;
}

void MessagingModule::dispatch_dm(const DmChannel& channel, std::string_view type, std::string_view d_json) {
  for (const auto& user_id : channel.recipient_ids)
    gateway_.dispatch_to_user(user_id, type, d_json);
}

void MessagingModule::emit_game_dm(const Message& message, std::string_view type, std::string data_json) {
  if (message.game_app_id) webhooks_.emit(*message.game_app_id, type, std::move(data_json));
}

namespace messaging_protocol {

// ?limit=N of the history routes: 1..200, default 50.
std::variant<std::int64_t, HttpResponse> history_limit(const HttpRequest& request) {
  const auto query = FormFields::parse(query_of(request));
  const auto text = query ? query->get("limit") : std::nullopt;
  if (query && !text) return kHistoryLimitDefault;
  std::int64_t limit = 0;
  const char* end = text ? text->data() + text->size() : nullptr;
  const bool number = text && std::from_chars(text->data(), end, limit).ptr == end;
  if (number && limit >= 1 && limit <= kHistoryLimitMax) return limit;
  FieldErrors errors;
  if (!number) {
    errors.add({"limit"}, {"NUMBER_TYPE_COERCE", "Value is not int."});
  } else if (limit < 1) {
    errors.add({"limit"}, {"NUMBER_TYPE_MIN", "int value should be greater than or equal to 1."});
  } else {
    errors.add({"limit"}, {"NUMBER_TYPE_MAX", "int value should be less than or equal to 200."});
  }
  return invalid_form_body(errors);
}

// A moderation metadata body: an object of at most 5 string values of at most 2000 characters each.
std::variant<std::map<std::string, std::string>, HttpResponse> read_moderation_metadata(
    const HttpRequest& request) {
  rapidjson::Document body;
  if (auto error = read_json_object(request, body)) return std::move(*error);
  FieldErrors errors;
  std::map<std::string, std::string> pairs;
  if (body.MemberCount() > kModerationPairsMax) {
    errors.add({"_root"}, {"BASE_TYPE_MAX_LENGTH", "Must have 5 or fewer properties."});
  }
  for (const auto& member : body.GetObject()) {
    const std::string key(member.name.GetString(), member.name.GetStringLength());
    if (!member.value.IsString()) {
      errors.add({key}, {"BASE_TYPE_STRING", "Must be a string."});
      continue;
    }
    std::string value(member.value.GetString(), member.value.GetStringLength());
    if (utf8_length(value) > kModerationValueMax)
      errors.add({key}, {"BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."});
    pairs[key] = std::move(value);
  }
  if (!errors.empty()) return invalid_form_body(errors);
  return pairs;
}

}  // namespace messaging_protocol

}  // namespace platformpp::emulator
