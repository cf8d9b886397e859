// The C ABI of rich presence and activity invites. Nothing may throw across this boundary, and nothing thrown
// may vanish (see c_support.hpp). Activities belong to no client: a setter that fails marks its activity, and
// platformpp_client_update_rich_presence refuses a marked activity through the client's log and result.
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>

#include <optional>
#include <string>

using namespace platformpp::c_api;

struct platformpp_activity {
  platformpp::Activity activity;
  // What the getters hand out, kept in step with `activity` by every setter, so that reading allocates
  // nothing and cannot fail.
  std::string name;
  std::optional<std::string> state, details, partyId;
  int32_t partyCurrentSize = 0, partyMaxSize = 0;
  size_t buttonCount = 0;
  // The first setter an exception stopped (out of memory, a size beyond any string): the activity lacks what
  // it was given, and update_rich_presence refuses it, naming the setter and the exception.
  const char* failed = nullptr;
  std::string failure;

  explicit platformpp_activity(platformpp::Activity a) : activity(std::move(a)) {
    name = activity.Name();
    state = activity.State();
    details = activity.Details();
    if (auto party = activity.Party()) {
      partyId = party->Id();
      partyCurrentSize = party->CurrentSize();
      partyMaxSize = party->MaxSize();
    }
    buttonCount = activity.GetButtons().size();
  }
  platformpp_activity(const platformpp_activity&) = default;
};

struct platformpp_activity_invite {
  platformpp::ActivityInvite invite;
  std::string partyId, sessionId;
};

namespace platformpp::c_api {

platformpp_activity* NewActivity(const platformpp::Activity& activity) noexcept {
  try {
    return new platformpp_activity(activity);
  } catch (...) {  // out of memory: NULL is the report
    return nullptr;
  }
}

}  // namespace platformpp::c_api

namespace {

std::optional<std::string> Optional(const char* ptr, size_t size) {
  if (!ptr) return std::nullopt;
  return std::string(ptr, size);
}

const std::optional<std::string> kNone;

// Runs the setter `edit` of the C function `entry`. Each edit first makes every copy it needs (which may
// throw) and then only moves them in (which cannot), so that a failure leaves the activity as it was, and
// marked.
template <class Edit>
void EditActivity(platformpp_activity* activity, const char* entry, Edit&& edit) noexcept {
  if (!activity) return;
  try {
    edit(*activity);
  } catch (...) {
    if (activity->failed) return;  // the first failure is the one to report
    activity->failed = entry;
    try {
      activity->failure = Describe(std::current_exception());
    } catch (...) {  // the setter's name alone, then
    }
  }
}

platformpp::Client::ActivityInviteCallback InviteCallback(std::shared_ptr<Boundary> boundary,
                                                          const char* entry,
                                                          platformpp_activity_invite_fn callback,
                                                          const std::shared_ptr<UserData>& owned) {
  return [boundary = std::move(boundary), entry, callback, owned](const platformpp::ActivityInvite& invite) {
    std::optional<platformpp_activity_invite> view;
    try {
      view.emplace(platformpp_activity_invite{invite, invite.PartyId(), invite.SessionId()});
    } catch (...) {
      boundary->Log(entry, std::current_exception(), "an invite could not be handed over and is dropped");
      return;
    }
    callback(&*view, owned->Get());
  };
}

// The created and updated invite registrations differ only in the Client method they call.
void SetInviteCallback(platformpp_client* client, const char* entry, platformpp_activity_invite_fn callback,
                       void* user_data, platformpp_user_data_free_fn user_data_free,
                       void (platformpp::Client::*set)(platformpp::Client::ActivityInviteCallback)) {
  if (!client) return Refuse(user_data, user_data_free);
  Guarded(
      client->boundary.get(), entry,
      [&] {
        auto owned = Own(user_data, user_data_free);
        (client->client.*set)(callback ? InviteCallback(client->boundary, entry, callback, owned) : nullptr);
      },
      kNotRegistered);
}

}  // namespace

