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

const DmChannel* EmulatorState::find_dm_channel(std::string_view id) const {
  const auto it = dm_channels_.find(id);
  return it == dm_channels_.end() ? nullptr : &it->second;
}

const DmChannel* EmulatorState::find_dm_channel_between(std::string_view user_id,
                                                        std::string_view other_id) const {
  for (const auto& [id, channel] : dm_channels_) {
    const auto& r = channel.recipient_ids;
    if (r.size() == 2 && ((r[0] == user_id && r[1] == other_id) || (r[0] == other_id && r[1] == user_id)))
      return &channel;
  }
  return nullptr;
}

const DmChannel& EmulatorState::add_dm_channel(DmChannel channel) {
  touch(document_kind::kDmChannel, channel.id);
  auto id = channel.id;
  return dm_channels_.insert_or_assign(std::move(id), std::move(channel)).first->second;
}

std::vector<const DmChannel*> EmulatorState::dm_channels_of(std::string_view user_id) const {
  std::vector<const DmChannel*> result;
  for (const auto& [id, channel] : dm_channels_) {
    const auto& r = channel.recipient_ids;
    if (std::find(r.begin(), r.end(), user_id) != r.end()) result.push_back(&channel);
  }
  return result;
}

const Message& EmulatorState::add_message(Message message) {
  touch(document_kind::kMessage, message.id);
  auto id = message.id;
  auto& order = channel_message_ids_[message.channel_id];
  if (messages_.find(id) == messages_.end()) order.push_back(id);
  return messages_.insert_or_assign(std::move(id), std::move(message)).first->second;
}

const Message* EmulatorState::find_message(std::string_view channel_id, std::string_view message_id) const {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return nullptr;
  return &it->second;
}

Message* EmulatorState::find_message_mutable(std::string_view channel_id, std::string_view message_id) {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return nullptr;
  touch(document_kind::kMessage, message_id);  // the caller changes it
  keep_as_created(it->second);
  return &it->second;
}

bool EmulatorState::remove_message(std::string_view channel_id, std::string_view message_id) {
  const auto it = messages_.find(message_id);
  if (it == messages_.end() || it->second.channel_id != channel_id) return false;
  touch(document_kind::kMessage, message_id);
  keep_as_created(it->second);
  messages_.erase(it);
  if (const auto order = channel_message_ids_.find(channel_id); order != channel_message_ids_.end()) {
    auto& ids = order->second;
    ids.erase(std::remove(ids.begin(), ids.end(), message_id), ids.end());
  }
  return true;
}

void EmulatorState::remove_channel_messages(std::string_view channel_id) {
  if (const auto window = nonce_messages_.find(channel_id); window != nonce_messages_.end())
    nonce_messages_.erase(window);
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return;
  for (const auto& id : order->second) {
    if (const auto it = messages_.find(id); it != messages_.end()) {
      touch(document_kind::kMessage, id);
      messages_.erase(it);
    }
  }
  channel_message_ids_.erase(order);
}

std::vector<const Message*> EmulatorState::channel_messages(std::string_view channel_id) const {
  std::vector<const Message*> result;
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return result;
  result.reserve(order->second.size());
  for (const auto& id : order->second) {
    if (const auto it = messages_.find(id); it != messages_.end()) result.push_back(&it->second);
  }
  return result;
}

void EmulatorState::prune_messages_before(std::string_view channel_id, std::int64_t cutoff_ms) {
  const auto order = channel_message_ids_.find(channel_id);
  if (order == channel_message_ids_.end()) return;
  auto& ids = order->second;
  // Kept in sending order, so the old ones are at the front (unless the fake clock was set back).
  auto keep = ids.begin();
  while (keep != ids.end()) {
    const auto it = messages_.find(*keep);
    if (it != messages_.end() && it->second.timestamp_ms >= cutoff_ms) break;
    if (it != messages_.end()) {
      touch(document_kind::kMessage, it->first);
      messages_.erase(it);
    }
    ++keep;
  }
  ids.erase(ids.begin(), keep);
}

namespace {

std::string nonce_key(std::string_view author_id, std::string_view nonce) {
  std::string key;
  key.reserve(author_id.size() + 1 + nonce.size());
  key.append(author_id).append(1, '\n').append(nonce);  // ids are digits: no two pairs share a key
  return key;
}

}  // namespace

void EmulatorState::NonceWindow::forget_until(std::int64_t cutoff_ms) {
  while (!order.empty() && order.front().timestamp_ms <= cutoff_ms) {
    // A later message with the same author and nonce replaced this one in `latest`: that one stays.
    if (const auto it = latest.find(order.front().key);
        it != latest.end() && it->second.message_id == order.front().message_id)
      latest.erase(it);
    order.pop_front();
  }
}

void EmulatorState::rebuild_nonce_windows() {
  nonce_windows_stale_ = false;
  nonce_messages_.clear();
  for (const auto& [channel_id, ids] : channel_message_ids_) {
    for (const auto& id : ids) {  // sending order
      const auto it = messages_.find(id);
      if (it == messages_.end() || !it->second.nonce) continue;
      auto& window = nonce_messages_[channel_id];
      auto key = nonce_key(it->second.author_id, *it->second.nonce);
      window.order.push_back({it->second.timestamp_ms, key, id});
      window.latest.insert_or_assign(std::move(key), NonceWindow::Remembered{id, nullptr});
    }
  }
}

void EmulatorState::keep_as_created(const Message& message) {
  if (!message.nonce) return;
  if (nonce_windows_stale_) rebuild_nonce_windows();
  const auto window = nonce_messages_.find(message.channel_id);
  if (window == nonce_messages_.end()) return;
  const auto entry = window->second.latest.find(nonce_key(message.author_id, *message.nonce));
  if (entry == window->second.latest.end() || entry->second.message_id != message.id ||
      entry->second.as_created) {
    return;
  }
  entry->second.as_created = std::make_shared<const Message>(message);
}

void EmulatorState::remember_nonce(const Message& message, std::int64_t window_ms) {
  if (nonce_windows_stale_) rebuild_nonce_windows();
  auto& window = nonce_messages_[message.channel_id];
  window.forget_until(message.timestamp_ms - window_ms);
  auto key = nonce_key(message.author_id, message.nonce.value_or(""));
  window.order.push_back({message.timestamp_ms, key, message.id});
  const bool kept = find_message(message.channel_id, message.id) != nullptr;
  window.latest.insert_or_assign(
      std::move(key),
      NonceWindow::Remembered{message.id, kept ? nullptr : std::make_shared<const Message>(message)});
}

std::optional<Message> EmulatorState::find_by_nonce(std::string_view channel_id, std::string_view author_id,
                                                    std::string_view nonce, std::int64_t now_ms,
                                                    std::int64_t window_ms) {
  if (nonce_windows_stale_) rebuild_nonce_windows();
  const auto it = nonce_messages_.find(channel_id);
  if (it == nonce_messages_.end()) return std::nullopt;
  auto& window = it->second;
  window.forget_until(now_ms - window_ms);
  const auto entry = window.latest.find(nonce_key(author_id, nonce));
  if (entry == window.latest.end()) return std::nullopt;
  if (const auto* kept = find_message(channel_id, entry->second.message_id)) return *kept;
  if (entry->second.as_created) return *entry->second.as_created;
  return std::nullopt;  // not reached: a kept message leaves its copy when it goes (keep_as_created)
}

}  // namespace platformpp::emulator
