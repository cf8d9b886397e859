// The C ABI of users, relationships and guilds. Nothing may throw across this boundary, and nothing thrown
// may vanish (see c_support.hpp). Handles and lists are snapshots of the C++ values, with the strings their
// getters hand out: reading them allocates nothing, except a user's avatar URL.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace platformpp::c_api;

struct platformpp_relationship_handle {
  platformpp::RelationshipHandle relationship;
  std::optional<platformpp_user_handle> user;
};

struct platformpp_relationship_list {
  std::vector<platformpp_relationship_handle> items;
};

struct platformpp_user_list {
  std::vector<platformpp_user_handle> items;
};

struct platformpp_user_application_profile_list {
  std::vector<platformpp::UserApplicationProfileHandle> profiles;
  struct Strings {
    std::string avatarHash, metadata, providerIssuedUserId, providerType, username;
    std::optional<std::string> providerId;
  };
  std::vector<Strings> strings;
  std::vector<platformpp_user_application_profile> views;
};

namespace {

platformpp_user_handle* NewUser(const platformpp::UserHandle& user) {
  return new platformpp_user_handle(MakeUser(user));
}

platformpp_relationship_handle MakeRelationship(const platformpp::RelationshipHandle& relationship) {
  std::optional<platformpp::UserHandle> user = relationship.User();
  return platformpp_relationship_handle{relationship, user ? std::optional(MakeUser(*user)) : std::nullopt};
}

platformpp_relationship_list* NewList(const std::vector<platformpp::RelationshipHandle>& relationships) {
  auto list = std::make_unique<platformpp_relationship_list>();
  list->items.reserve(relationships.size());
  for (const auto& relationship : relationships)
    list->items.push_back(MakeRelationship(relationship));
  return list.release();
}

template <class Setter>
void SetRelationshipChangedCallback(platformpp_client* client, const char* entry,
                                    platformpp_relationship_changed_fn callback, void* user_data,
                                    platformpp_user_data_free_fn user_data_free, Setter set) {
  RegisterEventCallback(client, entry, callback, user_data, user_data_free, set, [](auto fn, auto owned) {
    return [fn, owned](uint64_t userId, bool isDiscord) { fn(userId, isDiscord ? 1 : 0, owned->Get()); };
  });
}

}  // namespace

extern "C" {

size_t platformpp_client_result_field_error_count(const platformpp_client_result* result) {
  return result ? result->result.FieldErrors().size() : 0;
}

const char* platformpp_client_result_field_error_path(const platformpp_client_result* result, size_t index,
                                                      size_t* size) {
  if (!result || index >= result->result.FieldErrors().size()) return EmptyOut(size);
  return StringOut(result->result.FieldErrors()[index].path, size);
}

const char* platformpp_client_result_field_error_message(const platformpp_client_result* result, size_t index,
                                                         size_t* size) {
  if (!result || index >= result->result.FieldErrors().size()) return EmptyOut(size);
  return StringOut(result->result.FieldErrors()[index].message, size);
}

platformpp_user_handle* platformpp_client_get_current_user(const platformpp_client* client) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_user_handle*>(nullptr), [&] {
    std::optional<platformpp::UserHandle> user = client->client.GetCurrentUserV2();
    return user ? NewUser(*user) : nullptr;
  });
}

platformpp_user_handle* platformpp_client_get_user(const platformpp_client* client, uint64_t user_id) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_user_handle*>(nullptr), [&] {
    std::optional<platformpp::UserHandle> user = client->client.GetUser(user_id);
    return user ? NewUser(*user) : nullptr;
  });
}

platformpp_user_handle* platformpp_user_handle_clone(const platformpp_user_handle* user) {
  return CloneHandle(user);
}

void platformpp_user_handle_destroy(platformpp_user_handle* user) {
  delete user;
}

uint64_t platformpp_user_handle_id(const platformpp_user_handle* user) {
  return user ? user->user.Id() : 0;
}

const char* platformpp_user_handle_username(const platformpp_user_handle* user, size_t* size) {
  return user ? StringOut(user->username, size) : EmptyOut(size);
}

const char* platformpp_user_handle_display_name(const platformpp_user_handle* user, size_t* size) {
  return user ? StringOut(user->displayName, size) : EmptyOut(size);
}

const char* platformpp_user_handle_avatar(const platformpp_user_handle* user, size_t* size) {
  if (!user) return OptionalOut(std::nullopt, size);
  return OptionalOut(user->avatar, size);
}

