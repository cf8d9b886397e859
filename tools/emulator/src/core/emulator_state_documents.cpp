// EmulatorState as documents (core/state_changes.hpp): each entity's persisted form, with what the wire
// hides (secrets, tokens, flags), and how it is read back. Every document carries "v", its format version,
// so that a later emulator can read an older one forward.
#include <sodium.h>

#include <stdexcept>

#include "core/document_json.hpp"
#include "core/emulator_state.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;
using document::keys_of;
using document::split_id;

void write_identity_key(JsonWriter& writer, const IdentityKey& key) {
  document::write_member(writer, "app_id", key.app_id);
  document::write_member(writer, "type", key.type);
  document::write_member(writer, "external_user_id", key.external_user_id);
}

IdentityKey read_identity_key(const rapidjson::Value& value) {
  return IdentityKey{document::string(value, "app_id"), document::string(value, "type"),
                     document::string(value, "external_user_id")};
}

std::string user_document(const User& user) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "username", user.username);
    document::write_member(writer, "global_name", user.global_name);
    document::write_member(writer, "avatar", user.avatar);
    document::write_member(writer, "premium_type", user.premium_type);
    if (user.primary_guild) {
      writer.Key("primary_guild");
      writer.StartObject();
      document::write_member(writer, "identity_guild_id", user.primary_guild->identity_guild_id);
      document::write_member(writer, "tag", user.primary_guild->tag);
      document::write_member(writer, "badge", user.primary_guild->badge);
      writer.EndObject();
    }
    document::write_member(writer, "spammer", user.spammer);
    document::write_member(writer, "bot", user.bot);
    document::write_member(writer, "provisional", user.provisional);
    document::write_member(writer, "restricted", user.restricted);
    if (user.ban) document::write_member(writer, "ban_permanent", user.ban->permanent);
  });
}

User read_user(const std::string& id, const rapidjson::Value& body) {
  User user;
  user.id = id;
  user.username = document::string(body, "username");
  user.global_name = document::optional_string(body, "global_name");
  user.avatar = document::optional_string(body, "avatar");
  user.premium_type = static_cast<int>(document::integer_or(body, "premium_type", 0));
  if (const auto it = body.FindMember("primary_guild"); it != body.MemberEnd() && !it->value.IsNull()) {
    const auto& guild = document::object(body, "primary_guild");
    user.primary_guild =
        PrimaryGuild{document::string(guild, "identity_guild_id"), document::string(guild, "tag"),
                     document::optional_string(guild, "badge")};
  }
  user.spammer = document::boolean_or(body, "spammer", false);
  user.bot = document::boolean_or(body, "bot", false);
  user.provisional = document::boolean_or(body, "provisional", false);
  user.restricted = document::boolean_or(body, "restricted", false);
  if (const auto it = body.FindMember("ban_permanent"); it != body.MemberEnd()) {
    user.ban = Ban{document::boolean(body, "ban_permanent")};
  }
  return user;
}

std::string application_json(const Application& app) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "name", app.name);
    document::write_member(writer, "client_secret", app.client_secret);
    document::write_member(writer, "bot_token", app.bot_token);
    document::write_member(writer, "bot_user_id", app.bot_user_id);
    document::write_member(writer, "parent_id", app.parent_id);
    document::write_member(writer, "redirect_uris", app.redirect_uris);
    document::write_member(writer, "interactions_endpoint_url", app.interactions_endpoint_url);
    document::write_member(writer, "interactions_endpoint_ca_file", app.interactions_endpoint_ca_file);
    document::write_member(writer, "public_client_flows", app.public_client_flows);
    document::write_member(writer, "premium_approved", app.premium_approved);
    document::write_member(writer, "intent_presences", app.intent_presences);
    document::write_member(writer, "intent_guild_members", app.intent_guild_members);
    document::write_member(writer, "intent_message_content", app.intent_message_content);
    document::write_member(writer, "extra_flags", std::to_string(app.extra_flags));
    document::write_member(writer, "private_channel_obfuscation", app.private_channel_obfuscation);
    document::write_member(writer, "verify_key", app.verify_key);
    // The signing key is raw bytes: hex keeps the document text.
    std::string hex(app.signing_secret_key.size() * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(),
                   reinterpret_cast<const unsigned char*>(app.signing_secret_key.data()),
                   app.signing_secret_key.size());
    hex.pop_back();
    document::write_member(writer, "signing_secret_key", hex);
  });
}

