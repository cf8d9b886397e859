#pragma once
// The arena's side of the platform: one player's Client, logged in as a provisional account named by the
// player, and what the game keeps of it: the lobby (joined by a code), the Connect Four game played in it,
// the lobby chat, the friends list with rich presence, invites and friend requests, and the lobby's voice
// call. Moves and chat are lobby messages, so both players' games apply the same moves in the same order
// (the platform's), and a game that restarts replays them from the lobby's history. Game thread only: every
// method, and every callback the session registers, runs inside Frame().

#include <platformpp/platformpp.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "connect_four.hpp"

namespace arena {

struct ChatLine {
  std::string author;
  std::string text;
};

struct FriendLine {
  uint64_t id = 0;
  std::string name;
  std::string presence;   ///< "In the lobby 1/2", "Playing, turn 3", "Online", "Offline"
  bool joinable = false;  ///< their game shows a party with room (the platform's Join button)
};

class ArenaSession {
 public:
  struct Options {
    platformpp::ClientOptions client;
    uint64_t applicationId = 0;
    std::string name;  ///< the player's name: their provisional account's identity and display name
  };
  enum class Phase { LoggingIn, Menu, Joining, InLobby, Failed };

  explicit ArenaSession(Options options);
  ~ArenaSession();
  ArenaSession(const ArenaSession&) = delete;
  ArenaSession& operator=(const ArenaSession&) = delete;

  /// Logs in (a provisional account: the game's own identity for `name`) and connects.
  void Start();
  /// Runs the Client's callbacks and sends the rich presence when it changed. Call once a frame.
  void Frame();
  /// Leaves the lobby, clears the rich presence and disconnects, running frames until that is done (at most
  /// `timeout`).
  void Shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(3));

  // What the player does.
  /// Creates a lobby with `code` (empty: a new random one) and hosts its games.
  void CreateLobby(const std::string& code = {});
  void JoinLobby(const std::string& code);
  void LeaveLobby();
  void SendChat(const std::string& text);
  /// Plays the player's disc into `column` (0-based); false with a notice when it is not theirs to play.
  bool Play(int column);
  /// After a game: the next one, the other player opening.
  void Rematch();
  void BefriendOpponent();
  void InviteFriend(uint64_t userId);
  /// Answers the question on screen (a friend request, an invite, a join request): yes or no.
  void Answer(bool yes);
  void ToggleVoice();

  // What the screen shows.
  Phase GetPhase() const { return phase_; }
  const std::string& Name() const { return name_; }
  uint64_t SelfId() const { return selfId_; }
  std::string StatusText() const;
  const std::string& LobbyCode() const { return lobbyCode_; }
  int MemberCount() const;
  const ConnectFour& Board() const { return board_; }
  int GameNumber() const { return game_; }
  /// 'X' or 'O' for a player of the lobby's game, ' ' otherwise.
  char DiscOf(uint64_t userId) const;
  std::optional<uint64_t> FirstPlayer() const;
  std::optional<uint64_t> SecondPlayer() const;
  bool MyTurn() const;
  /// "Waiting for a second player", "Turn 3: your move (1-7)", "Ada wins!", ...
  std::string GameLine() const;
  const std::deque<ChatLine>& Chat() const { return chat_; }
  std::vector<FriendLine> Friends() const;
  std::string VoiceLine() const;
  const std::string& Notice() const { return notice_; }
  /// The question `Answer` answers, empty when there is none.
  std::string Question() const;
  /// Why the session cannot go on (Phase::Failed).
  const std::string& Failure() const { return failure_; }
  std::string NameOf(uint64_t userId) const;
  platformpp::Client& Client() { return client_; }

 private:
  struct PendingQuestion {
    enum class Kind { FriendRequest, Invite, JoinRequest } kind;
    uint64_t userId = 0;
    platformpp::ActivityInvite invite;
  };

  void Login();
  void OnStatus(platformpp::Client::Status status, platformpp::Client::Error error, int32_t detail);
  void Join(const std::string& code, bool host);
  void OnJoined(const std::string& code, uint64_t lobbyId);
  void OnHistory(std::vector<platformpp::MessageHandle> messages);
  void OnMessage(const platformpp::MessageHandle& message);
  void ApplyMove(uint64_t author, const platformpp::Metadata& metadata);
  void NewGame(int number);
  void ResetLobby();
  void OnInvite(const platformpp::ActivityInvite& invite);
  void OnRelationship(uint64_t userId);
  void Fail(std::string why);
  void Say(std::string notice);
  std::string Describe(const platformpp::ClientResult& result) const;
  std::optional<uint64_t> Opponent() const;
  /// The lobby's two players: its host and the first other member.
  std::optional<std::pair<uint64_t, uint64_t>> Pair() const;
  std::optional<platformpp::LobbyHandle> Lobby() const;
  void WantPresence() { presenceDirty_ = true; }
  void SendPresence();

  platformpp::Client client_;
  uint64_t applicationId_;
  std::string name_;
  std::string apiBase_;
  Phase phase_ = Phase::LoggingIn;
  uint64_t selfId_ = 0;
  bool namedOnce_ = false;
  std::string failure_;
  std::string notice_;

  uint64_t lobbyId_ = 0;
  std::string lobbyCode_;
  bool historyLoaded_ = false;
  std::vector<platformpp::MessageHandle> early_;  // live messages that came before the history
  std::set<uint64_t> seen_;                       // messages applied, history and live alike
  ConnectFour board_;
  int game_ = 1;
  std::deque<ChatLine> chat_;

  std::optional<PendingQuestion> question_;
  platformpp::Call call_;
  std::set<uint64_t> speaking_;

  bool presenceDirty_ = true;
  std::string presenceSent_;
  std::chrono::steady_clock::time_point presenceAt_{};
};

}  // namespace arena
