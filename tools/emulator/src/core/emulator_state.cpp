#include "core/emulator_state.hpp"

#include <algorithm>
#include <set>

#include "core/state_changes.hpp"

namespace platformpp::emulator {

void EmulatorState::touch(std::string_view kind, std::string_view id) {
  if (changes_ != nullptr) changes_->touch(kind, id);
}

const User& EmulatorState::add_user(User user) {
  if (!first_regular_user_ && !user.bot && !user.provisional) {
    first_regular_user_ = user.id;
    touch(document_kind::kCounters, document_kind::kCountersId);
  }
  touch(document_kind::kUser, user.id);
  auto id = user.id;
  return users_.insert_or_assign(std::move(id), std::move(user)).first->second;
}

const User* EmulatorState::find_user(std::string_view id) const {
  const auto it = users_.find(id);
  return it == users_.end() ? nullptr : &it->second;
}

User* EmulatorState::find_user_mutable(std::string_view id) {
  const auto it = users_.find(id);
  if (it == users_.end()) return nullptr;
  touch(document_kind::kUser, id);  // the caller changes it
  return &it->second;
}

bool EmulatorState::username_taken(std::string_view username) const {
  return std::any_of(users_.begin(), users_.end(), [&](const auto& entry) {
    return !entry.second.bot && entry.second.username == username;
  });
}

void EmulatorState::remove_user(std::string_view id) {
  revoke_user_grants(id);
  touch(document_kind::kUser, id);
  if (const auto it = users_.find(id); it != users_.end()) users_.erase(it);
  for (auto* listener : removal_listeners_)
    listener->user_removed(id);
}

std::string EmulatorState::next_provisional_username() {
  for (;;) {
    auto name = "provisional_" + std::to_string(++provisional_counter_);
    touch(document_kind::kCounters, document_kind::kCountersId);
    if (!username_taken(name)) return name;
  }
}

const Application& EmulatorState::add_application(Application app) {
  touch(document_kind::kApplication, app.id);
  auto id = app.id;
  return applications_.insert_or_assign(std::move(id), std::move(app)).first->second;
}

const Application* EmulatorState::find_application(std::string_view id) const {
  const auto it = applications_.find(id);
  return it == applications_.end() ? nullptr : &it->second;
}

const Application* EmulatorState::find_application_by_bot_token(std::string_view token) const {
  for (const auto& [id, app] : applications_) {
    if (app.bot_token == token) return &app;
  }
  return nullptr;
}

const AccessGrant& EmulatorState::add_grant(AccessGrant grant) {
  touch(document_kind::kGrant, grant.access_token);
  if (!grant.refresh_token.empty()) access_by_refresh_token_[grant.refresh_token] = grant.access_token;
  auto key = grant.access_token;
  return grants_.insert_or_assign(std::move(key), std::move(grant)).first->second;
}

const AccessGrant* EmulatorState::find_grant_by_access_token(std::string_view token) const {
  const auto it = grants_.find(token);
  return it == grants_.end() ? nullptr : &it->second;
}

const AccessGrant* EmulatorState::find_grant_by_refresh_token(std::string_view token) const {
  const auto refresh = access_by_refresh_token_.find(token);
  return refresh == access_by_refresh_token_.end() ? nullptr : find_grant_by_access_token(refresh->second);
}

bool EmulatorState::revoke_token(std::string_view token) {
  std::string access_token(token);
  if (const auto refresh = access_by_refresh_token_.find(token); refresh != access_by_refresh_token_.end()) {
    access_token = refresh->second;
  }
  const auto grant = grants_.find(access_token);
  if (grant == grants_.end()) return false;
  // The whole grant goes: its refresh token must not outlive the access token (refresh -> invalid_grant).
  if (!grant->second.refresh_token.empty()) access_by_refresh_token_.erase(grant->second.refresh_token);
  touch(document_kind::kGrant, grant->first);
  grants_.erase(grant);
  return true;
}

bool EmulatorState::has_grant(std::string_view user_id, std::string_view app_id) const {
  return std::any_of(grants_.begin(), grants_.end(), [&](const auto& entry) {
    return entry.second.user_id == user_id && entry.second.app_id == app_id;
  });
}

std::size_t EmulatorState::authorized_user_count(std::string_view app_id) const {
  std::set<std::string_view> users;
  for (const auto& [token, grant] : grants_) {
    if (grant.app_id == app_id) users.insert(grant.user_id);
  }
  return users.size();
}

std::size_t EmulatorState::user_install_count(std::string_view app_id) const {
  std::set<std::string_view> users;
  for (const auto& [token, grant] : grants_) {
    if (grant.app_id == app_id &&
        std::find(grant.scopes.begin(), grant.scopes.end(), "applications.commands") != grant.scopes.end())
      users.insert(grant.user_id);
  }
  return users.size();
}

bool EmulatorState::user_installed(std::string_view user_id, std::string_view app_id) const {
  return std::any_of(grants_.begin(), grants_.end(), [&](const auto& entry) {
    const auto& grant = entry.second;
    return grant.app_id == app_id && grant.user_id == user_id &&
           std::find(grant.scopes.begin(), grant.scopes.end(), "applications.commands") != grant.scopes.end();
  });
}

std::size_t EmulatorState::revoke_user_grants(std::string_view user_id,
                                              std::optional<std::string_view> app_id) {
  std::vector<std::string> doomed;
  for (const auto& [token, grant] : grants_) {
    if (grant.user_id == user_id && (!app_id || grant.app_id == *app_id)) doomed.push_back(token);
  }
  for (const auto& token : doomed)
    revoke_token(token);
  return doomed.size();
}

void EmulatorState::add_code(AuthorizationCode code) {
  touch(document_kind::kCode, code.code);
  auto key = code.code;
  codes_.insert_or_assign(std::move(key), std::move(code));
}

std::optional<AuthorizationCode> EmulatorState::take_code(std::string_view code) {
  const auto it = codes_.find(code);
  if (it == codes_.end()) return std::nullopt;
  touch(document_kind::kCode, code);
  auto taken = std::move(it->second);
  codes_.erase(it);
  return taken;
}

ExternalIdentity& EmulatorState::upsert_identity(ExternalIdentity identity) {
  touch(document_kind::kIdentity, identity_id(identity.key));
  auto key = identity.key;
  return identities_.insert_or_assign(std::move(key), std::move(identity)).first->second;
}

ExternalIdentity* EmulatorState::find_identity(const IdentityKey& key) {
  const auto it = identities_.find(key);
  if (it == identities_.end()) return nullptr;
  touch(document_kind::kIdentity, identity_id(key));  // the caller may change it
  return &it->second;
}

std::vector<ExternalIdentity*> EmulatorState::identities_of_user(std::string_view user_id) {
  std::vector<ExternalIdentity*> result;
  for (auto& [key, identity] : identities_) {
    if (identity.user_id == user_id) {
      touch(document_kind::kIdentity, identity_id(key));  // the caller may change it
      result.push_back(&identity);
    }
  }
  return result;
}

std::vector<ExternalIdentity*> EmulatorState::identities_restricted_by(std::string_view user_id) {
  std::vector<ExternalIdentity*> result;
  for (auto& [key, identity] : identities_) {
    if (identity.restricted_by_ban_of == user_id) {
      touch(document_kind::kIdentity, identity_id(key));  // the caller may change it
      result.push_back(&identity);
    }
  }
  return result;
}

void EmulatorState::map_external_token(std::string type, std::string token, std::string external_user_id) {
  touch(document_kind::kExternalToken, external_token_id(type, token));
  external_token_ids_[{std::move(type), std::move(token)}] = std::move(external_user_id);
}

std::string EmulatorState::external_user_id_for(std::string_view type, std::string_view token) const {
  const auto it = external_token_ids_.find({std::string(type), std::string(token)});
  // Without a mapping the external token itself stands for the external account.
  return it == external_token_ids_.end() ? std::string(token) : it->second;
}

const User* EmulatorState::find_user_by_username(std::string_view username) const {
  for (const auto& [id, user] : users_) {
    if (!user.bot && user.username == username) return &user;
  }
  return nullptr;
}

Application* EmulatorState::find_application_mutable(std::string_view id) {
  const auto it = applications_.find(id);
  if (it == applications_.end()) return nullptr;
  touch(document_kind::kApplication, id);  // the caller changes it
  return &it->second;
}

}  // namespace platformpp::emulator
