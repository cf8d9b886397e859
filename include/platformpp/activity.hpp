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

/// The kind of an activity (playing, listening, watching, ...). A game may set only Playing, Listening,
/// Watching or Competing (UpdateRichPresence refuses the others); friends' presences may carry any of them.
enum class ActivityTypes : int32_t {
  Playing = 0,       ///< playing a game (the default)
  Streaming = 1,     ///< streaming; not settable by a game
  Listening = 2,     ///< listening to something
  Watching = 3,      ///< watching something
  CustomStatus = 4,  ///< the user's custom status; not settable by a game
  Competing = 5,     ///< competing in something
  HangStatus = 6,    ///< the user's hang status; not settable by a game
};

/// Which field the member list shows as the status text.
enum class StatusDisplayTypes : int32_t {
  Name = 0,     ///< Activity::Name (which must then not be empty)
  State = 1,    ///< Activity::State (which must then be set)
  Details = 2,  ///< Activity::Details (which must then be set)
};

/// What an ActivityInvite asks for.
enum class ActivityActionTypes : int32_t {
  Invalid = 0,      ///< no action (a default-constructed invite)
  Join = 1,         ///< an invite to join the sender's activity (SendActivityInvite)
  JoinRequest = 5,  ///< a request to be invited into the recipient's activity (SendActivityJoinRequest)
};

/// Whether a party is private or public (ActivityParty::Privacy), sent to the platform as is.
enum class ActivityPartyPrivacy : int32_t {
  Private = 0,  ///< a private party (the default)
  Public = 1,   ///< a public party
};

/// Bits of Activity::SupportedPlatforms.
enum class ActivityGamePlatforms : int32_t {
  Desktop = 1,    ///< desktop computers (the default)
  Xbox = 2,       ///< Xbox consoles
  Samsung = 4,    ///< Samsung devices
  IOS = 8,        ///< iOS devices
  Android = 16,   ///< Android devices
  Embedded = 32,  ///< embedded in the platform's own client
  PS4 = 64,       ///< PlayStation 4
  PS5 = 128,      ///< PlayStation 5
};

/// The player's online status as friends see it.
enum class StatusType : int32_t {
  Online = 0,     ///< online
  Offline = 1,    ///< offline, or not visible to this player
  Blocked = 2,    ///< blocked (kept for the platform SDK's numbering; platformpp does not report it)
  Idle = 3,       ///< away from the keyboard
  Dnd = 4,        ///< do not disturb
  Invisible = 5,  ///< shown as offline to others (only ever reported for the player)
  Streaming = 6,  ///< streaming (kept for the platform SDK's numbering; platformpp does not report it)
  Unknown = 7,    ///< a status this SDK does not know (only ever reported for the player)
};

/// The images of an activity and their hover texts and links. Every field is optional: an empty optional
/// is left out of what is sent. UpdateRichPresence checks the limits given below.
class ActivityAssets {
 public:
  /// The large image, usually an asset key of the application; at most 256 characters.
  std::optional<std::string> LargeImage() const { return largeImage_; }
  /// Sets LargeImage(); an empty optional removes it.
  void SetLargeImage(std::optional<std::string> value) { largeImage_ = std::move(value); }
  /// The text shown when hovering the large image; at most 128 characters.
  std::optional<std::string> LargeText() const { return largeText_; }
  /// Sets LargeText(); an empty optional removes it.
  void SetLargeText(std::optional<std::string> value) { largeText_ = std::move(value); }
  /// The link opened by clicking the large image: an http(s) URL of at most 256 characters.
  std::optional<std::string> LargeUrl() const { return largeUrl_; }
  /// Sets LargeUrl(); an empty optional removes it.
  void SetLargeUrl(std::optional<std::string> value) { largeUrl_ = std::move(value); }
  /// The small image, usually an asset key of the application; at most 256 characters.
  std::optional<std::string> SmallImage() const { return smallImage_; }
  /// Sets SmallImage(); an empty optional removes it.
  void SetSmallImage(std::optional<std::string> value) { smallImage_ = std::move(value); }
  /// The text shown when hovering the small image; at most 128 characters.
  std::optional<std::string> SmallText() const { return smallText_; }
  /// Sets SmallText(); an empty optional removes it.
  void SetSmallText(std::optional<std::string> value) { smallText_ = std::move(value); }
  /// The link opened by clicking the small image: an http(s) URL of at most 256 characters.
  std::optional<std::string> SmallUrl() const { return smallUrl_; }
  /// Sets SmallUrl(); an empty optional removes it.
  void SetSmallUrl(std::optional<std::string> value) { smallUrl_ = std::move(value); }
  /// The image of invites to this activity: an https URL or an asset key of the application.
  std::optional<std::string> InviteCoverImage() const { return inviteCoverImage_; }
  /// Sets InviteCoverImage(): an https URL, or an asset key of 1 to 256 letters, digits, '_', '-', '.'.
  void SetInviteCoverImage(std::optional<std::string> value) { inviteCoverImage_ = std::move(value); }

