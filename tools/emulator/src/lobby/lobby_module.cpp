// Lobbies' life on the Gateway (docs/social-protocol.md, "Lobbies and messages"): who is connected, the
// LOBBY_* dispatches, the lobby and member objects, READY's lobbies, idle deletion, and the membership
// changes the routes (lobby_routes.cpp) share.
#include "lobby/lobby_module.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"

namespace platformpp::emulator {

namespace {

void write_metadata(JsonWriter& writer, const StringMap& metadata) {
  if (metadata.empty()) {
    writer.Null();
    return;
  }
  writer.StartObject();
  for (const auto& [key, value] : metadata) {
    writer.Key(key.c_str(), static_cast<rapidjson::SizeType>(key.size()));
    write_string(writer, value);
  }
  writer.EndObject();
}

std::string member_event_json(const Lobby& lobby, const std::string& member_json) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("lobby_id");
    write_string(writer, lobby.id);
    writer.Key("application_id");
    write_string(writer, lobby.app_id);
    writer.Key("member");
    write_raw(writer, member_json, rapidjson::kObjectType);
    writer.EndObject();
  });
}

std::string lobby_delete_json(const std::string& lobby_id, std::string_view reason) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, lobby_id);
    writer.Key("reason");
    write_string(writer, reason);
    writer.EndObject();
  });
}

}  // namespace

LobbyModule::LobbyModule(ServiceContext& context, GatewayModule& gateway, GuildModule& guilds,
                         SocialRateLimits& social_limits)
    : FeatureModule(context), gateway_(gateway), guilds_(guilds), social_limits_(social_limits) {
  lobbies_.register_documents(changes_);
  register_routes();
}

const Lobby* LobbyModule::find(const std::string& id, const std::string& app_id) const {
  return lobbies_.find(id, app_id);
}

const Lobby* LobbyModule::find(const std::string& id) const {
  const auto it = lobbies_.lobbies.find(id);
  return it == lobbies_.lobbies.end() ? nullptr : &it->second;
}

std::string LobbyModule::calls_voice_states_json(const Lobby& lobby) const {
  return calls_ != nullptr ? calls_->voice_states_json(lobby) : std::string("[]");
}

// ---- GatewayListener
// ---------------------------------------------------------------------------------------

void LobbyModule::fill_ready(const GatewaySession& session, ReadyContent& ready) {
  ready.lobbies = ready_json(session);
}

void LobbyModule::connection_changed(const std::string& user_id, const std::string& app_id,
                                     ConnectionChange) {
  member_connection_changed(user_id, app_id);
}

void LobbyModule::tick() {
  sweep_idle();
}

// ---- connection state and dispatches ---------------------------------------------------------------------

bool LobbyModule::member_connected(const Lobby& lobby, const std::string& user_id) const {
  return gateway_.user_connected(user_id, lobby.app_id);
}

bool LobbyModule::any_connected(const Lobby& lobby) const {
  return std::any_of(lobby.members.begin(), lobby.members.end(),
                     [&](const LobbyMember& member) { return member_connected(lobby, member.user_id); });
}

// Sessions are looked up by member, never scanned: a lobby message costs the same with 10 or 10,000
// connected users.
void LobbyModule::dispatch(const Lobby& lobby, std::string_view type, std::string_view d_json) {
  std::vector<const GatewaySession*> targets;
  targets.reserve(lobby.members.size());
  for (const auto& member : lobby.members) {
    for (const auto* session : gateway_.sessions_of_user(member.user_id)) {
      if (session->app_id == lobby.app_id && !session->bot) targets.push_back(session);
    }
  }
  gateway_.dispatch_shared(targets, type, d_json);
}

void LobbyModule::dispatch_to_user(const Lobby& lobby, const std::string& user_id, std::string_view type,
                                   std::string_view d_json) {
  std::vector<std::string> targets;
  for (const auto* session : gateway_.sessions_of_user(user_id)) {
    if (session->app_id == lobby.app_id && !session->bot) targets.push_back(session->id);
  }
  for (const auto& id : targets)
    gateway_.dispatch(id, type, d_json);
}

