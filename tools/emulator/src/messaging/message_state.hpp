// DM channels and the messages of DM channels and lobbies (a lobby is its own channel: channel_id == lobby
// id), with the enforce_nonce window that hands a retry its earlier message. Plain data; the rules live in
// MessagingModule (messaging_module.hpp). Kept as documents (core/state_changes.hpp, message_state.cpp): each
// DM channel and each kept message; the nonce windows are not (they are rebuilt from the messages).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace platformpp::emulator {

class StateChanges;

// The document kinds of MessageState (core/state_changes.hpp).
namespace document_kind {
inline constexpr std::string_view kDmChannel = "dm_channel";
inline constexpr std::string_view kMessage = "message";
}  // namespace document_kind

// A DM channel between two users (POST /users/@me/channels).
struct DmChannel {
  std::string id;
  std::vector<std::string> recipient_ids;  // both participants
};

// An activity invite's payload (message.activity).
struct MessageActivity {
  int type = 1;  // 1 join, 5 join request
  std::string party_id;
  std::optional<std::string> session_id;
};

inline constexpr int kMessageFlagEphemeral = 1 << 6;
// LOADING: a deferred interaction response's placeholder, until its first edit.
inline constexpr int kMessageFlagLoading = 1 << 7;
// Attachment flag IS_SPOILER (the platform's bit 3); a `SPOILER_` file name prefix marks one too.
inline constexpr int kAttachmentFlagIsSpoiler = 1 << 3;

// A file attached to a message. The emulator keeps what the message object shows (and serves no bytes).
struct MessageAttachment {
  std::string id;
  std::string filename;
  std::optional<std::string> description;
  std::optional<std::string> content_type;
  std::int64_t size = 0;
  int flags = 0;  // IS_SPOILER
};
// A message's message_reference: a reply (DEFAULT = 0) or a forward (FORWARD = 1), to the message it names.
inline constexpr int kMessageReferenceDefault = 0;
inline constexpr int kMessageReferenceForward = 1;
struct MessageReference {
  int type = 0;
  std::string message_id;
  std::string channel_id;
  std::optional<std::string> guild_id;
};

// enforce_nonce: a message of the same author with the same nonce sent less than this long ago (fake clock)
// is returned instead of creating another.
inline constexpr std::int64_t kNonceWindowMs = 5LL * 60 * 1000;

// A DM or lobby message (a lobby is its own channel: channel_id == lobby id).
struct Message {
  std::string id;
  std::string channel_id;
  std::string author_id;
  std::string content;
  std::int64_t timestamp_ms = 0;  // fake clock
  std::optional<std::int64_t> edited_ms;
  std::optional<std::string> application_id;
  std::optional<MessageActivity> activity;
  std::optional<std::string> nonce;
  bool nonce_is_number = false;  // echoed as the JSON type it was sent as
  std::map<std::string, std::string> metadata;
  std::map<std::string, std::string> moderation_metadata;  // set by the game's backend; cleared by edits
  int flags = 0;
  std::optional<std::string> recipient_id;     // DMs: the participant who is not the author
  std::optional<std::string> lobby_id;         // lobby messages
  std::optional<std::string> additional_name;  // lobby messages: the author member's, at send time
  // DMs sent with a user's token of an application (its Social SDK session): that game's server hears of
  // them, their edits and deletion (GAME_DIRECT_MESSAGE_* webhook events).
  std::optional<std::string> game_app_id;

  // The full message object's parts (guild channels, interaction responses; interactions/).
  int type = 0;                           // 0 DEFAULT, 20 CHAT_INPUT_COMMAND, 23 CONTEXT_MENU_COMMAND
  std::optional<std::string> guild_id;    // a guild channel's message
  std::optional<std::string> webhook_id;  // interaction responses and follow-ups: the application's id
  std::string embeds = "[]";              // JSON array text, as checked
  std::string components = "[]";          // JSON array text, as checked
  std::vector<MessageAttachment> attachments;
  std::optional<std::string> interaction_metadata;  // JSON object text
  // An ephemeral interaction response: the one user who sees it (it is in no channel's history).
  std::optional<std::string> ephemeral_for;
  std::optional<MessageReference> reference;  // a reply's or a forward's
  // A forward's message_snapshots, JSON array text: taken when it was made, never changed after.
  std::optional<std::string> snapshots;
  std::optional<std::int64_t> pinned_at_ms;  // fake clock; set while pinned
};

