#pragma once
// The messages a game's backend sends through the platform's HTTP API (interaction responses, follow-ups,
// and messages in guild text channels and DMs, replies and forwards among them): MessagePayload with its
// embeds, allowed mentions, files and message reference, checked against the platform's limits by
// CheckMessagePayload before anything leaves the process; and ChannelMessage, the message object the
// platform answers with, read leniently (unknown fields kept in `rawJson`).
//
// Not to be confused with platformpp/message.hpp: the Social SDK's chat messages of a game client.

#include <platformpp/client_result.hpp>
#include <platformpp/components.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// Message flags (`flags`), as the platform numbers them.
namespace message_flags {
/// Set by the platform on a message with a forwarded snapshot.
inline constexpr uint64_t HasSnapshot = uint64_t{1} << 14;
/// No embeds are shown for the message's links.
inline constexpr uint64_t SuppressEmbeds = uint64_t{1} << 2;
/// Only the user who triggered the interaction sees the message (interaction responses and follow-ups only).
inline constexpr uint64_t Ephemeral = uint64_t{1} << 6;
/// Set by the platform on a deferred response still "thinking".
inline constexpr uint64_t Loading = uint64_t{1} << 7;
/// The message triggers no push or desktop notification.
inline constexpr uint64_t SuppressNotifications = uint64_t{1} << 12;
/// A voice message: a single audio attachment, no content; such a message cannot be edited.
inline constexpr uint64_t IsVoiceMessage = uint64_t{1} << 13;
/// The message is made of components alone (Text Display, Container, ...): no `content`, no `embeds`; its
/// files show only through Media Gallery, Thumbnail or File components. Never removed once sent.
inline constexpr uint64_t IsComponentsV2 = uint64_t{1} << 15;
}  // namespace message_flags

/// Attachment flags (`flags` of an attachment object).
namespace attachment_flags {
/// The attachment is a clip from a stream.
inline constexpr uint64_t IsClip = uint64_t{1} << 0;
/// The attachment is a media channel thread's thumbnail.
inline constexpr uint64_t IsThumbnail = uint64_t{1} << 1;
/// The attachment is blurred until clicked (set by `is_spoiler` or the legacy `SPOILER_` file name prefix).
inline constexpr uint64_t IsSpoiler = uint64_t{1} << 3;
/// The attachment is an animated image.
inline constexpr uint64_t IsAnimated = uint64_t{1} << 5;
}  // namespace attachment_flags

/// One field of an embed.
struct EmbedField {
  /// 1 to 256 characters.
  std::string name;
  /// 1 to 1024 characters.
  std::string value;
  /// Shown beside the neighbouring inline fields.
  bool inlined = false;
};

/// An embed's footer.
struct EmbedFooter {
  /// 1 to 2048 characters.
  std::string text;
  /// An http(s) or attachment:// URL; empty: none.
  std::string iconUrl;
};

/// An embed's author line.
struct EmbedAuthor {
  /// 1 to 256 characters.
  std::string name;
  /// Where the name links to; empty: nowhere.
  std::string url;
  /// An http(s) or attachment:// URL; empty: none.
  std::string iconUrl;
};

/// A rich embed. Unset parts are not sent. The text of all the embeds of a message (titles, descriptions,
/// field names and values, footers, authors) is at most 6000 characters together.
struct Embed {
  /// At most 256 characters.
  std::optional<std::string> title;
  /// At most 4096 characters.
  std::optional<std::string> description;
  /// Where the title links to.
  std::optional<std::string> url;
  /// ISO 8601, shown in the footer.
  std::optional<std::string> timestamp;
  /// RGB, 0 to 0xFFFFFF.
  std::optional<uint32_t> color;
  /// The footer line.
  std::optional<EmbedFooter> footer;
  /// The large image (an http(s) or attachment:// URL).
  std::optional<std::string> imageUrl;
  /// The small image at the top right (an http(s) or attachment:// URL).
  std::optional<std::string> thumbnailUrl;
  /// The author line.
  std::optional<EmbedAuthor> author;
  /// At most 25.
  std::vector<EmbedField> fields;
  /// Received embeds only: the whole embed object as JSON text (video, provider, proxy URLs, ...).
  std::string rawJson;
};

/// Who the message may notify (`allowed_mentions`). Unset (MessagePayload::allowedMentions) lets the
/// platform notify whatever the content mentions.
struct AllowedMentions {
  /// Mention kinds to notify from the content: "roles", "users", "everyone". "users" (or "roles") here and a
  /// `users` (or `roles`) list together are refused.
  std::vector<std::string> parse;
  /// Roles to notify, at most 100.
  std::vector<uint64_t> roles;
  /// Users to notify, at most 100.
  std::vector<uint64_t> users;
  /// Replies: notify the author of the message replied to.
  bool repliedUser = false;
};