std::string LobbyModule::member_json(const Lobby& lobby, const LobbyMember& member, bool with_users) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, member.user_id);
    writer.Key("metadata");
    write_metadata(writer, member.metadata);
    writer.Key("flags");
    writer.Uint(member.flags);
    if (member.additional_name) {
      writer.Key("additional_name");
      write_string(writer, *member.additional_name);
    }
    writer.Key("connected");
    writer.Bool(member_connected(lobby, member.user_id));
    if (with_users) {
      if (const auto* user = state_.find_user(member.user_id)) {
        writer.Key("user");
        write_raw(writer, user_json(*user), rapidjson::kObjectType);
      }
    }
    writer.EndObject();
  });
}

std::string LobbyModule::lobby_json(const Lobby& lobby, bool with_users) const {
  // The channel may have been deleted since it was linked: then the lobby shows no link.
  const GuildChannel* channel = nullptr;
  if (lobby.linked_channel && lobby.linked_guild) {
    if (const auto* guild = guilds_.guilds().find_guild(*lobby.linked_guild)) {
      const auto it = guild->channels.find(*lobby.linked_channel);
      if (it != guild->channels.end()) channel = &it->second;
    }
  }
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, lobby.id);
    writer.Key("application_id");
    write_string(writer, lobby.app_id);
    writer.Key("metadata");
    write_metadata(writer, lobby.metadata);
    writer.Key("members");
    writer.StartArray();
    for (const auto& member : lobby.members)
      write_raw(writer, member_json(lobby, member, with_users), rapidjson::kObjectType);
    writer.EndArray();
    // The published schema allows the member to be absent, not null: a lobby without a link has none.
    if (channel != nullptr) {
      writer.Key("linked_channel");
      writer.StartObject();
      writer.Key("id");
      write_string(writer, channel->id);
      writer.Key("type");
      writer.Int(channel->type);
      writer.Key("guild_id");
      write_string(writer, channel->guild_id);
      writer.Key("name");
      write_string(writer, channel->name);
      writer.Key("position");
      writer.Int(channel->position);
      writer.Key("parent_id");
      write_optional_string(writer, channel->parent_id);
      writer.Key("flags");
      writer.Uint64(channel->flags);
      writer.EndObject();
    }
    writer.Key("flags");
    writer.Uint(lobby.flags);
    writer.Key("voice_states");
    write_raw(writer, calls_voice_states_json(lobby), rapidjson::kArrayType);
    writer.EndObject();
  });
}

std::string LobbyModule::ready_json(const GatewaySession& session) const {
  return to_json([&](JsonWriter& writer) {
    writer.StartArray();
    if (!session.bot) {
      for (const auto& [id, lobby] : lobbies_.lobbies) {
        if (lobby.app_id == session.app_id && lobby.member(session.user_id) != nullptr)
          write_raw(writer, lobby_json(lobby, true), rapidjson::kObjectType);
      }
    }
    writer.EndArray();
  });
}

void LobbyModule::member_connection_changed(const std::string& user_id, const std::string& app_id) {
  const bool live = gateway_.user_connected(user_id, app_id);
  const auto key = std::make_pair(user_id, app_id);
  const bool announced = lobbies_.announced_connected.count(key) != 0;
  if (live == announced) return;
  if (live) {
    lobbies_.announced_connected.insert(key);
  } else {
    lobbies_.announced_connected.erase(key);
  }
  const auto now = clock_.now_ms();
  for (const auto& lobby_id : lobbies_.lobbies_of(user_id, app_id)) {
    auto& lobby = lobbies_.lobbies.at(lobby_id);
    const auto* member = lobby.member(user_id);
    dispatch(lobby, live ? "LOBBY_MEMBER_CONNECT" : "LOBBY_MEMBER_DISCONNECT",
             member_event_json(lobby, member_json(lobby, *member, true)));
    // The idle timer runs from the moment the last connected member went away, and stands still while one is.
    if (live) {
      lobbies_.set_idle_since(lobby, std::nullopt);
    } else if (!any_connected(lobby)) {
      lobbies_.set_idle_since(lobby, now);
    }
  }
}

