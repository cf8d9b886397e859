// Client: rich presence, online status, activity invites and launch registration (see PresenceService).
#include "client/client_core.hpp"
#include "presence/launch_command.hpp"
#include "presence/presence_service.hpp"

#include <platformpp/activity.hpp>
#include <platformpp/client.hpp>

#include <tuple>

namespace platformpp {
namespace {

auto Tie(const ActivityAssets& a) {
  return std::make_tuple(a.LargeImage(), a.LargeText(), a.LargeUrl(), a.SmallImage(), a.SmallText(),
                         a.SmallUrl(), a.InviteCoverImage());
}
bool Same(const ActivityAssets& a, const ActivityAssets& b) {
  return Tie(a) == Tie(b);
}
bool Same(const ActivityTimestamps& a, const ActivityTimestamps& b) {
  return a.Start() == b.Start() && a.End() == b.End();
}
bool Same(const ActivityParty& a, const ActivityParty& b) {
  return a.Id() == b.Id() && a.CurrentSize() == b.CurrentSize() && a.MaxSize() == b.MaxSize() &&
         a.Privacy() == b.Privacy();
}
bool Same(const ActivitySecrets& a, const ActivitySecrets& b) {
  return a.Join() == b.Join();
}
bool Same(const ActivityButton& a, const ActivityButton& b) {
  return a.Label() == b.Label() && a.Url() == b.Url();
}

template <class T>
bool SameOpt(const std::optional<T>& a, const std::optional<T>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || Same(*a, *b);
}

}  // namespace

bool Activity::Equals(const Activity& other) const {
  if (name_ != other.name_ || type_ != other.type_ || statusDisplayType_ != other.statusDisplayType_ ||
      state_ != other.state_ || stateUrl_ != other.stateUrl_ || details_ != other.details_ ||
      detailsUrl_ != other.detailsUrl_ || applicationId_ != other.applicationId_ ||
      supportedPlatforms_ != other.supportedPlatforms_ || buttons_.size() != other.buttons_.size()) {
    return false;
  }
  for (size_t i = 0; i < buttons_.size(); ++i) {
    if (!Same(buttons_[i], other.buttons_[i])) return false;
  }
  return SameOpt(assets_, other.assets_) && SameOpt(timestamps_, other.timestamps_) &&
         SameOpt(party_, other.party_) && SameOpt(secrets_, other.secrets_);
}

void Client::UpdateRichPresence(Activity activity, UpdateRichPresenceCallback callback) {
  core_->Presence().UpdateRichPresence(std::move(activity), std::move(callback));
}

void Client::ClearRichPresence() {
  core_->Presence().ClearRichPresence();
}

void Client::SetOnlineStatus(StatusType status, UpdateStatusCallback callback) {
  core_->Presence().SetOnlineStatus(status, std::move(callback));
}

void Client::SendActivityInvite(uint64_t userId, const std::string& content,
                                SendActivityInviteCallback callback) {
  core_->Presence().SendActivityInvite(userId, content, std::move(callback));
}

void Client::SendActivityJoinRequest(uint64_t userId, SendActivityInviteCallback callback) {
  core_->Presence().SendActivityJoinRequest(userId, std::move(callback));
}

void Client::AcceptActivityInvite(const ActivityInvite& invite, AcceptActivityInviteCallback callback) {
  core_->Presence().AcceptActivityInvite(invite, std::move(callback));
}

void Client::SetActivityInviteCreatedCallback(ActivityInviteCallback callback) {
  core_->Presence().callbacks.inviteCreated.Set(std::move(callback));
}

void Client::SetActivityInviteUpdatedCallback(ActivityInviteCallback callback) {
  core_->Presence().callbacks.inviteUpdated.Set(std::move(callback));
}

void Client::SetActivityJoinCallback(ActivityJoinCallback callback) {
  core_->Presence().SetJoinCallback(std::move(callback));
}

bool Client::RegisterLaunchCommand(uint64_t applicationId, const std::string& command) {
  return core_->Presence().RegisterLaunchCommand(applicationId, command);
}

bool Client::RegisterLaunchSteamApplication(uint64_t applicationId, uint32_t steamAppId) {
  return RegisterLaunchCommand(applicationId, presence::SteamLaunchCommand(steamAppId));
}

}  // namespace platformpp
