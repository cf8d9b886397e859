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
  GuildText = 0,            ///< a guild text channel
  Dm = 1,                   ///< a direct message between two users
  GuildVoice = 2,           ///< a guild voice channel
  GroupDm = 3,              ///< a direct message between several users
  GuildCategory = 4,        ///< a guild category, which groups channels
  GuildNews = 5,            ///< a guild announcement channel
  GuildStore = 6,           ///< a guild store channel
  GuildNewsThread = 10,     ///< a thread of an announcement channel
  GuildPublicThread = 11,   ///< a public thread
  GuildPrivateThread = 12,  ///< a private thread
  GuildStageVoice = 13,     ///< a guild stage channel
  GuildDirectory = 14,      ///< a guild directory channel
  GuildForum = 15,          ///< a guild forum channel
  GuildMedia = 16,          ///< a guild media channel
  Lobby = 17,               ///< a lobby (a lobby is its own channel)
  /// A DM between players who are not friends but play the game together: delivered, not kept.
  EphemeralDm = 18,
};

/// What a message carries beyond its text, which a game may show as a placeholder.
enum class AdditionalContentType : int32_t {
  Other = 0,         ///< content of another kind
  Attachment = 1,    ///< file attachments
  Poll = 2,          ///< a poll
  VoiceMessage = 3,  ///< a voice message
  Thread = 4,        ///< a thread started from the message
  Embed = 5,         ///< embeds
  Sticker = 6,       ///< stickers
};

/// What a message carries beyond its text (MessageHandle::AdditionalContent), for a placeholder.
class AdditionalContent {
 public:
  /// The kind of content.
  AdditionalContentType Type() const { return type_; }
  /// A title of the content to show, if there is one.
  std::optional<std::string> Title() const { return title_; }
  /// How many items of that kind the message carries.
  uint8_t Count() const { return count_; }

  /// No content: Other, no title, a count of 0.
  AdditionalContent() = default;
  /// Content with these values.
  AdditionalContent(AdditionalContentType type, std::optional<std::string> title, uint8_t count)
      : type_(type), title_(std::move(title)), count_(count) {}

 private:
  AdditionalContentType type_ = AdditionalContentType::Other;
  std::optional<std::string> title_;
  uint8_t count_ = 0;
};

/// A DM channel or a lobby the Client knows (Client::GetChannelHandle), as a snapshot.
class ChannelHandle {
 public:
  /// The channel's id; for a lobby, the lobby's id.
  uint64_t Id() const { return id_; }
  /// The lobby's linked channel name for a lobby; the other player's display name for a DM.
  std::string Name() const { return name_; }
  /// The players of a DM (both); the members of a lobby.
  std::vector<uint64_t> Recipients() const { return recipients_; }
  /// Dm, EphemeralDm or Lobby.
  ChannelType Type() const { return type_; }

  /// An empty handle: id 0, no name or recipients, Dm.
  ChannelHandle() = default;
  /// A handle with these values; the SDK makes them.
  ChannelHandle(uint64_t id, std::string name, std::vector<uint64_t> recipients, ChannelType type)
      : id_(id), name_(std::move(name)), recipients_(std::move(recipients)), type_(type) {}

 private:
  uint64_t id_ = 0;
  std::string name_;
  std::vector<uint64_t> recipients_;
  ChannelType type_ = ChannelType::Dm;
};

/// One lobby message or DM the Client knows (Client::GetMessageHandle, GetMessagesCallback), as a snapshot.
class MessageHandle {
 public:
  /// The message's id.
  uint64_t Id() const { return data_.id; }
  /// The user who sent the message.
  uint64_t AuthorId() const { return data_.authorId; }
  /// The author as the Client knows them, else as the message carried them; empty when neither is known.
  std::optional<UserHandle> Author() const { return data_.author; }
  /// The DM channel or, for a lobby message, the lobby's id (a lobby is its own channel).
  uint64_t ChannelId() const { return data_.channelId; }
  /// The lobby of a lobby message.
  std::optional<uint64_t> LobbyId() const { return data_.lobbyId; }
  /// The other player of a DM (not the author); 0 for lobby messages.
  uint64_t RecipientId() const { return data_.recipientId; }
  /// The message's text (1 to 2000 characters when sent from this SDK).
  std::string Content() const { return data_.content; }
  /// The message's text as the platform stores it; the same as Content().
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
  /// What the message carries beyond its text; platformpp does not fill it yet, so it is always empty.
  std::optional<platformpp::AdditionalContent> AdditionalContent() const { return data_.additionalContent; }
  /// The application the message was sent from; empty when it was not sent from a game.
  std::optional<uint64_t> ApplicationId() const { return data_.applicationId; }
  /// Sent from inside a game (not from the desktop client).
  bool SentFromGame() const { return data_.applicationId.has_value(); }

  // Filled by the SDK.
  /// The values of a MessageHandle, which the SDK fills; each member is what the getter of the same name
  /// returns.
  struct Data {
    /// Id().
    uint64_t id = 0, authorId = 0, channelId = 0, recipientId = 0;
    /// @var authorId
    /// AuthorId().
    /// @var channelId
    /// ChannelId().
    /// @var recipientId
    /// RecipientId().
    std::optional<uint64_t> lobbyId;   ///< LobbyId()
    std::optional<UserHandle> author;  ///< Author()
    std::string content;               ///< Content() and RawContent()
    /// SentTimestamp().
    uint64_t sentTimestamp = 0, editedTimestamp = 0;
    /// @var editedTimestamp
    /// EditedTimestamp().

    /// Metadata().
    platformpp::Metadata metadata, moderationMetadata;
    /// @var moderationMetadata
    /// ModerationMetadata().
    std::optional<std::string> additionalName;                       ///< AdditionalName()
    std::optional<platformpp::AdditionalContent> additionalContent;  ///< AdditionalContent()
    std::optional<uint64_t> applicationId;                           ///< ApplicationId()
  };
  /// An empty handle: id 0, no content.
  MessageHandle() = default;
  /// A handle with the values of `data`; the SDK makes them.
  explicit MessageHandle(Data data) : data_(std::move(data)) {}

 private:
  Data data_;
};

/// The last DM exchanged with one player (GetUserMessageSummaries).
class UserMessageSummary {
 public:
  /// The other player of the conversation.
  uint64_t UserId() const { return userId_; }
  /// The id of the newest DM of the conversation.
  uint64_t LastMessageId() const { return lastMessageId_; }

  /// An empty summary: both ids 0.
  UserMessageSummary() = default;
  /// A summary with these values; the SDK makes them.
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