/// A file sent with the message: uploaded as `files[n]` of a multipart/form-data body.
struct FileUpload {
  /// The file name the platform shows (1 to 1024 bytes, no '/' or '\\' or control character); embeds and
  /// components refer to it as `attachment://<name>`.
  std::string name;
  /// The file's content.
  std::string bytes;
  /// Alt text, at most 1024 characters; empty: none.
  std::string description;
  /// Blurred until clicked: sent as `is_spoiler` and, for older readers, as the `SPOILER_` name prefix.
  bool spoiler = false;
  /// The part's Content-Type; empty: application/octet-stream.
  std::string contentType;
};

/// An attachment the message already has, to keep on an edit (those not listed are removed), with the fields
/// an edit may change.
struct KeptAttachment {
  /// The attachment's id.
  uint64_t id = 0;
  /// New alt text (at most 1024 characters); unset keeps it.
  std::optional<std::string> description;
  /// Mark it a spoiler or not; unset keeps it.
  std::optional<bool> spoiler;
};

/// The kind of a message reference (`message_reference.type`).
enum class MessageReferenceType : int32_t {
  Default = 0,  ///< A reply.
  Forward = 1,  ///< A forward: the message carries a snapshot of the referenced one.
};

/// What a message refers to (a reply's or a forward's source). Sending: a reply needs `messageId`; a forward
/// needs `messageId` and `channelId` (and the bot must be able to read the forwarded message's content).
struct MessageReference {
  /// Reply or forward (absent on the wire: Default).
  MessageReferenceType type = MessageReferenceType::Default;
  /// The referenced message.
  std::optional<uint64_t> messageId;
  /// Its channel.
  std::optional<uint64_t> channelId;
  /// Its guild.
  std::optional<uint64_t> guildId;
  /// Sending a reply: refuse it when the referenced message does not exist (the platform's default, true)
  /// instead of sending it as a plain message. Unset: not sent.
  std::optional<bool> failIfNotExists;
};

/// A message the backend sends, or the changes of an edit: unset fields are not sent (an edit keeps them).
/// Checked with CheckMessagePayload before it is sent.
struct MessagePayload {
  /// At most 2000 characters. Refused with IsComponentsV2.
  std::optional<std::string> content;
  /// Read aloud (text-to-speech).
  bool tts = false;
  /// At most 10. Refused with IsComponentsV2.
  std::optional<std::vector<Embed>> embeds;
  /// Who may be notified.
  std::optional<AllowedMentions> allowedMentions;
  /// message_flags bits: SuppressEmbeds, SuppressNotifications, IsVoiceMessage, IsComponentsV2, and Ephemeral
  /// for interaction responses and follow-ups (not channel messages). Other bits are refused.
  std::optional<uint64_t> flags;
  /// The message's components (checked with CheckComponents: action rows, or the v2 layout under
  /// IsComponentsV2).
  std::optional<std::vector<Component>> components;
  /// New files, at most 10 with the kept attachments.
  std::vector<FileUpload> files;
  /// Edits: the attachments to keep (unset keeps every one; empty removes every one).
  std::optional<std::vector<KeptAttachment>> keptAttachments;
  /// New channel messages only: at most 25 characters, echoed in the message (and its MESSAGE_CREATE) so
  /// the sender can recognise it.
  std::optional<std::string> nonce;
  /// New channel messages only, with `nonce`: a message sent again with the same nonce within a few minutes
  /// is not created twice (the platform answers the first one).
  bool enforceNonce = false;
  /// New channel messages only: makes the message a reply (Default) or a forward (Forward). A forward carries
  /// nothing else to show: no content, embeds, components or files.
  std::optional<MessageReference> messageReference;

  /// A message of `text` alone.
  static MessagePayload Text(std::string text) {
    MessagePayload payload;
    payload.content = std::move(text);
    return payload;
  }
  /// A forward of message `messageId` of channel `channelId`: the message reference alone.
  static MessagePayload Forward(uint64_t channelId, uint64_t messageId) {
    MessageReference reference;
    reference.type = MessageReferenceType::Forward;
    reference.messageId = messageId;
    reference.channelId = channelId;
    MessagePayload payload;
    payload.messageReference = reference;
    return payload;
  }
};

/// Whether the payload creates a message or edits one: an edit may be empty (it changes nothing), a new
/// message needs content, an embed, a component or a file, or is a forward.
enum class MessagePayloadUse : int32_t {
  Create = 0,  ///< A new message: something to show (or a forward's reference) is required.
  Edit = 1,    ///< Changes to a message: everything optional.
};

/// The largest file a webhook message or interaction response may carry by default (10 MiB, checked per
/// file); an interaction's `attachment_size_limit` may allow more (a boosted guild, the user's subscription).
inline constexpr uint64_t kDefaultAttachmentSizeLimit = uint64_t{10} * 1024 * 1024;

/// The platform's rules for a message (the content's, embeds', flags', mentions' and files' limits, and the
/// components' through CheckComponents): every broken rule at its path ("embeds.0.fields.3.value"); empty
/// when it may be sent. `interaction`: an interaction response or follow-up (where Ephemeral is allowed, and
/// `nonce`, `enforceNonce` and `messageReference` are not); otherwise a channel message (where those three
/// are allowed on Create only).
/// `maxFileBytes`: each file's size limit, when known (unset: the platform checks it).
std::vector<FieldError> CheckMessagePayload(const MessagePayload& payload, MessagePayloadUse use,
                                            bool interaction,
                                            std::optional<uint64_t> maxFileBytes = std::nullopt);

