#include "emulator_state.hpp"

#include <algorithm>

namespace platformpp::emulator {

const User& EmulatorState::add_user(User user) {
  auto id = user.id;
  return users_.insert_or_assign(std::move(id), std::move(user)).first->second;
}

const User* EmulatorState::find_user(std::string_view id) const {
  const auto it = users_.find(id);
  return it == users_.end() ? nullptr : &it->second;
}

bool EmulatorState::username_taken(std::string_view username) const {
  return std::any_of(users_.begin(), users_.end(), [&](const auto& entry) {
    return !entry.second.bot && entry.second.username == username;
  });
}

const Application& EmulatorState::add_application(Application app) {
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
  access_by_refresh_token_[grant.refresh_token] = grant.access_token;
  auto key = grant.access_token;
  return grants_.insert_or_assign(std::move(key), std::move(grant)).first->second;
}

const AccessGrant* EmulatorState::find_grant_by_access_token(std::string_view token) const {
  const auto it = grants_.find(token);
  return it == grants_.end() ? nullptr : &it->second;
}

bool EmulatorState::revoke_token(std::string_view token) {
  std::string access_token(token);
  if (const auto refresh = access_by_refresh_token_.find(token); refresh != access_by_refresh_token_.end()) {
    access_token = refresh->second;
  }
  const auto grant = grants_.find(access_token);
  if (grant == grants_.end()) return false;
  access_by_refresh_token_.erase(grant->second.refresh_token);
  grants_.erase(grant);
  return true;
}

}  // namespace platformpp::emulator
