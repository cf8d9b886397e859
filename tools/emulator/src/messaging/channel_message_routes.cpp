// The full message object in guild text channels, and a bot's in its DMs: Create Message (JSON or
// multipart, replies, forwards), Get Channel Message, Get Channel Messages, Edit Message, Delete Message,
// with the permissions each route needs and the MESSAGE_CONTENT rule. A user's Social SDK DMs keep their
// own routes (dm_routes.cpp); the message itself is checked by message_body.hpp.
//
// Errors: 404 Unknown Channel (10003) and Unknown Message (10008); 403 Missing Access (50001) without
// VIEW_CHANNEL (or for a user's token in a guild channel: only bots post there); 403 Missing Permissions
// (50013) without SEND_MESSAGES, ATTACH_FILES for files, SEND_TTS_MESSAGES for tts, READ_MESSAGE_HISTORY
// for replies and reads of one message, MANAGE_MESSAGES to delete another's; 403 (50005) to edit another's
// message beyond its flags; 400 (50008) in a channel without text; 403 (160014) to forward a message whose
// content the application cannot read; 400 (50035) for the rest.
#include <algorithm>
#include <charconv>
#include <set>
#include <utility>
#include <variant>

#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/snowflake.hpp"
#include "guild/permissions.hpp"
#include "messaging/message_body.hpp"
#include "messaging/messaging_module.hpp"
#include "messaging/messaging_protocol.hpp"