const char* platformpp_user_handle_avatar_url(const platformpp_user_handle* user,
                                              platformpp_avatar_type animated_type,
                                              platformpp_avatar_type static_type, size_t* size) {
  if (!user) return EmptyOut(size);
  try {  // out of memory: "" (never a URL) is the report
    user->avatarUrl = user->user.AvatarUrl(FromCEnum<platformpp::UserHandle::AvatarType>(animated_type),
                                           FromCEnum<platformpp::UserHandle::AvatarType>(static_type));
    return StringOut(user->avatarUrl, size);
  } catch (...) {
    return EmptyOut(size);
  }
}

platformpp_status_type platformpp_user_handle_status(const platformpp_user_handle* user) {
  return user ? static_cast<platformpp_status_type>(user->user.Status()) : PLATFORMPP_STATUS_TYPE_UNKNOWN;
}

platformpp_activity* platformpp_user_handle_game_activity(const platformpp_user_handle* user) {
  if (!user) return nullptr;
  try {  // out of memory: NULL is the report
    std::optional<platformpp::Activity> activity = user->user.GameActivity();
    return activity ? NewActivity(*activity) : nullptr;
  } catch (...) {
    return nullptr;
  }
}

int32_t platformpp_user_handle_is_provisional(const platformpp_user_handle* user) {
  return user && user->user.IsProvisional() ? 1 : 0;
}

const char* platformpp_user_handle_primary_guild_tag(const platformpp_user_handle* user, size_t* size) {
  if (!user) return OptionalOut(std::nullopt, size);
  return OptionalOut(user->tag, size);
}

int32_t platformpp_user_handle_premium_type(const platformpp_user_handle* user) {
  return user ? user->user.PremiumType() : 0;
}

platformpp_relationship_type platformpp_user_handle_relationship(const platformpp_user_handle* user) {
  return user ? static_cast<platformpp_relationship_type>(user->user.Relationship())
              : PLATFORMPP_RELATIONSHIP_TYPE_NONE;
}

platformpp_relationship_handle* platformpp_client_get_relationship_handle(const platformpp_client* client,
                                                                          uint64_t user_id) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_relationship_handle*>(nullptr),
                   [&] {
                     return new platformpp_relationship_handle(
                         MakeRelationship(client->client.GetRelationshipHandle(user_id)));
                   });
}

void platformpp_relationship_handle_destroy(platformpp_relationship_handle* relationship) {
  delete relationship;
}

uint64_t platformpp_relationship_handle_id(const platformpp_relationship_handle* relationship) {
  return relationship ? relationship->relationship.Id() : 0;
}

platformpp_relationship_type platformpp_relationship_handle_discord_type(
    const platformpp_relationship_handle* relationship) {
  return relationship
             ? static_cast<platformpp_relationship_type>(relationship->relationship.DiscordRelationshipType())
             : PLATFORMPP_RELATIONSHIP_TYPE_NONE;
}

platformpp_relationship_type platformpp_relationship_handle_game_type(
    const platformpp_relationship_handle* relationship) {
  return relationship
             ? static_cast<platformpp_relationship_type>(relationship->relationship.GameRelationshipType())
             : PLATFORMPP_RELATIONSHIP_TYPE_NONE;
}

int32_t platformpp_relationship_handle_is_spam_request(const platformpp_relationship_handle* relationship) {
  return relationship && relationship->relationship.IsSpamRequest() ? 1 : 0;
}

const platformpp_user_handle* platformpp_relationship_handle_user(
    const platformpp_relationship_handle* relationship) {
  return relationship && relationship->user ? &*relationship->user : nullptr;
}

platformpp_relationship_list* platformpp_client_get_relationships(const platformpp_client* client) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_relationship_list*>(nullptr),
                   [&] { return NewList(client->client.GetRelationships()); });
}

platformpp_relationship_list* platformpp_client_get_relationships_by_group(
    const platformpp_client* client, platformpp_relationship_group_type group) {
  if (!client) return nullptr;
  return GuardedOr(
      client->boundary.get(), __func__, static_cast<platformpp_relationship_list*>(nullptr), [&] {
        return NewList(
            client->client.GetRelationshipsByGroup(FromCEnum<platformpp::RelationshipGroupType>(group)));
      });
}

size_t platformpp_relationship_list_size(const platformpp_relationship_list* list) {
  return list ? list->items.size() : 0;
}

const platformpp_relationship_handle* platformpp_relationship_list_at(
    const platformpp_relationship_list* list, size_t index) {
  return list && index < list->items.size() ? &list->items[index] : nullptr;
}

