// MessageState: DM channels, kept messages in sending order per channel, the enforce_nonce windows, and their
// documents (core/state_changes.hpp): a DM channel with its participants; a message with what the wire hides
// (game_app_id, the nonce's JSON type). Every document carries "v", its format version.
#include "messaging/message_state.hpp"

#include <algorithm>

#include "core/document_json.hpp"
#include "core/snowflake.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;
using document::keys_of;

std::string nonce_key(std::string_view author_id, std::string_view nonce) {
  std::string key;
  key.reserve(author_id.size() + 1 + nonce.size());
  key.append(author_id).append(1, '\n').append(nonce);  // ids are digits: no two pairs share a key
  return key;
}

std::string message_json(const Message& message) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "channel_id", message.channel_id);
    document::write_member(writer, "author_id", message.author_id);
    document::write_member(writer, "content", message.content);
    document::write_member(writer, "timestamp_ms", message.timestamp_ms);
    document::write_member(writer, "edited_ms", message.edited_ms);
    document::write_member(writer, "application_id", message.application_id);
    if (message.activity) {
      writer.Key("activity");
      writer.StartObject();
      document::write_member(writer, "type", message.activity->type);
      document::write_member(writer, "party_id", message.activity->party_id);
      document::write_member(writer, "session_id", message.activity->session_id);
      writer.EndObject();
    }
    document::write_member(writer, "nonce", message.nonce);
    if (message.nonce_is_number) document::write_member(writer, "nonce_is_number", true);
    if (!message.metadata.empty()) document::write_member(writer, "metadata", message.metadata);
    if (!message.moderation_metadata.empty()) {
      document::write_member(writer, "moderation_metadata", message.moderation_metadata);
    }
    if (message.flags != 0) document::write_member(writer, "flags", message.flags);
    document::write_member(writer, "recipient_id", message.recipient_id);
    document::write_member(writer, "lobby_id", message.lobby_id);
    document::write_member(writer, "additional_name", message.additional_name);
    document::write_member(writer, "game_app_id", message.game_app_id);
    if (message.type != 0) document::write_member(writer, "type", message.type);
    document::write_member(writer, "guild_id", message.guild_id);
    document::write_member(writer, "webhook_id", message.webhook_id);
    if (message.embeds != "[]") document::write_member(writer, "embeds", message.embeds);
    if (message.components != "[]") document::write_member(writer, "components", message.components);
    if (!message.attachments.empty()) {
      writer.Key("attachments");
      writer.StartArray();
      for (const auto& attachment : message.attachments) {
        writer.StartObject();
        document::write_member(writer, "id", attachment.id);
        document::write_member(writer, "filename", attachment.filename);
        document::write_member(writer, "description", attachment.description);
        document::write_member(writer, "content_type", attachment.content_type);
        document::write_member(writer, "size", attachment.size);
        if (attachment.flags != 0) document::write_member(writer, "flags", attachment.flags);
        writer.EndObject();
      }
      writer.EndArray();
    }
    document::write_member(writer, "interaction_metadata", message.interaction_metadata);
    document::write_member(writer, "ephemeral_for", message.ephemeral_for);
    if (message.reference) {
      writer.Key("reference");
      writer.StartObject();
      document::write_member(writer, "type", message.reference->type);
      document::write_member(writer, "message_id", message.reference->message_id);
      document::write_member(writer, "channel_id", message.reference->channel_id);
      document::write_member(writer, "guild_id", message.reference->guild_id);
      writer.EndObject();
    }
    document::write_member(writer, "snapshots", message.snapshots);
    document::write_member(writer, "pinned_at_ms", message.pinned_at_ms);
  });
}