class MessageState {
 public:
  // Registers its document kinds and from then on names every document it changes.
  void register_documents(StateChanges& changes);

  // DM channels.
  [[nodiscard]] const DmChannel* find_dm_channel(std::string_view id) const;
  [[nodiscard]] const DmChannel* find_dm_channel_between(std::string_view user_id,
                                                         std::string_view other_id) const;
  [[nodiscard]] std::vector<const DmChannel*> dm_channels_of(std::string_view user_id) const;
  const DmChannel& add_dm_channel(DmChannel channel);
  // Kept messages of DM channels and lobbies, in the order they were sent in each channel.
  const Message& add_message(Message message);
  [[nodiscard]] const Message* find_message(std::string_view channel_id, std::string_view message_id) const;
  [[nodiscard]] Message* find_message_mutable(std::string_view channel_id, std::string_view message_id);
  bool remove_message(std::string_view channel_id, std::string_view message_id);
  // Every message of the channel, and its nonce window (a deleted lobby's history: nobody can read it again).
  void remove_channel_messages(std::string_view channel_id);
  // The channel's kept messages, oldest first.
  [[nodiscard]] std::vector<const Message*> channel_messages(std::string_view channel_id) const;
  // Forgets the kept messages sent before `cutoff_ms` (fake clock) in the channel.
  void prune_messages_before(std::string_view channel_id, std::int64_t cutoff_ms);

  // enforce_nonce: what a message created with a nonce looked like (ephemeral ones too, which are not kept),
  // so that a retry with the same nonce gets it back. Entries `window_ms` older than it are forgotten. Call
  // it after add_message for a kept message (its copy is then made only if it changes or goes).
  void remember_nonce(const Message& message, std::int64_t window_ms);
  // The earlier message of this author with this nonce in the channel, sent less than `window_ms` before
  // `now_ms`: its kept version if it still exists, else the message as it was created.
  [[nodiscard]] std::optional<Message> find_by_nonce(std::string_view channel_id, std::string_view author_id,
                                                     std::string_view nonce, std::int64_t now_ms,
                                                     std::int64_t window_ms);

 private:
  void touch(std::string_view kind, std::string_view id);

  StateChanges* changes_ = nullptr;
  std::map<std::string, DmChannel, std::less<>> dm_channels_;
  std::map<std::string, Message, std::less<>> messages_;                              // by message id
  std::map<std::string, std::vector<std::string>, std::less<>> channel_message_ids_;  // oldest first
  // enforce_nonce, per channel: what was remembered in the window, oldest first, and the latest message of
  // each (author, nonce), so that a send looks its nonce up instead of scanning the window (under load,
  // every message of the last 5 minutes).
  struct NonceWindow {
    struct Entry {
      std::int64_t timestamp_ms = 0;
      std::string key;  // nonce_key(author id, nonce)
      std::string message_id;
    };
    // What a retry gets: the kept message with this id, or its copy as created (an ephemeral message, or a
    // kept one since changed or deleted). The copy is made only then: most messages are neither, and a copy
    // of each message of the last 5 minutes was half the emulator's memory per message under load.
    struct Remembered {
      std::string message_id;
      std::shared_ptr<const Message> as_created;
    };
    std::deque<Entry> order;
    std::unordered_map<std::string, Remembered> latest;  // by key
    // Forgets the entries sent at or before `cutoff_ms`.
    void forget_until(std::int64_t cutoff_ms);
  };
  std::map<std::string, NonceWindow, std::less<>> nonce_messages_;  // by channel
  // Messages were loaded from the state file: the windows are rebuilt from them before their next use (a
  // client's retry across a restart must not post twice).
  bool nonce_windows_stale_ = false;
  void rebuild_nonce_windows();
  // Before a kept message changes or goes: the copy its nonce window hands a retry (NonceWindow::Remembered).
  void keep_as_created(const Message& message);
};

}  // namespace platformpp::emulator
