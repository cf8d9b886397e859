#pragma once
// The player's own rich presence and activity invites: validation, sending over the Gateway (op 3) or the
// desktop client (SET_ACTIVITY), re-sending after reconnects, and the invite and join callbacks.
//
// Threading: the public calls come from any thread; OnDispatch, OnIpcReady and OnIpcEvent run on the network
// thread. State lives under one mutex, never held while calling out (Gateway, IPC, HTTP, the queue).
// User callbacks only ever run inside RunCallbacks (Completion, PostEvent).

#include "core/completion.hpp"
#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "ipc/ipc_link.hpp"
#include "net/http_client.hpp"
#include "social/user_directory.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client_status.hpp>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace platformpp::ipc {
struct IpcMessage;
}

namespace platformpp::presence {

class PresenceService {
 public:
  using Done = core::Completion<>;

  PresenceService(core::Runtime& runtime, net::HttpClient& http, gateway::GatewayConnection& gateway,
                  ipc::IpcLink& ipc, const social::UserDirectory& users);
  ~PresenceService();
  PresenceService(const PresenceService&) = delete;
  PresenceService& operator=(const PresenceService&) = delete;

  /// Validates, keeps, and sends (Gateway when Ready, else the desktop client). A ClientNotReady result
  /// still keeps the activity: it goes out with the next READY.
  void UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback);
  void ClearRichPresence();
  /// Over the Gateway only (SET_ACTIVITY carries no status); kept for the next READY when not Ready.
  void SetOnlineStatus(StatusType status, UpdateStatusCallback callback);
  void SendActivityInvite(uint64_t userId, const std::string& content, SendActivityInviteCallback callback);
  void SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback);
  void AcceptActivityInvite(const ActivityInvite& invite, AcceptActivityInviteCallback callback);
  /// The game's callbacks (Client::SetActivityInvite*Callback).
  struct Callbacks {
    core::RegisteredCallback<ActivityInviteCallback> inviteCreated;
    core::RegisteredCallback<ActivityInviteCallback> inviteUpdated;
  };
  Callbacks callbacks;
  /// SetActivityJoinCallback: also subscribes to the desktop client's ACTIVITY_JOIN while one is set.
  void SetJoinCallback(ActivityJoinCallback callback);
  /// Registers how the desktop client starts the game for a join (launch_command.hpp); a failure is logged.
  bool RegisterLaunchCommand(uint64_t applicationId, const std::string& command);

  /// The events OnDispatch reads (gateway::DispatchRouter).
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// The Gateway sink (network thread).
  void OnDispatch(const gateway::Dispatch& dispatch);
  /// The desktop client connection (network thread): every READY, and every other event.
  void OnIpcReady();
  void OnIpcEvent(const ipc::IpcMessage& message);

 private:
  // Sends the kept presence over the Gateway; `done` may be null (re-sends).
  void SendOverGateway(const std::shared_ptr<Done>& done);
  // Sends the kept activity with SET_ACTIVITY; `done` may be null.
  void SendOverIpc(const std::shared_ptr<Done>& done);
  void SubscribeJoin();
  void SendInviteMessage(uint64_t userId, const std::string& content, ActivityActionTypes type,
                         const std::string& partyId, Done done);
  void OnReady(const json::Value& d);
  void OnPresenceUpdate(const json::Value& d);
  void OnMessageCreate(const json::Value& m);
  // Under mutex_: the friend's current party in this game changed; returns the invites whose validity
  // flipped.
  std::vector<ActivityInvite> NoteParty(uint64_t userId, const std::optional<std::string>& partyId);
  void PostInviteEvent(bool created, ActivityInvite invite);

  core::Runtime& runtime_;
  net::HttpClient& http_;
  gateway::GatewayConnection& gateway_;
  ipc::IpcLink& ipc_;
  const social::UserDirectory& users_;
  core::RegisteredCallback<ActivityJoinCallback> joinCallback_;

  std::mutex mutex_;
  std::optional<Activity> activity_;  // the game's activity; empty when cleared
  StatusType status_ = StatusType::Online;
  bool presenceSet_ = false;  // something was set: re-send after every READY/RESUMED
  bool viaIpc_ = false;       // last sent over the desktop client: re-send after its READY
  uint64_t selfId_ = 0;       // READY's user
  std::unordered_map<uint64_t, std::string>
      friendParties_;                   // user -> party id of their activity in this game
  std::deque<ActivityInvite> invites_;  // received invites, newest last, bounded
};

}  // namespace platformpp::presence
