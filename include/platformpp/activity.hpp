#pragma once
// Rich presence: what the player is doing in the game, shown to friends (Client::UpdateRichPresence), and
// the invites to join it. Names and numeric values match the platform's own Social SDK.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

enum class ActivityTypes : int32_t {
  Playing = 0,
  Streaming = 1,
  Listening = 2,
  Watching = 3,
  CustomStatus = 4,
  Competing = 5,
  HangStatus = 6,
};

/// Which field the member list shows as the status text.
enum class StatusDisplayTypes : int32_t {
  Name = 0,
  State = 1,
  Details = 2,
};

enum class ActivityActionTypes : int32_t {
  Invalid = 0,
  Join = 1,
  JoinRequest = 5,
};

enum class ActivityPartyPrivacy : int32_t {
  Private = 0,
  Public = 1,
};

/// Bits of Activity::SupportedPlatforms.
enum class ActivityGamePlatforms : int32_t {
  Desktop = 1,
  Xbox = 2,
  Samsung = 4,
  IOS = 8,
  Android = 16,
  Embedded = 32,
  PS4 = 64,
  PS5 = 128,
};

/// The player's online status as friends see it.
enum class StatusType : int32_t {
  Online = 0,
  Offline = 1,
  Blocked = 2,
  Idle = 3,
  Dnd = 4,
  Invisible = 5,
  Streaming = 6,
  Unknown = 7,
};

class ActivityAssets {
 public:
  std::optional<std::string> LargeImage() const { return largeImage_; }
  void SetLargeImage(std::optional<std::string> value) { largeImage_ = std::move(value); }
  std::optional<std::string> LargeText() const { return largeText_; }
  void SetLargeText(std::optional<std::string> value) { largeText_ = std::move(value); }
  std::optional<std::string> LargeUrl() const { return largeUrl_; }
  void SetLargeUrl(std::optional<std::string> value) { largeUrl_ = std::move(value); }
  std::optional<std::string> SmallImage() const { return smallImage_; }
  void SetSmallImage(std::optional<std::string> value) { smallImage_ = std::move(value); }
  std::optional<std::string> SmallText() const { return smallText_; }
  void SetSmallText(std::optional<std::string> value) { smallText_ = std::move(value); }
  std::optional<std::string> SmallUrl() const { return smallUrl_; }
  void SetSmallUrl(std::optional<std::string> value) { smallUrl_ = std::move(value); }
  /// The image of invites to this activity: an https URL or an asset key of the application.
  std::optional<std::string> InviteCoverImage() const { return inviteCoverImage_; }
  void SetInviteCoverImage(std::optional<std::string> value) { inviteCoverImage_ = std::move(value); }

 private:
  std::optional<std::string> largeImage_, largeText_, largeUrl_, smallImage_, smallText_, smallUrl_,
      inviteCoverImage_;
};

class ActivityTimestamps {
 public:
  /// Unix time in milliseconds; 0 = unset.
  uint64_t Start() const { return start_; }
  void SetStart(uint64_t value) { start_ = value; }
  uint64_t End() const { return end_; }
  void SetEnd(uint64_t value) { end_ = value; }

 private:
  uint64_t start_ = 0, end_ = 0;
};

class ActivityParty {
 public:
  std::string Id() const { return id_; }
  void SetId(std::string value) { id_ = std::move(value); }
  int32_t CurrentSize() const { return currentSize_; }
  void SetCurrentSize(int32_t value) { currentSize_ = value; }
  int32_t MaxSize() const { return maxSize_; }
  void SetMaxSize(int32_t value) { maxSize_ = value; }
  ActivityPartyPrivacy Privacy() const { return privacy_; }
  void SetPrivacy(ActivityPartyPrivacy value) { privacy_ = value; }

 private:
  std::string id_;
  int32_t currentSize_ = 0, maxSize_ = 0;
  ActivityPartyPrivacy privacy_ = ActivityPartyPrivacy::Private;
};

class ActivitySecrets {
 public:
  /// Handed to a friend who joins (ActivityJoinCallback, AcceptActivityInvite); 2 to 128 characters.
  std::string Join() const { return join_; }
  void SetJoin(std::string value) { join_ = std::move(value); }

 private:
  std::string join_;
};

class ActivityButton {
 public:
  std::string Label() const { return label_; }
  void SetLabel(std::string value) { label_ = std::move(value); }
  std::string Url() const { return url_; }
  void SetUrl(std::string value) { url_ = std::move(value); }

 private:
  std::string label_, url_;
};

