// The C ABI of rich presence and activity invites. Nothing may throw across this boundary: every entry point
// catches.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <new>
#include <optional>
#include <string>

using namespace platformpp::c_api;

struct platformpp_activity {
  platformpp::Activity activity;
  // Getters hand out pointers into these, so they live as long as the handle.
  mutable std::string name, state, details, partyId;
};

struct platformpp_activity_invite {
  platformpp::ActivityInvite invite;
  std::string partyId, sessionId;
};

namespace platformpp::c_api {

platformpp_activity* NewActivity(const platformpp::Activity& activity) {
  return new (std::nothrow) platformpp_activity{activity, {}, {}, {}, {}};
}

}  // namespace platformpp::c_api

namespace {

std::optional<std::string> Optional(const char* ptr, size_t size) {
  if (!ptr) return std::nullopt;
  return std::string(ptr, size);
}

const char* OptionalOut(const std::optional<std::string>& value, std::string& keep, size_t* size) {
  if (!value) {
    if (size) *size = 0;
    return nullptr;
  }
  keep = *value;
  return StringOut(keep, size);
}

// Assets are optional as a whole: edit a copy, then store it back.
template <class Edit>
void EditAssets(platformpp_activity* activity, Edit edit) {
  platformpp::ActivityAssets assets = activity->activity.Assets().value_or(platformpp::ActivityAssets{});
  edit(assets);
  activity->activity.SetAssets(assets);
}

platformpp::Client::ActivityInviteCallback InviteCallback(platformpp_activity_invite_fn callback,
                                                          std::shared_ptr<UserData> owned) {
  return [callback, owned](platformpp::ActivityInvite invite) {
    platformpp_activity_invite view{invite, invite.PartyId(), invite.SessionId()};
    callback(&view, owned->Get());
  };
}

// The created and updated invite registrations differ only in the Client method they call.
void SetInviteCallback(platformpp_client* client, platformpp_activity_invite_fn callback, void* user_data,
                       platformpp_user_data_free_fn user_data_free,
                       void (platformpp::Client::*set)(platformpp::Client::ActivityInviteCallback)) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = Own(user_data, user_data_free);
    (client->client.*set)(callback ? InviteCallback(callback, owned) : nullptr);
  } catch (...) {
  }
}

}  // namespace

