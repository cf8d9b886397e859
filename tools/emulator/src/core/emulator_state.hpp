// In-memory platform data seeded through the admin API and the OAuth2 routes: users, applications, their
// tokens, pending authorization codes, external identities (provisional accounts) and bans.
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

// The document kinds of EmulatorState (core/state_changes.hpp), and how composite ids are written.
namespace document_kind {
inline constexpr std::string_view kUser = "user";
inline constexpr std::string_view kApplication = "application";
inline constexpr std::string_view kGrant = "grant";  // id: the access token (the state file holds secrets)
inline constexpr std::string_view kCode = "authorization_code";
inline constexpr std::string_view kIdentity = "external_identity";    // id: "<app>:<type>:<external user>"
inline constexpr std::string_view kExternalToken = "external_token";  // id: "<type>:<token>"
inline constexpr std::string_view kDmChannel = "dm_channel";
inline constexpr std::string_view kMessage = "message";
inline constexpr std::string_view kCounters = "platform";  // consent, first user, provisional counter
inline constexpr std::string_view kCountersId = "counters";
}  // namespace document_kind

struct Ban {
  bool permanent = false;
};

// The guild tag a user shows beside their name (user.primary_guild).
struct PrimaryGuild {
  std::string identity_guild_id;
  std::string tag;  // 1 to 4 characters
  std::optional<std::string> badge;
};

struct User {
  std::string id;
  std::string username;
  std::optional<std::string> global_name;
  std::optional<std::string> avatar;  // avatar hash
  // The user's real subscription level; user objects show it only to approved apps (identify.premium).
  int premium_type = 0;
  std::optional<PrimaryGuild> primary_guild;
  bool spammer = false;  // admin flag: this user's friend requests arrive with is_spam_request
  bool bot = false;
  bool provisional = false;  // created for an external identity (partner-sdk token routes)
  bool restricted = false;   // provisional account made by a ban: no cross-platform use until it lifts
  std::optional<Ban> ban;
};

struct Application {
  std::string id;
  std::string name;
  std::string client_secret;
  std::string bot_token;
  std::string bot_user_id;
  std::optional<std::string> parent_id;
  std::vector<std::string>
      redirect_uris;                // besides loopback and "<scheme>:/authorize/callback", always allowed
  bool public_client_flows = true;  // PKCE with client_id and no secret, as Social SDK apps allow
  bool premium_approved = false;    // approved for the identify.premium scope (real premium_type)
  // The privileged Gateway intents enabled for its bot (all by default; the admin API turns them off): a bot
  // that asks for one that is off is closed with 4014. The application's flags show them (GATEWAY_*).
  bool intent_presences = true;        // GUILD_PRESENCES (1 << 8), flag GATEWAY_PRESENCE (1 << 12)
  bool intent_guild_members = true;    // GUILD_MEMBERS (1 << 1), flag GATEWAY_GUILD_MEMBERS (1 << 14)
  bool intent_message_content = true;  // MESSAGE_CONTENT (1 << 15), flag GATEWAY_MESSAGE_CONTENT (1 << 18)
  // Application flags set through the admin API besides the intent ones: any bit, those beyond 30 included
  // (the API shows every bit in `flags_new`, only bits 0..30 in `flags`).
  std::uint64_t extra_flags = 0;
  // The developer portal's Private Channel Obfuscation toggle (Bot tab): the application's sessions get the
  // channels they cannot view obfuscated before the platform's date, as Identify capability 1 << 15 does. The
  // platform calls both temporary and for testing.
  bool private_channel_obfuscation = false;

  // Every flag bit: the intent flags and the extra ones.
  [[nodiscard]] std::uint64_t flags() const {
    return (intent_presences ? std::uint64_t{1} << 12 : 0) |
           (intent_guild_members ? std::uint64_t{1} << 14 : 0) |
           (intent_message_content ? std::uint64_t{1} << 18 : 0) | extra_flags;
  }
  // `flags` as the API serializes it: never beyond 31 bits (the rest only in `flags_new`).
  [[nodiscard]] std::uint64_t flags_31_bits() const { return flags() & ((std::uint64_t{1} << 31) - 1); }
  // Its Ed25519 key pair (libsodium): the public key is the application's verify_key (hex), with which a game
  // server checks what the platform signs for it.
  std::string verify_key;
  std::string signing_secret_key;  // 64 bytes, raw
};

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
};

// An external account of a game (Steam, OIDC, the game's own backend...) as the platform knows it.
struct IdentityKey {
  std::string app_id;
  std::string type;              // an external_auth_type, e.g. "OIDC"
  std::string external_user_id;  // stable id of the external account

  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 misreads a defaulted operator<=> (no pointer here)
  friend auto operator<=>(const IdentityKey&, const IdentityKey&) = default;
};

struct ExternalIdentity {
  IdentityKey key;
  std::string user_id;  // the provisional account, or the platform user it is merged into
  bool merged = false;
  // Set while the identity's provisional account is restricted because its merged user was banned.
  std::optional<std::string> restricted_by_ban_of;
};