void platformpp_relationship_list_destroy(platformpp_relationship_list* list) {
  delete list;
}

platformpp_user_list* platformpp_client_search_friends_by_username(const platformpp_client* client,
                                                                   const char* search, size_t search_size) {
  if (!client) return nullptr;
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_user_list*>(nullptr), [&] {
    auto list = std::make_unique<platformpp_user_list>();
    for (const auto& user : client->client.SearchFriendsByUsername(ToString(search, search_size)))
      list->items.push_back(MakeUser(user));
    return list.release();
  });
}

size_t platformpp_user_list_size(const platformpp_user_list* list) {
  return list ? list->items.size() : 0;
}

const platformpp_user_handle* platformpp_user_list_at(const platformpp_user_list* list, size_t index) {
  return list && index < list->items.size() ? &list->items[index] : nullptr;
}

void platformpp_user_list_destroy(platformpp_user_list* list) {
  delete list;
}

void platformpp_client_send_discord_friend_request(platformpp_client* client, const char* username,
                                                   size_t username_size, platformpp_result_fn callback,
                                                   void* user_data,
                                                   platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.SendDiscordFriendRequest(ToString(username, username_size), std::move(done));
  });
}

void platformpp_client_send_game_friend_request(platformpp_client* client, const char* username,
                                                size_t username_size, platformpp_result_fn callback,
                                                void* user_data,
                                                platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.SendGameFriendRequest(ToString(username, username_size), std::move(done));
  });
}

void platformpp_client_relationship_action(platformpp_client* client, platformpp_relationship_action action,
                                           uint64_t user_id, platformpp_result_fn callback, void* user_data,
                                           platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    platformpp::Client& c = client->client;
    switch (CEnumValue(action)) {
      case PLATFORMPP_RELATIONSHIP_ACTION_SEND_DISCORD_FRIEND_REQUEST:
        return c.SendDiscordFriendRequestById(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_SEND_GAME_FRIEND_REQUEST:
        return c.SendGameFriendRequestById(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_DISCORD_FRIEND_REQUEST:
        return c.AcceptDiscordFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_ACCEPT_GAME_FRIEND_REQUEST:
        return c.AcceptGameFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_REJECT_DISCORD_FRIEND_REQUEST:
        return c.RejectDiscordFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_REJECT_GAME_FRIEND_REQUEST:
        return c.RejectGameFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_DISCORD_FRIEND_REQUEST:
        return c.CancelDiscordFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_CANCEL_GAME_FRIEND_REQUEST:
        return c.CancelGameFriendRequest(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_DISCORD_AND_GAME_FRIEND:
        return c.RemoveDiscordAndGameFriend(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_REMOVE_GAME_FRIEND:
        return c.RemoveGameFriend(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_BLOCK_USER:
        return c.BlockUser(user_id, std::move(done));
      case PLATFORMPP_RELATIONSHIP_ACTION_UNBLOCK_USER:
        return c.UnblockUser(user_id, std::move(done));
      default:
        // An unknown action: the C++ API's own validation (user id 0 is never valid) ends the call inside
        // run_callbacks, with this message.
        return c.BlockUser(0, [done](const platformpp::ClientResult&) {
          done(platformpp::ClientResult::Failure(platformpp::ErrorType::ValidationError,
                                                 "unknown relationship action"));
        });
    }
  });
}

void platformpp_client_set_relationship_created_callback(platformpp_client* client,
                                                         platformpp_relationship_changed_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetRelationshipChangedCallback(client, __func__, callback, user_data, user_data_free, [client](auto cb) {
    client->client.SetRelationshipCreatedCallback(std::move(cb));
  });
}

void platformpp_client_set_relationship_deleted_callback(platformpp_client* client,
                                                         platformpp_relationship_changed_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  SetRelationshipChangedCallback(client, __func__, callback, user_data, user_data_free, [client](auto cb) {
    client->client.SetRelationshipDeletedCallback(std::move(cb));
  });
}

void platformpp_client_set_relationship_groups_updated_callback(platformpp_client* client,
                                                                platformpp_user_id_fn callback,
                                                                void* user_data,
                                                                platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free, [client](auto cb) {
    client->client.SetRelationshipGroupsUpdatedCallback(std::move(cb));
  });
}

void platformpp_client_set_user_updated_callback(platformpp_client* client, platformpp_user_id_fn callback,
                                                 void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  SetUserIdCallback(client, __func__, callback, user_data, user_data_free,
                    [client](auto cb) { client->client.SetUserUpdatedCallback(std::move(cb)); });
}

void platformpp_client_get_user_guilds(platformpp_client* client, platformpp_user_guilds_fn callback,
                                       void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_user_guilds_fn>& op) {
                   client->client.GetUserGuilds([op](platformpp::ClientResult result,
                                                     const std::vector<platformpp::GuildMinimal>& guilds) {
                     auto done = op->Claim();
                     if (!done) return;
                     std::vector<std::string> names, banners;
                     std::vector<platformpp_guild_minimal> views;
                     try {
                       names.reserve(guilds.size());
                       banners.reserve(guilds.size());
                       views.reserve(guilds.size());
                       for (const auto& guild : guilds) {
                         names.push_back(guild.Name());
                         banners.push_back(guild.Banner());
                         views.push_back({guild.Id(), names.back().c_str(), names.back().size(),
                                          banners.back().c_str(), banners.back().size()});
                       }
                     } catch (...) {
                       platformpp_client_result failed{op->Fail(std::current_exception())};
                       return CallFailed(done, &failed, op->Data());
                     }
                     platformpp_client_result view{std::move(result)};
                     done(&view, views.data(), views.size(), op->Data());
                   });
                 });
}