void LobbyModule::sweep_idle() {
  if (lobbies_.lobbies.empty()) return;
  const auto now = clock_.now_ms();
  std::vector<std::string> idle;
  for (auto& [id, lobby] : lobbies_.lobbies) {
    if (any_connected(lobby)) {
      lobbies_.set_idle_since(lobby, std::nullopt);
    } else if (!lobby.idle_since_ms) {
      // Nobody has been connected since a restart (sessions do not survive one): the timer starts now.
      lobbies_.set_idle_since(lobby, now);
    } else if (now - *lobby.idle_since_ms >= lobby.idle_timeout_s * 1000) {
      idle.push_back(id);
    }
  }
  for (const auto& id : idle)
    delete_lobby(id, "deleted");
}

bool LobbyModule::expire_if_idle(const std::string& lobby_id) {
  const auto* lobby = find(lobby_id);
  if (lobby == nullptr || !lobby->idle_since_ms) return false;
  if (clock_.now_ms() - *lobby->idle_since_ms < lobby->idle_timeout_s * 1000 || any_connected(*lobby))
    return false;
  delete_lobby(lobby_id, "deleted");
  return true;
}

void LobbyModule::upsert_member(Lobby& lobby, LobbyMember member) {
  lobbies_.touch_lobby(lobby.id);
  if (auto* existing = lobby.member(member.user_id)) {
    *existing = std::move(member);
    dispatch(lobby, "LOBBY_MEMBER_UPDATE", member_event_json(lobby, member_json(lobby, *existing, true)));
    return;
  }
  const auto user_id = member.user_id;
  lobby.members.push_back(std::move(member));
  dispatch_to_user(lobby, user_id, "LOBBY_CREATE", lobby_json(lobby, true));
  const auto event = member_event_json(lobby, member_json(lobby, lobby.members.back(), true));
  for (const auto& other : lobby.members) {
    if (other.user_id != user_id) dispatch_to_user(lobby, other.user_id, "LOBBY_MEMBER_ADD", event);
  }
}

void LobbyModule::remove_member(Lobby& lobby, const std::string& user_id) {
  const auto* member = lobby.member(user_id);
  if (member == nullptr) return;
  // A member's call ends with their membership (they still hear it).
  if (calls_ != nullptr) calls_->member_left(lobby.id, user_id);
  const auto event = member_event_json(lobby, member_json(lobby, *member, true));
  const bool was_connected = any_connected(lobby);
  lobbies_.touch_lobby(lobby.id);
  lobby.remove_member(user_id);
  if (was_connected && !any_connected(lobby)) lobbies_.set_idle_since(lobby, clock_.now_ms());
  dispatch_to_user(lobby, user_id, "LOBBY_DELETE", lobby_delete_json(lobby.id, "removed"));
  dispatch(lobby, "LOBBY_MEMBER_REMOVE", event);
}

void LobbyModule::delete_lobby(const std::string& lobby_id, std::string_view reason) {
  const auto it = lobbies_.lobbies.find(lobby_id);
  if (it == lobbies_.lobbies.end()) return;
  if (calls_ != nullptr) calls_->lobby_deleted(lobby_id);
  dispatch(it->second, "LOBBY_DELETE", lobby_delete_json(lobby_id, reason));
  lobbies_.erase(lobby_id);
  // Only members can read a lobby's history, and a deleted lobby has none: its messages go with it (kept,
  // they would only grow the state file).
  if (messages_ != nullptr) messages_->lobby_deleted(lobby_id);
}

HttpResponse LobbyModule::create_invite(const Lobby& lobby, const std::string& user_id) {
  if (!lobby.linked_channel || !lobby.linked_guild) {
    return error_response(400, error_code::kGeneral, "Lobby has no linked channel");
  }
  const auto now = clock_.now_ms();
  auto& invites = guilds_.invites();
  invites.prune(now);
  // Single use, for the one member, an hour long: a guild invite like the channel invites, kept with them.
  GuildInvite invite;
  invite.code = random_token(6);
  while (invites.contains(invite.code))
    invite.code = random_token(6);
  invite.guild_id = *lobby.linked_guild;
  invite.channel_id = *lobby.linked_channel;
  invite.for_user_id = user_id;
  invite.created_ms = now;
  invite.max_age_s = kLobbyInviteLifetimeMs / 1000;
  invite.max_uses = 1;
  const auto code = invite.code;
  invites.add(std::move(invite));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("code");
                              write_string(writer, code);
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
