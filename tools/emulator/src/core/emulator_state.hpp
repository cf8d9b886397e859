// In-memory platform data seeded through the admin API and the OAuth2 routes: users, applications, their
// tokens, pending authorization codes, external identities (provisional accounts) and bans.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
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
  // The interactions endpoint URL (admin PUT /_emulator/applications/{app}/interactions-endpoint, taken
  // once it answered the signed PING): interactions go there instead of the bot's Gateway session. With the
  // CA (PEM file) to trust for an https URL instead of the system's store.
  std::optional<std::string> interactions_endpoint_url;
  std::optional<std::string> interactions_endpoint_ca_file;
  // Its Ed25519 key pair (libsodium): the public key is the application's verify_key (hex), with which a game
  // server checks what the platform signs for it.
  std::string verify_key;
  std::string signing_secret_key;  // 64 bytes, raw
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
  // Whether the user installed the application to their account (a grant with applications.commands).
  [[nodiscard]] bool user_installed(std::string_view user_id, std::string_view app_id) const;

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

 private:
  void touch(std::string_view kind, std::string_view id);
  static std::string identity_id(const IdentityKey& key);
  static std::string external_token_id(std::string_view type, std::string_view token);

  StateChanges* changes_ = nullptr;
  std::vector<UserRemovalListener*> removal_listeners_;
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