 private:
  std::optional<std::string> largeImage_, largeText_, largeUrl_, smallImage_, smallText_, smallUrl_,
      inviteCoverImage_;
};

/// When an activity started or will end, from which the platform shows elapsed or remaining time.
class ActivityTimestamps {
 public:
  /// Unix time in milliseconds; 0 = unset.
  uint64_t Start() const { return start_; }
  /// Sets Start(), in milliseconds since the Unix epoch; 0 leaves it out.
  void SetStart(uint64_t value) { start_ = value; }
  /// When the activity ends: Unix time in milliseconds; 0 = unset.
  uint64_t End() const { return end_; }
  /// Sets End(), in milliseconds since the Unix epoch; 0 leaves it out.
  void SetEnd(uint64_t value) { end_ = value; }

 private:
  uint64_t start_ = 0, end_ = 0;
};

/// The group the player is in within the game. An activity can be joined (SendActivityInvite) only with a
/// party id, room left (CurrentSize < MaxSize) and a join secret (ActivitySecrets).
class ActivityParty {
 public:
  /// The game's id of the party: 2 to 128 characters, or empty for none.
  std::string Id() const { return id_; }
  /// Sets Id().
  void SetId(std::string value) { id_ = std::move(value); }
  /// How many players are in the party; 0 to MaxSize(). Sizes are sent only when one of them is not 0.
  int32_t CurrentSize() const { return currentSize_; }
  /// Sets CurrentSize().
  void SetCurrentSize(int32_t value) { currentSize_ = value; }
  /// How many players the party can hold; not negative.
  int32_t MaxSize() const { return maxSize_; }
  /// Sets MaxSize().
  void SetMaxSize(int32_t value) { maxSize_ = value; }
  /// Whether the party is private (the default) or public.
  ActivityPartyPrivacy Privacy() const { return privacy_; }
  /// Sets Privacy().
  void SetPrivacy(ActivityPartyPrivacy value) { privacy_ = value; }

 private:
  std::string id_;
  int32_t currentSize_ = 0, maxSize_ = 0;
  ActivityPartyPrivacy privacy_ = ActivityPartyPrivacy::Private;
};

/// The secrets of an activity, which the platform hands only to players who join it.
class ActivitySecrets {
 public:
  /// Handed to a friend who joins (ActivityJoinCallback, AcceptActivityInvite); 2 to 128 characters.
  std::string Join() const { return join_; }
  /// Sets Join(); empty means no join secret (the activity cannot be joined).
  void SetJoin(std::string value) { join_ = std::move(value); }

 private:
  std::string join_;
};

/// A link button shown with an activity (at most 2 per activity).
class ActivityButton {
 public:
  /// The button's text: 1 to 32 characters.
  std::string Label() const { return label_; }
  /// Sets Label().
  void SetLabel(std::string value) { label_ = std::move(value); }
  /// The link the button opens: an http(s) URL of at most 256 characters.
  std::string Url() const { return url_; }
  /// Sets Url().
  void SetUrl(std::string value) { url_ = std::move(value); }

 private:
  std::string label_, url_;
};

