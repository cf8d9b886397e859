// The C ABI of lobbies. Nothing may throw across this boundary, and nothing thrown may vanish (see
// c_support.hpp). Handles are snapshots of the C++ values, holding the strings and arrays their getters hand
// out: reading them allocates nothing.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <optional>
#include <string>
#include <vector>

using namespace platformpp::c_api;

struct platformpp_lobby_member_handle {
  platformpp::LobbyMemberHandle member;
  MetadataView metadata;
  std::optional<platformpp_user_handle> user;

  explicit platformpp_lobby_member_handle(const platformpp::LobbyMemberHandle& m)
      : member(m), metadata(m.Metadata()) {
    if (auto u = m.User()) user = MakeUser(*u);
  }
};

struct platformpp_lobby_handle {
  platformpp::LobbyHandle lobby;
  MetadataView metadata;
  std::vector<platformpp_lobby_member_handle> members;
  std::optional<platformpp::LinkedChannel> linked;
  std::string linkedName;
  std::vector<uint64_t> participants;

  explicit platformpp_lobby_handle(const platformpp::LobbyHandle& l)
      : lobby(l), metadata(l.Metadata()), linked(l.LinkedChannel()) {
    auto all = l.LobbyMembers();
    members.reserve(all.size());
    for (const auto& m : all)
      members.emplace_back(m);
    if (linked) linkedName = linked->Name();
    if (auto call = l.GetCallInfoHandle()) participants = call->GetParticipants();
  }
};

namespace {

const platformpp_string_pair* PairsOut(const MetadataView& view, size_t* count) {
  if (count) *count = view.pairs.size();
  return view.pairs.empty() ? nullptr : view.pairs.data();
}

template <class Setter>
void SetLobbyMemberCallback(platformpp_client* client, const char* entry, platformpp_lobby_member_fn callback,
                            void* user_data, platformpp_user_data_free_fn user_data_free, Setter set) {
  RegisterEventCallback(client, entry, callback, user_data, user_data_free, set, [](auto fn, auto owned) {
    return [fn, owned](uint64_t lobbyId, uint64_t memberId) { fn(lobbyId, memberId, owned->Get()); };
  });
}

}  // namespace

extern "C" {

void platformpp_client_create_or_join_lobby(platformpp_client* client, const char* secret, size_t secret_size,
                                            const platformpp_string_pair* lobby_metadata,
                                            size_t lobby_metadata_count,
                                            const platformpp_string_pair* member_metadata,
                                            size_t member_metadata_count,
                                            platformpp_lobby_id_result_fn callback, void* user_data,
                                            platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_lobby_id_result_fn>& op) {
                   auto done = [op](platformpp::ClientResult result, uint64_t lobbyId) {
                     auto joined = op->Claim();
                     if (!joined) return;
                     platformpp_client_result view{std::move(result)};
                     joined(&view, lobbyId, op->Data());
                   };
                   if (lobby_metadata || member_metadata)
                     client->client.CreateOrJoinLobbyWithMetadata(
                         ToString(secret, secret_size), ToMetadata(lobby_metadata, lobby_metadata_count),
                         ToMetadata(member_metadata, member_metadata_count), std::move(done));
                   else
                     client->client.CreateOrJoinLobby(ToString(secret, secret_size), std::move(done));
                 });
}

void platformpp_client_leave_lobby(platformpp_client* client, uint64_t lobby_id,
                                   platformpp_result_fn callback, void* user_data,
                                   platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free,
                  [&](auto done) { client->client.LeaveLobby(lobby_id, std::move(done)); });
}

platformpp_lobby_handle* platformpp_client_get_lobby_handle(const platformpp_client* client,
                                                            uint64_t lobby_id) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_lobby_handle*>(nullptr),
                   [&]() -> platformpp_lobby_handle* {
                     auto lobby = client->client.GetLobbyHandle(lobby_id);
                     return lobby ? new platformpp_lobby_handle(*lobby) : nullptr;
                   });
}

size_t platformpp_client_get_lobby_ids(const platformpp_client* client, uint64_t* ids, size_t capacity) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, size_t{0}, [&] {
    auto all = client->client.GetLobbyIds();
    for (size_t i = 0; ids && i < capacity && i < all.size(); ++i)
      ids[i] = all[i];
    return all.size();
  });
}

void platformpp_client_link_channel_to_lobby(platformpp_client* client, uint64_t lobby_id,
                                             uint64_t channel_id, platformpp_result_fn callback,
                                             void* user_data, platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.LinkChannelToLobby(lobby_id, channel_id, std::move(done));
  });
}

void platformpp_client_unlink_channel_from_lobby(platformpp_client* client, uint64_t lobby_id,
                                                 platformpp_result_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free,
                  [&](auto done) { client->client.UnlinkChannelFromLobby(lobby_id, std::move(done)); });
}

