// The C ABI of lobby messages and DMs. Nothing may throw across this boundary, and nothing thrown may vanish
// (see c_support.hpp). Handles are snapshots: reading them allocates nothing.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <optional>
#include <string>
#include <vector>

using namespace platformpp::c_api;

struct platformpp_message_handle {
  platformpp::MessageHandle message;
  std::string content;
  std::optional<std::string> additionalName;
  MetadataView metadata, moderation;
  std::optional<platformpp_user_handle> author;

  explicit platformpp_message_handle(const platformpp::MessageHandle& m)
      : message(m),
        content(m.Content()),
        additionalName(m.AdditionalName()),
        metadata(m.Metadata()),
        moderation(m.ModerationMetadata()) {
    if (auto user = m.Author()) author = MakeUser(*user);
  }
};

struct platformpp_channel_handle {
  platformpp::ChannelHandle channel;
  std::string name;
  std::vector<uint64_t> recipients;

  explicit platformpp_channel_handle(const platformpp::ChannelHandle& c)
      : channel(c), name(c.Name()), recipients(c.Recipients()) {}
};

namespace {

const platformpp_string_pair* PairsOut(const MetadataView* view, size_t* count) {
  const bool any = view && !view->pairs.empty();
  if (count) *count = any ? view->pairs.size() : 0;
  return any ? view->pairs.data() : nullptr;
}

platformpp::Client::SendUserMessageCallback MessageIdResult(
    OperationPtr<platformpp_message_id_result_fn> op) {
  return [op = std::move(op)](platformpp::ClientResult result, uint64_t id) {
    auto done = op->Claim();
    if (!done) return;
    platformpp_client_result view{std::move(result)};
    done(&view, id, op->Data());
  };
}

platformpp::Client::GetMessagesCallback Messages(OperationPtr<platformpp_messages_fn> op) {
  return [op = std::move(op)](platformpp::ClientResult result,
                              const std::vector<platformpp::MessageHandle>& messages) {
    auto done = op->Claim();
    if (!done) return;
    std::vector<platformpp_message_handle> handles;
    std::vector<const platformpp_message_handle*> pointers;
    try {
      handles.reserve(messages.size());
      for (const auto& message : messages)
        handles.emplace_back(message);
      pointers.reserve(handles.size());
      for (const auto& handle : handles)
        pointers.push_back(&handle);
    } catch (...) {
      platformpp_client_result failed{op->Fail(std::current_exception())};
      return CallFailed(done, &failed, op->Data());
    }
    platformpp_client_result view{std::move(result)};
    done(&view, pointers.empty() ? nullptr : pointers.data(), pointers.size(), op->Data());
  };
}

template <class Fn, class Start>
void MessageOperation(platformpp_client* client, const char* entry, Fn callback, void* user_data,
                      platformpp_user_data_free_fn user_data_free, Start&& start) noexcept {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<Fn>& op) { start(op); });
}

}  // namespace

extern "C" {

void platformpp_client_send_lobby_message(platformpp_client* client, uint64_t lobby_id, const char* content,
                                          size_t content_size, const platformpp_string_pair* metadata,
                                          size_t metadata_count, platformpp_message_id_result_fn callback,
                                          void* user_data, platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    if (metadata)
      client->client.SendLobbyMessageWithMetadata(lobby_id, ToString(content, content_size),
                                                  ToMetadata(metadata, metadata_count), MessageIdResult(op));
    else
      client->client.SendLobbyMessage(lobby_id, ToString(content, content_size), MessageIdResult(op));
  });
}

void platformpp_client_send_user_message(platformpp_client* client, uint64_t recipient_id,
                                         const char* content, size_t content_size,
                                         const platformpp_string_pair* metadata, size_t metadata_count,
                                         platformpp_message_id_result_fn callback, void* user_data,
                                         platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    if (metadata)
      client->client.SendUserMessageWithMetadata(recipient_id, ToString(content, content_size),
                                                 ToMetadata(metadata, metadata_count), MessageIdResult(op));
    else
      client->client.SendUserMessage(recipient_id, ToString(content, content_size), MessageIdResult(op));
  });
}

void platformpp_client_edit_user_message(platformpp_client* client, uint64_t recipient_id,
                                         uint64_t message_id, const char* content, size_t content_size,
                                         platformpp_result_fn callback, void* user_data,
                                         platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    client->client.EditUserMessage(recipient_id, message_id, ToString(content, content_size), ResultOnly(op));
  });
}

void platformpp_client_delete_user_message(platformpp_client* client, uint64_t recipient_id,
                                           uint64_t message_id, platformpp_result_fn callback,
                                           void* user_data, platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    client->client.DeleteUserMessage(recipient_id, message_id, ResultOnly(op));
  });
}

platformpp_message_handle* platformpp_client_get_message_handle(const platformpp_client* client,
                                                                uint64_t message_id) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_message_handle*>(nullptr),
                   [&]() -> platformpp_message_handle* {
                     auto message = client->client.GetMessageHandle(message_id);
                     return message ? new platformpp_message_handle(*message) : nullptr;
                   });
}

platformpp_channel_handle* platformpp_client_get_channel_handle(const platformpp_client* client,
                                                                uint64_t channel_id) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_channel_handle*>(nullptr),
                   [&]() -> platformpp_channel_handle* {
                     auto channel = client->client.GetChannelHandle(channel_id);
                     return channel ? new platformpp_channel_handle(*channel) : nullptr;
                   });
}

void platformpp_client_get_lobby_messages_with_limit(platformpp_client* client, uint64_t lobby_id,
                                                     int32_t limit, platformpp_messages_fn callback,
                                                     void* user_data,
                                                     platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    client->client.GetLobbyMessagesWithLimit(lobby_id, limit, Messages(op));
  });
}