extern "C" {

platformpp_activity* platformpp_activity_create(void) {
  return NewActivity(platformpp::Activity{});
}

platformpp_activity* platformpp_activity_clone(const platformpp_activity* activity) {
  return CloneHandle(activity);  // the mark, if any, goes with it
}

void platformpp_activity_destroy(platformpp_activity* activity) {
  delete activity;
}

void platformpp_activity_set_name(platformpp_activity* activity, const char* name, size_t name_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    std::string value = ToString(name, name_size);
    std::string cached = value;
    a.activity.SetName(std::move(value));
    a.name = std::move(cached);
  });
}

void platformpp_activity_set_type(platformpp_activity* activity, platformpp_activity_type type) {
  if (activity) activity->activity.SetType(FromCEnum<platformpp::ActivityTypes>(type));
}

void platformpp_activity_set_status_display_type(platformpp_activity* activity,
                                                 platformpp_status_display_type type) {
  if (!activity) return;
  const int32_t value = CEnumValue(type);
  if (value == PLATFORMPP_STATUS_DISPLAY_TYPE_UNSET) {
    activity->activity.SetStatusDisplayType(std::nullopt);
  } else {
    activity->activity.SetStatusDisplayType(static_cast<platformpp::StatusDisplayTypes>(value));
  }
}

void platformpp_activity_set_state(platformpp_activity* activity, const char* state, size_t state_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    std::optional<std::string> value = Optional(state, state_size);
    std::optional<std::string> cached = value;
    a.activity.SetState(std::move(value));
    a.state = std::move(cached);
  });
}

void platformpp_activity_set_state_url(platformpp_activity* activity, const char* url, size_t url_size) {
  EditActivity(activity, __func__,
               [&](platformpp_activity& a) { a.activity.SetStateUrl(Optional(url, url_size)); });
}

void platformpp_activity_set_details(platformpp_activity* activity, const char* details,
                                     size_t details_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    std::optional<std::string> value = Optional(details, details_size);
    std::optional<std::string> cached = value;
    a.activity.SetDetails(std::move(value));
    a.details = std::move(cached);
  });
}

void platformpp_activity_set_details_url(platformpp_activity* activity, const char* url, size_t url_size) {
  EditActivity(activity, __func__,
               [&](platformpp_activity& a) { a.activity.SetDetailsUrl(Optional(url, url_size)); });
}

void platformpp_activity_set_application_id(platformpp_activity* activity, uint64_t application_id) {
  if (!activity) return;
  activity->activity.SetApplicationId(application_id ? std::optional<uint64_t>(application_id)
                                                     : std::nullopt);
}

void platformpp_activity_set_asset(platformpp_activity* activity, platformpp_activity_asset asset,
                                   const char* value, size_t value_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    // Assets are optional as a whole: edit a copy, then move it in.
    platformpp::ActivityAssets assets = a.activity.Assets().value_or(platformpp::ActivityAssets{});
    std::optional<std::string> v = Optional(value, value_size);
    switch (CEnumValue(asset)) {
      case PLATFORMPP_ACTIVITY_ASSET_LARGE_IMAGE:
        assets.SetLargeImage(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_LARGE_TEXT:
        assets.SetLargeText(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_LARGE_URL:
        assets.SetLargeUrl(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_SMALL_IMAGE:
        assets.SetSmallImage(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_SMALL_TEXT:
        assets.SetSmallText(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_SMALL_URL:
        assets.SetSmallUrl(std::move(v));
        break;
      case PLATFORMPP_ACTIVITY_ASSET_INVITE_COVER_IMAGE:
        assets.SetInviteCoverImage(std::move(v));
        break;
      default:
        return;
    }
    a.activity.SetAssets(std::move(assets));
  });
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
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    if (!id) {
      a.activity.SetParty(std::nullopt);
      a.partyId.reset();
      a.partyCurrentSize = a.partyMaxSize = 0;
      return;
    }
    std::string partyId(id, id_size);
    std::optional<std::string> cached = partyId;
    platformpp::ActivityParty party;
    party.SetId(std::move(partyId));
    party.SetCurrentSize(current_size);
    party.SetMaxSize(max_size);
    party.SetPrivacy(FromCEnum<platformpp::ActivityPartyPrivacy>(privacy));
    a.activity.SetParty(std::move(party));
    a.partyId = std::move(cached);
    a.partyCurrentSize = current_size;
    a.partyMaxSize = max_size;
  });
}

void platformpp_activity_set_join_secret(platformpp_activity* activity, const char* secret,
                                         size_t secret_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    if (!secret) {
      a.activity.SetSecrets(std::nullopt);
      return;
    }
    platformpp::ActivitySecrets secrets;
    secrets.SetJoin(std::string(secret, secret_size));
    a.activity.SetSecrets(std::move(secrets));
  });
}