Message read_message(const std::string& id, const rapidjson::Value& body) {
  Message message;
  message.id = id;
  message.channel_id = document::string(body, "channel_id");
  message.author_id = document::string(body, "author_id");
  message.content = document::string(body, "content");
  message.timestamp_ms = document::integer(body, "timestamp_ms");
  message.edited_ms = document::optional_integer(body, "edited_ms");
  message.application_id = document::optional_string(body, "application_id");
  if (const auto it = body.FindMember("activity"); it != body.MemberEnd()) {
    const auto& activity = document::object(body, "activity");
    message.activity = MessageActivity{static_cast<int>(document::integer(activity, "type")),
                                       document::string(activity, "party_id"),
                                       document::optional_string(activity, "session_id")};
  }
  message.nonce = document::optional_string(body, "nonce");
  message.nonce_is_number = document::boolean_or(body, "nonce_is_number", false);
  message.metadata = document::string_map(body, "metadata");
  message.moderation_metadata = document::string_map(body, "moderation_metadata");
  message.flags = static_cast<int>(document::integer_or(body, "flags", 0));
  message.recipient_id = document::optional_string(body, "recipient_id");
  message.lobby_id = document::optional_string(body, "lobby_id");
  message.additional_name = document::optional_string(body, "additional_name");
  message.game_app_id = document::optional_string(body, "game_app_id");
  message.type = static_cast<int>(document::integer_or(body, "type", 0));
  message.guild_id = document::optional_string(body, "guild_id");
  message.webhook_id = document::optional_string(body, "webhook_id");
  message.embeds = document::optional_string(body, "embeds").value_or("[]");
  message.components = document::optional_string(body, "components").value_or("[]");
  if (const auto it = body.FindMember("attachments"); it != body.MemberEnd() && it->value.IsArray()) {
    for (const auto& item : it->value.GetArray()) {
      if (!item.IsObject()) continue;
      message.attachments.push_back(
          {document::string(item, "id"), document::string(item, "filename"),
           document::optional_string(item, "description"), document::optional_string(item, "content_type"),
           document::integer(item, "size"), static_cast<int>(document::integer_or(item, "flags", 0))});
    }
  }
  message.interaction_metadata = document::optional_string(body, "interaction_metadata");
  message.ephemeral_for = document::optional_string(body, "ephemeral_for");
  if (const auto it = body.FindMember("reference"); it != body.MemberEnd()) {
    const auto& reference = document::object(body, "reference");
    message.reference =
        MessageReference{static_cast<int>(document::integer_or(reference, "type", 0)),
                         document::string(reference, "message_id"), document::string(reference, "channel_id"),
                         document::optional_string(reference, "guild_id")};
  }
  message.snapshots = document::optional_string(body, "snapshots");
  message.pinned_at_ms = document::optional_integer(body, "pinned_at_ms");
  return message;
}

}  // namespace

void MessageState::touch(std::string_view kind, std::string_view id) {
  if (changes_ != nullptr) changes_->touch(kind, id);
}

const DmChannel* MessageState::find_dm_channel(std::string_view id) const {
  const auto it = dm_channels_.find(id);
  return it == dm_channels_.end() ? nullptr : &it->second;
}

const DmChannel* MessageState::find_dm_channel_between(std::string_view user_id,
                                                       std::string_view other_id) const {
  for (const auto& [id, channel] : dm_channels_) {
    const auto& r = channel.recipient_ids;
    if (r.size() == 2 && ((r[0] == user_id && r[1] == other_id) || (r[0] == other_id && r[1] == user_id)))
      return &channel;
  }
  return nullptr;
}

const DmChannel& MessageState::add_dm_channel(DmChannel channel) {
  touch(document_kind::kDmChannel, channel.id);
  auto id = channel.id;
  return dm_channels_.insert_or_assign(std::move(id), std::move(channel)).first->second;
}

std::vector<const DmChannel*> MessageState::dm_channels_of(std::string_view user_id) const {
  std::vector<const DmChannel*> result;
  for (const auto& [id, channel] : dm_channels_) {
    const auto& r = channel.recipient_ids;
    if (std::find(r.begin(), r.end(), user_id) != r.end()) result.push_back(&channel);
  }
  return result;
}

const Message& MessageState::add_message(Message message) {
  touch(document_kind::kMessage, message.id);
  auto id = message.id;
  auto& order = channel_message_ids_[message.channel_id];
  if (messages_.find(id) == messages_.end()) order.push_back(id);
  return messages_.insert_or_assign(std::move(id), std::move(message)).first->second;
}

const Message* MessageState::find_message(std::string_view channel_id, std::string_view message_id) const {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return nullptr;
  return &it->second;
}

Message* MessageState::find_message_mutable(std::string_view channel_id, std::string_view message_id) {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return nullptr;
  touch(document_kind::kMessage, message_id);  // the caller changes it
  keep_as_created(it->second);
  return &it->second;
}

bool MessageState::remove_message(std::string_view channel_id, std::string_view message_id) {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return false;
  touch(document_kind::kMessage, message_id);
  keep_as_created(it->second);
  messages_.erase(it);
  if (const auto order = channel_message_ids_.find(channel_id); order != channel_message_ids_.end()) {
    auto& ids = order->second;
    ids.erase(std::remove(ids.begin(), ids.end(), message_id), ids.end());
  }
  return true;
}

void MessageState::remove_channel_messages(std::string_view channel_id) {
  if (const auto window = nonce_messages_.find(channel_id); window != nonce_messages_.end())
    nonce_messages_.erase(window);
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return;
  for (const auto& id : order->second) {
    if (const auto it = messages_.find(id); it != messages_.end()) {
      touch(document_kind::kMessage, id);
      messages_.erase(it);
    }
  }
  channel_message_ids_.erase(order);
}

std::vector<const Message*> MessageState::channel_messages(std::string_view channel_id) const {
  std::vector<const Message*> result;
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return result;
  result.reserve(order->second.size());
  for (const auto& id : order->second) {
    if (const auto it = messages_.find(id); it != messages_.end()) result.push_back(&it->second);
  }
  return result;
}