/// An activity as the game sets it (UpdateRichPresence) or as a friend's presence shows it. Validation
/// happens in UpdateRichPresence, before anything is sent: see Client::UpdateRichPresence.
class Activity {
 public:
  /// The activity's name: at most 128 characters; may be empty (the default).
  std::string Name() const { return name_; }
  /// Sets Name().
  void SetName(std::string value) { name_ = std::move(value); }
  /// The kind of activity; Playing by default.
  ActivityTypes Type() const { return type_; }
  /// Sets Type(): Playing, Listening, Watching or Competing.
  void SetType(ActivityTypes value) { type_ = value; }
  /// Which field the member list shows as the status text; empty leaves the choice to the platform.
  std::optional<StatusDisplayTypes> StatusDisplayType() const { return statusDisplayType_; }
  /// Sets StatusDisplayType(); the field it names must be set.
  void SetStatusDisplayType(std::optional<StatusDisplayTypes> value) { statusDisplayType_ = value; }
  /// The player's current party status (e.g. "In a group"): 2 to 128 characters, or empty for none.
  std::optional<std::string> State() const { return state_; }
  /// Sets State().
  void SetState(std::optional<std::string> value) { state_ = std::move(value); }
  /// The link of State(): an http(s) URL of at most 256 characters, or empty for none.
  std::optional<std::string> StateUrl() const { return stateUrl_; }
  /// Sets StateUrl().
  void SetStateUrl(std::optional<std::string> value) { stateUrl_ = std::move(value); }
  /// What the player is doing (e.g. "Ranked match"): 2 to 128 characters, or empty for none.
  std::optional<std::string> Details() const { return details_; }
  /// Sets Details().
  void SetDetails(std::optional<std::string> value) { details_ = std::move(value); }
  /// The link of Details(): an http(s) URL of at most 256 characters, or empty for none.
  std::optional<std::string> DetailsUrl() const { return detailsUrl_; }
  /// Sets DetailsUrl().
  void SetDetailsUrl(std::optional<std::string> value) { detailsUrl_ = std::move(value); }
  /// The application the activity belongs to; empty when not given (or not reported in a friend's presence).
  std::optional<uint64_t> ApplicationId() const { return applicationId_; }
  /// Sets ApplicationId().
  void SetApplicationId(std::optional<uint64_t> value) { applicationId_ = value; }
  /// The activity's images and their texts; empty for none.
  std::optional<ActivityAssets> Assets() const { return assets_; }
  /// Sets Assets().
  void SetAssets(std::optional<ActivityAssets> value) { assets_ = std::move(value); }
  /// When the activity started or ends; empty for none.
  std::optional<ActivityTimestamps> Timestamps() const { return timestamps_; }
  /// Sets Timestamps(); timestamps whose Start() and End() are both 0 are not sent.
  void SetTimestamps(std::optional<ActivityTimestamps> value) { timestamps_ = value; }
  /// The player's party; empty for none (the activity then cannot be joined).
  std::optional<ActivityParty> Party() const { return party_; }
  /// Sets Party().
  void SetParty(std::optional<ActivityParty> value) { party_ = std::move(value); }
  /// The secrets handed to players who join; empty for none (the activity then cannot be joined).
  std::optional<ActivitySecrets> Secrets() const { return secrets_; }
  /// Sets Secrets().
  void SetSecrets(std::optional<ActivitySecrets> value) { secrets_ = std::move(value); }
  /// ActivityGamePlatforms bits; Desktop when unset.
  int32_t SupportedPlatforms() const { return supportedPlatforms_; }
  /// Sets SupportedPlatforms(): a non-empty OR of ActivityGamePlatforms values.
  void SetSupportedPlatforms(int32_t value) { supportedPlatforms_ = value; }
  /// At most 2 buttons; UpdateRichPresence refuses a third.
  void AddButton(ActivityButton button) { buttons_.push_back(std::move(button)); }
  /// The buttons, in the order they were added.
  std::vector<ActivityButton> GetButtons() const { return buttons_; }

  /// Whether `other` has the same value in every field (assets, timestamps, party, secrets and buttons
  /// compared field by field).
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
  /// The user who sent the invite or join request.
  uint64_t SenderId() const { return senderId_; }
  /// The DM channel the invite arrived in.
  uint64_t ChannelId() const { return channelId_; }
  /// The id of the message that carries the invite.
  uint64_t MessageId() const { return messageId_; }
  /// Join (an invite) or JoinRequest (a request to be invited).
  ActivityActionTypes Type() const { return type_; }
  /// The application (game) the invite is for.
  uint64_t ApplicationId() const { return applicationId_; }
  /// The party id of the sender's activity when they sent it; empty when the message carried none.
  std::string PartyId() const { return partyId_; }
  /// The sender's session the invite came from, as the platform reports it; may be empty.
  std::string SessionId() const { return sessionId_; }
  /// False once the sender's activity no longer has this party (AcceptActivityInvite would fail).
  bool IsValid() const { return isValid_; }

  // Filled by the SDK.
  /// Sets SenderId(); the SDK fills it.
  void SetSenderId(uint64_t value) { senderId_ = value; }
  /// Sets ChannelId(); the SDK fills it.
  void SetChannelId(uint64_t value) { channelId_ = value; }
  /// Sets MessageId(); the SDK fills it.
  void SetMessageId(uint64_t value) { messageId_ = value; }
  /// Sets Type(); the SDK fills it.
  void SetType(ActivityActionTypes value) { type_ = value; }
  /// Sets ApplicationId(); the SDK fills it.
  void SetApplicationId(uint64_t value) { applicationId_ = value; }
  /// Sets PartyId(); the SDK fills it.
  void SetPartyId(std::string value) { partyId_ = std::move(value); }
  /// Sets SessionId(); the SDK fills it.
  void SetSessionId(std::string value) { sessionId_ = std::move(value); }
  /// Sets IsValid(); the SDK fills it.
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
