// Pins: Get Channel Pins (paginated by pin time: `before`, `limit` 1..50, {items: [{pinned_at, message}],
// has_more}), Pin Message and Unpin Message with PIN_MESSAGES, and the deprecated routes (GET, PUT, DELETE
// /channels/{id}/pins...), which still answer as they did. The seed's permission split: from 23 February 2026
// (fake clock) pinning needs PIN_MESSAGES; before it, MANAGE_MESSAGES still allowed it. At most 250 pins a
// channel (400, 30003). CHANNEL_PINS_UPDATE {guild_id?, channel_id, last_pin_timestamp} to those who see it.
#include <algorithm>
#include <charconv>
#include <utility>
#include <variant>
#include <vector>

#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "guild/permissions.hpp"
#include "messaging/messaging_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kMaximumPins = 30003;
constexpr std::size_t kPinsMax = 250;
constexpr std::int64_t kPinsLimitDefault = 50;
constexpr std::int64_t kPinsLimitMax = 50;

}  // namespace

void MessagingModule::register_pin_routes() {
  api_router_.add("GET", "/channels/{channel_id}/messages/pins", bind(&MessagingModule::api_get_pins));
  api_router_.add("PUT", "/channels/{channel_id}/messages/pins/{message_id}",
                  bind(&MessagingModule::api_pin));
  api_router_.add("DELETE", "/channels/{channel_id}/messages/pins/{message_id}",
                  bind(&MessagingModule::api_unpin));
  // The deprecated routes the new ones replace; they keep working.
  api_router_.add("GET", "/channels/{channel_id}/pins", bind(&MessagingModule::api_get_pins_deprecated));
  api_router_.add("PUT", "/channels/{channel_id}/pins/{message_id}", bind(&MessagingModule::api_pin));
  api_router_.add("DELETE", "/channels/{channel_id}/pins/{message_id}", bind(&MessagingModule::api_unpin));
}

std::vector<const Message*> MessagingModule::pinned_messages(std::string_view channel_id) const {
  std::vector<const Message*> pinned;
  for (const auto* message : messages_.channel_messages(channel_id)) {
    if (message->pinned_at_ms && !message->ephemeral_for) pinned.push_back(message);
  }
  // Newest pin first.
  std::sort(pinned.begin(), pinned.end(),
            [](const Message* a, const Message* b) { return *a->pinned_at_ms > *b->pinned_at_ms; });
  return pinned;
}

HttpResponse MessagingModule::set_pinned(const RouteContext& context, bool pinned) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  auto found = channel_place(context.params.at("channel_id"), *principal);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& place = std::get<ChannelPlace>(found);
  if (place.guild != nullptr) {
    const bool allowed =
        (place.permissions & permission::kPinMessages) != 0 ||
        (clock_.now_ms() < kPermissionSplitMs && (place.permissions & permission::kManageMessages) != 0);
    if (!allowed) return missing_permissions();
  }
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  auto* message = messages_.find_message_mutable(channel_id, context.params.at("message_id"));
  if (message == nullptr || message->ephemeral_for) return unknown_message();
  if (pinned == message->pinned_at_ms.has_value()) return HttpResponse::empty(204);
  if (pinned && pinned_messages(channel_id).size() >= kPinsMax) {
    return error_response(400, kMaximumPins, "Maximum number of pins reached (250)");
  }
  if (pinned) {
    message->pinned_at_ms = clock_.now_ms();
  } else {
    message->pinned_at_ms.reset();
  }
  const auto pins = pinned_messages(channel_id);
  const auto d = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    if (place.guild != nullptr) {
      writer.Key("guild_id");
      write_string(writer, place.guild->id);
    }
    writer.Key("channel_id");
    write_string(writer, channel_id);
    writer.Key("last_pin_timestamp");
    if (!pins.empty()) {
      write_string(writer, format_rfc3339_ms(*pins.front()->pinned_at_ms));
    } else {
      writer.Null();
    }
    writer.EndObject();
  });
  dispatch_channel_event(*message, "CHANNEL_PINS_UPDATE", d);
  if (place.guild != nullptr) {
    AuditLogEntry entry;
    entry.action_type = pinned ? audit_action::kMessagePin : audit_action::kMessageUnpin;
    entry.target_id = message->author_id;  // the platform's: the message's author
    entry.options = {{"channel_id", channel_id}, {"message_id", message->id}};
    guilds_.audit(*place.guild, context.request, principal->user->id, std::move(entry));
  }
  return HttpResponse::empty(204);
}

HttpResponse MessagingModule::api_pin(const RouteContext& context) {
  return set_pinned(context, true);
}

HttpResponse MessagingModule::api_unpin(const RouteContext& context) {
  return set_pinned(context, false);
}

HttpResponse MessagingModule::api_get_pins(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  auto found = channel_place(context.params.at("channel_id"), *principal);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& place = std::get<ChannelPlace>(found);
  const auto query = FormFields::parse(query_of(context.request));
  FieldErrors errors;
  std::int64_t limit = kPinsLimitDefault;
  std::optional<std::int64_t> before;
  if (query) {
    if (const auto text = query->get("limit")) {
      const char* end = text->data() + text->size();
      if (std::from_chars(text->data(), end, limit).ptr != end || limit < 1 || limit > kPinsLimitMax) {
        errors.add({"limit"}, {"NUMBER_TYPE_MAX", "int value should be between 1 and 50."});
      }
    }
    if (const auto text = query->get("before")) {
      before = parse_rfc3339(*text);
      if (!before) errors.add({"before"}, {"DATE_TIME_TYPE_PARSE", "Could not parse the timestamp."});
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  std::vector<const Message*> pins;
  // Without READ_MESSAGE_HISTORY: no pins (the platform's docs).
  if ((place.permissions & permission::kReadMessageHistory) != 0) {
    for (const auto* message : pinned_messages(channel_id)) {
      if (!before || *message->pinned_at_ms < *before) pins.push_back(message);
    }
  }
  const bool has_more = pins.size() > static_cast<std::size_t>(limit);
  if (has_more) pins.resize(static_cast<std::size_t>(limit));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("items");
                              writer.StartArray();
                              for (const auto* message : pins) {
                                writer.StartObject();
                                writer.Key("pinned_at");
                                write_string(writer, format_rfc3339_ms(*message->pinned_at_ms));
                                writer.Key("message");
                                write_raw(writer, message_json_for(*message, place, *principal),
                                          rapidjson::kObjectType);
                                writer.EndObject();
                              }
                              writer.EndArray();
                              writer.Key("has_more");
                              writer.Bool(has_more);
                              writer.EndObject();
                            }));
}

HttpResponse MessagingModule::api_get_pins_deprecated(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  auto found = channel_place(context.params.at("channel_id"), *principal);
  if (auto* error = std::get_if<HttpResponse>(&found)) return std::move(*error);
  const auto& place = std::get<ChannelPlace>(found);
  const std::string channel_id = place.dm != nullptr ? place.dm->id : place.channel->id;
  auto pins = (place.permissions & permission::kReadMessageHistory) != 0 ? pinned_messages(channel_id)
                                                                         : std::vector<const Message*>{};
  // The first 50, as the deprecated route always answered.
  if (pins.size() > static_cast<std::size_t>(kPinsLimitMax))
    pins.resize(static_cast<std::size_t>(kPinsLimitMax));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* message : pins)
                                write_raw(writer, message_json_for(*message, place, *principal),
                                          rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

}  // namespace platformpp::emulator