namespace platformpp::emulator {

namespace {

// What a participant may do in a DM.
constexpr std::uint64_t kInDm = permission::kViewChannel | permission::kSendMessages |
                                permission::kSendTtsMessages | permission::kAttachFiles |
                                permission::kReadMessageHistory;

constexpr int kCannotSendInNonText = 50008;
constexpr int kCannotExecuteInDm = 50003;
constexpr int kCannotForwardUnreadable = 160014;
constexpr std::int64_t kMessageListLimitDefault = 50;
constexpr std::int64_t kMessageListLimitMax = 100;

// Message types a forward may capture (the platform's docs): DEFAULT, REPLY, CHAT_INPUT_COMMAND,
// CONTEXT_MENU_COMMAND.
constexpr int kTypeDefault = 0;
constexpr int kTypeReply = 19;
bool forwardable_type(int type) {
  return type == kTypeDefault || type == kTypeReply || type == 20 || type == 23;
}

// Channel types with a text chat: text, voice, announcement, stage.
bool has_text(int type) {
  return type == 0 || type == 2 || type == 5 || type == 13;
}

// The fields a forward's message_snapshots copy (the platform's "current subset"; never author or guild).
std::string snapshot_json(const rapidjson::Value& message) {
  rapidjson::Document snapshot;
  snapshot.SetObject();
  auto& allocator = snapshot.GetAllocator();
  for (const char* name : {"type", "content", "embeds", "attachments", "timestamp", "edited_timestamp",
                           "flags", "mentions", "mention_roles", "components"}) {
    if (const auto it = message.FindMember(name); it != message.MemberEnd()) {
      snapshot.AddMember(rapidjson::Value(name, allocator), rapidjson::Value(it->value, allocator),
                         allocator);
    }
  }
  rapidjson::Document list;
  list.SetArray();
  rapidjson::Value entry(rapidjson::kObjectType);
  entry.AddMember("message", rapidjson::Value(snapshot, list.GetAllocator()), list.GetAllocator());
  list.PushBack(entry, list.GetAllocator());
  return json_text(list);
}

}  // namespace

void MessagingModule::set_component_checker(ComponentChecker checker) {
  component_checker_ = std::move(checker);
}

std::variant<MessagingModule::ChannelPlace, HttpResponse> MessagingModule::channel_place(
    std::string_view channel_id, const Principal& principal) const {
  ChannelPlace place;
  const auto& user_id = principal.user->id;
  if (const auto* dm = messages_.find_dm_channel(channel_id)) {
    const auto& r = dm->recipient_ids;
    if (std::find(r.begin(), r.end(), user_id) == r.end()) return missing_access();
    place.dm = dm;
    place.permissions = kInDm;
    return place;
  }
  const auto [guild, channel] = guilds_.guilds().find_channel(channel_id);
  if (guild == nullptr || channel == nullptr) return unknown_channel();
  // Only bots post in guild channels through the API; a user's OAuth2 token has no scope for it.
  if (principal.grant != nullptr || !guild->has_member(user_id)) return missing_access();
  place.guild = guild;
  place.channel = channel;
  place.permissions = channel_permissions(*guild, *channel, user_id, clock_.now_ms());
  const bool voice = channel->type == 2 || channel->type == 13;
  if ((place.permissions & permission::kViewChannel) == 0 ||
      (voice && (place.permissions & permission::kConnect) == 0)) {
    return missing_access();
  }
  return place;
}

bool MessagingModule::content_readable(const Message& message, const ChannelPlace& place,
                                       const Principal& principal) const {
  // The MESSAGE_CONTENT rule for the API: a bot whose application lacks the intent reads the content of its
  // own messages and its DMs only (the platform also counts messages that mention it; the emulator's
  // messages keep no mentions).
  if (principal.grant != nullptr || place.dm != nullptr || message.author_id == principal.user->id)
    return true;
  return principal.application != nullptr && principal.application->intent_message_content;
}

std::string MessagingModule::message_json_for(const Message& message, const ChannelPlace& place,
                                              const Principal& principal) const {
  auto json = message_json(message);
  if (content_readable(message, place, principal)) return json;
  return without_content(json);
}

HttpResponse MessagingModule::api_create_channel_message(const RouteContext& context,
                                                         const Principal& principal,
                                                         const ChannelPlace& place) {
  const auto& author_id = principal.user->id;
  if (place.channel != nullptr && !has_text(place.channel->type)) {
    return error_response(400, kCannotSendInNonText, "Cannot send messages in a non-text channel");
  }
  if ((place.permissions & permission::kSendMessages) == 0) return missing_permissions();
  if (auto refused = slowmode_refusal(place, *principal.user)) return std::move(*refused);
  if (place.dm != nullptr) {
    // A bot DMs a user who shares a guild with it, or who wrote to it first; never across a block.
    const auto& r = place.dm->recipient_ids;
    const auto& other_id = r[0] == author_id ? r[1] : r[0];
    const auto& relationships = social_.relationships();
    if (relationships.relationship_type(author_id, other_id) == relationship_type::kBlocked ||
        relationships.relationship_type(other_id, author_id) == relationship_type::kBlocked) {
      return messaging_protocol::cannot_message_user();
    }
    const auto theirs = guilds_.guilds().guilds_of_user(other_id);
    const bool shared_guild = std::any_of(theirs.begin(), theirs.end(),
                                          [&](const Guild* guild) { return guild->has_member(author_id); });
    if (!shared_guild && messages_.channel_messages(place.dm->id).empty()) {
      return messaging_protocol::cannot_message_user();
    }
  }

  MessageBody body;
  if (auto error = read_message_body(context.request, body)) return std::move(*error);
  const auto& payload = body.payload;
  FieldErrors errors;
  MessageInput input;
  read_message_extras(payload, input, errors);
  BodyFields fields(payload, errors);
  const bool tts = fields.boolean("tts", false).value_or(false);
  if (!errors.empty()) return invalid_form_body(errors);
  if (tts && (place.permissions & permission::kSendTtsMessages) == 0) return missing_permissions();
  if (!body.files.empty() && (place.permissions & permission::kAttachFiles) == 0)
    return missing_permissions();
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  if (auto earlier = nonce_duplicate(channel_id, author_id, input)) {
    return HttpResponse::json(200, message_json(*earlier));
  }

  Message message;
  message.channel_id = channel_id;
  message.author_id = author_id;
  message.timestamp_ms = clock_.now_ms();
  if (place.guild != nullptr) message.guild_id = place.guild->id;
  message.nonce = std::move(input.nonce);
  message.nonce_is_number = input.nonce_is_number;

  // message_reference: a reply to a message of this channel, or a forward of one the bot can see.
  std::optional<MessageReference> reference;
  const Message* forwarded = nullptr;
  std::optional<ChannelPlace> forwarded_place;
  if (const auto* raw = fields.value("message_reference", false)) {
    if (!raw->IsObject()) {
      fields.add_issue("message_reference", field_issue("MODEL_TYPE_CONVERT", "Must be an object"));
      return invalid_form_body(errors);
    }
    FieldErrors reference_errors;
    BodyFields ref(*raw, reference_errors);
    const auto type = ref.integer("type", false, 0, 1).value_or(kMessageReferenceDefault);
    const auto message_id = ref.string("message_id", type == kMessageReferenceForward);
    const auto ref_channel = ref.string("channel_id", type == kMessageReferenceForward);
    const bool fail_if_not_exists = ref.boolean("fail_if_not_exists", false).value_or(true);
    if (type == kMessageReferenceDefault && !message_id) ref.add_issue("message_id", required_field_issue());
    if (!reference_errors.empty()) {
      return invalid_form_body(std::move(reference_errors).nested_under("message_reference"));
    }
    if (type == kMessageReferenceForward) {
      auto source = channel_place(*ref_channel, principal);
      if (auto* error = std::get_if<HttpResponse>(&source)) return std::move(*error);
      forwarded_place = std::get<ChannelPlace>(source);
      forwarded = messages_.find_message(*ref_channel, *message_id);
      if (forwarded == nullptr || (forwarded->ephemeral_for && *forwarded->ephemeral_for != author_id)) {
        return unknown_message();
      }
      if (!content_readable(*forwarded, *forwarded_place, principal)) {
        return error_response(403, kCannotForwardUnreadable,
                              "You cannot forward a message whose content you cannot read.");
      }
      if (!forwardable_type(forwarded->type) || forwarded->activity) {
        errors.add({"message_reference"},
                   field_issue("MESSAGE_REFERENCE_UNSUPPORTED_TYPE", "Only basic messages can be forwarded"));
      }
      // A forward is the snapshot alone: the platform's client sends a comment as a message of its own.
      for (const char* alone : {"content", "embeds", "components", "attachments", "sticker_ids", "poll"}) {
        if (payload.HasMember(alone) && !payload[alone].IsNull()) {
          fields.add_issue(alone,
                           field_issue("MESSAGE_FORWARD_WITH_CONTENT", "A forward carries only the message"));
        }
      }
      if (!body.files.empty()) {
        errors.add({"files"},
                   field_issue("MESSAGE_FORWARD_WITH_CONTENT", "A forward carries only the message"));
      }
      if (!errors.empty()) return invalid_form_body(errors);
      reference = MessageReference{kMessageReferenceForward, forwarded->id, forwarded->channel_id,
                                   forwarded->guild_id};
    } else {
      if ((place.permissions & permission::kReadMessageHistory) == 0) return missing_permissions();
      if (ref_channel && *ref_channel != channel_id) {
        errors.add({"message_reference", "channel_id"},
                   field_issue("REPLIES_CANNOT_REFERENCE_OTHER_CHANNEL",
                               "A reply is in the channel of its message"));
        return invalid_form_body(errors);
      }
      const auto* replied = messages_.find_message(channel_id, *message_id);
      if (replied == nullptr && fail_if_not_exists) {
        errors.add({"message_reference"},
                   field_issue("MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"));
        return invalid_form_body(errors);
      }
      if (replied != nullptr) {
        reference = MessageReference{kMessageReferenceDefault, replied->id, channel_id, message.guild_id};
      }
    }
  }

  if (forwarded != nullptr) {
    rapidjson::Document source;
    const auto source_json = message_json(*forwarded, true);
    parse_stored_json(source_json, source);
    message.snapshots = snapshot_json(source);
    message.flags = message_flag::kHasSnapshot;
  } else {
    MessageFieldRules rules;
    rules.settable_flags = message_flag::kSettableOnCreate;
    rules.next_id = [this] { return snowflakes_.next_string(); };
    const std::string app_id = principal.application != nullptr ? principal.application->id : std::string();
    rules.check_components = [&](const Message& checked, FieldErrors& found) {
      if (component_checker_) component_checker_(app_id, checked, found);
    };
    std::optional<HttpResponse> refused;
    apply_message_fields(payload, body.files, false, rules, message, errors, refused);
    if (refused) return std::move(*refused);
    if (!errors.empty()) return invalid_form_body(errors);
    if (reference) message.type = kTypeReply;
  }
  message.reference = std::move(reference);
  if (auto blocked = automod_refusal(message)) return std::move(*blocked);
  message.id = snowflakes_.next_string();
  const auto& kept = post_app_message(std::move(message));
  if (kept.nonce) messages_.remember_nonce(kept, kNonceWindowMs);
  record_post(place, *principal.user);
  return HttpResponse::json(200, message_json(kept));
}

HttpResponse MessagingModule::api_get_channel_message(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  auto found = channel_place(context.params.at("channel_id"), *principal);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& place = std::get<ChannelPlace>(found);
  if ((place.permissions & permission::kReadMessageHistory) == 0) return missing_permissions();
  const auto* message =
      messages_.find_message(context.params.at("channel_id"), context.params.at("message_id"));
  if (message == nullptr || (message->ephemeral_for && *message->ephemeral_for != principal->user->id)) {
    return unknown_message();
  }
  return HttpResponse::json(200, message_json_for(*message, place, *principal));
}

HttpResponse MessagingModule::api_list_channel_messages(const RouteContext& context,
                                                        const Principal& principal,
                                                        const ChannelPlace& place) {
  const auto query = FormFields::parse(query_of(context.request));
  FieldErrors errors;
  std::int64_t limit = kMessageListLimitDefault;
  std::optional<std::string> anchor_name;
  std::string anchor;
  if (query) {
    if (const auto text = query->get("limit")) {
      const char* end = text->data() + text->size();
      if (std::from_chars(text->data(), end, limit).ptr != end) {
        errors.add({"limit"}, field_issue("NUMBER_TYPE_COERCE", "Value is not int."));
      } else if (limit < 1) {
        errors.add({"limit"},
                   field_issue("NUMBER_TYPE_MIN", "int value should be greater than or equal to 1."));
      } else if (limit > kMessageListLimitMax) {
        errors.add({"limit"},
                   field_issue("NUMBER_TYPE_MAX", "int value should be less than or equal to 100."));
      }
    }
    for (const char* name : {"before", "after", "around"}) {
      const auto value = query->get(name);
      if (!value) continue;
      std::uint64_t id = 0;
      if (std::from_chars(value->data(), value->data() + value->size(), id).ptr !=
          value->data() + value->size()) {
        errors.add({name}, field_issue("NUMBER_TYPE_COERCE", "Value is not snowflake."));
      } else if (anchor_name) {
        // The platform's docs: the three are mutually exclusive.
        errors.add({name}, field_issue("QUERY_PARAMS_EXCLUSIVE", "Only one of before, after and around"));
      }
      anchor_name = name;
      anchor = std::string(*value);
    }
  } else {
    errors.add({"_query"}, field_issue("QUERY_INVALID", "The query string is not valid."));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const auto& user_id = principal.user->id;
  std::vector<const Message*> visible;
  // Without READ_MESSAGE_HISTORY the route answers no messages (the platform's docs).
  if ((place.permissions & permission::kReadMessageHistory) != 0) {
    const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
    for (const auto* message : messages_.channel_messages(channel_id)) {
      if (message->ephemeral_for && *message->ephemeral_for != user_id) continue;
      visible.push_back(message);
    }
  }
  // Newest first; `before` and `after` exclude the anchor, `around` centres on it.
  std::vector<const Message*> page;
  const auto n = static_cast<std::size_t>(limit);
  if (!anchor_name) {
    for (auto it = visible.rbegin(); it != visible.rend() && page.size() < n; ++it)
      page.push_back(*it);
  } else if (*anchor_name == "before") {
    for (auto it = visible.rbegin(); it != visible.rend() && page.size() < n; ++it) {
      if (snowflake_less((*it)->id, anchor)) page.push_back(*it);
    }
  } else if (*anchor_name == "after") {
    std::vector<const Message*> newer;
    for (const auto* message : visible) {
      if (snowflake_less(anchor, message->id) && newer.size() < n) newer.push_back(message);
    }
    page.assign(newer.rbegin(), newer.rend());
  } else {
    const auto centre = std::find_if(visible.begin(), visible.end(),
                                     [&](const Message* m) { return !snowflake_less(m->id, anchor); });
    const auto index = static_cast<std::size_t>(centre - visible.begin());
    const std::size_t before = n / 2;
    const std::size_t first = index > before ? index - before : 0;
    const std::size_t last = std::min(visible.size(), first + n);
    for (std::size_t i = last; i > first; --i)
      page.push_back(visible[i - 1]);
  }
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* message : page) {
                                write_raw(writer, message_json_for(*message, place, principal),
                                          rapidjson::kObjectType);
                              }
                              writer.EndArray();
                            }));
}

