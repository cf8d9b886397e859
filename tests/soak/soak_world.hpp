// The fault soak's game side: players (a Client each, in lobbies with a call, friends, DMs, presence) and
// what they record, all on the test's one game thread; and the books the end checks read.
#pragma once

#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace soak {

using Clock = std::chrono::steady_clock;

/// Problems found, by kind, with the first few examples of each: the report prints them and the run fails on
/// any.
class Findings {
 public:
  void Add(const std::string& kind, const std::string& example);
  bool Empty() const { return counts_.empty(); }
  void Print() const;

 private:
  std::map<std::string, int> counts_;
  std::map<std::string, std::vector<std::string>> examples_;
};

/// Every callback the soak hands a Client goes through Ledger::Guard: it must run on the game thread, inside
/// RunCallbacks (PumpScope); an operation's callback (Ledger::Operation) must run exactly once.
class Ledger {
 public:
  explicit Ledger(Findings& findings) : findings_(findings) {}
  /// The game thread: the one that calls this.
  void SetGameThread() { gameThread_ = std::this_thread::get_id(); }
  /// Marks RunCallbacks on the game thread (a callback outside it is a finding).
  struct PumpScope {
    PumpScope();
    ~PumpScope();
    PumpScope(const PumpScope&) = delete;
    PumpScope& operator=(const PumpScope&) = delete;
  };
  /// Checks where a callback runs.
  void Check(const char* what);
  /// A new operation named `what`; returns its id. `Ended(id)` is called from its callback.
  uint64_t Begin(const std::string& what);
  void Ended(uint64_t id);
  /// Operations not ended yet.
  std::size_t Pending() const;
  /// Each pending operation's name, for the report.
  std::vector<std::string> PendingNames() const;
  uint64_t Started() const { return next_ - 1; }

 private:
  Findings& findings_;
  std::thread::id gameThread_;
  uint64_t next_ = 1;
  std::map<uint64_t, std::string> pending_;
};

/// One status change, as the game saw it.
struct StatusEvent {
  Clock::time_point at;
  int status = 0;
  int error = 0;
  int32_t detail = 0;
};

/// A message the game sent and what became of it.
struct Sent {
  std::string channel;     ///< "lobby <id>" or "dm <low user id> <high user id>"
  std::string content;     ///< unique in the run
  uint64_t id = 0;         ///< on success
  uint64_t channelId = 0;  ///< on success, the platform's id of the channel
  bool ended = false;
  bool ok = false;
  Clock::time_point at;      ///< when it was sent
  bool toLobby = false;      ///< a lobby message, else a DM
  uint64_t lobbyId = 0;      ///< a lobby message's lobby
  uint64_t recipientId = 0;  ///< a DM's recipient
};

/// A player: one Client and the game's books about it.
struct Player {
  int index = 0;
  platformpp::testkit::EmulatorAdmin::User user;
  std::string accessToken, refreshToken;
  int lobbyIndex = 0;
  uint64_t lobbyId = 0;
  uint64_t friendId = 0;  ///< the next player of its lobby: friends, and DM partners
  std::unique_ptr<platformpp::Client> client;
  platformpp::Call call;

  std::vector<StatusEvent> statuses;      ///< the Client's, in order
  std::vector<StatusEvent> callStatuses;  ///< its call's, in order
  /// MessageCreated, per channel, in order of the callbacks.
  std::map<std::string, std::vector<uint64_t>> received;
  std::set<uint64_t> receivedIds;
  std::set<uint64_t> ownIds;                             ///< the ids of its own messages sent with success
  std::map<uint64_t, Clock::time_point> receivedAt;      ///< when MessageCreated came, for the report
  std::map<std::string, std::set<uint64_t>> channelIds;  ///< per channel as above, the ids it came in
  std::vector<Sent> sent;
  std::string presenceState;  ///< the last state asked of UpdateRichPresence (what friends must see)
  int presenceRound = 0;
  bool presencePending = false;
  Clock::time_point presenceAskedAt;  ///< when the last UpdateRichPresence was called, for the report
  std::string presenceOutcome;        ///< how it ended ("ok" or its error), for the report
  bool lobbyMessagePending = false, dmPending = false;
  /// The platform deleted its lobby (nobody connected for its idle timeout: after the emulator was killed and
  /// the fake clock jumped a week, before anyone was back); the game joins it again by its secret.
  bool rejoinPending = false;
  int rejoins = 0;
  Clock::time_point lobbyJoinedAt;  ///< when its last CreateOrJoinLobby succeeded
  bool callWanted = false;          ///< start the call once the Client knows the lobby (after a rejoin)
  bool endingCall = false;          ///< the old lobby's call is ending (after a rejoin)
  int callStartsRefused = 0;        ///< StartCall refusals, each tried again
  std::string lastRefusal;          ///< why the last StartCall was refused
  /// Token recovery: a 401 or a terminal close makes the game refresh its token, or, when the grant is
  /// gone, ask for a new one (a player signing in again).
  enum class Auth { Ok, Refreshing, WaitingForGrant, Updating } auth = Auth::Ok;
  bool reconnectAfterUpdate = false;
  Clock::time_point nextLobbyMessage, nextDm, nextPresence, disconnectedAt;
  int terminalCloses = 0;
  std::vector<Clock::time_point> tokenUpdates;  ///< when the game gave the Client a new token
  std::atomic<uint64_t> framesReceived{0};      ///< audio frames from others (written on the voice thread)
};

}  // namespace soak