void platformpp_client_get_user_messages_with_limit(platformpp_client* client, uint64_t recipient_id,
                                                    int32_t limit, platformpp_messages_fn callback,
                                                    void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    client->client.GetUserMessagesWithLimit(recipient_id, limit, Messages(op));
  });
}

void platformpp_client_get_user_message_summaries(platformpp_client* client,
                                                  platformpp_user_message_summaries_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  MessageOperation(client, __func__, callback, user_data, user_data_free, [&](const auto& op) {
    client->client.GetUserMessageSummaries(
        [op](platformpp::ClientResult result, const std::vector<platformpp::UserMessageSummary>& summaries) {
          auto done = op->Claim();
          if (!done) return;
          std::vector<platformpp_user_message_summary> views;
          try {
            views.reserve(summaries.size());
          } catch (...) {
            platformpp_client_result failed{op->Fail(std::current_exception())};
            return CallFailed(done, &failed, op->Data());
          }
          for (const auto& summary : summaries)
            views.push_back(platformpp_user_message_summary{summary.UserId(), summary.LastMessageId()});
          platformpp_client_result view{std::move(result)};
          done(&view, views.empty() ? nullptr : views.data(), views.size(), op->Data());
        });
  });
}

void platformpp_client_set_message_created_callback(platformpp_client* client, platformpp_id_fn callback,
                                                    void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetMessageCreatedCallback(std::move(cb)); });
}

void platformpp_client_set_message_updated_callback(platformpp_client* client, platformpp_id_fn callback,
                                                    void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetMessageUpdatedCallback(std::move(cb)); });
}

void platformpp_client_set_message_deleted_callback(platformpp_client* client,
                                                    platformpp_message_deleted_fn callback, void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  RegisterEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](platformpp::Client::MessageDeletedCallback cb) {
        client->client.SetMessageDeletedCallback(std::move(cb));
      },
      [](auto fn, auto owned) {
        return
            [fn, owned](uint64_t messageId, uint64_t channelId) { fn(messageId, channelId, owned->Get()); };
      });
}

void platformpp_client_set_showing_chat(platformpp_client* client, int32_t showing_chat) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.SetShowingChat(showing_chat != 0); });
}

platformpp_message_handle* platformpp_message_handle_clone(const platformpp_message_handle* message) {
  if (!message) return nullptr;
  try {  // out of memory: NULL is the report; the copy builds its own metadata view
    return new platformpp_message_handle(message->message);
  } catch (...) {
    return nullptr;
  }
}

void platformpp_message_handle_destroy(platformpp_message_handle* message) {
  delete message;
}

uint64_t platformpp_message_handle_id(const platformpp_message_handle* message) {
  return message ? message->message.Id() : 0;
}

uint64_t platformpp_message_handle_author_id(const platformpp_message_handle* message) {
  return message ? message->message.AuthorId() : 0;
}

uint64_t platformpp_message_handle_channel_id(const platformpp_message_handle* message) {
  return message ? message->message.ChannelId() : 0;
}

uint64_t platformpp_message_handle_lobby_id(const platformpp_message_handle* message) {
  return message ? message->message.LobbyId().value_or(0) : 0;
}

uint64_t platformpp_message_handle_recipient_id(const platformpp_message_handle* message) {
  return message ? message->message.RecipientId() : 0;
}

const char* platformpp_message_handle_content(const platformpp_message_handle* message, size_t* size) {
  return message ? StringOut(message->content, size) : EmptyOut(size);
}

uint64_t platformpp_message_handle_sent_timestamp(const platformpp_message_handle* message) {
  return message ? message->message.SentTimestamp() : 0;
}

uint64_t platformpp_message_handle_edited_timestamp(const platformpp_message_handle* message) {
  return message ? message->message.EditedTimestamp() : 0;
}

const platformpp_string_pair* platformpp_message_handle_metadata(const platformpp_message_handle* message,
                                                                 size_t* count) {
  return PairsOut(message ? &message->metadata : nullptr, count);
}

const platformpp_string_pair* platformpp_message_handle_moderation_metadata(
    const platformpp_message_handle* message, size_t* count) {
  return PairsOut(message ? &message->moderation : nullptr, count);
}

const char* platformpp_message_handle_additional_name(const platformpp_message_handle* message,
                                                      size_t* size) {
  if (!message || !message->additionalName) {
    if (size) *size = 0;
    return nullptr;
  }
  return StringOut(*message->additionalName, size);
}

const platformpp_user_handle* platformpp_message_handle_author(const platformpp_message_handle* message) {
  return message && message->author ? &*message->author : nullptr;
}

void platformpp_channel_handle_destroy(platformpp_channel_handle* channel) {
  delete channel;
}

uint64_t platformpp_channel_handle_id(const platformpp_channel_handle* channel) {
  return channel ? channel->channel.Id() : 0;
}

platformpp_channel_type platformpp_channel_handle_type(const platformpp_channel_handle* channel) {
  return channel ? static_cast<platformpp_channel_type>(channel->channel.Type()) : PLATFORMPP_CHANNEL_TYPE_DM;
}

const char* platformpp_channel_handle_name(const platformpp_channel_handle* channel, size_t* size) {
  return channel ? StringOut(channel->name, size) : EmptyOut(size);
}

const uint64_t* platformpp_channel_handle_recipients(const platformpp_channel_handle* channel,
                                                     size_t* count) {
  const bool any = channel && !channel->recipients.empty();
  if (count) *count = any ? channel->recipients.size() : 0;
  return any ? channel->recipients.data() : nullptr;
}

}  // extern "C"
