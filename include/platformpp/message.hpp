#pragma once
// Messages and channels as the Client keeps them: lobby messages and direct messages (DMs) between players,
// from the realtime connection and from history requests. The Client keeps the 25 newest messages of each
// channel in memory; GetMessageHandle finds those (and the ones a history request returned, until they
// fall out of that window). Handles are snapshots. Names and numeric values match the platform's own
// Social SDK.
//
// MessageCreated comes once per message id, whichever of the realtime connection, the answer to the
// player's own send, or a history request brings it first. When a new realtime session starts after one
// that could not be resumed, the Client fetches the history of the channels it had seen messages in and
// announces what it missed, oldest first. A history request itself announces only messages newer than the
// newest one the channel announced.

#include <platformpp/client_result.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/social.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

/// The platform's channel types that messaging meets.
enum class ChannelType : int32_t {
  GuildText = 0,
  Dm = 1,
  GuildVoice = 2,
  GroupDm = 3,
  GuildCategory = 4,
  GuildNews = 5,
  GuildStore = 6,
  GuildNewsThread = 10,
  GuildPublicThread = 11,
  GuildPrivateThread = 12,
  GuildStageVoice = 13,
  GuildDirectory = 14,
  GuildForum = 15,
  GuildMedia = 16,
  Lobby = 17,
  /// A DM between players who are not friends but play the game together: delivered, not kept.
  EphemeralDm = 18,
};

/// What a message carries beyond its text, which a game may show as a placeholder.
enum class AdditionalContentType : int32_t {
  Other = 0,
  Attachment = 1,
  Poll = 2,
  VoiceMessage = 3,
  Thread = 4,
  Embed = 5,
  Sticker = 6,
};

class AdditionalContent {
 public:
  AdditionalContentType Type() const { return type_; }
  std::optional<std::string> Title() const { return title_; }
  uint8_t Count() const { return count_; }

  AdditionalContent() = default;
  AdditionalContent(AdditionalContentType type, std::optional<std::string> title, uint8_t count)
      : type_(type), title_(std::move(title)), count_(count) {}

 private:
  AdditionalContentType type_ = AdditionalContentType::Other;
  std::optional<std::string> title_;
  uint8_t count_ = 0;
};

class ChannelHandle {
 public:
  uint64_t Id() const { return id_; }
  /// The lobby's linked channel name for a lobby; the other player's display name for a DM.
  std::string Name() const { return name_; }
  /// The players of a DM (both); the members of a lobby.
  std::vector<uint64_t> Recipients() const { return recipients_; }
  ChannelType Type() const { return type_; }

  ChannelHandle() = default;
  ChannelHandle(uint64_t id, std::string name, std::vector<uint64_t> recipients, ChannelType type)
      : id_(id), name_(std::move(name)), recipients_(std::move(recipients)), type_(type) {}

 private:
  uint64_t id_ = 0;
  std::string name_;
  std::vector<uint64_t> recipients_;
  ChannelType type_ = ChannelType::Dm;
};

class MessageHandle {
 public:
  uint64_t Id() const { return data_.id; }
  uint64_t AuthorId() const { return data_.authorId; }
  std::optional<UserHandle> Author() const { return data_.author; }
  /// The DM channel or, for a lobby message, the lobby's id (a lobby is its own channel).
  uint64_t ChannelId() const { return data_.channelId; }
  /// The lobby of a lobby message.
  std::optional<uint64_t> LobbyId() const { return data_.lobbyId; }
  /// The other player of a DM (not the author); 0 for lobby messages.
  uint64_t RecipientId() const { return data_.recipientId; }
  std::string Content() const { return data_.content; }
  std::string RawContent() const { return data_.content; }
  /// Milliseconds since the Unix epoch.
  uint64_t SentTimestamp() const { return data_.sentTimestamp; }
  /// 0 unless the message was edited.
  uint64_t EditedTimestamp() const { return data_.editedTimestamp; }
  /// The game's own pairs, sent with ...WithMetadata.
  platformpp::Metadata Metadata() const { return data_.metadata; }
  /// Pairs the game's backend attached for moderation; scoped to the application and cleared when the
  /// message is edited.
  platformpp::Metadata ModerationMetadata() const { return data_.moderationMetadata; }
  /// The author's additional display name in the lobby (e.g. a character name), which only the game's
  /// backend sets (when it adds or updates the member).
  std::optional<std::string> AdditionalName() const { return data_.additionalName; }
  std::optional<platformpp::AdditionalContent> AdditionalContent() const { return data_.additionalContent; }
  std::optional<uint64_t> ApplicationId() const { return data_.applicationId; }
  /// Sent from inside a game (not from the desktop client).
  bool SentFromGame() const { return data_.applicationId.has_value(); }

  // Filled by the SDK.
  struct Data {
    uint64_t id = 0, authorId = 0, channelId = 0, recipientId = 0;
    std::optional<uint64_t> lobbyId;
    std::optional<UserHandle> author;
    std::string content;
    uint64_t sentTimestamp = 0, editedTimestamp = 0;
    platformpp::Metadata metadata, moderationMetadata;
    std::optional<std::string> additionalName;
    std::optional<platformpp::AdditionalContent> additionalContent;
    std::optional<uint64_t> applicationId;
  };
  MessageHandle() = default;
  explicit MessageHandle(Data data) : data_(std::move(data)) {}

 private:
  Data data_;
};

/// The last DM exchanged with one player (GetUserMessageSummaries).
class UserMessageSummary {
 public:
  uint64_t UserId() const { return userId_; }
  uint64_t LastMessageId() const { return lastMessageId_; }

  UserMessageSummary() = default;
  UserMessageSummary(uint64_t userId, uint64_t lastMessageId)
      : userId_(userId), lastMessageId_(lastMessageId) {}

 private:
  uint64_t userId_ = 0, lastMessageId_ = 0;
};

// The callbacks of Client's messaging calls (also reachable as Client::<name>), inside RunCallbacks.

/// Client::SendLobbyMessage and SendUserMessage (and their WithMetadata forms): the message's id.
using SendUserMessageCallback = std::function<void(ClientResult result, uint64_t messageId)>;
/// Client::EditUserMessage.
using EditUserMessageCallback = std::function<void(ClientResult result)>;
/// Client::DeleteUserMessage.
using DeleteUserMessageCallback = std::function<void(ClientResult result)>;
/// Client::GetLobbyMessagesWithLimit and GetUserMessagesWithLimit: the messages, oldest first.
using GetMessagesCallback = std::function<void(ClientResult result, std::vector<MessageHandle> messages)>;
/// Client::GetUserMessageSummaries: the last DM of each conversation.
using UserMessageSummariesCallback =
    std::function<void(ClientResult result, std::vector<UserMessageSummary> summaries)>;
/// A message arrived (Client::GetMessageHandle has it).
using MessageCreatedCallback = std::function<void(uint64_t messageId)>;
/// A message the Client knows was edited.
using MessageUpdatedCallback = std::function<void(uint64_t messageId)>;
/// A message was deleted from `channelId`.
using MessageDeletedCallback = std::function<void(uint64_t messageId, uint64_t channelId)>;

}  // namespace platformpp
