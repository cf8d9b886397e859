// LobbyState's changes and its documents (core/state_changes.hpp): a lobby with its members, settings and
// idle timer; each secret binding ("<app>:<secret>", which a lobby may outlive: it maps for 30 days). Every
// document carries "v", its format version. The guild invites a lobby makes are guild/invite_state.cpp's.
#include "lobby/lobby_state.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/document_json.hpp"
#include "core/state_changes.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;
using document::keys_of;

std::string secret_id(const std::string& app_id, const std::string& secret) {
  return app_id + ":" + secret;
}

// Lobby and member flags: 0 or 1 (CanLinkLobby).
std::uint32_t read_flags(const rapidjson::Value& object) {
  const auto flags = document::integer_or(object, "flags", 0);
  if (flags < 0 || flags > kLobbyMemberCanLinkLobby) throw std::invalid_argument("\"flags\" is not 0 or 1");
  return static_cast<std::uint32_t>(flags);
}

std::string lobby_json(const Lobby& lobby) {
  return document_json([&](JsonWriter& writer) {
    document::write_member(writer, "app_id", lobby.app_id);
    if (!lobby.metadata.empty()) document::write_member(writer, "metadata", lobby.metadata);
    writer.Key("members");
    writer.StartArray();
    for (const auto& member : lobby.members) {
      writer.StartObject();
      document::write_member(writer, "user_id", member.user_id);
      if (!member.metadata.empty()) document::write_member(writer, "metadata", member.metadata);
      if (member.flags != 0) document::write_member(writer, "flags", std::int64_t{member.flags});
      document::write_member(writer, "additional_name", member.additional_name);
      writer.EndObject();
    }
    writer.EndArray();
    if (lobby.flags != 0) document::write_member(writer, "flags", std::int64_t{lobby.flags});
    document::write_member(writer, "idle_timeout_s", lobby.idle_timeout_s);
    if (lobby.created_by_backend) document::write_member(writer, "created_by_backend", true);
    document::write_member(writer, "secret", lobby.secret);
    document::write_member(writer, "linked_channel", lobby.linked_channel);
    document::write_member(writer, "linked_guild", lobby.linked_guild);
    document::write_member(writer, "created_ms", lobby.created_ms);
    document::write_member(writer, "idle_since_ms", lobby.idle_since_ms);
  });
}

Lobby read_lobby(const std::string& id, const rapidjson::Value& body) {
  Lobby lobby;
  lobby.id = id;
  lobby.app_id = document::string(body, "app_id");
  lobby.metadata = document::string_map(body, "metadata");
  for (const auto& value : document::array(body, "members").GetArray()) {
    LobbyMember member;
    member.user_id = document::string(value, "user_id");
    member.metadata = document::string_map(value, "metadata");
    member.flags = read_flags(value);
    member.additional_name = document::optional_string(value, "additional_name");
    lobby.members.push_back(std::move(member));
  }
  lobby.flags = read_flags(body);
  lobby.idle_timeout_s = document::integer(body, "idle_timeout_s");
  lobby.created_by_backend = document::boolean_or(body, "created_by_backend", false);
  lobby.secret = document::optional_string(body, "secret");
  lobby.linked_channel = document::optional_string(body, "linked_channel");
  lobby.linked_guild = document::optional_string(body, "linked_guild");
  lobby.created_ms = document::integer(body, "created_ms");
  lobby.idle_since_ms = document::optional_integer(body, "idle_since_ms");
  return lobby;
}

}  // namespace

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

void LobbyState::touch_lobby(const std::string& id) {
  if (changes_ != nullptr) changes_->touch(document_kind::kLobby, id);
}

void LobbyState::touch_secret(const std::string& app_id, const std::string& secret) {
  if (changes_ != nullptr) changes_->touch(document_kind::kLobbySecret, secret_id(app_id, secret));
}

Lobby& LobbyState::add(Lobby lobby) {
  touch_lobby(lobby.id);
  auto id = lobby.id;
  return lobbies.insert_or_assign(std::move(id), std::move(lobby)).first->second;
}

void LobbyState::bind_secret(const std::string& app_id, const std::string& secret,
                             const std::string& lobby_id, std::int64_t now_ms) {
  touch_secret(app_id, secret);
  secrets[{app_id, secret}] = {lobby_id, now_ms};
}

void LobbyState::set_idle_since(Lobby& lobby, std::optional<std::int64_t> idle_since_ms) {
  if (lobby.idle_since_ms == idle_since_ms) return;
  lobby.idle_since_ms = idle_since_ms;
  touch_lobby(lobby.id);
}

Lobby* LobbyState::find(const std::string& id, const std::string& app_id) {
  const auto it = lobbies.find(id);
  return it == lobbies.end() || it->second.app_id != app_id ? nullptr : &it->second;
}

const Lobby* LobbyState::find(const std::string& id, const std::string& app_id) const {
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
  if (now_ms - it->second.second >= kLobbySecretLifetimeMs) return nullptr;
  return find(it->second.first, app_id);
}

void LobbyState::erase(const std::string& id) {
  touch_lobby(id);
  lobbies.erase(id);
  for (auto it = secrets.begin(); it != secrets.end();) {
    if (it->second.first != id) {
      ++it;
      continue;
    }
    touch_secret(it->first.first, it->first.second);
    it = secrets.erase(it);
  }
}

void LobbyState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(DocumentKind{std::string(document_kind::kLobby),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto it = lobbies.find(id);
                                       return it == lobbies.end() ? std::nullopt
                                                                  : std::optional(lobby_json(it->second));
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       lobbies.insert_or_assign(id, read_lobby(id, body));
                                     },
                                     [this] { return keys_of(lobbies); },
                                     [this] {
                                       lobbies.clear();
                                       // Who is connected is the Gateway's to say, whatever lobbies there
                                       // are: announced_connected stays.
                                     }});
  changes.register_kind(DocumentKind{
      std::string(document_kind::kLobbySecret),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto colon = id.find(':');  // application ids are snowflakes: the secret is the rest
        if (colon == std::string::npos) return std::nullopt;
        const auto app_id = id.substr(0, colon);
        const auto secret = id.substr(colon + 1);
        const auto it = secrets.find({app_id, secret});
        if (it == secrets.end()) return std::nullopt;
        return document_json([&](JsonWriter& writer) {
          document::write_member(writer, "app_id", app_id);
          document::write_member(writer, "secret", secret);
          document::write_member(writer, "lobby_id", it->second.first);
          document::write_member(writer, "bound_ms", it->second.second);
        });
      },
      [this](const std::string&, const rapidjson::Value& body) {
        check_format(body);
        secrets[{document::string(body, "app_id"), document::string(body, "secret")}] = {
            document::string(body, "lobby_id"), document::integer(body, "bound_ms")};
      },
      [this] {
        std::vector<std::string> ids;
        ids.reserve(secrets.size());
        for (const auto& entry : secrets)
          ids.push_back(secret_id(entry.first.first, entry.first.second));
        return ids;
      },
      [this] { secrets.clear(); }});
}

}  // namespace platformpp::emulator