void platformpp_activity_set_supported_platforms(platformpp_activity* activity, int32_t platforms) {
  if (activity) activity->activity.SetSupportedPlatforms(platforms);
}

void platformpp_activity_add_button(platformpp_activity* activity, const char* label, size_t label_size,
                                    const char* url, size_t url_size) {
  EditActivity(activity, __func__, [&](platformpp_activity& a) {
    platformpp::ActivityButton button;
    button.SetLabel(ToString(label, label_size));
    button.SetUrl(ToString(url, url_size));
    a.activity.AddButton(std::move(button));  // a vector's push_back: all or nothing
    ++a.buttonCount;
  });
}

const char* platformpp_activity_name(const platformpp_activity* activity, size_t* size) {
  return activity ? StringOut(activity->name, size) : EmptyOut(size);
}

platformpp_activity_type platformpp_activity_get_type(const platformpp_activity* activity) {
  return activity ? static_cast<platformpp_activity_type>(activity->activity.Type())
                  : PLATFORMPP_ACTIVITY_TYPE_PLAYING;
}

const char* platformpp_activity_state(const platformpp_activity* activity, size_t* size) {
  return OptionalOut(activity ? activity->state : kNone, size);
}

const char* platformpp_activity_details(const platformpp_activity* activity, size_t* size) {
  return OptionalOut(activity ? activity->details : kNone, size);
}

uint64_t platformpp_activity_application_id(const platformpp_activity* activity) {
  return activity ? activity->activity.ApplicationId().value_or(0) : 0;
}

const char* platformpp_activity_party_id(const platformpp_activity* activity, size_t* size) {
  return OptionalOut(activity ? activity->partyId : kNone, size);
}

int32_t platformpp_activity_party_current_size(const platformpp_activity* activity) {
  return activity ? activity->partyCurrentSize : 0;
}

int32_t platformpp_activity_party_max_size(const platformpp_activity* activity) {
  return activity ? activity->partyMaxSize : 0;
}

size_t platformpp_activity_button_count(const platformpp_activity* activity) {
  return activity ? activity->buttonCount : 0;
}

void platformpp_client_update_rich_presence(platformpp_client* client, const platformpp_activity* activity,
                                            platformpp_result_fn callback, void* user_data,
                                            platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  const char* entry = __func__;
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   auto done = ResultOnly(op);
                   if (!activity || activity->failed) {
                     // Refused: a type no game may set makes the C++ API's own validation refuse it before
                     // sending anything, and the result arrives inside run_callbacks like every other.
                     std::string why = "activity is NULL";
                     if (activity) {
                       why = std::string("activity is incomplete: ") + activity->failed + " failed" +
                             (activity->failure.empty() ? "" : " (" + activity->failure + ")");
                       client->boundary->LogMessage(std::string(entry) + ": " + why);
                     }
                     platformpp::Activity refused;
                     refused.SetType(platformpp::ActivityTypes::HangStatus);
                     client->client.UpdateRichPresence(refused, [done, why](const platformpp::ClientResult&) {
                       done(platformpp::ClientResult::Failure(platformpp::ErrorType::ValidationError, why));
                     });
                     return;
                   }
                   client->client.UpdateRichPresence(activity->activity, std::move(done));
                 });
}