Application read_application(const std::string& id, const rapidjson::Value& body) {
  Application app;
  app.id = id;
  app.name = document::string(body, "name");
  app.client_secret = document::string(body, "client_secret");
  app.bot_token = document::string(body, "bot_token");
  app.bot_user_id = document::string(body, "bot_user_id");
  app.parent_id = document::optional_string(body, "parent_id");
  app.redirect_uris = document::strings(body, "redirect_uris");
  app.interactions_endpoint_url = document::optional_string(body, "interactions_endpoint_url");
  app.interactions_endpoint_ca_file = document::optional_string(body, "interactions_endpoint_ca_file");
  app.public_client_flows = document::boolean_or(body, "public_client_flows", true);
  app.premium_approved = document::boolean_or(body, "premium_approved", false);
  app.intent_presences = document::boolean_or(body, "intent_presences", true);
  app.intent_guild_members = document::boolean_or(body, "intent_guild_members", true);
  app.intent_message_content = document::boolean_or(body, "intent_message_content", true);
  app.extra_flags = std::stoull(document::optional_string(body, "extra_flags").value_or("0"));
  app.private_channel_obfuscation = document::boolean_or(body, "private_channel_obfuscation", false);
  app.verify_key = document::string(body, "verify_key");
  const auto hex = document::string(body, "signing_secret_key");
  app.signing_secret_key.resize(hex.size() / 2);
  std::size_t length = 0;
  if (sodium_hex2bin(reinterpret_cast<unsigned char*>(app.signing_secret_key.data()),
                     app.signing_secret_key.size(), hex.data(), hex.size(), nullptr, &length, nullptr) != 0 ||
      length != crypto_sign_SECRETKEYBYTES) {
    throw std::invalid_argument("\"signing_secret_key\" is not a hex Ed25519 secret key");
  }
  return app;
}

std::string grant_json(const AccessGrant& grant) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "refresh_token", grant.refresh_token);
    document::write_member(writer, "user_id", grant.user_id);
    document::write_member(writer, "app_id", grant.app_id);
    document::write_member(writer, "scopes", grant.scopes);
    document::write_member(writer, "expires_at_ms", grant.expires_at_ms);
    if (grant.refresh_deprecated) document::write_member(writer, "refresh_deprecated", true);
    if (grant.identity) {
      writer.Key("identity");
      writer.StartObject();
      write_identity_key(writer, *grant.identity);
      writer.EndObject();
    }
  });
}

AccessGrant read_grant(const std::string& id, const rapidjson::Value& body) {
  AccessGrant grant;
  grant.access_token = id;
  grant.refresh_token = document::string(body, "refresh_token");
  grant.user_id = document::string(body, "user_id");
  grant.app_id = document::string(body, "app_id");
  grant.scopes = document::strings(body, "scopes");
  grant.expires_at_ms = document::integer(body, "expires_at_ms");
  grant.refresh_deprecated = document::boolean_or(body, "refresh_deprecated", false);
  if (const auto it = body.FindMember("identity"); it != body.MemberEnd()) {
    grant.identity = read_identity_key(document::object(body, "identity"));
  }
  return grant;
}

std::string code_json(const AuthorizationCode& code) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "app_id", code.app_id);
    document::write_member(writer, "user_id", code.user_id);
    document::write_member(writer, "redirect_uri", code.redirect_uri);
    document::write_member(writer, "scopes", code.scopes);
    document::write_member(writer, "code_challenge", code.code_challenge);
    document::write_member(writer, "expires_at_ms", code.expires_at_ms);
    document::write_member(writer, "guild_id", code.guild_id);
  });
}

AuthorizationCode read_code(const std::string& id, const rapidjson::Value& body) {
  return AuthorizationCode{id,
                           document::string(body, "app_id"),
                           document::string(body, "user_id"),
                           document::string(body, "redirect_uri"),
                           document::strings(body, "scopes"),
                           document::optional_string(body, "code_challenge"),
                           document::integer(body, "expires_at_ms"),
                           document::optional_string(body, "guild_id")};
}

std::string identity_json(const ExternalIdentity& identity) {
  return document_json([&](JsonWriter& writer) {
    write_identity_key(writer, identity.key);
    document::write_member(writer, "user_id", identity.user_id);
    document::write_member(writer, "merged", identity.merged);
    document::write_member(writer, "restricted_by_ban_of", identity.restricted_by_ban_of);
  });
}

ExternalIdentity read_identity(const rapidjson::Value& body) {
  ExternalIdentity identity;
  identity.key = read_identity_key(body);
  identity.user_id = document::string(body, "user_id");
  identity.merged = document::boolean_or(body, "merged", false);
  identity.restricted_by_ban_of = document::optional_string(body, "restricted_by_ban_of");
  return identity;
}

}  // namespace

std::string EmulatorState::identity_id(const IdentityKey& key) {
  return key.app_id + ":" + key.type + ":" + key.external_user_id;
}

std::string EmulatorState::external_token_id(std::string_view type, std::string_view token) {
  return std::string(type) + ":" + std::string(token);
}