void MessageState::prune_messages_before(std::string_view channel_id, std::int64_t cutoff_ms) {
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return;
  auto& ids = order->second;
  // Kept in sending order, so the old ones are at the front (unless the fake clock was set back).
  auto keep = ids.begin();
  while (keep != ids.end()) {
    const auto it = messages_.find(*keep);
    if (it != messages_.end() && it->second.timestamp_ms >= cutoff_ms) break;
    if (it != messages_.end()) {
      touch(document_kind::kMessage, it->first);
      messages_.erase(it);
    }
    ++keep;
  }
  ids.erase(ids.begin(), keep);
}

void MessageState::NonceWindow::forget_until(std::int64_t cutoff_ms) {
  while (!order.empty() && order.front().timestamp_ms <= cutoff_ms) {
    // A later message with the same author and nonce replaced this one in `latest`: that one stays.
    if (const auto it = latest.find(order.front().key);
        it != latest.end() && it->second.message_id == order.front().message_id)
      latest.erase(it);
    order.pop_front();
  }
}

void MessageState::rebuild_nonce_windows() {
  nonce_windows_stale_ = false;
  nonce_messages_.clear();
  for (const auto& [channel_id, ids] : channel_message_ids_) {
    for (const auto& id : ids) {  // sending order
      const auto it = messages_.find(id);
      if (it == messages_.end() || !it->second.nonce) continue;
      auto& window = nonce_messages_[channel_id];
      auto key = nonce_key(it->second.author_id, *it->second.nonce);
      window.order.push_back({it->second.timestamp_ms, key, id});
      window.latest.insert_or_assign(std::move(key), NonceWindow::Remembered{id, nullptr});
    }
  }
}

void MessageState::keep_as_created(const Message& message) {
  if (!message.nonce) return;
  if (nonce_windows_stale_) rebuild_nonce_windows();
  const auto window = nonce_messages_.find(message.channel_id);
  if (window == nonce_messages_.end()) return;
  const auto entry = window->second.latest.find(nonce_key(message.author_id, *message.nonce));
  if (entry == window->second.latest.end() || entry->second.message_id != message.id ||
      entry->second.as_created) {
    return;
  }
  entry->second.as_created = std::make_shared<const Message>(message);
}

void MessageState::remember_nonce(const Message& message, std::int64_t window_ms) {
  if (nonce_windows_stale_) rebuild_nonce_windows();
  auto& window = nonce_messages_[message.channel_id];
  window.forget_until(message.timestamp_ms - window_ms);
  auto key = nonce_key(message.author_id, message.nonce.value_or(""));
  window.order.push_back({message.timestamp_ms, key, message.id});
  const bool kept = find_message(message.channel_id, message.id) != nullptr;
  window.latest.insert_or_assign(
      std::move(key),
      NonceWindow::Remembered{message.id, kept ? nullptr : std::make_shared<const Message>(message)});
}

std::optional<Message> MessageState::find_by_nonce(std::string_view channel_id, std::string_view author_id,
                                                   std::string_view nonce, std::int64_t now_ms,
                                                   std::int64_t window_ms) {
  if (nonce_windows_stale_) rebuild_nonce_windows();
  const auto it = nonce_messages_.find(channel_id);
  if (it == nonce_messages_.end()) return std::nullopt;
  auto& window = it->second;
  window.forget_until(now_ms - window_ms);
  const auto entry = window.latest.find(nonce_key(author_id, nonce));
  if (entry == window.latest.end()) return std::nullopt;
  if (const auto* kept = find_message(channel_id, entry->second.message_id)) return *kept;
  if (entry->second.as_created) return *entry->second.as_created;
  return std::nullopt;  // not reached: a kept message leaves its copy when it goes (keep_as_created)
}

void MessageState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(DocumentKind{
      std::string(document_kind::kDmChannel),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto* channel = find_dm_channel(id);
        if (channel == nullptr) return std::nullopt;
        return document_json([&](JsonWriter& writer) {
          document::write_member(writer, "recipient_ids", channel->recipient_ids);
        });
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        dm_channels_.insert_or_assign(id, DmChannel{id, document::strings(body, "recipient_ids")});
      },
      [this] { return keys_of(dm_channels_); }, [this] { dm_channels_.clear(); }});
  changes.register_kind(
      DocumentKind{std::string(document_kind::kMessage),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto it = messages_.find(id);
                     return it == messages_.end() ? std::nullopt : std::optional(message_json(it->second));
                   },
                   [this](const std::string& id, const rapidjson::Value& body) {
                     check_format(body);
                     auto message = read_message(id, body);
                     auto& order = channel_message_ids_[message.channel_id];
                     if (messages_.find(id) == messages_.end()) {
                       // Sending order is id order: usually an append, as documents arrive sorted.
                       order.insert(std::upper_bound(order.begin(), order.end(), id, snowflake_less), id);
                     }
                     messages_.insert_or_assign(id, std::move(message));
                     nonce_windows_stale_ = true;
                   },
                   [this] { return keys_of(messages_); },
                   [this] {
                     messages_.clear();
                     channel_message_ids_.clear();
                     nonce_messages_.clear();
                     nonce_windows_stale_ = false;
                   }});
}

}  // namespace platformpp::emulator