void platformpp_client_clear_rich_presence(platformpp_client* client) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.ClearRichPresence(); });
}

void platformpp_client_set_online_status(platformpp_client* client, platformpp_status_type status,
                                         platformpp_result_fn callback, void* user_data,
                                         platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   client->client.SetOnlineStatus(FromCEnum<platformpp::StatusType>(status), ResultOnly(op));
                 });
}

platformpp_activity_invite* platformpp_activity_invite_clone(const platformpp_activity_invite* invite) {
  return CloneHandle(invite);
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
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   client->client.SendActivityInvite(user_id, ToString(content, content_size),
                                                     ResultOnly(op));
                 });
}

void platformpp_client_send_activity_join_request(platformpp_client* client, uint64_t user_id,
                                                  platformpp_result_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   client->client.SendActivityJoinRequest(user_id, ResultOnly(op));
                 });
}

void platformpp_client_accept_activity_invite(platformpp_client* client,
                                              const platformpp_activity_invite* invite,
                                              platformpp_join_secret_fn callback, void* user_data,
                                              platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_join_secret_fn>& op) {
                   auto done = [op](platformpp::ClientResult result, const std::string& secret) {
                     auto joined = op->Claim();
                     if (!joined) return;
                     platformpp_client_result view{std::move(result)};
                     joined(&view, secret.c_str(), secret.size(), op->Data());
                   };
                   if (!invite) {
                     // An invite that never arrived cannot be accepted; end through the queue like every
                     // other failure.
                     platformpp::ActivityInvite none;
                     client->client.AcceptActivityInvite(
                         none, [done](const platformpp::ClientResult&, const std::string&) {
                           done(platformpp::ClientResult::Failure(platformpp::ErrorType::ValidationError,
                                                                  "invite is NULL"),
                                {});
                         });
                     return;
                   }
                   client->client.AcceptActivityInvite(invite->invite, std::move(done));
                 });
}

void platformpp_client_set_activity_invite_created_callback(platformpp_client* client,
                                                            platformpp_activity_invite_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free) {
  SetInviteCallback(client, __func__, callback, user_data, user_data_free,
                    &platformpp::Client::SetActivityInviteCreatedCallback);
}

void platformpp_client_set_activity_invite_updated_callback(platformpp_client* client,
                                                            platformpp_activity_invite_fn callback,
                                                            void* user_data,
                                                            platformpp_user_data_free_fn user_data_free) {
  SetInviteCallback(client, __func__, callback, user_data, user_data_free,
                    &platformpp::Client::SetActivityInviteUpdatedCallback);
}

void platformpp_client_set_activity_join_callback(platformpp_client* client,
                                                  platformpp_activity_join_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  RegisterEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](platformpp::Client::ActivityJoinCallback cb) {
        client->client.SetActivityJoinCallback(std::move(cb));
      },
      [](auto fn, auto owned) {
        return [fn, owned](const std::string& secret) { fn(secret.c_str(), secret.size(), owned->Get()); };
      });
}

int32_t platformpp_client_register_launch_command(platformpp_client* client, uint64_t application_id,
                                                  const char* command, size_t command_size) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, 0, [&] {
    return client->client.RegisterLaunchCommand(application_id, ToString(command, command_size)) ? 1 : 0;
  });
}

int32_t platformpp_client_register_launch_steam_application(platformpp_client* client,
                                                            uint64_t application_id, uint32_t steam_app_id) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, 0, [&] {
    return client->client.RegisterLaunchSteamApplication(application_id, steam_app_id) ? 1 : 0;
  });
}

}  // extern "C"
