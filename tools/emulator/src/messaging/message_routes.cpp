// Lobby messages and DMs: create with nonce dedupe, history, edit, delete, summaries, moderation metadata,
// the Social SDK development rate limits (docs/social-protocol.md, "Lobbies and messages"). POST of a DM
// (with activity invites) stays in social_routes.cpp and uses the helpers here.
#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/user_json.hpp"
#include "core/validation.hpp"
#include "service/emulator_service.hpp"

namespace platformpp::emulator {

namespace {

namespace message_error {
inline constexpr int kUnknownChannel = 10003;
inline constexpr int kUnknownMessage = 10008;
inline constexpr int kUnknownLobby = 10031;
inline constexpr int kNotAuthor = 50005;
inline constexpr int kCannotMessageUser = 50007;
}  // namespace message_error

namespace relationship_type {
inline constexpr int kFriend = 1;
inline constexpr int kBlocked = 2;
}  // namespace relationship_type

constexpr std::size_t kContentMax = 2000;
constexpr std::size_t kMetadataMax = 1000;  // code points of all keys and values together
constexpr std::size_t kNonceMax = 25;
constexpr std::size_t kModerationPairsMax = 5;
constexpr std::size_t kModerationValueMax = 2000;
constexpr std::int64_t kLobbyHistoryMs = 72LL * 60 * 60 * 1000;
constexpr std::int64_t kHistoryLimitDefault = 50;
constexpr std::int64_t kHistoryLimitMax = 200;

HttpResponse unknown_lobby() {
  return error_response(404, message_error::kUnknownLobby, "Unknown Lobby");
}
HttpResponse unknown_channel() {
  return error_response(404, message_error::kUnknownChannel, "Unknown Channel");
}
HttpResponse unknown_message() {
  return error_response(404, message_error::kUnknownMessage, "Unknown Message");
}
HttpResponse missing_access() {
  return error_response(403, error_code::kMissingAccess, "Missing Access");
}
HttpResponse unknown_user() {
  return error_response(404, error_code::kUnknownUser, "Unknown User");
}
HttpResponse cannot_message_user() {
  return error_response(400, message_error::kCannotMessageUser, "Cannot send messages to this user");
}

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
  writer.Int(0);
  writer.Key("channel_id");
  write_string(writer, message.channel_id);
  writer.Key("content");
  write_string(writer, message.content);
  writer.Key("author");
  writer.RawValue(author_text.c_str(), author_text.size(), rapidjson::kObjectType);
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

// Snowflakes as strings compare as numbers when the lengths are compared first.
bool snowflake_less(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

}  // namespace

void EmulatorService::register_message_routes() {
  auto bind = [this](HttpResponse (EmulatorService::*handler)(const RouteContext&)) {
    return [this, handler](const RouteContext& context) { return (this->*handler)(context); };
  };
  api_router_.add("POST", "/users/@me/channels", bind(&EmulatorService::api_create_dm_channel));
  api_router_.add("POST", "/channels/{channel_id}/messages", bind(&EmulatorService::api_create_message));
  api_router_.add("POST", "/lobbies/{lobby_id}/messages", bind(&EmulatorService::api_create_lobby_message));
  api_router_.add("GET", "/lobbies/{lobby_id}/messages", bind(&EmulatorService::api_get_lobby_messages));
  api_router_.add("PUT", "/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata",
                  bind(&EmulatorService::api_put_lobby_message_moderation));
  api_router_.add("GET", "/channels/{channel_id}/messages", bind(&EmulatorService::api_get_dm_messages));
  api_router_.add("PATCH", "/channels/{channel_id}/messages/{message_id}",
                  bind(&EmulatorService::api_edit_dm_message));
  api_router_.add("DELETE", "/channels/{channel_id}/messages/{message_id}",
                  bind(&EmulatorService::api_delete_dm_message));
  api_router_.add("GET", "/users/@me/message-summaries", bind(&EmulatorService::api_message_summaries));
  api_router_.add("PUT", "/partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata",
                  bind(&EmulatorService::api_put_dm_message_moderation));

  admin_router_.add("DELETE", "/lobbies/{lobby_id}/messages/{message_id}",
                    bind(&EmulatorService::admin_delete_lobby_message));
}

// ---- shared by lobby messages and DMs ---------------------------------------------------------------------

void EmulatorService::read_message_extras(const rapidjson::Value& body, MessageInput& input,
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

std::optional<Message> EmulatorService::nonce_duplicate(const std::string& channel_id,
                                                        const std::string& author_id,
                                                        const MessageInput& input) {
  if (!input.enforce_nonce || !input.nonce) return std::nullopt;
  return state_.find_by_nonce(channel_id, author_id, *input.nonce, clock_.now_ms(), kNonceWindowMs);
}

std::optional<HttpResponse> EmulatorService::take_social_limit(const std::string& app_id,
                                                               SocialLimit category) {
  if (const auto retry_after = social_limits_.take(app_id, category, clock_.now_ms()))
    return rate_limited_response(*retry_after, false, "shared");
  return std::nullopt;
}

// ---- lobby messages --------------------------------------------------------------------------------------

std::string EmulatorService::lobby_message_json(const Message& message) const {
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

HttpResponse EmulatorService::api_create_lobby_message(const RouteContext& context) {
  lobby_sweep_idle();  // an idle lobby is gone even if the tick has not run since the clock moved
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const Lobby* found = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (found == nullptr) return unknown_lobby();
  const Lobby& lobby = *found;
  const bool bot = principal->grant == nullptr;
  const LobbyMember* member = lobby.member(principal->user->id);
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

  const auto& author_id = principal->user->id;
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
  state_.prune_messages_before(lobby.id, message.timestamp_ms - kLobbyHistoryMs);
  const auto& stored = state_.add_message(std::move(message));
  if (stored.nonce) state_.remember_nonce(stored, kNonceWindowMs);
  const auto json = lobby_message_json(stored);
  lobby_dispatch(lobby, "LOBBY_MESSAGE_CREATE", json);
  return HttpResponse::json(201, json);
}

HttpResponse EmulatorService::api_get_lobby_messages(const RouteContext& context) {
  lobby_sweep_idle();  // an idle lobby is gone even if the tick has not run since the clock moved
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const Lobby* found = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (found == nullptr) return unknown_lobby();
  const Lobby& lobby = *found;
  if (principal->grant != nullptr && lobby.member(principal->user->id) == nullptr) return unknown_lobby();
  auto limit = history_limit(context.request);
  if (auto* error = std::get_if<HttpResponse>(&limit)) return std::move(*error);

  // "The last 72 hours": a message exactly 72 hours old has left the window (as the sliding windows of the
  // rate limits count: (now - window, now]).
  const auto cutoff = clock_.now_ms() - kLobbyHistoryMs;
  const auto messages = state_.channel_messages(lobby.id);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              std::int64_t count = 0;
                              for (auto it = messages.rbegin();
                                   it != messages.rend() && count < std::get<std::int64_t>(limit); ++it) {
                                if ((*it)->timestamp_ms <= cutoff) continue;
                                const auto json = lobby_message_json(**it);
                                writer.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
                                ++count;
                              }
                              writer.EndArray();
                            }));
}

HttpResponse EmulatorService::api_put_lobby_message_moderation(const RouteContext& context) {
  lobby_sweep_idle();  // an idle lobby is gone even if the tick has not run since the clock moved
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();  // the game's backend only
  const Lobby* found = lobbies_.find(context.params.at("lobby_id"), principal->application->id);
  if (found == nullptr) return unknown_lobby();
  const Lobby& lobby = *found;
  Message* message = state_.find_message_mutable(lobby.id, context.params.at("message_id"));
  if (message == nullptr) return unknown_message();
  auto pairs = read_moderation_metadata(context.request);
  if (auto* error = std::get_if<HttpResponse>(&pairs)) return std::move(*error);
  message->moderation_metadata = std::move(std::get<0>(pairs));
  lobby_dispatch(lobby, "LOBBY_MESSAGE_UPDATE", lobby_message_json(*message));
  return HttpResponse::empty(204);
}

// The platform's moderation removes a lobby message (the API gives games no route for it): gone from the
// history, LOBBY_MESSAGE_DELETE {id, lobby_id, channel_id} to every member.
HttpResponse EmulatorService::admin_delete_lobby_message(const RouteContext& context) {
  lobby_sweep_idle();
  const auto found = lobbies_.lobbies.find(context.params.at("lobby_id"));
  if (found == lobbies_.lobbies.end()) return unknown_lobby();
  const Lobby& lobby = found->second;
  const auto& message_id = context.params.at("message_id");
  if (!state_.remove_message(lobby.id, message_id)) return unknown_message();
  lobby_dispatch(lobby, "LOBBY_MESSAGE_DELETE", to_json([&](JsonWriter& writer) {
                   writer.StartObject();
                   writer.Key("id");
                   write_string(writer, message_id);
                   writer.Key("lobby_id");
                   write_string(writer, lobby.id);
                   writer.Key("channel_id");
                   write_string(writer, lobby.id);
                   writer.EndObject();
                 }));
  return HttpResponse::empty(204);
}

// ---- DMs -------------------------------------------------------------------------------------------------

std::string EmulatorService::message_json(const Message& message) const {
  const auto* author = state_.find_user(message.author_id);
  const auto author_text = author != nullptr ? user_json(*author) : deleted_user_json(message.author_id);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    write_common_fields(writer, message, author_text);
    // Members the published MessageResponse requires; the emulator's messages carry none of these features.
    for (const char* empty_list : {"mentions", "mention_roles", "attachments", "embeds", "components"}) {
      writer.Key(empty_list);
      writer.StartArray();
      writer.EndArray();
    }
    for (const char* unset : {"pinned", "mention_everyone", "tts"}) {
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

std::optional<bool> EmulatorService::dm_allowed(const std::string& user_id, const std::string& other_id,
                                                const std::string& channel_id,
                                                const std::string& app_id) const {
  constexpr int kFriend = 1;
  const auto game_friends = [&](const std::string& from, const std::string& to) {
    const auto* relationship = state_.find_game_relationship(app_id, from, to);
    return relationship != nullptr && relationship->type == kFriend;
  };
  if (state_.relationship_type(user_id, other_id) == kFriend ||
      state_.relationship_type(other_id, user_id) == kFriend || game_friends(user_id, other_id) ||
      game_friends(other_id, user_id)) {
    return false;
  }
  const auto in_game = [&](const std::string& id) {
    return std::any_of(gateway_.sessions().begin(), gateway_.sessions().end(), [&](const auto& entry) {
      const auto& session = entry.second;
      return session.user_id == id && session.app_id == app_id && !session.bot && session.connection;
    });
  };
  if (!app_id.empty() && in_game(user_id) && in_game(other_id)) return true;
  const auto mine = guilds_.guilds().guilds_of_user(user_id);
  const bool shared_guild =
      std::any_of(mine.begin(), mine.end(), [&](const Guild* guild) { return guild->has_member(other_id); });
  if (shared_guild && !state_.channel_messages(channel_id).empty()) return false;
  return std::nullopt;
}

void EmulatorService::dispatch_dm(const DmChannel& channel, std::string_view type, std::string_view d_json) {
  for (const auto& user_id : channel.recipient_ids)
    gateway_.dispatch_to_user(user_id, type, d_json);
}

namespace {

bool participant(const DmChannel& channel, const std::string& user_id) {
  const auto& r = channel.recipient_ids;
  return std::find(r.begin(), r.end(), user_id) != r.end();
}

}  // namespace

HttpResponse EmulatorService::api_get_dm_messages(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return unknown_channel();
  if (!participant(*channel, principal->user->id)) return missing_access();
  auto limit = history_limit(context.request);
  if (auto* error = std::get_if<HttpResponse>(&limit)) return std::move(*error);
  const auto messages = state_.channel_messages(channel->id);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              std::int64_t count = 0;
                              for (auto it = messages.rbegin();
                                   it != messages.rend() && count < std::get<std::int64_t>(limit);
                                   ++it, ++count) {
                                const auto json = message_json(**it);
                                writer.RawValue(json.c_str(), json.size(), rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

HttpResponse EmulatorService::api_edit_dm_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return unknown_channel();
  if (!participant(*channel, principal->user->id)) return missing_access();
  Message* message = state_.find_message_mutable(channel->id, context.params.at("message_id"));
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
  return HttpResponse::json(200, json);
}

HttpResponse EmulatorService::api_delete_dm_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return unknown_channel();
  if (!participant(*channel, principal->user->id)) return missing_access();
  const auto& message_id = context.params.at("message_id");
  const Message* message = state_.find_message(channel->id, message_id);
  if (message == nullptr) return unknown_message();
  if (message->author_id != principal->user->id)
    return error_response(403, message_error::kNotAuthor, "Cannot delete a message authored by another user");
  state_.remove_message(channel->id, message_id);
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

HttpResponse EmulatorService::api_message_summaries(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& user_id = principal->user->id;
  struct Summary {
    std::string user_id;
    std::string channel_id;
    const Message* last = nullptr;
  };
  std::vector<Summary> summaries;
  for (const auto* channel : state_.dm_channels_of(user_id)) {
    const auto messages = state_.channel_messages(channel->id);
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

HttpResponse EmulatorService::api_put_dm_message_moderation(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  if (principal->grant != nullptr) return missing_access();  // the game's backend only
  const auto* channel =
      state_.find_dm_channel_between(context.params.at("user_id_1"), context.params.at("user_id_2"));
  if (channel == nullptr) return unknown_channel();
  Message* message = state_.find_message_mutable(channel->id, context.params.at("message_id"));
  if (message == nullptr) return unknown_message();
  auto pairs = read_moderation_metadata(context.request);
  if (auto* error = std::get_if<HttpResponse>(&pairs)) return std::move(*error);
  message->moderation_metadata = std::move(std::get<0>(pairs));
  dispatch_dm(*channel, "MESSAGE_UPDATE", message_json(*message));
  return HttpResponse::empty(204);
}

// ---- admin: the Social SDK development rate limits --------------------------------------------------------

// ---- DM channels and DMs with activity invites ----------------------------------------------------------

HttpResponse EmulatorService::api_create_dm_channel(const RouteContext& context) {
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
  const auto* channel = state_.find_dm_channel_between(user_id, recipient->id);
  if (channel == nullptr) {
    channel = &state_.add_dm_channel(DmChannel{snowflakes_.next_string(), {user_id, recipient->id}});
  }
  const auto recipient_text = user_json(*recipient, premium_visible(*principal));
  return HttpResponse::json(
      200, to_json([&](JsonWriter& writer) {
        writer.StartObject();
        writer.Key("id");
        write_string(writer, channel->id);
        writer.Key("type");
        writer.Int(1);
        writer.Key("flags");
        writer.Int(0);
        writer.Key("last_message_id");
        if (const auto messages = state_.channel_messages(channel->id); !messages.empty()) {
          write_string(writer, messages.back()->id);
        } else {
          writer.Null();
        }
        writer.Key("recipients");
        writer.StartArray();
        writer.RawValue(recipient_text.c_str(), recipient_text.size(), rapidjson::kObjectType);
        writer.EndArray();
        writer.EndObject();
      }));
}

HttpResponse EmulatorService::api_create_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* channel = state_.find_dm_channel(context.params.at("channel_id"));
  if (channel == nullptr) return unknown_channel();
  const auto& user_id = principal->user->id;
  const auto& recipients = channel->recipient_ids;
  if (std::find(recipients.begin(), recipients.end(), user_id) == recipients.end()) {
    return error_response(403, error_code::kMissingAccess, "Missing Access");
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
    return error_response(404, error_code::kUnknownApplication, "Unknown Application");
  }
  // A retry of a message that was created (its answer lost) gets that message, whatever changed since.
  if (auto earlier = nonce_duplicate(channel->id, user_id, input))
    return HttpResponse::json(200, message_json(*earlier));

  const auto& other_id = recipients[0] == user_id ? recipients[1] : recipients[0];
  const int mine = state_.relationship_type(user_id, other_id);
  const int theirs = state_.relationship_type(other_id, user_id);
  // Blocks stop every message; only friends may send activity invites.
  if (mine == relationship_type::kBlocked || theirs == relationship_type::kBlocked ||
      (activity && mine != relationship_type::kFriend)) {
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
  if (ephemeral) message.flags |= kMessageFlagEphemeral;
  if (message.nonce) state_.remember_nonce(message, kNonceWindowMs);
  // Ephemeral DMs are delivered, never kept: no history, no edit.
  const auto json = message_json(ephemeral ? message : state_.add_message(std::move(message)));
  gateway_.dispatch_to_user(user_id, "MESSAGE_CREATE", json);
  gateway_.dispatch_to_user(other_id, "MESSAGE_CREATE", json);
  return HttpResponse::json(200, json);
}

}  // namespace platformpp::emulator