void EmulatorState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(
      DocumentKind{std::string(document_kind::kApplication),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto* app = find_application(id);
                     return app == nullptr ? std::nullopt : std::optional(application_json(*app));
                   },
                   [this](const std::string& id, const rapidjson::Value& body) {
                     check_format(body);
                     applications_.insert_or_assign(id, read_application(id, body));
                   },
                   [this] { return keys_of(applications_); }, [this] { applications_.clear(); }});
  changes.register_kind(DocumentKind{std::string(document_kind::kUser),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto* user = find_user(id);
                                       return user == nullptr ? std::nullopt
                                                              : std::optional(user_document(*user));
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       users_.insert_or_assign(id, read_user(id, body));
                                     },
                                     [this] { return keys_of(users_); }, [this] { users_.clear(); }});
  changes.register_kind(DocumentKind{
      std::string(document_kind::kCounters),
      [this](const std::string&) -> std::optional<std::string> {
        return document_json([&](JsonWriter& writer) {
          document::write_member(writer, "first_regular_user_id", first_regular_user_);
          document::write_member(writer, "provisional_counter", std::int64_t{provisional_counter_});
          document::write_member(writer, "consent_user_id", consent.user_id);
          document::write_member(writer, "consent_deny", consent.deny);
        });
      },
      [this](const std::string&, const rapidjson::Value& body) {
        check_format(body);
        first_regular_user_ = document::optional_string(body, "first_regular_user_id");
        provisional_counter_ = static_cast<int>(document::integer(body, "provisional_counter"));
        consent.user_id = document::optional_string(body, "consent_user_id");
        consent.deny = document::boolean_or(body, "consent_deny", false);
      },
      [] { return std::vector<std::string>{std::string(document_kind::kCountersId)}; },
      [this] {
        first_regular_user_.reset();
        provisional_counter_ = 0;
        consent = Consent{};
      }});
  changes.register_kind(DocumentKind{std::string(document_kind::kGrant),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto* grant = find_grant_by_access_token(id);
                                       return grant == nullptr ? std::nullopt
                                                               : std::optional(grant_json(*grant));
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       auto grant = read_grant(id, body);
                                       if (!grant.refresh_token.empty())
                                         access_by_refresh_token_[grant.refresh_token] = id;
                                       grants_.insert_or_assign(id, std::move(grant));
                                     },
                                     [this] { return keys_of(grants_); },
                                     [this] {
                                       grants_.clear();
                                       access_by_refresh_token_.clear();
                                     }});
  changes.register_kind(DocumentKind{std::string(document_kind::kCode),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto it = codes_.find(id);
                                       return it == codes_.end() ? std::nullopt
                                                                 : std::optional(code_json(it->second));
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       codes_.insert_or_assign(id, read_code(id, body));
                                     },
                                     [this] { return keys_of(codes_); }, [this] { codes_.clear(); }});
  changes.register_kind(
      DocumentKind{std::string(document_kind::kIdentity),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto parts = split_id(id, 3);
                     const auto it = identities_.find(IdentityKey{parts[0], parts[1], parts[2]});
                     return it == identities_.end() ? std::nullopt : std::optional(identity_json(it->second));
                   },
                   [this](const std::string&, const rapidjson::Value& body) {
                     check_format(body);
                     auto identity = read_identity(body);
                     auto key = identity.key;
                     identities_.insert_or_assign(std::move(key), std::move(identity));
                   },
                   [this] {
                     std::vector<std::string> ids;
                     for (const auto& entry : identities_)
                       ids.push_back(identity_id(entry.first));
                     return ids;
                   },
                   [this] { identities_.clear(); }});
  changes.register_kind(
      DocumentKind{std::string(document_kind::kExternalToken),
                   [this](const std::string& id) -> std::optional<std::string> {
                     const auto parts = split_id(id, 2);
                     const auto it = external_token_ids_.find({parts[0], parts[1]});
                     if (it == external_token_ids_.end()) return std::nullopt;
                     return document_json([&](JsonWriter& writer) {
                       document::write_member(writer, "type", parts[0]);
                       document::write_member(writer, "token", parts[1]);
                       document::write_member(writer, "external_user_id", it->second);
                     });
                   },
                   [this](const std::string&, const rapidjson::Value& body) {
                     check_format(body);
                     external_token_ids_[{document::string(body, "type"), document::string(body, "token")}] =
                         document::string(body, "external_user_id");
                   },
                   [this] {
                     std::vector<std::string> ids;
                     for (const auto& entry : external_token_ids_)
                       ids.push_back(external_token_id(entry.first.first, entry.first.second));
                     return ids;
                   },
                   [this] { external_token_ids_.clear(); }});
}

}  // namespace platformpp::emulator