void platformpp_client_get_guild_channels(platformpp_client* client, uint64_t guild_id,
                                          platformpp_guild_channels_fn callback, void* user_data,
                                          platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(
      client->boundary, __func__, callback, user_data, user_data_free, nullptr,
      [&](const OperationPtr<platformpp_guild_channels_fn>& op) {
        client->client.GetGuildChannels(
            guild_id,
            [op](platformpp::ClientResult result, const std::vector<platformpp::GuildChannel>& channels) {
              auto done = op->Claim();
              if (!done) return;
              std::vector<std::string> names;
              std::vector<std::optional<std::string>> statuses;
              std::vector<platformpp_guild_channel> views;
              try {
                names.reserve(channels.size());
                statuses.reserve(channels.size());
                views.reserve(channels.size());
                for (const auto& channel : channels) {
                  names.push_back(channel.Name());
                  statuses.push_back(channel.VoiceStatus());
                  const auto& status = statuses.back();
                  views.push_back({channel.Id(), names.back().c_str(), names.back().size(), channel.Type(),
                                   channel.Position(), channel.ParentCategoryId().value_or(0),
                                   status ? status->c_str() : nullptr, status ? status->size() : 0});
                }
              } catch (...) {
                platformpp_client_result failed{op->Fail(std::current_exception())};
                return CallFailed(done, &failed, op->Data());
              }
              platformpp_client_result view{std::move(result)};
              done(&view, views.data(), views.size(), op->Data());
            });
      });
}

platformpp_user_application_profile_list* platformpp_client_get_user_application_profiles(
    const platformpp_client* client) {
  if (!client) return nullptr;
  return GuardedOr(
      client->boundary.get(), __func__, static_cast<platformpp_user_application_profile_list*>(nullptr), [&] {
        auto list = std::make_unique<platformpp_user_application_profile_list>();
        list->profiles = client->client.GetUserApplicationProfiles();
        list->strings.reserve(list->profiles.size());
        list->views.reserve(list->profiles.size());
        for (const auto& profile : list->profiles) {
          list->strings.push_back({profile.AvatarHash(), profile.Metadata(), profile.ProviderIssuedUserId(),
                                   profile.ProviderType(), profile.Username(), profile.ProviderId()});
        }
        for (const auto& s : list->strings) {
          list->views.push_back({s.avatarHash.c_str(), s.avatarHash.size(), s.metadata.c_str(),
                                 s.metadata.size(), s.providerId ? s.providerId->c_str() : nullptr,
                                 s.providerId ? s.providerId->size() : 0, s.providerIssuedUserId.c_str(),
                                 s.providerIssuedUserId.size(), s.providerType.c_str(), s.providerType.size(),
                                 s.username.c_str(), s.username.size()});
        }
        return list.release();
      });
}

size_t platformpp_user_application_profile_list_size(const platformpp_user_application_profile_list* list) {
  return list ? list->views.size() : 0;
}

const platformpp_user_application_profile* platformpp_user_application_profile_list_at(
    const platformpp_user_application_profile_list* list, size_t index) {
  return list && index < list->views.size() ? &list->views[index] : nullptr;
}

void platformpp_user_application_profile_list_destroy(platformpp_user_application_profile_list* list) {
  delete list;
}

}  // extern "C"