extern "C" {

platformpp_activity* platformpp_activity_create(void) {
  try {
    return NewActivity(platformpp::Activity{});
  } catch (...) {
    return nullptr;
  }
}

platformpp_activity* platformpp_activity_clone(const platformpp_activity* activity) {
  if (!activity) return nullptr;
  try {
    return NewActivity(activity->activity);
  } catch (...) {
    return nullptr;
  }
}

void platformpp_activity_destroy(platformpp_activity* activity) {
  delete activity;
}

void platformpp_activity_set_name(platformpp_activity* activity, const char* name, size_t name_size) {
  if (!activity) return;
  try {
    activity->activity.SetName(ToString(name, name_size));
  } catch (...) {
  }
}

void platformpp_activity_set_type(platformpp_activity* activity, platformpp_activity_type type) {
  if (activity) activity->activity.SetType(static_cast<platformpp::ActivityTypes>(type));
}

void platformpp_activity_set_status_display_type(platformpp_activity* activity,
                                                 platformpp_status_display_type type) {
  if (!activity) return;
  if (type == PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET) {
    activity->activity.SetStatusDisplayType(std::nullopt);
  } else {
    activity->activity.SetStatusDisplayType(static_cast<platformpp::StatusDisplayTypes>(type));
  }
}

void platformpp_activity_set_state(platformpp_activity* activity, const char* state, size_t state_size) {
  if (!activity) return;
  try {
    activity->activity.SetState(Optional(state, state_size));
  } catch (...) {
  }
}

void platformpp_activity_set_state_url(platformpp_activity* activity, const char* url, size_t url_size) {
  if (!activity) return;
  try {
    activity->activity.SetStateUrl(Optional(url, url_size));
  } catch (...) {
  }
}

void platformpp_activity_set_details(platformpp_activity* activity, const char* details,
                                     size_t details_size) {
  if (!activity) return;
  try {
    activity->activity.SetDetails(Optional(details, details_size));
  } catch (...) {
  }
}

void platformpp_activity_set_details_url(platformpp_activity* activity, const char* url, size_t url_size) {
  if (!activity) return;
  try {
    activity->activity.SetDetailsUrl(Optional(url, url_size));
  } catch (...) {
  }
}

void platformpp_activity_set_application_id(platformpp_activity* activity, uint64_t application_id) {
  if (!activity) return;
  activity->activity.SetApplicationId(application_id ? std::optional<uint64_t>(application_id)
                                                     : std::nullopt);
}

void platformpp_activity_set_asset(platformpp_activity* activity, platformpp_activity_asset asset,
                                   const char* value, size_t value_size) {
  if (!activity) return;
  try {
    std::optional<std::string> v = Optional(value, value_size);
    EditAssets(activity, [&](platformpp::ActivityAssets& assets) {
      switch (asset) {
        case PLATFORMPP_ACTIVITY_ASSET_LARGE_IMAGE:
          assets.SetLargeImage(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_LARGE_TEXT:
          assets.SetLargeText(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_LARGE_URL:
          assets.SetLargeUrl(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_SMALL_IMAGE:
          assets.SetSmallImage(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_SMALL_TEXT:
          assets.SetSmallText(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_SMALL_URL:
          assets.SetSmallUrl(v);
          break;
        case PLATFORMPP_ACTIVITY_ASSET_INVITE_COVER_IMAGE:
          assets.SetInviteCoverImage(v);
          break;
        default:
          break;
      }
    });
  } catch (...) {
  }
}

void platformpp_activity_set_timestamps(platformpp_activity* activity, uint64_t start_ms, uint64_t end_ms) {
  if (!activity) return;
  if (start_ms == 0 && end_ms == 0) {
    activity->activity.SetTimestamps(std::nullopt);
    return;
  }
  platformpp::ActivityTimestamps timestamps;
  timestamps.SetStart(start_ms);
  timestamps.SetEnd(end_ms);
  activity->activity.SetTimestamps(timestamps);
}

void platformpp_activity_set_party(platformpp_activity* activity, const char* id, size_t id_size,
                                   int32_t current_size, int32_t max_size,
                                   platformpp_activity_party_privacy privacy) {
  if (!activity) return;
  try {
    if (!id) {
      activity->activity.SetParty(std::nullopt);
      return;
    }
    platformpp::ActivityParty party;
    party.SetId(std::string(id, id_size));
    party.SetCurrentSize(current_size);
    party.SetMaxSize(max_size);
    party.SetPrivacy(static_cast<platformpp::ActivityPartyPrivacy>(privacy));
    activity->activity.SetParty(party);
  } catch (...) {
  }
}

void platformpp_activity_set_join_secret(platformpp_activity* activity, const char* secret,
                                         size_t secret_size) {
  if (!activity) return;
  try {
    if (!secret) {
      activity->activity.SetSecrets(std::nullopt);
      return;
    }
    platformpp::ActivitySecrets secrets;
    secrets.SetJoin(std::string(secret, secret_size));
    activity->activity.SetSecrets(secrets);
  } catch (...) {
  }
}

void platformpp_activity_set_supported_platforms(platformpp_activity* activity, int32_t platforms) {
  if (activity) activity->activity.SetSupportedPlatforms(platforms);
}

void platformpp_activity_add_button(platformpp_activity* activity, const char* label, size_t label_size,
                                    const char* url, size_t url_size) {
  if (!activity) return;
  try {
    platformpp::ActivityButton button;
    button.SetLabel(ToString(label, label_size));
    button.SetUrl(ToString(url, url_size));
    activity->activity.AddButton(std::move(button));
  } catch (...) {
  }
}

const char* platformpp_activity_name(const platformpp_activity* activity, size_t* size) {
  if (!activity) return EmptyOut(size);
  try {
    activity->name = activity->activity.Name();
    return StringOut(activity->name, size);
  } catch (...) {
    return EmptyOut(size);
  }
}

platformpp_activity_type platformpp_activity_get_type(const platformpp_activity* activity) {
  return activity ? static_cast<platformpp_activity_type>(activity->activity.Type())
                  : PLATFORMPP_ACTIVITY_TYPE_PLAYING;
}

const char* platformpp_activity_state(const platformpp_activity* activity, size_t* size) {
  if (!activity) {
    if (size) *size = 0;
    return nullptr;
  }
  try {
    return OptionalOut(activity->activity.State(), activity->state, size);
  } catch (...) {
    if (size) *size = 0;
    return nullptr;
  }
}

const char* platformpp_activity_details(const platformpp_activity* activity, size_t* size) {
  if (!activity) {
    if (size) *size = 0;
    return nullptr;
  }
  try {
    return OptionalOut(activity->activity.Details(), activity->details, size);
  } catch (...) {
    if (size) *size = 0;
    return nullptr;
  }
}

uint64_t platformpp_activity_application_id(const platformpp_activity* activity) {
  return activity ? activity->activity.ApplicationId().value_or(0) : 0;
}

const char* platformpp_activity_party_id(const platformpp_activity* activity, size_t* size) {
  if (!activity || !activity->activity.Party()) {
    if (size) *size = 0;
    return nullptr;
  }
  try {
    activity->partyId = activity->activity.Party()->Id();
    return StringOut(activity->partyId, size);
  } catch (...) {
    if (size) *size = 0;
    return nullptr;
  }
}

int32_t platformpp_activity_party_current_size(const platformpp_activity* activity) {
  return activity && activity->activity.Party() ? activity->activity.Party()->CurrentSize() : 0;
}

int32_t platformpp_activity_party_max_size(const platformpp_activity* activity) {
  return activity && activity->activity.Party() ? activity->activity.Party()->MaxSize() : 0;
}

size_t platformpp_activity_button_count(const platformpp_activity* activity) {
  return activity ? activity->activity.GetButtons().size() : 0;
}

void platformpp_client_update_rich_presence(platformpp_client* client, const platformpp_activity* activity,
                                            platformpp_result_fn callback, void* user_data,
                                            platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto done = ResultOnly(callback, user_data, user_data_free);
    if (!activity) {
      // A type no game may set: the C++ API's own validation refuses it before sending anything, and the
      // result arrives inside run_callbacks like every other.
      platformpp::Activity refused;
      refused.SetType(platformpp::ActivityTypes::HangStatus);
      client->client.UpdateRichPresence(refused, [done](platformpp::ClientResult) {
        done(platformpp::ClientResult::Failure(platformpp::ErrorType::ValidationError, "activity is NULL"));
      });
      return;
    }
    client->client.UpdateRichPresence(activity->activity, std::move(done));
  } catch (...) {
  }
}

void platformpp_client_clear_rich_presence(platformpp_client* client) {
  if (!client) return;
  try {
    client->client.ClearRichPresence();
  } catch (...) {
  }
}

void platformpp_client_set_online_status(platformpp_client* client, platformpp_status_type status,
                                         platformpp_result_fn callback, void* user_data,
                                         platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    client->client.SetOnlineStatus(static_cast<platformpp::StatusType>(status),
                                   ResultOnly(callback, user_data, user_data_free));
  } catch (...) {
  }
}

platformpp_activity_invite* platformpp_activity_invite_clone(const platformpp_activity_invite* invite) {
  if (!invite) return nullptr;
  try {
    return new (std::nothrow) platformpp_activity_invite{*invite};
  } catch (...) {
    return nullptr;
  }
}

void platformpp_activity_invite_destroy(platformpp_activity_invite* invite) {
  delete invite;
}

uint64_t platformpp_activity_invite_sender_id(const platformpp_activity_invite* invite) {
  return invite ? invite->invite.SenderId() : 0;
}
uint64_t platformpp_activity_invite_channel_id(const platformpp_activity_invite* invite) {
  return invite ? invite->invite.ChannelId() : 0;
}
uint64_t platformpp_activity_invite_message_id(const platformpp_activity_invite* invite) {
  return invite ? invite->invite.MessageId() : 0;
}
platformpp_activity_action_type platformpp_activity_invite_type(const platformpp_activity_invite* invite) {
  return invite ? static_cast<platformpp_activity_action_type>(invite->invite.Type())
                : PLATFORMPP_ACTIVITY_ACTION_TYPE_INVALID;
}
uint64_t platformpp_activity_invite_application_id(const platformpp_activity_invite* invite) {
  return invite ? invite->invite.ApplicationId() : 0;
}
const char* platformpp_activity_invite_party_id(const platformpp_activity_invite* invite, size_t* size) {
  return invite ? StringOut(invite->partyId, size) : EmptyOut(size);
}
const char* platformpp_activity_invite_session_id(const platformpp_activity_invite* invite, size_t* size) {
  return invite ? StringOut(invite->sessionId, size) : EmptyOut(size);
}
int32_t platformpp_activity_invite_is_valid(const platformpp_activity_invite* invite) {
  return invite && invite->invite.IsValid() ? 1 : 0;
}

void platformpp_client_send_activity_invite(platformpp_client* client, uint64_t user_id, const char* content,
                                            size_t content_size, platformpp_result_fn callback,
                                            void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    client->client.SendActivityInvite(user_id, ToString(content, content_size),
                                      ResultOnly(callback, user_data, user_data_free));
  } catch (...) {
  }
}

void platformpp_client_send_activity_join_request(platformpp_client* client, uint64_t user_id,
                                                  platformpp_result_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    client->client.SendActivityJoinRequest(user_id, ResultOnly(callback, user_data, user_data_free));
  } catch (...) {
  }
}

void platformpp_client_accept_activity_invite(platformpp_client* client,
                                              const platformpp_activity_invite* invite,
                                              platformpp_join_secret_fn callback, void* user_data,
                                              platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = Own(user_data, user_data_free);
    auto done = [callback, owned](platformpp::ClientResult result, std::string secret) {
      if (!callback) return;
      platformpp_client_result view{std::move(result)};
      callback(&view, secret.c_str(), secret.size(), owned->Get());
    };
    if (!invite) {
      // An invite that never arrived cannot be accepted; end through the queue like every other failure.
      platformpp::ActivityInvite none;
      client->client.AcceptActivityInvite(none, [done](platformpp::ClientResult, std::string) {
        done(platformpp::ClientResult::Failure(platformpp::ErrorType::ValidationError, "invite is NULL"), {});
      });
      return;
    }
    client->client.AcceptActivityInvite(invite->invite, std::move(done));
  } catch (...) {
  }
}

void platformpp_client_set_activity_invite_created_callback(platformpp_client* client,
                                                            platformpp_activity_invite_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free) {
  SetInviteCallback(client, callback, user_data, user_data_free,
                    &platformpp::Client::SetActivityInviteCreatedCallback);
}

void platformpp_client_set_activity_invite_updated_callback(platformpp_client* client,
                                                            platformpp_activity_invite_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free) {
  SetInviteCallback(client, callback, user_data, user_data_free,
                    &platformpp::Client::SetActivityInviteUpdatedCallback);
}

void platformpp_client_set_activity_join_callback(platformpp_client* client,
                                                  platformpp_activity_join_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = Own(user_data, user_data_free);
    if (!callback) {
      client->client.SetActivityJoinCallback(nullptr);
      return;
    }
    client->client.SetActivityJoinCallback(
        [callback, owned](std::string secret) { callback(secret.c_str(), secret.size(), owned->Get()); });
  } catch (...) {
  }
}

int32_t platformpp_client_register_launch_command(platformpp_client* client, uint64_t application_id,
                                                  const char* command, size_t command_size) {
  if (!client) return 0;
  try {
    return client->client.RegisterLaunchCommand(application_id, ToString(command, command_size)) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

int32_t platformpp_client_register_launch_steam_application(platformpp_client* client,
                                                            uint64_t application_id, uint32_t steam_app_id) {
  if (!client) return 0;
  try {
    return client->client.RegisterLaunchSteamApplication(application_id, steam_app_id) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

}  // extern "C"
