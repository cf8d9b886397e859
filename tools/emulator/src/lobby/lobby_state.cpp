#include "lobby/lobby_state.hpp"

#include <algorithm>

#include "core/validation.hpp"

namespace platformpp::emulator {

std::size_t metadata_length(const StringMap& metadata) {
  std::size_t total = 0;
  for (const auto& [key, value] : metadata)
    total += utf8_length(key) + utf8_length(value);
  return total;
}

bool Lobby::remove_member(const std::string& user_id) {
  const auto it = std::find_if(members.begin(), members.end(),
                               [&](const LobbyMember& m) { return m.user_id == user_id; });
  if (it == members.end()) return false;
  members.erase(it);
  return true;
}

Lobby* LobbyState::find(const std::string& id, const std::string& app_id) {
  const auto it = lobbies.find(id);
  return it == lobbies.end() || it->second.app_id != app_id ? nullptr : &it->second;
}

std::vector<std::string> LobbyState::lobbies_of(const std::string& user_id, const std::string& app_id) const {
  std::vector<std::string> ids;
  for (const auto& [id, lobby] : lobbies) {
    if (lobby.app_id == app_id && lobby.member(user_id) != nullptr) ids.push_back(id);
  }
  return ids;
}

Lobby* LobbyState::find_by_secret(const std::string& app_id, const std::string& secret, std::int64_t now_ms) {
  const auto it = secrets.find({app_id, secret});
  if (it == secrets.end()) return nullptr;
  if (now_ms - it->second.second >= kLobbySecretLifetimeMs) {
    secrets.erase(it);
    return nullptr;
  }
  return find(it->second.first, app_id);
}

void LobbyState::erase(const std::string& id) {
  lobbies.erase(id);
  for (auto it = secrets.begin(); it != secrets.end();) {
    it = it->second.first == id ? secrets.erase(it) : std::next(it);
  }
}

}  // namespace platformpp::emulator