/// An activity as the game sets it (UpdateRichPresence) or as a friend's presence shows it. Validation
/// happens in UpdateRichPresence, before anything is sent: see Client::UpdateRichPresence.
class Activity {
 public:
  std::string Name() const { return name_; }
  void SetName(std::string value) { name_ = std::move(value); }
  ActivityTypes Type() const { return type_; }
  void SetType(ActivityTypes value) { type_ = value; }
  std::optional<StatusDisplayTypes> StatusDisplayType() const { return statusDisplayType_; }
  void SetStatusDisplayType(std::optional<StatusDisplayTypes> value) { statusDisplayType_ = value; }
  std::optional<std::string> State() const { return state_; }
  void SetState(std::optional<std::string> value) { state_ = std::move(value); }
  std::optional<std::string> StateUrl() const { return stateUrl_; }
  void SetStateUrl(std::optional<std::string> value) { stateUrl_ = std::move(value); }
  std::optional<std::string> Details() const { return details_; }
  void SetDetails(std::optional<std::string> value) { details_ = std::move(value); }
  std::optional<std::string> DetailsUrl() const { return detailsUrl_; }
  void SetDetailsUrl(std::optional<std::string> value) { detailsUrl_ = std::move(value); }
  std::optional<uint64_t> ApplicationId() const { return applicationId_; }
  void SetApplicationId(std::optional<uint64_t> value) { applicationId_ = value; }
  std::optional<ActivityAssets> Assets() const { return assets_; }
  void SetAssets(std::optional<ActivityAssets> value) { assets_ = std::move(value); }
  std::optional<ActivityTimestamps> Timestamps() const { return timestamps_; }
  void SetTimestamps(std::optional<ActivityTimestamps> value) { timestamps_ = value; }
  std::optional<ActivityParty> Party() const { return party_; }
  void SetParty(std::optional<ActivityParty> value) { party_ = std::move(value); }
  std::optional<ActivitySecrets> Secrets() const { return secrets_; }
  void SetSecrets(std::optional<ActivitySecrets> value) { secrets_ = std::move(value); }
  /// ActivityGamePlatforms bits; Desktop when unset.
  int32_t SupportedPlatforms() const { return supportedPlatforms_; }
  void SetSupportedPlatforms(int32_t value) { supportedPlatforms_ = value; }
  /// At most 2 buttons; UpdateRichPresence refuses a third.
  void AddButton(ActivityButton button) { buttons_.push_back(std::move(button)); }
  std::vector<ActivityButton> GetButtons() const { return buttons_; }

  bool Equals(const Activity& other) const;

 private:
  std::string name_;
  ActivityTypes type_ = ActivityTypes::Playing;
  std::optional<StatusDisplayTypes> statusDisplayType_;
  std::optional<std::string> state_, stateUrl_, details_, detailsUrl_;
  std::optional<uint64_t> applicationId_;
  std::optional<ActivityAssets> assets_;
  std::optional<ActivityTimestamps> timestamps_;
  std::optional<ActivityParty> party_;
  std::optional<ActivitySecrets> secrets_;
  int32_t supportedPlatforms_ = static_cast<int32_t>(ActivityGamePlatforms::Desktop);
  std::vector<ActivityButton> buttons_;
};

/// An invite to join (or a request to join) a friend's game, received as a direct message.
class ActivityInvite {
 public:
  uint64_t SenderId() const { return senderId_; }
  uint64_t ChannelId() const { return channelId_; }
  uint64_t MessageId() const { return messageId_; }
  ActivityActionTypes Type() const { return type_; }
  uint64_t ApplicationId() const { return applicationId_; }
  std::string PartyId() const { return partyId_; }
  std::string SessionId() const { return sessionId_; }
  /// False once the sender's activity no longer has this party (AcceptActivityInvite would fail).
  bool IsValid() const { return isValid_; }

  // Filled by the SDK.
  void SetSenderId(uint64_t value) { senderId_ = value; }
  void SetChannelId(uint64_t value) { channelId_ = value; }
  void SetMessageId(uint64_t value) { messageId_ = value; }
  void SetType(ActivityActionTypes value) { type_ = value; }
  void SetApplicationId(uint64_t value) { applicationId_ = value; }
  void SetPartyId(std::string value) { partyId_ = std::move(value); }
  void SetSessionId(std::string value) { sessionId_ = std::move(value); }
  void SetIsValid(bool value) { isValid_ = value; }

 private:
  uint64_t senderId_ = 0, channelId_ = 0, messageId_ = 0, applicationId_ = 0;
  ActivityActionTypes type_ = ActivityActionTypes::Invalid;
  std::string partyId_, sessionId_;
  bool isValid_ = false;
};

// The callbacks of Client's rich presence calls (also reachable as Client::<name>), inside RunCallbacks.

/// Client::UpdateRichPresence.
using UpdateRichPresenceCallback = std::function<void(ClientResult result)>;
/// Client::SetOnlineStatus.
using UpdateStatusCallback = std::function<void(ClientResult result)>;
/// Client::SendActivityInvite and SendActivityJoinRequest.
using SendActivityInviteCallback = std::function<void(ClientResult result)>;
/// Client::AcceptActivityInvite: the join secret of the sender's activity.
using AcceptActivityInviteCallback = std::function<void(ClientResult result, std::string joinSecret)>;
/// Client::SetActivityInviteCreatedCallback and SetActivityInviteUpdatedCallback.
using ActivityInviteCallback = std::function<void(ActivityInvite invite)>;
/// Client::SetActivityJoinCallback: the join secret of the activity the player joined.
using ActivityJoinCallback = std::function<void(std::string joinSecret)>;

}  // namespace platformpp