void platformpp_client_join_linked_lobby_guild(platformpp_client* client, uint64_t lobby_id,
                                               platformpp_notify_fn merge_required,
                                               platformpp_string_result_fn callback, void* user_data,
                                               platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_string_result_fn>& op) {
                   client->client.JoinLinkedLobbyGuild(
                       lobby_id,
                       [merge_required, op] {  // not the completion: the operation still ends after it
                         if (merge_required) merge_required(op->Data());
                       },
                       [op](platformpp::ClientResult result, const std::string& url) {
                         auto done = op->Claim();
                         if (!done) return;
                         platformpp_client_result view{std::move(result)};
                         done(&view, url.c_str(), url.size(), op->Data());
                       });
                 });
}

void platformpp_client_set_lobby_created_callback(platformpp_client* client, platformpp_id_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetLobbyCreatedCallback(std::move(cb)); });
}

void platformpp_client_set_lobby_updated_callback(platformpp_client* client, platformpp_id_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetLobbyUpdatedCallback(std::move(cb)); });
}

void platformpp_client_set_lobby_deleted_callback(platformpp_client* client, platformpp_id_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetLobbyDeletedCallback(std::move(cb)); });
}

void platformpp_client_set_lobby_member_added_callback(platformpp_client* client,
                                                       platformpp_lobby_member_fn callback, void* user_data,
                                                       platformpp_user_data_free_fn user_data_free) {
  SetLobbyMemberCallback(client, __func__, callback, user_data, user_data_free,
                         [client](auto cb) { client->client.SetLobbyMemberAddedCallback(std::move(cb)); });
}

void platformpp_client_set_lobby_member_updated_callback(platformpp_client* client,
                                                         platformpp_lobby_member_fn callback, void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetLobbyMemberCallback(client, __func__, callback, user_data, user_data_free,
                         [client](auto cb) { client->client.SetLobbyMemberUpdatedCallback(std::move(cb)); });
}

void platformpp_client_set_lobby_member_removed_callback(platformpp_client* client,
                                                         platformpp_lobby_member_fn callback, void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetLobbyMemberCallback(client, __func__, callback, user_data, user_data_free,
                         [client](auto cb) { client->client.SetLobbyMemberRemovedCallback(std::move(cb)); });
}

void platformpp_lobby_handle_destroy(platformpp_lobby_handle* lobby) {
  delete lobby;
}

uint64_t platformpp_lobby_handle_id(const platformpp_lobby_handle* lobby) {
  return lobby ? lobby->lobby.Id() : 0;
}

const platformpp_string_pair* platformpp_lobby_handle_metadata(const platformpp_lobby_handle* lobby,
                                                               size_t* count) {
  if (!lobby) {
    if (count) *count = 0;
    return nullptr;
  }
  return PairsOut(lobby->metadata, count);
}

size_t platformpp_lobby_handle_member_count(const platformpp_lobby_handle* lobby) {
  return lobby ? lobby->members.size() : 0;
}

const platformpp_lobby_member_handle* platformpp_lobby_handle_member_at(const platformpp_lobby_handle* lobby,
                                                                        size_t index) {
  return lobby && index < lobby->members.size() ? &lobby->members[index] : nullptr;
}

const platformpp_lobby_member_handle* platformpp_lobby_handle_member(const platformpp_lobby_handle* lobby,
                                                                     uint64_t member_id) {
  if (!lobby) return nullptr;
  for (const auto& member : lobby->members)
    if (member.member.Id() == member_id) return &member;
  return nullptr;
}

int32_t platformpp_lobby_handle_linked_channel(const platformpp_lobby_handle* lobby, uint64_t* channel_id,
                                               uint64_t* guild_id, const char** name, size_t* name_size) {
  if (!lobby || !lobby->linked) return 0;
  if (channel_id) *channel_id = lobby->linked->Id();
  if (guild_id) *guild_id = lobby->linked->GuildId();
  if (name) *name = lobby->linkedName.c_str();
  if (name_size) *name_size = lobby->linkedName.size();
  return 1;
}

const uint64_t* platformpp_lobby_handle_call_participants(const platformpp_lobby_handle* lobby,
                                                          size_t* count) {
  const bool any = lobby && !lobby->participants.empty();
  if (count) *count = any ? lobby->participants.size() : 0;
  return any ? lobby->participants.data() : nullptr;
}

uint64_t platformpp_lobby_member_handle_id(const platformpp_lobby_member_handle* member) {
  return member ? member->member.Id() : 0;
}

uint32_t platformpp_lobby_member_handle_flags(const platformpp_lobby_member_handle* member) {
  return member ? member->member.Flags() : 0;
}

int32_t platformpp_lobby_member_handle_can_link_lobby(const platformpp_lobby_member_handle* member) {
  return member && member->member.CanLinkLobby() ? 1 : 0;
}

int32_t platformpp_lobby_member_handle_connected(const platformpp_lobby_member_handle* member) {
  return member && member->member.Connected() ? 1 : 0;
}

const platformpp_string_pair* platformpp_lobby_member_handle_metadata(
    const platformpp_lobby_member_handle* member, size_t* count) {
  if (!member) {
    if (count) *count = 0;
    return nullptr;
  }
  return PairsOut(member->metadata, count);
}

const platformpp_user_handle* platformpp_lobby_member_handle_user(
    const platformpp_lobby_member_handle* member) {
  return member && member->user ? &*member->user : nullptr;
}

}  // extern "C"
