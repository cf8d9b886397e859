#include "presence/presence_service.hpp"

#include "core/validation_result.hpp"
#include "gateway/gateway_payload.hpp"
#include "ipc/ipc_connection.hpp"
#include "json/json.hpp"
#include "net/http_result.hpp"
#include "presence/activity_validation.hpp"
#include "presence/launch_command.hpp"
#include "social/activity_json.hpp"
#include "social/social_store.hpp"

#include <unistd.h>

#include <chrono>
#include <string_view>
#include <utility>

namespace platformpp::presence {
namespace {

constexpr auto kIpcTimeout = std::chrono::seconds(10);
constexpr const char* kActivityJoin = "ACTIVITY_JOIN";
constexpr std::size_t kMaxKeptInvites = 100;

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(Writer& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

ClientResult NotReady(std::string why) {
  return ClientResult::Failure(ErrorType::ClientNotReady, std::move(why));
}

ClientResult NoToken() {
  return NotReady("no token: call UpdateToken first");
}

ClientResult FromIpcReply(const ipc::IpcReply& reply) {
  if (reply.ok) return {};
  ClientResult::Details details;
  details.errorCode = reply.errorCode;
  details.error = "SET_ACTIVITY: " + reply.message;
  if (reply.errorCode == ipc::IpcReply::kNotConnected) {
    details.type = ErrorType::ClientNotReady;
  } else if (reply.errorCode < 0) {
    details.type = ErrorType::NetworkError;
    details.retryable = true;
  } else {
    details.type = ErrorType::RPCError;
  }
  return ClientResult(std::move(details));
}

/// `d` of op 3: `{since, activities, status, afk}`.
std::string PresenceData(const std::optional<Activity>& activity, StatusType status) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("since");
  w.Null();
  w.Key("activities");
  w.StartArray();
  if (activity) social::WriteActivityJson(*activity, w);
  w.EndArray();
  w.Key("status");
  w.String(social::StatusToWire(status));
  w.Key("afk");
  w.Bool(false);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

/// The args of SET_ACTIVITY: `{pid, activity}` (`activity: null` clears).
std::string SetActivityArgs(const std::optional<Activity>& activity) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("pid");
  w.Int64(static_cast<int64_t>(::getpid()));
  w.Key("activity");
  if (activity) {
    social::WriteActivityJson(*activity, w);
  } else {
    w.Null();
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

net::HttpRequest Authorized(const core::Runtime& runtime, const core::Credentials& credentials,
                            const std::string& path, std::string body) {
  net::HttpRequest request;
  request.method = "POST";
  request.url = runtime.ApiUrl(path);
  request.headers.emplace_back("Authorization", credentials.Header());
  request.body = std::move(body);
  request.contentType = "application/json";
  return request;
}

// The party id of `presence`'s activity in application `applicationId` (any application when 0); empty
// string when it has none, nullopt when `presence` is malformed.
std::optional<std::pair<uint64_t, std::string>> PresenceParty(const json::Value& presence,
                                                              uint64_t applicationId) {
  if (!presence.IsObject()) return std::nullopt;
  const json::Value* user = json::Member(presence, "user");
  if (!user || !user->IsObject()) return std::nullopt;
  auto userId = json::GetSnowflake(*user, "id");
  if (!userId) return std::nullopt;
  std::string party;
  if (const json::Value* activities = json::Member(presence, "activities");
      activities && activities->IsArray()) {
    for (const auto& item : activities->GetArray()) {
      std::optional<Activity> activity = social::ActivityFromJson(item);
      if (!activity || !activity->Party()) continue;
      if (applicationId != 0 && activity->ApplicationId() && *activity->ApplicationId() != applicationId)
        continue;
      party = activity->Party()->Id();
      if (!party.empty()) break;
    }
  }
  return std::make_pair(*userId, std::move(party));
}

}  // namespace

PresenceService::PresenceService(core::Runtime& runtime, net::HttpClient& http,
                                 gateway::GatewayConnection& gateway, ipc::IpcLink& ipc,
                                 const social::UserDirectory& users)
    : runtime_(runtime), http_(http), gateway_(gateway), ipc_(ipc), users_(users) {}
PresenceService::~PresenceService() = default;

// --- Rich presence and status ------------------------------------------------------------------------------

void PresenceService::UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (auto errors = ValidateActivity(activity); !errors.empty()) {
    return done(core::ValidationResult(std::move(errors)));
  }
  StatusType status;
  {
    std::lock_guard lock(mutex_);
    status = status_;
  }
  if (!gateway::BuildPayload(gateway::Opcode::PresenceUpdate, PresenceData(activity, status))) {
    return done(core::ValidationResult(
        {FieldError{"activity", "BASE_TYPE_MAX_LENGTH",
                    "activity: the presence would be over the Gateway's " +
                        std::to_string(gateway::kMaxClientPayloadBytes) + "-byte payload limit"}}));
  }
  if (auto secrets = activity.Secrets(); secrets && !secrets->Join().empty()) {
    runtime_.Log().Secrets().AddSecret(secrets->Join());
  }
  {
    std::lock_guard lock(mutex_);
    activity_ = std::move(activity);
    presenceSet_ = true;
  }
  auto shared = std::make_shared<Done>(std::move(done));
  if (gateway_.CurrentStatus() == ClientStatus::Ready) return SendOverGateway(shared);

  ipc::IpcConnection* ipc = ipc_.Connection(runtime_.applicationId.load());
  if (!ipc) {
    return (*shared)(
        NotReady("neither the realtime connection (Connect) nor the desktop client (SetApplicationId) is "
                 "available; the "
                 "activity goes out once Connect reaches Ready"));
  }
  ipc->WhenSettled([this, shared](bool ready) {
    if (!ready) {
      return (*shared)(NotReady(
          "the realtime connection is not Ready and no desktop client answered; the activity goes out once "
          "Connect reaches Ready"));
    }
    SendOverIpc(shared);
  });
}

void PresenceService::ClearRichPresence() {
  if (runtime_.Destroying()) return;
  bool viaIpc;
  {
    std::lock_guard lock(mutex_);
    activity_.reset();
    presenceSet_ = true;
    viaIpc = viaIpc_;  // before SendOverGateway resets it: the desktop client may still show the activity
  }
  if (gateway_.CurrentStatus() == ClientStatus::Ready) SendOverGateway(nullptr);
  if (ipc::IpcConnection* ipc = ipc_.Existing(); viaIpc && ipc && ipc->IsReady()) SendOverIpc(nullptr);
}

void PresenceService::SetOnlineStatus(StatusType status, UpdateStatusCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  switch (status) {
    case StatusType::Online:
    case StatusType::Idle:
    case StatusType::Dnd:
    case StatusType::Invisible:
      break;
    default:
      return done(core::ValidationResult({FieldError{"status", "ENUM_TYPE_COERCE",
                                                     "status: must be Online, Idle, Dnd or Invisible, not " +
                                                         std::to_string(static_cast<int32_t>(status))}}));
  }
  {
    std::lock_guard lock(mutex_);
    status_ = status;
    presenceSet_ = true;
  }
  if (gateway_.CurrentStatus() != ClientStatus::Ready) {
    return done(
        NotReady("the online status goes over the realtime connection, which is not Ready; it goes out "
                 "once Connect reaches Ready"));
  }
  SendOverGateway(std::make_shared<Done>(std::move(done)));
}

void PresenceService::SendOverGateway(const std::shared_ptr<Done>& done) {
  // The presence is read when the send goes out, on the network thread, not now: a resend on READY then
  // carries what a game thread set while the session was not yet Ready (and found it not Ready).
  // Written by the first lambda, read by the second: both run on the network thread, one after the other.
  auto error = std::make_shared<std::string>();
  gateway_.SendLatest(
      [this, error]() -> std::optional<std::string> {
        std::string data;
        {
          std::lock_guard lock(mutex_);
          data = PresenceData(activity_, status_);
          viaIpc_ = false;
        }
        std::optional<std::string> payload =
            gateway::BuildPayload(gateway::Opcode::PresenceUpdate, data, error.get());
        if (!payload) runtime_.Log().Error("presence: cannot send: " + *error);
        return payload;
      },
      [done, error](bool sent) {
        if (!done) return;
        if (!error->empty())
          return (*done)(ClientResult::Failure(ErrorType::ValidationError, "activity: " + *error));
        (*done)(sent ? ClientResult()
                     : NotReady("the realtime connection went away before the presence was sent; it goes out "
                                "again after the next READY"));
      });
}

void PresenceService::SendOverIpc(const std::shared_ptr<Done>& done) {
  ipc::IpcConnection* ipc = ipc_.Existing();
  if (!ipc) {
    if (done) (*done)(NotReady("no desktop client connection"));
    return;
  }
  std::string args;
  {
    std::lock_guard lock(mutex_);
    args = SetActivityArgs(activity_);
    viaIpc_ = true;
  }
  ipc->Send("SET_ACTIVITY", std::move(args), std::nullopt, kIpcTimeout,
            [done, logger = runtime_.LoggerPtr()](const ipc::IpcReply& reply) {
              ClientResult result = FromIpcReply(reply);
              if (!result.Successful()) logger->Warning("presence: " + result.Error());
              if (done) (*done)(std::move(result));
            });
}

// --- Invites
// -------------------------------------------------------------------------------------------------

void PresenceService::SendActivityInvite(uint64_t userId, const std::string& content,
                                         SendActivityInviteCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  std::optional<Activity> activity;
  {
    std::lock_guard lock(mutex_);
    activity = activity_;
  }
  if (auto errors = CheckJoinable(activity); !errors.empty())
    return done(core::ValidationResult(std::move(errors)));
  SendInviteMessage(userId, content, ActivityActionTypes::Join, activity->Party()->Id(), std::move(done));
}

void PresenceService::SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  // The party the game sees (GetUser(userId).GameActivity()): the store takes each dispatch before this
  // service does, so a game that just saw the party there must be able to ask to join it.
  std::string party;
  if (auto user = users_.User(userId); user && user->GameActivity() && user->GameActivity()->Party()) {
    party = user->GameActivity()->Party()->Id();
  }
  if (party.empty()) {
    std::lock_guard lock(mutex_);
    if (auto it = friendParties_.find(userId); it != friendParties_.end()) party = it->second;
  }
  if (party.empty()) {
    return done(core::ValidationResult({FieldError{
        "userId", "ACTIVITY_NOT_JOINABLE", "userId: that user has no activity with a party in this game"}}));
  }
  SendInviteMessage(userId, std::string(), ActivityActionTypes::JoinRequest, party, std::move(done));
}

void PresenceService::SendInviteMessage(uint64_t userId, const std::string& content, ActivityActionTypes type,
                                        const std::string& partyId, Done done) {
  uint64_t applicationId = runtime_.applicationId.load();
  if (applicationId == 0) return done(NotReady("no application id: call SetApplicationId first"));
  if (userId == 0) {
    return done(
        core::ValidationResult({FieldError{"userId", "BASE_TYPE_REQUIRED", "userId: must not be 0"}}));
  }
  auto credentials = runtime_.credentials.Get();
  if (!credentials) return done(NoToken());

  rapidjson::StringBuffer channelBody;
  {
    Writer w(channelBody);
    w.StartObject();
    w.Key("recipient_id");
    WriteString(w, std::to_string(userId));
    w.EndObject();
  }
  rapidjson::StringBuffer messageBody;
  {
    Writer w(messageBody);
    w.StartObject();
    w.Key("content");
    WriteString(w, content);
    w.Key("application_id");
    WriteString(w, std::to_string(applicationId));
    w.Key("activity");
    w.StartObject();
    w.Key("type");
    w.Int(static_cast<int>(type));
    w.Key("party_id");
    WriteString(w, partyId);
    w.EndObject();
    w.EndObject();
  }
  auto shared = std::make_shared<Done>(std::move(done));
  http_.Send(Authorized(runtime_, *credentials, "/users/@me/channels", channelBody.GetString()),
             [runtime = &runtime_, http = &http_, shared, credentials = *credentials,
              message = std::string(messageBody.GetString(), messageBody.GetSize())](
                 const net::HttpResponse& response) {
               json::Document channel;
               ClientResult result = net::ParseJsonResponse(response, channel);
               if (!result.Successful()) return (*shared)(std::move(result));
               auto channelId = json::GetSnowflake(channel, "id");
               if (!channelId) {
                 return (*shared)(ClientResult::Failure(ErrorType::HTTPError,
                                                        "malformed response: DM channel without id"));
               }
               http->Send(Authorized(*runtime, credentials,
                                     "/channels/" + std::to_string(*channelId) + "/messages", message),
                          [shared](const net::HttpResponse& posted) { (*shared)(net::ResultOf(posted)); });
             });
}

void PresenceService::AcceptActivityInvite(const ActivityInvite& invite,
                                           AcceptActivityInviteCallback callback) {
  auto started = runtime_.Start<std::string>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (invite.ChannelId() == 0 || invite.MessageId() == 0) {
    return done(core::ValidationResult(
                    {FieldError{"invite", "BASE_TYPE_REQUIRED",
                                "invite: needs the channel and message ids of a received invite"}}),
                {});
  }
  auto credentials = runtime_.credentials.Get();
  if (!credentials) return done(NoToken(), {});
  auto shared = std::make_shared<core::Completion<std::string>>(std::move(done));
  http_.Send(Authorized(runtime_, *credentials,
                        "/channels/" + std::to_string(invite.ChannelId()) + "/messages/" +
                            std::to_string(invite.MessageId()) + "/activity-join",
                        "{}"),
             [shared, logger = runtime_.LoggerPtr()](const net::HttpResponse& response) {
               json::Document body;
               ClientResult result = net::ParseJsonResponse(response, body);
               if (!result.Successful()) return (*shared)(std::move(result), {});
               auto secret = json::GetString(body, "secret");
               if (!secret) {
                 return (*shared)(
                     ClientResult::Failure(ErrorType::HTTPError, "malformed response: no join secret"), {});
               }
               logger->Secrets().AddSecret(*secret);
               (*shared)({}, std::string(*secret));
             });
}

bool PresenceService::RegisterLaunchCommand(uint64_t applicationId, const std::string& command) {
  std::string error;
  if (presence::RegisterLaunchCommand(applicationId, command, &error)) return true;
  runtime_.Log().Error("RegisterLaunchCommand: " + error);
  return false;
}

void PresenceService::SetJoinCallback(ActivityJoinCallback callback) {
  if (runtime_.Destroying()) return;
  bool wanted = static_cast<bool>(callback);
  joinCallback_.Set(std::move(callback));
  if (!wanted) return;
  ipc::IpcConnection* ipc = ipc_.Connection(runtime_.applicationId.load());
  if (!ipc) {
    runtime_.Log().Warning(
        "SetActivityJoinCallback: no desktop client connection (IPC disabled, or no application id yet: call "
        "SetApplicationId first)");
    return;
  }
  ipc->Start();
  // When READY already, subscribe now; otherwise (and after every reconnect) OnIpcReady does.
  if (ipc->IsReady()) SubscribeJoin();
}

void PresenceService::SubscribeJoin() {
  ipc::IpcConnection* ipc = ipc_.Existing();
  if (!ipc) return;
  ipc->Send("SUBSCRIBE", "{}", std::string(kActivityJoin), kIpcTimeout,
            [logger = runtime_.LoggerPtr()](const ipc::IpcReply& reply) {
              if (!reply.ok) {
                logger->Warning("IPC: SUBSCRIBE ACTIVITY_JOIN failed (" + std::to_string(reply.errorCode) +
                                "): " + reply.message);
              }
            });
}

// --- Network side
// --------------------------------------------------------------------------------------------

void PresenceService::OnIpcReady() {
  if (joinCallback_.IsSet()) SubscribeJoin();
  bool resend;
  {
    std::lock_guard lock(mutex_);
    resend = viaIpc_;
  }
  if (resend && gateway_.CurrentStatus() != ClientStatus::Ready) SendOverIpc(nullptr);
}

void PresenceService::OnIpcEvent(const ipc::IpcMessage& message) {
  if (!message.evt || *message.evt != kActivityJoin) return;
  json::Document data;
  if (!json::Parse(message.dataJson, data) || !data.IsObject()) {
    runtime_.Log().Warning("IPC: ACTIVITY_JOIN without data ignored");
    return;
  }
  auto secret = json::GetString(data, "secret");
  if (!secret) {
    runtime_.Log().Warning("IPC: ACTIVITY_JOIN without a secret ignored");
    return;
  }
  runtime_.Log().Secrets().AddSecret(*secret);
  runtime_.Log().Info("the player joins a friend's activity from the desktop client (ACTIVITY_JOIN)");
  joinCallback_.Post(runtime_.Queue(), std::string(*secret));
}

namespace {
enum class Kind { Ready, Resumed, PresenceUpdate, MessageCreate };
// The events the service reads, in Kind's order.
constexpr gateway::DispatchClaim kClaims[] = {
    {"READY", "friends' parties; the player's presence sent again"},
    {"RESUMED", "the player's presence sent again"},
    {"PRESENCE_UPDATE", "a friend's party (whether their invites still hold)"},
    {"MESSAGE_CREATE", "activity invite"},
};
static_assert(std::size(kClaims) == static_cast<std::size_t>(Kind::MessageCreate) + 1);
}  // namespace

std::span<const gateway::DispatchClaim> PresenceService::DispatchClaims() noexcept {
  return kClaims;
}

void PresenceService::OnDispatch(const gateway::Dispatch& dispatch) {
  std::optional<std::size_t> claim = gateway::FindClaim(kClaims, dispatch.type);
  if (!claim) return;
  const auto kind = static_cast<Kind>(*claim);
  if (kind == Kind::Ready) {
    if (const json::Value* d = dispatch.Data()) OnReady(*d);
  } else if (kind == Kind::Resumed) {
    bool resend;
    {
      std::lock_guard lock(mutex_);
      resend = presenceSet_;
    }
    // Posted to the network thread by Send: it goes out right after this dispatch, once the session is Ready.
    if (resend) SendOverGateway(nullptr);
  } else if (kind == Kind::PresenceUpdate) {
    if (const json::Value* d = dispatch.Data()) OnPresenceUpdate(*d);
  } else {
    if (const json::Value* d = dispatch.Data()) OnMessageCreate(*d);
  }
}

void PresenceService::OnReady(const json::Value& d) {
  uint64_t applicationId = runtime_.applicationId.load();
  std::vector<ActivityInvite> flipped;
  bool resend;
  {
    std::lock_guard lock(mutex_);
    if (const json::Value* user = json::Member(d, "user"); user && user->IsObject()) {
      selfId_ = json::GetSnowflake(*user, "id").value_or(0);
    }
    friendParties_.clear();
    if (const json::Value* presences = json::Member(d, "presences"); presences && presences->IsArray()) {
      for (const auto& presence : presences->GetArray()) {
        if (auto party = PresenceParty(presence, applicationId)) {
          auto changed = NoteParty(party->first, std::move(party->second));
          flipped.insert(flipped.end(), changed.begin(), changed.end());
        }
      }
    }
    resend = presenceSet_;
  }
  if (resend) SendOverGateway(nullptr);
  for (auto& invite : flipped)
    PostInviteEvent(false, std::move(invite));
}

void PresenceService::OnPresenceUpdate(const json::Value& d) {
  auto party = PresenceParty(d, runtime_.applicationId.load());
  if (!party) return;
  std::vector<ActivityInvite> flipped;
  {
    std::lock_guard lock(mutex_);
    if (party->first == selfId_) return;
    flipped = NoteParty(party->first, std::move(party->second));
  }
  for (auto& invite : flipped)
    PostInviteEvent(false, std::move(invite));
}

std::vector<ActivityInvite> PresenceService::NoteParty(uint64_t userId,
                                                       const std::optional<std::string>& partyId) {
  std::string party = partyId.value_or(std::string());
  if (party.empty()) {
    friendParties_.erase(userId);
  } else {
    friendParties_[userId] = party;
  }
  std::vector<ActivityInvite> flipped;
  for (auto& invite : invites_) {
    if (invite.SenderId() != userId || invite.Type() != ActivityActionTypes::Join) continue;
    bool valid = !party.empty() && party == invite.PartyId();
    if (valid != invite.IsValid()) {
      invite.SetIsValid(valid);
      flipped.push_back(invite);
    }
  }
  return flipped;
}

void PresenceService::OnMessageCreate(const json::Value& m) {
  if (!social::IsActivityInvite(m)) return;  // a chat message: messaging's
  const json::Value* activity = json::Member(m, "activity");
  auto type = json::GetInt(*activity, "type");
  if (!type || (*type != static_cast<int>(ActivityActionTypes::Join) &&
                *type != static_cast<int>(ActivityActionTypes::JoinRequest))) {
    return;
  }
  const json::Value* author = json::Member(m, "author");
  auto senderId = author && author->IsObject() ? json::GetSnowflake(*author, "id") : std::nullopt;
  auto channelId = json::GetSnowflake(m, "channel_id");
  auto messageId = json::GetSnowflake(m, "id");
  auto applicationId = json::GetSnowflake(m, "application_id");
  if (!senderId || !channelId || !messageId || !applicationId) return;
  uint64_t ours = runtime_.applicationId.load();
  if (ours != 0 && *applicationId != ours) return;  // another game's invite

  ActivityInvite invite;
  invite.SetSenderId(*senderId);
  invite.SetChannelId(*channelId);
  invite.SetMessageId(*messageId);
  invite.SetType(static_cast<ActivityActionTypes>(*type));
  invite.SetApplicationId(*applicationId);
  invite.SetPartyId(std::string(json::GetString(*activity, "party_id").value_or("")));
  invite.SetSessionId(std::string(json::GetString(*activity, "session_id").value_or("")));
  {
    std::lock_guard lock(mutex_);
    if (*senderId == selfId_ || selfId_ == 0) return;  // our own message echoed back, or not Ready yet
    bool valid = true;
    if (invite.Type() == ActivityActionTypes::Join) {
      // Valid while the sender's known activity still has the party (unknown: trust the fresh invite).
      auto it = friendParties_.find(*senderId);
      valid = it == friendParties_.end() || it->second == invite.PartyId();
    }
    invite.SetIsValid(valid);
    invites_.push_back(invite);
    if (invites_.size() > kMaxKeptInvites) invites_.pop_front();
  }
  PostInviteEvent(true, std::move(invite));
}

void PresenceService::PostInviteEvent(bool created, ActivityInvite invite) {
  if (created) {
    callbacks.inviteCreated.Post(runtime_.Queue(), std::move(invite));
  } else {
    callbacks.inviteUpdated.Post(runtime_.Queue(), std::move(invite));
  }
}

}  // namespace platformpp::presence
