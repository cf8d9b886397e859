#include "arena_session.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <random>
#include <utility>

namespace arena {
namespace {

using platformpp::ClientResult;
using Clock = std::chrono::steady_clock;

// Message metadata of the game's own messages; chat lines carry none.
constexpr const char* kKind = "arena.kind";
constexpr const char* kGame = "arena.game";
constexpr const char* kTurn = "arena.turn";
constexpr const char* kColumn = "arena.column";
// Lobby metadata: who created the lobby (the first player of odd games).
constexpr const char* kHost = "arena.host";
constexpr std::size_t kChatLines = 50;
constexpr int kHistory = 200;  // the platform's most per request
// The platform limits presence updates; a game whose state changes every second sends the newest at most this
// often.
constexpr auto kPresenceInterval = std::chrono::milliseconds(1500);

std::string RandomCode() {
  // No 0/O or 1/I: codes are read aloud and typed.
  static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  std::random_device seed;
  std::mt19937 random(seed());
  std::uniform_int_distribution<int> pick(0, sizeof(kAlphabet) - 2);
  std::string code;
  for (int i = 0; i < 6; ++i)
    code += kAlphabet[pick(random)];
  return code;
}

std::optional<int> ToInt(const platformpp::Metadata& metadata, const char* key) {
  auto it = metadata.find(key);
  if (it == metadata.end()) return std::nullopt;
  try {
    std::size_t used = 0;
    int value = std::stoi(it->second, &used);
    if (used != it->second.size()) return std::nullopt;
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string PresenceText(const platformpp::Activity& activity) {
  std::string text = activity.State().value_or(activity.Details().value_or(activity.Name()));
  if (auto party = activity.Party(); party && party->MaxSize() > 0) {
    text += " " + std::to_string(party->CurrentSize()) + "/" + std::to_string(party->MaxSize());
  }
  return text;
}

}  // namespace

ArenaSession::ArenaSession(Options options)
    : client_(options.client),
      applicationId_(options.applicationId),
      name_(std::move(options.name)),
      apiBase_(options.client.apiBase) {}

ArenaSession::~ArenaSession() = default;

void ArenaSession::Start() {
  client_.SetApplicationId(applicationId_);
  client_.SetStatusChangedCallback([this](platformpp::Client::Status status, platformpp::Client::Error error,
                                          int32_t detail) { OnStatus(status, error, detail); });
  // A provisional account's token expires like any other: the same identity logs in again.
  client_.SetTokenExpirationCallback([this] { Login(); });
  client_.SetMessageCreatedCallback([this](uint64_t messageId) {
    if (auto message = client_.GetMessageHandle(messageId)) OnMessage(*message);
  });
  client_.SetLobbyMemberAddedCallback([this](uint64_t lobbyId, uint64_t memberId) {
    if (lobbyId != lobbyId_) return;
    if (memberId != selfId_) Say(NameOf(memberId) + " joined the lobby");
    WantPresence();
  });
  client_.SetLobbyMemberRemovedCallback([this](uint64_t lobbyId, uint64_t memberId) {
    if (lobbyId != lobbyId_) return;
    if (memberId != selfId_) Say(NameOf(memberId) + " left the lobby");
    WantPresence();
  });
  client_.SetLobbyDeletedCallback([this](uint64_t lobbyId) {
    if (lobbyId != lobbyId_) return;
    Say("The lobby " + lobbyCode_ + " is gone");
    ResetLobby();
  });
  client_.SetRelationshipCreatedCallback([this](uint64_t userId, bool) { OnRelationship(userId); });
  client_.SetActivityInviteCreatedCallback(
      [this](const platformpp::ActivityInvite& invite) { OnInvite(invite); });
  // The desktop client's Join button on this player's friend: the same as accepting an invite.
  client_.SetActivityJoinCallback([this](const std::string& secret) { Join(secret, false); });
  Login();
}

void ArenaSession::Login() {
  // The game's own identity provider would issue this token; the platform maps it to one provisional
  // account, so the same name is the same player every time.
  client_.GetProvisionalToken(
      applicationId_, platformpp::AuthenticationExternalAuthType::OIDC, "arena-player:" + name_,
      [this](const ClientResult& result, const std::string& accessToken, const std::string&,
             platformpp::AuthorizationTokenType type, int32_t, const std::string&) {
        if (!result.Successful()) return Fail("could not log in: " + Describe(result));
        client_.UpdateToken(type, accessToken, [this](const ClientResult& updated) {
          if (!updated.Successful()) return Fail("the token was refused: " + Describe(updated));
          if (client_.GetStatus() == platformpp::Client::Status::Disconnected) client_.Connect();
        });
      });
}

void ArenaSession::OnStatus(platformpp::Client::Status status, platformpp::Client::Error error,
                            int32_t detail) {
  using Status = platformpp::Client::Status;
  if (status == Status::Ready) {
    if (auto self = client_.GetCurrentUserV2()) selfId_ = self->Id();
    if (phase_ == Phase::LoggingIn) phase_ = Phase::Menu;
    if (!namedOnce_) {
      namedOnce_ = true;
      client_.UpdateProvisionalAccountDisplayName(name_, [this](const ClientResult& result) {
        if (!result.Successful()) Say("Your name could not be shown to others: " + Describe(result));
      });
    }
    WantPresence();
    return;
  }
  if (status == Status::Disconnected && error != platformpp::Client::Error::None) {
    // The SDK reconnects by itself after ordinary drops; Disconnected with an error means it will not.
    std::string why = error == platformpp::Client::Error::ConnectionFailed
                          ? "could not connect to the platform's Gateway"
                          : "the platform closed the connection";
    if (detail != 0) why += " (" + std::to_string(detail) + ")";
    Fail(why);
  }
}

void ArenaSession::Frame() {
  client_.RunCallbacks();
  if (presenceDirty_ && selfId_ != 0 && Clock::now() - presenceAt_ >= kPresenceInterval) SendPresence();
}

void ArenaSession::Shutdown(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  // Shared with the callback: when the deadline passes first, destroying the Client completes it later.
  auto left = std::make_shared<bool>(lobbyId_ == 0);
  if (call_) {
    client_.EndCall(lobbyId_, nullptr);
    call_ = {};
  }
  if (!*left) client_.LeaveLobby(lobbyId_, [left](const ClientResult&) { *left = true; });
  if (selfId_ != 0) client_.ClearRichPresence();
  while (!*left && Clock::now() < deadline) {
    client_.RunCallbacks();
    client_.WaitForCallbacks(20);
  }
  client_.Disconnect();
}

// --- Lobby ------------------------------------------------------------------------------------------------

void ArenaSession::CreateLobby(const std::string& code) {
  Join(code.empty() ? RandomCode() : code, true);
}

void ArenaSession::JoinLobby(const std::string& code) {
  std::string upper;
  for (char c : code)
    if (c != ' ') upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.empty()) return Say("No code given");
  Join(upper, false);
}

void ArenaSession::Join(const std::string& code, bool host) {
  if (phase_ == Phase::InLobby && code == lobbyCode_) return;
  if (phase_ != Phase::Menu) return Say("Leave this lobby first (l)");
  phase_ = Phase::Joining;
  Say((host ? "Creating lobby " : "Joining lobby ") + code + "...");
  auto done = [this, code](const ClientResult& result, uint64_t lobbyId) {
    if (!result.Successful()) {
      phase_ = Phase::Menu;
      return Say("Could not join " + code + ": " + Describe(result));
    }
    OnJoined(code, lobbyId);
  };
  if (host) {
    client_.CreateOrJoinLobbyWithMetadata(code, {{kHost, std::to_string(selfId_)}}, {}, done);
  } else {
    client_.CreateOrJoinLobby(code, done);
  }
}

void ArenaSession::OnJoined(const std::string& code, uint64_t lobbyId) {
  ResetLobby();
  phase_ = Phase::InLobby;
  lobbyId_ = lobbyId;
  lobbyCode_ = code;
  Say("In lobby " + code + ": give the code to a friend, or invite one (i)");
  WantPresence();
  // The moves so far, when this is a return to a game in progress.
  client_.GetLobbyMessagesWithLimit(
      lobbyId, kHistory,
      [this, lobbyId](const ClientResult& result, std::vector<platformpp::MessageHandle> messages) {
        if (lobbyId != lobbyId_) return;
        if (!result.Successful()) {
          Say("The lobby's history could not be read: " + Describe(result));
          messages.clear();
        }
        OnHistory(std::move(messages));
      });
}

void ArenaSession::OnHistory(std::vector<platformpp::MessageHandle> messages) {
  historyLoaded_ = true;
  messages.insert(messages.end(), std::make_move_iterator(early_.begin()),
                  std::make_move_iterator(early_.end()));
  early_.clear();
  // Snowflake ids grow with time: the platform's order.
  std::sort(messages.begin(), messages.end(), [](const auto& a, const auto& b) { return a.Id() < b.Id(); });
  for (const auto& message : messages)
    OnMessage(message);
}

void ArenaSession::LeaveLobby() {
  if (phase_ != Phase::InLobby) return Say("You are not in a lobby");
  if (call_) ToggleVoice();
  const uint64_t lobbyId = lobbyId_;
  const std::string code = lobbyCode_;
  ResetLobby();
  phase_ = Phase::Menu;
  WantPresence();
  client_.LeaveLobby(lobbyId, [this, code](const ClientResult& result) {
    Say(result.Successful() ? "Left lobby " + code : "Could not leave " + code + ": " + Describe(result));
  });
}

void ArenaSession::ResetLobby() {
  if (phase_ == Phase::InLobby) phase_ = Phase::Menu;
  lobbyId_ = 0;
  lobbyCode_.clear();
  historyLoaded_ = false;
  early_.clear();
  seen_.clear();
  chat_.clear();
  board_ = {};
  game_ = 1;
  call_ = {};
  speaking_.clear();
  WantPresence();
}

std::optional<platformpp::LobbyHandle> ArenaSession::Lobby() const {
  return lobbyId_ != 0 ? client_.GetLobbyHandle(lobbyId_) : std::nullopt;
}

int ArenaSession::MemberCount() const {
  auto lobby = Lobby();
  return lobby ? static_cast<int>(lobby->LobbyMemberIds().size()) : 0;
}

// --- The game
// -----------------------------------------------------------------------------------------------

std::optional<std::pair<uint64_t, uint64_t>> ArenaSession::Pair() const {
  // The host (who created the lobby) and the first other member; anyone after them watches.
  auto lobby = Lobby();
  if (!lobby) return std::nullopt;
  auto members = lobby->LobbyMemberIds();
  uint64_t host = 0;
  auto metadata = lobby->Metadata();
  if (auto it = metadata.find(kHost); it != metadata.end()) {
    try {
      host = std::stoull(it->second);
    } catch (const std::exception&) {
      host = 0;
    }
  }
  if (std::find(members.begin(), members.end(), host) == members.end()) {
    // No host recorded (or gone): the longest-standing member hosts.
    if (members.empty()) return std::nullopt;
    host = members.front();
  }
  for (uint64_t member : members)
    if (member != host) return std::pair{host, member};
  return std::nullopt;
}

std::optional<uint64_t> ArenaSession::FirstPlayer() const {
  // Odd games: the host opens; even games: the other player.
  auto pair = Pair();
  if (!pair) return std::nullopt;
  return game_ % 2 == 1 ? pair->first : pair->second;
}

std::optional<uint64_t> ArenaSession::SecondPlayer() const {
  auto pair = Pair();
  if (!pair) return std::nullopt;
  return game_ % 2 == 1 ? pair->second : pair->first;
}

char ArenaSession::DiscOf(uint64_t userId) const {
  if (auto first = FirstPlayer(); first && *first == userId) return 'X';
  if (auto second = SecondPlayer(); second && *second == userId) return 'O';
  return ' ';
}

std::optional<uint64_t> ArenaSession::Opponent() const {
  auto first = FirstPlayer();
  auto second = SecondPlayer();
  if (!first || !second) return std::nullopt;
  if (*first == selfId_) return second;
  if (*second == selfId_) return first;
  return std::nullopt;
}

bool ArenaSession::MyTurn() const {
  if (board_.Over()) return false;
  auto mover = board_.ToMove() == ConnectFour::Disc::First ? FirstPlayer() : SecondPlayer();
  return mover && *mover == selfId_;
}

bool ArenaSession::Play(int column) {
  if (phase_ != Phase::InLobby) {
    Say("Create (c) or join (j) a lobby first");
    return false;
  }
  if (!SecondPlayer()) {
    Say("Waiting for a second player");
    return false;
  }
  if (board_.Over()) {
    Say("This game is over: r for a rematch");
    return false;
  }
  if (!MyTurn()) {
    Say("Not your turn");
    return false;
  }
  if (!board_.CanDrop(column)) {
    Say("Column " + std::to_string(column + 1) + " is full");
    return false;
  }
  // Applied when the platform sends the message back, in its order, like the other player's moves.
  platformpp::Metadata move{{kKind, "move"},
                            {kGame, std::to_string(game_)},
                            {kTurn, std::to_string(board_.Turn())},
                            {kColumn, std::to_string(column)}};
  client_.SendLobbyMessageWithMetadata(lobbyId_, "plays column " + std::to_string(column + 1), move,
                                       [this](const ClientResult& result, uint64_t) {
                                         if (!result.Successful())
                                           Say("The move was not sent: " + Describe(result));
                                       });
  return true;
}

void ArenaSession::Rematch() {
  if (phase_ != Phase::InLobby || !board_.Over()) return Say("A rematch comes after a game");
  client_.SendLobbyMessageWithMetadata(lobbyId_, "asks for a rematch",
                                       {{kKind, "rematch"}, {kGame, std::to_string(game_ + 1)}},
                                       [this](const ClientResult& result, uint64_t) {
                                         if (!result.Successful()) Say("Not sent: " + Describe(result));
                                       });
}

void ArenaSession::SendChat(const std::string& text) {
  if (phase_ != Phase::InLobby) return Say("Chat happens in a lobby");
  if (text.empty()) return;
  client_.SendLobbyMessage(lobbyId_, text, [this](const ClientResult& result, uint64_t) {
    if (!result.Successful()) Say("Not sent: " + Describe(result));
  });
}

void ArenaSession::OnMessage(const platformpp::MessageHandle& message) {
  if (lobbyId_ == 0 || message.LobbyId().value_or(0) != lobbyId_) return;
  if (!historyLoaded_) {
    early_.push_back(message);
    return;
  }
  if (!seen_.insert(message.Id()).second) return;
  auto metadata = message.Metadata();
  auto kind = metadata.find(kKind);
  if (kind == metadata.end()) {
    chat_.push_back({NameOf(message.AuthorId()), message.Content()});
    while (chat_.size() > kChatLines)
      chat_.pop_front();
    return;
  }
  if (kind->second == "move") {
    ApplyMove(message.AuthorId(), metadata);
  } else if (kind->second == "rematch") {
    auto game = ToInt(metadata, kGame);
    if (game && *game == game_ + 1 && board_.Over() && DiscOf(message.AuthorId()) != ' ') NewGame(*game);
  }
}

void ArenaSession::ApplyMove(uint64_t author, const platformpp::Metadata& metadata) {
  // Both games check a move the same way against the same board, so both take or ignore the same ones.
  auto game = ToInt(metadata, kGame);
  auto turn = ToInt(metadata, kTurn);
  auto column = ToInt(metadata, kColumn);
  if (!game || !turn || !column || *game != game_ || *turn != board_.Turn()) return;
  auto mover = board_.ToMove() == ConnectFour::Disc::First ? FirstPlayer() : SecondPlayer();
  if (!mover || *mover != author || !board_.Drop(*column)) return;
  if (board_.Over()) {
    if (auto winner = board_.Winner()) {
      uint64_t id =
          *winner == ConnectFour::Disc::First ? FirstPlayer().value_or(0) : SecondPlayer().value_or(0);
      Say(id == selfId_ ? "You win! (r: rematch)" : NameOf(id) + " wins! (r: rematch)");
    } else {
      Say("A draw! (r: rematch)");
    }
  }
  WantPresence();
}

void ArenaSession::NewGame(int number) {
  game_ = number;
  board_ = {};
  Say("Game " + std::to_string(number) + ": " + NameOf(FirstPlayer().value_or(0)) + " opens");
  WantPresence();
}

std::string ArenaSession::GameLine() const {
  if (phase_ != Phase::InLobby) return "Not in a lobby";
  auto first = FirstPlayer();
  auto second = SecondPlayer();
  if (!first || !second) return "Waiting for a second player (code " + lobbyCode_ + ")";
  if (auto winner = board_.Winner()) {
    uint64_t id = *winner == ConnectFour::Disc::First ? *first : *second;
    return "Game " + std::to_string(game_) + ": " + NameOf(id) + " wins!";
  }
  if (board_.Draw()) return "Game " + std::to_string(game_) + ": a draw";
  std::string line = "Turn " + std::to_string(board_.Turn()) + ": ";
  if (MyTurn()) return line + "your move (1-7)";
  uint64_t mover = board_.ToMove() == ConnectFour::Disc::First ? *first : *second;
  return line + NameOf(mover) + " to move";
}

// --- Friends, invites, presence ---------------------------------------------------------------------------

void ArenaSession::BefriendOpponent() {
  auto opponent = Opponent();
  if (!opponent) return Say("Befriend whom? Play someone first");
  uint64_t id = *opponent;
  client_.SendGameFriendRequestById(id, [this, id](const ClientResult& result) {
    Say(result.Successful() ? "Friend request sent to " + NameOf(id)
                            : "Friend request failed: " + Describe(result));
  });
}

void ArenaSession::OnRelationship(uint64_t userId) {
  auto relationship = client_.GetRelationshipHandle(userId);
  if (relationship.GameRelationshipType() == platformpp::RelationshipType::PendingIncoming) {
    question_ = PendingQuestion{PendingQuestion::Kind::FriendRequest, userId, {}};
  } else if (relationship.GameRelationshipType() == platformpp::RelationshipType::Friend) {
    Say("You and " + NameOf(userId) + " are friends");
    if (question_ && question_->kind == PendingQuestion::Kind::FriendRequest && question_->userId == userId)
      question_.reset();
  }
}

void ArenaSession::InviteFriend(uint64_t userId) {
  if (phase_ != Phase::InLobby) return Say("Invites are to a lobby: create one first (c)");
  client_.SendActivityInvite(
      userId, "Play Connect Four with me in the arena!", [this, userId](const ClientResult& result) {
        Say(result.Successful() ? "Invited " + NameOf(userId) : "Invite failed: " + Describe(result));
      });
}

void ArenaSession::OnInvite(const platformpp::ActivityInvite& invite) {
  if (invite.Type() == platformpp::ActivityActionTypes::JoinRequest) {
    question_ = PendingQuestion{PendingQuestion::Kind::JoinRequest, invite.SenderId(), invite};
  } else {
    question_ = PendingQuestion{PendingQuestion::Kind::Invite, invite.SenderId(), invite};
  }
}

std::string ArenaSession::Question() const {
  if (!question_) return {};
  const std::string who = NameOf(question_->userId);
  switch (question_->kind) {
    case PendingQuestion::Kind::FriendRequest:
      return who + " wants to be friends. Accept? (y/n)";
    case PendingQuestion::Kind::Invite:
      return who + " invites you to play. Join? (y/n)";
    case PendingQuestion::Kind::JoinRequest:
      return who + " asks to join your game. Invite them? (y/n)";
  }
  return {};
}

void ArenaSession::Answer(bool yes) {
  if (!question_) return;
  PendingQuestion question = std::move(*question_);
  question_.reset();
  const uint64_t id = question.userId;
  switch (question.kind) {
    case PendingQuestion::Kind::FriendRequest:
      if (yes) {
        client_.AcceptGameFriendRequest(id, [this](const ClientResult& result) {
          if (!result.Successful()) Say("Could not accept: " + Describe(result));
        });
      } else {
        client_.RejectGameFriendRequest(id, [](const ClientResult&) {});
      }
      return;
    case PendingQuestion::Kind::Invite:
      if (!yes) return;
      if (phase_ == Phase::InLobby) LeaveLobby();
      client_.AcceptActivityInvite(question.invite,
                                   [this](const ClientResult& result, const std::string& secret) {
                                     if (!result.Successful())
                                       return Say("The invite could not be accepted: " + Describe(result));
                                     Join(secret, false);
                                   });
      return;
    case PendingQuestion::Kind::JoinRequest:
      if (yes) InviteFriend(id);
      return;
  }
}

std::vector<FriendLine> ArenaSession::Friends() const {
  std::vector<FriendLine> lines;
  for (auto group :
       {platformpp::RelationshipGroupType::OnlinePlayingGame,
        platformpp::RelationshipGroupType::OnlineElsewhere, platformpp::RelationshipGroupType::Offline}) {
    for (const auto& relationship : client_.GetRelationshipsByGroup(group)) {
      FriendLine line;
      line.id = relationship.Id();
      auto user = relationship.User();
      line.name = user ? user->DisplayName() : NameOf(line.id);
      if (user && user->GameActivity()) {
        line.presence = PresenceText(*user->GameActivity());
        auto party = user->GameActivity()->Party();
        line.joinable = party && party->CurrentSize() < party->MaxSize();
      } else {
        line.presence = group == platformpp::RelationshipGroupType::Offline ? "Offline" : "Online";
      }
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

void ArenaSession::SendPresence() {
  platformpp::Activity activity;
  activity.SetType(platformpp::ActivityTypes::Playing);
  activity.SetDetails("Connect Four");
  if (phase_ == Phase::InLobby) {
    const int members = MemberCount();
    if (SecondPlayer() && !board_.Over()) {
      activity.SetState("Playing, turn " + std::to_string(board_.Turn()));
    } else {
      activity.SetState("In the lobby");
    }
    platformpp::ActivityParty party;
    party.SetId("arena-" + lobbyCode_);
    party.SetCurrentSize(std::max(1, members));
    party.SetMaxSize(2);
    activity.SetParty(party);
    if (members < 2) {
      // Room for one more: the platform shows a Join button; the secret is the lobby's code.
      platformpp::ActivitySecrets secrets;
      secrets.SetJoin(lobbyCode_);
      activity.SetSecrets(secrets);
    }
  } else {
    activity.SetState("In the menu");
  }
  const std::string text = PresenceText(activity) + (activity.Secrets() ? "+join" : "");
  presenceDirty_ = false;
  if (text == presenceSent_) return;
  presenceSent_ = text;
  presenceAt_ = Clock::now();
  client_.UpdateRichPresence(activity, [this](const ClientResult& result) {
    if (result.Successful()) return;
    presenceSent_.clear();  // try again with the next change
    Say("Rich presence not updated: " + Describe(result));
  });
}

// --- Voice
// ----------------------------------------------------------------------------------------------------

// [guide:toggle-voice]
void ArenaSession::ToggleVoice() {
  if (phase_ != Phase::InLobby) return Say("Voice is for a lobby: create or join one first");
  if (call_) {
    client_.EndCall(lobbyId_, nullptr);
    call_ = {};
    speaking_.clear();
    return Say("Left the voice call");
  }
  call_ = client_.StartCall(lobbyId_);
  if (!call_) return Say("The voice call could not start");
  call_.SetStatusChangedCallback(
      [this](platformpp::Call::Status status, platformpp::Call::Error error, int32_t) {
        if (status == platformpp::Call::Status::Disconnected && error != platformpp::Call::Error::None) {
          Say("The voice call ended: error " + std::to_string(static_cast<int>(error)));
        }
      });
  call_.SetSpeakingStatusChangedCallback([this](uint64_t userId, bool speaking) {
    if (speaking) {
      speaking_.insert(userId);
    } else {
      speaking_.erase(userId);
    }
  });
  Say("Joining the voice call (v again to leave)");
}
// [guide-end]

std::string ArenaSession::VoiceLine() const {
  if (!call_) return "Voice: off (v)";
  std::string line = "Voice: ";
  switch (call_.GetStatus()) {
    case platformpp::Call::Status::Connected:
      line += "connected";
      break;
    case platformpp::Call::Status::Disconnected:
      line += "disconnected";
      break;
    case platformpp::Call::Status::Reconnecting:
      line += "reconnecting";
      break;
    default:
      line += "connecting";
      break;
  }
  line += call_.GetE2eeActive() ? ", end-to-end encrypted" : "";
  line += ", " + std::to_string(call_.GetParticipants().size()) + " in call";
  if (!speaking_.empty()) {
    line += ", speaking:";
    for (uint64_t id : speaking_)
      line += " " + NameOf(id);
  }
  return line;
}

// --- Words
// ----------------------------------------------------------------------------------------------------

std::string ArenaSession::StatusText() const {
  if (phase_ == Phase::Failed) return "Failed";
  switch (client_.GetStatus()) {
    case platformpp::Client::Status::Disconnected:
      return phase_ == Phase::LoggingIn ? "Logging in" : "Disconnected";
    case platformpp::Client::Status::Connecting:
    case platformpp::Client::Status::Connected:
      return "Connecting";
    case platformpp::Client::Status::Ready:
      return "Online";
    case platformpp::Client::Status::Reconnecting:
      return "Reconnecting";
    case platformpp::Client::Status::Disconnecting:
      return "Disconnecting";
    case platformpp::Client::Status::HttpWait:
      return "Waiting for the platform";
  }
  return "?";
}

std::string ArenaSession::NameOf(uint64_t userId) const {
  if (userId == 0) return "nobody";
  if (userId == selfId_) return name_;
  if (auto user = client_.GetUser(userId)) return user->DisplayName();
  if (auto lobby = Lobby()) {
    if (auto member = lobby->GetLobbyMemberHandle(userId); member && member->User())
      return member->User()->DisplayName();
  }
  return "player " + std::to_string(userId % 10000);
}

std::string ArenaSession::Describe(const ClientResult& result) const {
  if (result.Type() == platformpp::ErrorType::NetworkError) {
    return "cannot reach the platform at " + apiBase_ + " (" + result.Error() +
           "); is platformpp-emulator running there?";
  }
  return result.ToString();
}

void ArenaSession::Say(std::string notice) {
  notice_ = std::move(notice);
}

void ArenaSession::Fail(std::string why) {
  phase_ = Phase::Failed;
  failure_ = std::move(why);
}

}  // namespace arena