/// A user as messages and interactions carry it.
struct User {
  /// The user's id.
  uint64_t id = 0;
  /// `username`; empty when absent.
  std::string username;
  /// `global_name`, the display name; empty when the user has none.
  std::string globalName;
  /// `avatar` hash; empty when none.
  std::string avatar;
  /// An application's bot user.
  bool bot = false;
  /// The whole user object as JSON text, for the fields not read here.
  std::string rawJson;
};

/// An attachment of a message, or a file of an interaction's resolved data.
struct Attachment {
  /// The attachment's id.
  uint64_t id = 0;
  /// The file's name.
  std::string filename;
  /// Alt text; empty when none.
  std::string description;
  /// The media type, e.g. "image/png"; empty when unknown.
  std::string contentType;
  /// Size in bytes.
  uint64_t size = 0;
  /// Where to download it.
  std::string url;
  /// The proxied URL.
  std::string proxyUrl;
  /// Images and videos: their height and width in pixels.
  std::optional<int32_t> height;
  /// See `height`.
  std::optional<int32_t> width;
  /// attachment_flags bits, e.g. IsSpoiler.
  uint64_t flags = 0;
  /// An ephemeral attachment (of an ephemeral message or an interaction's upload).
  bool ephemeral = false;
  /// The whole attachment object as JSON text.
  std::string rawJson;

  /// Whether it is blurred until clicked (IsSpoiler).
  bool Spoiler() const noexcept { return (flags & attachment_flags::IsSpoiler) != 0; }
};

/// What a message answers: `interaction_metadata` (not the deprecated `interaction`).
struct MessageInteractionMetadata {
  /// The interaction's id.
  uint64_t id = 0;
  /// Its InteractionType number.
  int32_t type = 0;
  /// Who triggered it (a user object: the platform sends no `user_id`).
  User user;
  /// The command's name, for command interactions; empty otherwise.
  std::string name;
  /// Component interactions: the message the component was on.
  std::optional<uint64_t> interactedMessageId;
  /// Follow-ups: the original response's id.
  std::optional<uint64_t> originalResponseMessageId;
  /// The whole object as JSON text (authorizing_integration_owners, target_user, triggering metadata, ...).
  std::string rawJson;
};

/// A forwarded message's copy (`message_snapshots[n].message`): a subset of the message's fields, without its
/// guild fields (no member, no mentions of roles).
struct MessageSnapshot {
  /// The copied message's type number.
  int32_t type = 0;
  /// The copied text.
  std::string content;
  /// The copied embeds.
  std::vector<Embed> embeds;
  /// The copied attachments.
  std::vector<Attachment> attachments;
  /// The copied message's creation time (ISO 8601).
  std::string timestamp;
  /// When it was last edited; unset when never.
  std::optional<std::string> editedTimestamp;
  /// The copied message's flags.
  uint64_t flags = 0;
  /// The copied components, as the components parser reads them (unknown types kept).
  std::vector<Component> components;
  /// The snapshot's `message` object as JSON text.
  std::string rawJson;
};

/// A message as the platform answers it (a response, a follow-up, a channel message).
struct ChannelMessage {
  /// The message's id.
  uint64_t id = 0;
  /// The channel it is in.
  uint64_t channelId = 0;
  /// Who sent it (the application's bot user, for responses).
  User author;
  /// Its text; empty when none (or when the bot may not read content).
  std::string content;
  /// When it was sent (ISO 8601).
  std::string timestamp;
  /// When it was last edited; unset when never.
  std::optional<std::string> editedTimestamp;
  /// message_flags bits.
  uint64_t flags = 0;
  /// Its message type number (0 default, 19 reply, 20 chat input command, 23 context menu command, ...).
  int32_t type = 0;
  /// Read aloud.
  bool tts = false;
  /// Its files.
  std::vector<Attachment> attachments;
  /// Its embeds.
  std::vector<Embed> embeds;
  /// Its components, as the components parser reads them (unknown types kept).
  std::vector<Component> components;
  /// The application of an interaction response or a webhook message; unset otherwise.
  std::optional<uint64_t> applicationId;
  /// The webhook it was sent by (the application's id, for interaction responses and follow-ups).
  std::optional<uint64_t> webhookId;
  /// For a response to an interaction: the interaction.
  std::optional<MessageInteractionMetadata> interactionMetadata;
  /// A reply's or a forward's reference.
  std::optional<MessageReference> messageReference;
  /// A forward's copies of the forwarded message (one, today).
  std::vector<MessageSnapshot> messageSnapshots;
  /// The nonce the sender gave it, as text (the platform may send it as a number); unset when none.
  std::optional<std::string> nonce;
  /// The whole message object as JSON text, for the fields not read here.
  std::string rawJson;
};

/// Reads a message object; nullopt when `json` is not an object with an `id`. Never throws.
std::optional<ChannelMessage> ParseChannelMessage(std::string_view json);

}  // namespace platformpp::backend