HttpResponse MessagingModule::api_edit_channel_message(const RouteContext& context,
                                                       const Principal& principal,
                                                       const ChannelPlace& place) {
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  const auto* message = messages_.find_message(channel_id, context.params.at("message_id"));
  if (message == nullptr || (message->ephemeral_for && *message->ephemeral_for != principal.user->id)) {
    return unknown_message();
  }
  MessageBody body;
  if (auto error = read_message_body(context.request, body)) return std::move(*error);
  const auto& payload = body.payload;
  FieldErrors errors;
  Message edited = *message;
  const bool author = message->author_id == principal.user->id;
  MessageFieldRules rules;
  rules.next_id = [this] { return snowflakes_.next_string(); };
  if (author) {
    // The author edits content, embeds, components, attachments and these flags (others are kept).
    rules.settable_flags = message_flag::kSuppressEmbeds | message_flag::kIsComponentsV2;
    rules.kept_flags = ~rules.settable_flags;
    rules.ignore_unsettable_flags = true;
    const std::string app_id = principal.application != nullptr ? principal.application->id : std::string();
    rules.check_components = [&](const Message& checked, FieldErrors& found) {
      if (component_checker_) component_checker_(app_id, checked, found);
    };
    if (!body.files.empty() && (place.permissions & permission::kAttachFiles) == 0)
      return missing_permissions();
  } else {
    // Anyone else edits SUPPRESS_EMBEDS only, with MANAGE_MESSAGES (the platform's docs).
    const bool only_flags = std::all_of(payload.MemberBegin(), payload.MemberEnd(), [](const auto& member) {
      return std::string_view(member.name.GetString(), member.name.GetStringLength()) == "flags";
    });
    if ((place.permissions & permission::kManageMessages) == 0 || !only_flags || !body.files.empty()) {
      return error_response(403, messaging_protocol::message_error::kNotAuthor,
                            "Cannot edit a message authored by another user");
    }
    rules.settable_flags = message_flag::kSuppressEmbeds;
    rules.kept_flags = ~rules.settable_flags;
    rules.ignore_unsettable_flags = true;
  }
  std::optional<HttpResponse> refused;
  apply_message_fields(payload, body.files, true, rules, edited, errors, refused);
  if (refused) return std::move(*refused);
  if (!errors.empty()) return invalid_form_body(errors);
  if (author) edited.edited_ms = clock_.now_ms();
  if (author) {
    if (auto blocked = automod_refusal(edited)) return std::move(*blocked);
  }
  const auto& kept = update_app_message(std::move(edited));
  return HttpResponse::json(200, message_json_for(kept, place, principal));
}