struct AccessGrant {
  std::string access_token;
  std::string refresh_token;  // empty when none was issued (client_credentials, most partner-sdk tokens)
  std::string user_id;
  std::string app_id;
  std::vector<std::string> scopes;
  std::int64_t expires_at_ms = 0;       // fake-clock epoch ms
  bool refresh_deprecated = false;      // OIDC partner-sdk tokens: the refresh grant is refused
  std::optional<IdentityKey> identity;  // set for tokens issued by the partner-sdk routes
};

struct AuthorizationCode {
  std::string code;
  std::string app_id;
  std::string user_id;
  std::string redirect_uri;
  std::vector<std::string> scopes;
  std::optional<std::string> code_challenge;  // S256
  std::int64_t expires_at_ms = 0;
  std::optional<std::string> guild_id;  // a guild install's: the guild the bot was added to
};

// What a module keeping data about users hears when one is removed, so that none of it points at a user that
// is gone. The social module's relationships implement it.
class UserRemovalListener {
 public:
  virtual ~UserRemovalListener() = default;
  // The user was removed (their grants revoked): forget what refers to them.
  virtual void user_removed(std::string_view user_id) = 0;
};

class EmulatorState {
 public:
  // Registers its document kinds and from then on names every document it changes.
  void register_documents(StateChanges& changes);

  const User& add_user(User user);
  [[nodiscard]] const User* find_user(std::string_view id) const;
  [[nodiscard]] User* find_user_mutable(std::string_view id);
  [[nodiscard]] bool username_taken(std::string_view username) const;
  // Removes the user and their grants; then each listener forgets what it keeps of them.
  void remove_user(std::string_view id);
  // `listener` hears of each user removed from now on.
  void add_user_removal_listener(UserRemovalListener& listener) { removal_listeners_.push_back(&listener); }
  // The first regular (non-bot, non-provisional) user created: the default consenting user.
  [[nodiscard]] const std::optional<std::string>& first_regular_user_id() const {
    return first_regular_user_;
  }
  // "provisional_<n>" with the next n no one has taken.
  std::string next_provisional_username();

  const Application& add_application(Application app);
  [[nodiscard]] const Application* find_application(std::string_view id) const;
  [[nodiscard]] const Application* find_application_by_bot_token(std::string_view token) const;

  const AccessGrant& add_grant(AccessGrant grant);
  [[nodiscard]] const AccessGrant* find_grant_by_access_token(std::string_view token) const;
  [[nodiscard]] const AccessGrant* find_grant_by_refresh_token(std::string_view token) const;
  // Revokes the grant owning this access or refresh token; false if none does.
  bool revoke_token(std::string_view token);
  // Revokes every grant of `user_id` (of one application if `app_id` is set); returns how many.
  std::size_t revoke_user_grants(std::string_view user_id, std::optional<std::string_view> app_id = {});
  // Whether the user holds a grant of the application (still authorizes it).
  [[nodiscard]] bool has_grant(std::string_view user_id, std::string_view app_id) const;
  // How many users hold a grant of the application (its approximate authorization count).
  [[nodiscard]] std::size_t authorized_user_count(std::string_view app_id) const;
  // How many users installed the application to their account: hold a grant with scope applications.commands
  // (its approximate user install count).
  [[nodiscard]] std::size_t user_install_count(std::string_view app_id) const;

  void add_code(AuthorizationCode code);
  // Removes and returns the code (codes are single use).
  std::optional<AuthorizationCode> take_code(std::string_view code);

  ExternalIdentity& upsert_identity(ExternalIdentity identity);
  [[nodiscard]] ExternalIdentity* find_identity(const IdentityKey& key);
  [[nodiscard]] std::vector<ExternalIdentity*> identities_of_user(std::string_view user_id);
  [[nodiscard]] std::vector<ExternalIdentity*> identities_restricted_by(std::string_view user_id);

  // (type, external token) -> external user id, so several tokens can name one external account.
  void map_external_token(std::string type, std::string token, std::string external_user_id);
  [[nodiscard]] std::string external_user_id_for(std::string_view type, std::string_view token) const;

  // Who consents at /oauth2/authorize; falls back to first_regular_user_id().
  struct Consent {
    std::optional<std::string> user_id;
    bool deny = false;
  };
  Consent consent;
  // Call after changing `consent`, so that it is kept.
  void consent_changed() { touch(document_kind::kCounters, document_kind::kCountersId); }

  [[nodiscard]] const User* find_user_by_username(std::string_view username) const;
  [[nodiscard]] Application* find_application_mutable(std::string_view id);

  // DM channels and messages.
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
  static std::string identity_id(const IdentityKey& key);
  static std::string external_token_id(std::string_view type, std::string_view token);

  StateChanges* changes_ = nullptr;
  std::vector<UserRemovalListener*> removal_listeners_;
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
  std::map<std::string, User, std::less<>> users_;
  std::optional<std::string> first_regular_user_;
  int provisional_counter_ = 0;
  std::map<std::string, Application, std::less<>> applications_;
  std::map<std::string, AccessGrant, std::less<>> grants_;                   // by access token
  std::map<std::string, std::string, std::less<>> access_by_refresh_token_;  // refresh -> access token
  std::map<std::string, AuthorizationCode, std::less<>> codes_;
  std::map<IdentityKey, ExternalIdentity> identities_;
  std::map<std::pair<std::string, std::string>, std::string> external_token_ids_;
};

}  // namespace platformpp::emulator
