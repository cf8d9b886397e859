// Client's lobby messages and DMs: the state comes from the MessageService (kept by the Gateway and the
// answers), sends go through its outbox (docs/social-protocol.md, "Lobbies and messages").
#include "client/client_core.hpp"
#include "messaging/message_service.hpp"

#include <platformpp/client.hpp>

#include <optional>
#include <string>
#include <utility>

namespace platformpp {

void Client::SendLobbyMessage(uint64_t lobbyId, const std::string& content,
                              SendUserMessageCallback callback) {
  SendLobbyMessageWithMetadata(lobbyId, content, {}, std::move(callback));
}

void Client::SendLobbyMessageWithMetadata(uint64_t lobbyId, const std::string& content,
                                          const Metadata& metadata, SendUserMessageCallback callback) {
  core_->Messages().SendLobbyMessage(lobbyId, content, metadata, std::move(callback));
}

void Client::SendUserMessage(uint64_t recipientId, const std::string& content,
                             SendUserMessageCallback callback) {
  SendUserMessageWithMetadata(recipientId, content, {}, std::move(callback));
}

void Client::SendUserMessageWithMetadata(uint64_t recipientId, const std::string& content,
                                         const Metadata& metadata, SendUserMessageCallback callback) {
  core_->Messages().SendUserMessage(recipientId, content, metadata, std::move(callback));
}

void Client::EditUserMessage(uint64_t recipientId, uint64_t messageId, const std::string& content,
                             EditUserMessageCallback callback) {
  core_->Messages().EditUserMessage(recipientId, messageId, content, std::move(callback));
}

void Client::DeleteUserMessage(uint64_t recipientId, uint64_t messageId, DeleteUserMessageCallback callback) {
  core_->Messages().DeleteUserMessage(recipientId, messageId, std::move(callback));
}

std::optional<MessageHandle> Client::GetMessageHandle(uint64_t messageId) const {
  return core_->Messages().Message(messageId);
}

std::optional<ChannelHandle> Client::GetChannelHandle(uint64_t channelId) const {
  return core_->Messages().Channel(channelId);
}

void Client::GetLobbyMessagesWithLimit(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback) {
  core_->Messages().GetLobbyMessages(lobbyId, limit, std::move(callback));
}

void Client::GetUserMessagesWithLimit(uint64_t recipientId, int32_t limit, GetMessagesCallback callback) {
  core_->Messages().GetUserMessages(recipientId, limit, std::move(callback));
}

void Client::GetUserMessageSummaries(UserMessageSummariesCallback callback) {
  core_->Messages().GetUserMessageSummaries(std::move(callback));
}

void Client::SetMessageCreatedCallback(MessageCreatedCallback callback) {
  core_->Messages().callbacks.created.Set(std::move(callback));
}

void Client::SetMessageUpdatedCallback(MessageUpdatedCallback callback) {
  core_->Messages().callbacks.updated.Set(std::move(callback));
}

void Client::SetMessageDeletedCallback(MessageDeletedCallback callback) {
  core_->Messages().callbacks.deleted.Set(std::move(callback));
}

void Client::SetShowingChat(bool showingChat) {
  core_->Messages().SetShowingChat(showingChat);
}

}  // namespace platformpp