HttpResponse MessagingModule::api_delete_channel_message(const RouteContext& context,
                                                         const Principal& principal,
                                                         const ChannelPlace& place) {
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  const auto& message_id = context.params.at("message_id");
  const auto* message = messages_.find_message(channel_id, message_id);
  if (message == nullptr || (message->ephemeral_for && *message->ephemeral_for != principal.user->id)) {
    return unknown_message();
  }
  if (message->author_id != principal.user->id) {
    if (place.dm != nullptr) {
      return error_response(403, kCannotExecuteInDm, "Cannot execute action on a DM channel");
    }
    if ((place.permissions & permission::kManageMessages) == 0) return missing_permissions();
  }
  // Deleting another's message is a moderator's action: the audit log has it (one's own is not logged).
  std::optional<AuditLogEntry> entry;
  if (message->author_id != principal.user->id && place.guild != nullptr) {
    entry.emplace();
    entry->action_type = audit_action::kMessageDelete;
    entry->target_id = message->author_id;
    entry->options = {{"channel_id", channel_id}, {"count", "1"}};
  }
  delete_app_message(channel_id, message_id);
  if (entry) guilds_.audit(*place.guild, context.request, principal.user->id, std::move(*entry));
  return HttpResponse::empty(204);
}

}  // namespace platformpp::emulator
