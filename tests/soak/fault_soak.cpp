// The fault soak (issue 38, part 2): players in lobbies, with presence, friends, DMs, lobby messages and an
// end-to-end encrypted call in each lobby, while a schedule drawn from a seed injects the faults networks and
// servers really produce (fault_schedule.hpp). At the end, with the faults over: every message sent was
// delivered exactly once and in order to every member of its channel, every operation ended exactly once, the
// Clients' stores equal the emulator's state, no callback ran outside RunCallbacks, and no thread or file
// descriptor outlived the Clients. It measures how fast Gateway sessions resume and calls reconnect.
//
//   platformpp_fault_soak [--players N] [--seconds S] [--seed X] [--bound S] [--no-kill]
//   (short mode, CTest's soak_short: 20 players for 60 s; long mode: 100 players for 3600 s)
#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "fault_schedule.hpp"
#include "json/json.hpp"
#include "soak_world.hpp"

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

namespace soak {
namespace {

using platformpp::Call;
using platformpp::Client;
using platformpp::ClientResult;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;
using namespace std::chrono_literals;

constexpr int kLobbySize = 5;
/// BeyondLobbyHistory: how long after a clock jump a lobby message sent before it may still be dispatched.
constexpr auto kLobbyJumpMargin = std::chrono::seconds(5);
constexpr const char* kScopes = "openid sdk.social_layer";

struct Options {
  int players = 20;
  double seconds = 60;
  uint64_t seed = 1;
  bool kill = true;
  /// A resume or voice reconnection slower than this is a finding. The goal is 2 s (and the long mode checks
  /// it); CTest's short mode runs beside other tests, under ASan in CI, on 2 cores, and allows 10 s.
  double bound = 2.0;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--players" && value) {
      options.players = std::atoi(value);
      ++i;
    } else if (arg == "--seconds" && value) {
      options.seconds = std::atof(value);
      ++i;
    } else if (arg == "--seed" && value) {
      options.seed = std::strtoull(value, nullptr, 10);
      ++i;
    } else if (arg == "--bound" && value) {
      options.bound = std::atof(value);
      ++i;
    } else if (arg == "--no-kill") {
      options.kill = false;
    } else {
      std::fprintf(stderr, "usage: %s [--players N] [--seconds S] [--seed X] [--bound S] [--no-kill]\n",
                   argv[0]);
      std::exit(2);
    }
  }
  if (options.players < 2 || options.seconds < 20) {
    std::fprintf(stderr, "at least 2 players and 20 seconds\n");
    std::exit(2);
  }
  return options;
}

/// Threads, file descriptors and resident memory of this process.
struct Resources {
  int threads = 0;
  int fds = 0;
  double rssMiB = 0;
  static Resources Now() {
    Resources r;
    namespace fs = std::filesystem;
    std::error_code error;
    for (auto it = fs::directory_iterator("/proc/self/task", error); !error && it != fs::directory_iterator();
         it.increment(error))
      ++r.threads;
    for (auto it = fs::directory_iterator("/proc/self/fd", error); !error && it != fs::directory_iterator();
         it.increment(error))
      ++r.fds;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
      long pages = 0, resident = 0;
      if (std::fscanf(statm, "%ld %ld", &pages, &resident) == 2)
        r.rssMiB = static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
      std::fclose(statm);
    }
    return r;
  }
};

std::string DmChannel(uint64_t a, uint64_t b) {
  return "dm " + std::to_string(std::min(a, b)) + " " + std::to_string(std::max(a, b));
}

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// The emulator's settings for the soak, applied at the start and after each restart (they are the process's,
/// not its state file's). Heartbeats every 2 s, so that a stalled ACK is noticed within the run (45 s on the
/// platform).
void Configure(EmulatorAdmin& admin) {
  EmulatorAdmin::GatewayLimits limits;
  limits.heartbeatIntervalMs = 2000;
  admin.SetGatewayLimits(limits);
}

/// The fault side: runs the schedule on a thread of its own (admin calls block, an emulator restart takes a
/// second or two) while the game thread keeps pumping. It also mints new grants for players whose grant was
/// revoked (the game asks; a player signing in again).
class Chaos {
 public:
  Chaos(EmulatorProcess::Options processOptions, std::unique_ptr<EmulatorProcess> process, uint64_t appId,
        std::vector<ScheduledFault> schedule)
      : processOptions_(std::move(processOptions)),
        process_(std::move(process)),
        appId_(appId),
        schedule_(std::move(schedule)) {
    admin_ = MakeAdmin();
  }

  EmulatorAdmin& Admin() { return *admin_; }
  EmulatorProcess& Process() { return *process_; }

  /// The game asks for a new grant for `userId`; TakeGrant returns it once minted.
  void RequestGrant(uint64_t userId) {
    std::lock_guard lock(mutex_);
    grantRequests_.push_back(userId);
    wake_.notify_all();
  }
  std::optional<EmulatorAdmin::Token> TakeGrant(uint64_t userId) {
    std::lock_guard lock(mutex_);
    auto it = grants_.find(userId);
    if (it == grants_.end()) return std::nullopt;
    auto token = it->second;
    grants_.erase(it);
    return token;
  }

  /// When each fault was injected (steady clock), in schedule order, and what it did.
  struct Injected {
    ScheduledFault fault;
    Clock::time_point at;
    uint64_t userId = 0;
    std::string note;
    /// When its admin calls had all returned: a clock jump happened somewhere between `at` and this, which
    /// on a starved machine can be seconds.
    Clock::time_point done;
  };
  std::vector<Injected> InjectedSoFar() {
    std::lock_guard lock(mutex_);
    return injected_;
  }
  bool ScheduleDone() const { return done_; }
  std::string Error() {
    std::lock_guard lock(mutex_);
    return error_;
  }

  void Start(Clock::time_point start, std::vector<uint64_t> userIds) {
    start_ = start;
    userIds_ = std::move(userIds);
    thread_ = std::thread([this] { Run(); });
  }
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      wake_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }
  ~Chaos() { Stop(); }

 private:
  void Run() {
    std::size_t next = 0;
    std::vector<std::pair<Clock::time_point, std::function<void()>>> endings;  // faults with a duration
    for (;;) {
      std::vector<uint64_t> requests;
      {
        std::unique_lock lock(mutex_);
        wake_.wait_for(lock, 20ms, [&] { return stop_ || !grantRequests_.empty(); });
        if (stop_) return;
        requests.swap(grantRequests_);
      }
      if (abandoned_) {
        done_ = true;  // no emulator to inject into: the run ends, with the error as its finding
        continue;
      }
      try {
        for (const auto userId : requests) {
          auto token = admin_->MintToken(userId, appId_, kScopes);
          std::lock_guard lock(mutex_);
          grants_[userId] = token;
        }
        const auto now = Clock::now();
        for (auto it = endings.begin(); it != endings.end();) {
          if (it->first <= now) {
            it->second();
            it = endings.erase(it);
          } else {
            ++it;
          }
        }
        if (next < schedule_.size() &&
            now >= start_ + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(schedule_[next].atSeconds))) {
          Inject(schedule_[next++], endings);
        }
        if (next == schedule_.size() && endings.empty()) done_ = true;
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex_);
        if (error_.empty()) error_ = e.what();
      }
    }
  }

  /// The fault thread's admin client. Its requests may wait far longer than the testkit's 10 s: in the long
  /// mode 100 Clients starve the emulator of CPU (resumes took up to 102 s in the fourth hour), and a fault
  /// that fails there ends the schedule (the fourth hour's did, on a Gateway drop 3 s before its end).
  std::unique_ptr<EmulatorAdmin> MakeAdmin() {
    auto admin = std::make_unique<EmulatorAdmin>(process_->Connection());
    admin->SetRequestTimeout(std::chrono::minutes(2));
    return admin;
  }

  void Inject(const ScheduledFault& fault,
              std::vector<std::pair<Clock::time_point, std::function<void()>>>& endings) {
    Injected record{fault, Clock::now(), userIds_[static_cast<std::size_t>(fault.player)], {}, {}};
    const uint64_t user = record.userId;
    const auto until = record.at + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(fault.durationSeconds));
    switch (fault.kind) {
      case FaultKind::GatewayDrop:
        record.note = std::to_string(admin_->DropGateway({{}, user}));
        break;
      case FaultKind::InvalidSession:
        record.note = std::to_string(admin_->InvalidateGateway({{}, user}, fault.resumable));
        break;
      case FaultKind::VoiceDrop:
        record.note = std::to_string(admin_->DropVoice(user));
        break;
      case FaultKind::RateLimitStorm:
      case FaultKind::ServerErrorBurst: {
        const bool storm = fault.kind == FaultKind::RateLimitStorm;
        for (const char* route : {"POST /lobbies/*/messages", "POST /channels/*/messages"}) {
          EmulatorAdmin::Fault f;
          f.route = route;
          f.status = storm ? 429 : 502;
          if (storm) f.retryAfter = 0.4;
          f.count = storm ? 12 : 6;
          admin_->AddFault(f);
        }
        break;
      }
      case FaultKind::HeartbeatStall:
        admin_->StallGateway({{}, user}, true);
        // The stalled connection is the one the Client gives up on; a fresh one is not stalled. Lift it
        // anyway after a while, in case the Client never noticed.
        endings.emplace_back(record.at + 15s, [this, user] { admin_->StallGateway({{}, user}, false); });
        break;
      case FaultKind::UdpLossAndReorder:
        admin_->SetVoiceUdpFaults(10, 5, 10, 7);
        endings.emplace_back(until, [this] { admin_->ClearVoiceUdpFaults(); });
        break;
      case FaultKind::IpcVanish:
        admin_->DropIpc();
        endings.emplace_back(until, [this] { admin_->RestoreIpc(); });
        break;
      case FaultKind::TokenExpiry: {
        // A week and a minute: past every access token's expires_in (a week on the platform).
        admin_->AdvanceClock(std::chrono::hours(24 * 7) + 1min);
        break;
      }
      case FaultKind::TokenRevocation: {
        std::string token;
        {
          std::lock_guard lock(mutex_);
          token = currentTokens_[user];
        }
        if (!token.empty()) admin_->DeleteToken(token);
        record.note = std::to_string(admin_->DropGateway({{}, user}));
        break;
      }
      case FaultKind::EmulatorKill: {
        const auto port = process_->Connection().port;
        admin_.reset();
        process_->Kill();
        auto options = processOptions_;
        options.extraArguments.emplace_back("--port");
        options.extraArguments.emplace_back(std::to_string(port));
        // The state file grows with the run (an hour of messages), and its load with it: a long wait, and a
        // few attempts. A restart that never succeeds ends the schedule with an error (a finding), never a
        // fault thread without an admin client (the long mode's first run crashed on that).
        options.startTimeout = std::chrono::seconds(120);
        for (int attempt = 1;; ++attempt) {
          try {
            process_ = EmulatorProcess::Start(options);
            break;
          } catch (const std::exception& e) {
            if (attempt == 3) {
              abandoned_ = true;
              throw std::runtime_error("the emulator did not restart after its kill: " +
                                       std::string(e.what()));
            }
          }
        }
        admin_ = MakeAdmin();
        Configure(*admin_);
        record.note = "restarted in " + std::to_string(Seconds(Clock::now() - record.at)) + " s";
        break;
      }
    }
    record.done = Clock::now();
    std::lock_guard lock(mutex_);
    injected_.push_back(std::move(record));
  }

 public:
  /// The access token a player uses now (what a revocation revokes).
  void SetCurrentToken(uint64_t userId, const std::string& token) {
    std::lock_guard lock(mutex_);
    currentTokens_[userId] = token;
  }

 private:
  EmulatorProcess::Options processOptions_;
  std::unique_ptr<EmulatorProcess> process_;
  std::unique_ptr<EmulatorAdmin> admin_;
  uint64_t appId_;
  std::vector<ScheduledFault> schedule_;
  std::vector<uint64_t> userIds_;
  Clock::time_point start_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::atomic<bool> done_{false};
  bool abandoned_ = false;  // the emulator could not be restarted (fault thread only)
  std::string error_;
  std::vector<uint64_t> grantRequests_;
  std::map<uint64_t, EmulatorAdmin::Token> grants_;
  std::map<uint64_t, std::string> currentTokens_;
  std::vector<Injected> injected_;
};

class Soak {
 public:
  explicit Soak(Options options) : options_(options), ledger_(findings_) {}
  // A run that stops early (a failed setup, an exception) still ends its Clients, stops the emulator and
  // removes its data directory.
  ~Soak() {
    players_.clear();
    chaos_.reset();
    if (!dataDir_.empty()) {
      std::error_code ignored;
      std::filesystem::remove_all(dataDir_, ignored);
    }
  }
  Soak(const Soak&) = delete;
  Soak& operator=(const Soak&) = delete;

  int Run();

 private:
  void SetUp();
  void AddPlayer(int index);
  void Pump();
  void Act(Player& p, bool sending);
  void SendMessage(Player& p, bool lobby);
  void SetPresence(Player& p);
  void RecoverToken(Player& p);
  /// Starts the player's call in its lobby; false when the Client refused (why in Player::lastRefusal).
  bool StartCall(Player& p);
  void JoinLobby(Player& p, std::function<void(bool joined)> done);
  bool Settled(std::string& why);
  /// A delivery still owed at the end: the sender's sent[index] to the receiver.
  struct Owed {
    const Player* sender;
    std::size_t index;
    const Player* receiver;
  };
  /// Listed once no operation is pending (the sends are final then), then only these are looked at: an
  /// hour's run sends a quarter of a million messages, and checking each against every player on every pass
  /// made one pass take seconds.
  std::optional<std::vector<Owed>> owed_;
  /// The platform keeps a lobby's history for 72 hours, and the token-expiry fault moves the fake clock a
  /// week on. A lobby message sent before such a jump, to a member whose Client was not Ready from the send
  /// until a little after the jump, may have reached it neither live nor in its catch-up (older than the
  /// history by then): the platform does not promise it, and the soak does not expect it.
  bool BeyondLobbyHistory(const Sent& sent, const Player& receiver);
  /// Whether `receiver` is one of those `sent` must reach: a member of its lobby (from its last join on), or
  /// either side of its DM.
  static bool Addressed(const Sent& sent, const Player& sender, const Player& receiver);
  /// The player whose presence `p` follows (its friend), if any.
  const Player* FriendOf(const Player& p) const;
  /// The state of the friend's activity as `p`'s Client shows it; nullopt when it shows none.
  static std::optional<std::string> FriendStateSeen(const Player& p);
  /// For a report that did not settle: each call short of its lobby's members, who is missing, and how each
  /// missing member sees its own call.
  void PrintCallsShort() const;
  void CheckDelivery();
  void CheckStores();
  void CheckResumes();
  /// For a finding about one player: its Client's statuses and token updates from 5 s before `at` to 15 s
  /// after, in seconds since the start.
  void PrintStatusesAround(const Player& p, Clock::time_point at) const;
  std::string Tag(const Player& p) const { return "player " + std::to_string(p.index); }
  /// A moment of the run for the report: seconds since the start, cut to six characters as its timelines
  /// show.
  std::string SinceStart(Clock::time_point t) const {
    return std::to_string(Seconds(t - start_)).substr(0, 6);
  }
  /// An operation callback: checked where it runs, ended once, then `body`.
  template <typename... Args, typename F>
  std::function<void(Args...)> Op(const std::string& what, F body) {
    const auto id = ledger_.Begin(what);
    return [this, id, what, body = std::move(body)](Args... args) mutable {
      ledger_.Check(what.c_str());
      ledger_.Ended(id);
      body(std::forward<Args>(args)...);
    };
  }

  Options options_;
  Findings findings_;
  Ledger ledger_;
  std::string dataDir_;
  std::unique_ptr<Chaos> chaos_;
  EmulatorAdmin::App app_{};
  std::vector<std::unique_ptr<Player>> players_;
  std::vector<uint64_t> lobbyIds_;
  std::mt19937_64 random_;
  uint64_t messageCounter_ = 0;
  Clock::time_point start_;
};

void Soak::SetUp() {
  namespace fs = std::filesystem;
  dataDir_ = (fs::temp_directory_path() / ("platformpp-soak-" + std::to_string(::getpid()))).string();
  fs::remove_all(dataDir_);
  fs::create_directory(dataDir_);
  fs::permissions(dataDir_, fs::perms::owner_all);
  EmulatorProcess::Options processOptions;
  processOptions.ipcName = "platformpp-soak-" + std::to_string(::getpid());
  // The data dir is the same for every start: the Clients' CA file stays where they read it, and the state
  // file keeps the CA, the accounts, lobbies and messages across a kill.
  // The platform's development limits on lobby messages and DMs (100 per application per 2 hours) are for
  // a game in development, not a load test: off, on the command line so that a restart keeps them off. 429s
  // come from the schedule's storms instead.
  processOptions.extraArguments = {"--state", dataDir_ + "/state.db", "--data-dir", dataDir_,
                                   "--no-social-rate-limits"};
  auto process = EmulatorProcess::Start(processOptions);
  EmulatorAdmin admin(process->Connection());
  app_ = admin.CreateApp("Soak Game");
  Configure(admin);
  chaos_ =
      std::make_unique<Chaos>(processOptions, std::move(process), app_.id,
                              MakeSchedule(options_.seed, options_.seconds, options_.players, options_.kill));
}

void Soak::AddPlayer(int index) {
  auto& admin = chaos_->Admin();
  auto player = std::make_unique<Player>();
  Player& p = *player;
  p.index = index;
  p.user = admin.CreateUser("soaker" + std::to_string(index));
  const auto token = admin.MintToken(p.user.id, app_.id, kScopes);
  p.accessToken = token.accessToken;
  p.refreshToken = token.refreshToken;
  chaos_->SetCurrentToken(p.user.id, p.accessToken);
  p.lobbyIndex = index / kLobbySize;
  p.client = std::make_unique<Client>(chaos_->Process().Connection().ClientOptionsFor());
  Client& client = *p.client;
  client.SetApplicationId(app_.id);
  client.SetEchoCancellation(false);
  client.SetNoiseSuppression(false);
  client.SetAutomaticGainControl(false);
  const char* only = std::getenv("PLATFORMPP_SOAK_LOG_PLAYER");
  if (const char* level = std::getenv("PLATFORMPP_SOAK_LOG"); level && (!only || std::atoi(only) == index)) {
    // The SDK's warnings and errors, each with its player and time, for a look into a failed run.
    const auto severity = std::string(level) == "verbose" ? platformpp::LoggingSeverity::Verbose
                          : std::string(level) == "info"  ? platformpp::LoggingSeverity::Info
                                                          : platformpp::LoggingSeverity::Warning;
    const auto print = [this, index](const std::string& message, platformpp::LoggingSeverity) {
      std::printf("[%.3f] player %d: %s\n", Seconds(Clock::now() - start_), index, message.c_str());
    };
    client.AddLogCallback(print, severity);
    client.AddVoiceLogCallback(print, severity);
  }
  client.SetStatusChangedCallback([this, &p](Client::Status status, Client::Error error, int32_t detail) {
    ledger_.Check("status changed");
    p.statuses.push_back({Clock::now(), static_cast<int>(status), static_cast<int>(error), detail});
    if (status == Client::Status::Disconnected && error != Client::Error::None) {
      ++p.terminalCloses;
      p.disconnectedAt = Clock::now();
      p.reconnectAfterUpdate = true;
      if (p.auth == Player::Auth::Ok) RecoverToken(p);
    }
  });
  client.SetMessageCreatedCallback([this, &p](uint64_t messageId) {
    ledger_.Check("message created");
    const auto message = p.client->GetMessageHandle(messageId);
    if (!message) {
      findings_.Add("MessageCreated for a message the Client does not know", Tag(p));
      return;
    }
    const std::string channel = message->LobbyId() ? "lobby " + std::to_string(*message->LobbyId())
                                                   : DmChannel(message->AuthorId(), message->RecipientId());
    if (!p.receivedIds.insert(messageId).second) {
      findings_.Add("message delivered twice", Tag(p) + ": " + message->Content());
      return;
    }
    p.received[channel].push_back(messageId);
    p.receivedAt[messageId] = Clock::now();
    p.channelIds[channel].insert(message->ChannelId());
  });
  auto updated = std::make_shared<bool>(false);
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, p.accessToken,
                     Op<ClientResult>("UpdateToken", [this, updated](const ClientResult& result) {
                       if (!result.Successful())
                         findings_.Add("setup failed", "UpdateToken: " + result.ToString());
                       *updated = true;
                     }));
  players_.push_back(std::move(player));
  const auto deadline = Clock::now() + 20s;
  while (!*updated && Clock::now() < deadline)
    Pump();
  client.Connect();
}

void Soak::Pump() {
  for (auto& p : players_) {
    Ledger::PumpScope scope;
    p->client->RunCallbacks();
  }
}

bool Soak::StartCall(Player& p) {
  p.call = p.client->StartCallWithAudioCallbacks(
      p.lobbyId,
      [&p](uint64_t, int16_t*, uint64_t, int32_t, uint64_t, bool& mute) {
        mute = true;
        ++p.framesReceived;
      },
      [slot = p.index % kLobbySize](int16_t* data, uint64_t samples, int32_t, uint64_t channels) {
        // The members of a lobby speak in turns, two seconds each, as people in a call do; the others'
        // silence is not sent (the transmit gate). Every member speaking at once would make Opus most of the
        // soak's CPU (83 % with 50 players on 2 cores, measured) and starve the emulator.
        const auto turn =
            std::chrono::duration_cast<std::chrono::seconds>(Clock::now().time_since_epoch()).count() / 2;
        if (turn % kLobbySize != slot) {
          std::fill(data, data + samples * channels, int16_t{0});
          return;
        }
        static thread_local uint32_t phase = 0;
        for (uint64_t i = 0; i < samples * channels; ++i)
          data[i] = static_cast<int16_t>(((phase++ / 55) % 2 == 0) ? 3000 : -3000);
      });
  if (!p.call) {
    // Refused: the Client's own status may have left Ready before the game's callbacks said so (a Gateway
    // drop a moment ago), or the lobby is not yet in its store. The game tries again (Act).
    const auto lobby = p.client->GetLobbyHandle(p.lobbyId);
    ++p.callStartsRefused;
    p.lastRefusal = "StartCall refused in lobby " + std::to_string(p.lobbyId) + ": Client " +
                    Client::StatusToString(p.client->GetStatus()) +
                    (lobby ? ", lobby known" : ", lobby unknown") +
                    (p.client->GetCall(p.lobbyId) ? ", a call in it already" : "");
    return false;
  }
  p.call.SetStatusChangedCallback([this, &p](Call::Status status, Call::Error error, int32_t detail) {
    ledger_.Check("call status changed");
    p.callStatuses.push_back({Clock::now(), static_cast<int>(status), static_cast<int>(error), detail});
  });
  return true;
}

// A lobby message, or a DM to the player's friend; recorded, so that the end checks know what was sent.
void Soak::SendMessage(Player& p, bool lobby) {
  const std::string content =
      (lobby ? "lobby message " : "direct message ") + std::to_string(++messageCounter_) + " from " + Tag(p);
  const auto index = p.sent.size();
  p.sent.push_back({lobby ? "lobby " + std::to_string(p.lobbyId) : DmChannel(p.user.id, p.friendId), content,
                    0, 0, false, false, Clock::now(), lobby, p.lobbyId, p.friendId});
  (lobby ? p.lobbyMessagePending : p.dmPending) = true;
  auto done = Op<ClientResult, uint64_t>(lobby ? "SendLobbyMessage" : "SendUserMessage",
                                         [this, &p, index, lobby](const ClientResult& r, uint64_t id) {
                                           auto& sent = p.sent[index];
                                           sent.ended = true;
                                           sent.ok = r.Successful();
                                           sent.id = id;
                                           if (sent.ok) p.ownIds.insert(id);
                                           if (const auto handle = p.client->GetMessageHandle(id))
                                             sent.channelId = handle->ChannelId();
                                           (lobby ? p.lobbyMessagePending : p.dmPending) = false;
                                           if (r.Status() == 401 && p.auth == Player::Auth::Ok)
                                             RecoverToken(p);
                                         });
  if (lobby) {
    p.client->SendLobbyMessage(p.lobbyId, content, std::move(done));
  } else {
    p.client->SendUserMessage(p.friendId, content, std::move(done));
  }
}

void Soak::SetPresence(Player& p) {
  const std::string state = "round " + std::to_string(++p.presenceRound);
  platformpp::Activity activity;
  activity.SetName("Soak Game");
  activity.SetType(platformpp::ActivityTypes::Playing);
  activity.SetState(state);
  p.presencePending = true;
  // What friends must see in the end: the last activity asked for. One asked for while the Client is not
  // Ready ends with a failure that says it goes out once Connect reaches Ready, and the Client keeps it.
  p.presenceState = state;
  p.presenceAskedAt = Clock::now();
  p.presenceOutcome = "pending";
  p.client->UpdateRichPresence(activity, Op<ClientResult>("UpdateRichPresence", [&p](const ClientResult& r) {
                                 p.presencePending = false;
                                 p.presenceOutcome = r.Successful() ? "ok" : r.Error();
                               }));
}

// The game's answer to a 401 or a terminal close: refresh the token; when the grant is gone (revoked), sign
// in again (a new grant, minted by the chaos thread as the platform would after the player's consent).
void Soak::RecoverToken(Player& p) {
  p.auth = Player::Auth::Refreshing;
  p.client->RefreshToken(
      app_.id, p.refreshToken,
      Op<ClientResult, std::string, std::string, platformpp::AuthorizationTokenType, int32_t, std::string>(
          "RefreshToken",
          [this, &p](const ClientResult& r, const std::string& access, const std::string& refresh,
                     platformpp::AuthorizationTokenType, int32_t, const std::string&) {
            if (!r.Successful()) {
              p.auth = Player::Auth::WaitingForGrant;
              chaos_->RequestGrant(p.user.id);
              return;
            }
            p.accessToken = access;
            p.refreshToken = refresh;
            chaos_->SetCurrentToken(p.user.id, access);
            p.auth = Player::Auth::Updating;
            p.tokenUpdates.push_back(Clock::now());
            p.client->UpdateToken(
                platformpp::AuthorizationTokenType::Bearer, access,
                Op<ClientResult>("UpdateToken", [&p](const ClientResult&) { p.auth = Player::Auth::Ok; }));
          }));
}

void Soak::JoinLobby(Player& p, std::function<void(bool joined)> done) {
  p.client->CreateOrJoinLobby(
      "soak-lobby-" + std::to_string(p.lobbyIndex),
      Op<ClientResult, uint64_t>("CreateOrJoinLobby",
                                 [this, &p, done = std::move(done)](const ClientResult& r, uint64_t id) {
                                   if (r.Successful()) {
                                     p.lobbyId = id;
                                     p.lobbyJoinedAt = Clock::now();
                                   } else if (p.rejoins == 0) {
                                     findings_.Add("setup failed", "join: " + r.ToString());
                                   }
                                   done(r.Successful());
                                 }));
}

void Soak::Act(Player& p, bool sending) {
  const auto now = Clock::now();
  if (p.auth == Player::Auth::WaitingForGrant) {
    if (auto grant = chaos_->TakeGrant(p.user.id)) {
      p.accessToken = grant->accessToken;
      p.refreshToken = grant->refreshToken;
      chaos_->SetCurrentToken(p.user.id, p.accessToken);
      p.auth = Player::Auth::Updating;
      p.tokenUpdates.push_back(Clock::now());
      p.client->UpdateToken(
          platformpp::AuthorizationTokenType::Bearer, p.accessToken,
          Op<ClientResult>("UpdateToken", [&p](const ClientResult&) { p.auth = Player::Auth::Ok; }));
    }
    return;
  }
  if (p.auth != Player::Auth::Ok) return;
  if (p.reconnectAfterUpdate && p.client->GetStatus() == Client::Status::Disconnected) {
    p.reconnectAfterUpdate = false;
    p.client->Connect();
  }
  if (!p.client->IsAuthenticated()) {
    RecoverToken(p);
    return;
  }
  // A lobby the platform deleted is joined again, as a game would; its call with it.
  if (!p.rejoinPending && p.client->GetStatus() == Client::Status::Ready &&
      !p.client->GetLobbyHandle(p.lobbyId)) {
    p.rejoinPending = true;
    ++p.rejoins;
    JoinLobby(p, [this, &p](bool joined) {
      p.rejoinPending = false;  // a failed join is tried again by the next Act
      if (!joined) return;
      // The old lobby's call ends first; the new one starts once that is done and the Client knows the new
      // lobby (below).
      p.callWanted = true;
      if (!p.call) return;
      p.endingCall = true;
      p.client->EndCall(p.call.GetChannelId(), Op<>("EndCall", [&p] { p.endingCall = false; }));
    });
    return;
  }
  if (p.callWanted && !p.endingCall && p.client->GetStatus() == Client::Status::Ready &&
      p.client->GetLobbyHandle(p.lobbyId)) {
    p.callWanted = !StartCall(p);
  }
  // A call that ended (its voice session lost with the emulator, or refused) is started again, as a game
  // would.
  if (p.call && p.call.GetStatus() == Call::Status::Disconnected && !p.rejoinPending && !p.callWanted &&
      p.client->GetStatus() == Client::Status::Ready && p.client->GetLobbyHandle(p.lobbyId)) {
    p.client->EndCall(p.call.GetChannelId(), Op<>("EndCall", [] {}));
    p.callWanted = !StartCall(p);
  }
  if (!sending) return;
  std::uniform_int_distribution<int> jitter(0, 1000);
  if (!p.lobbyMessagePending && now >= p.nextLobbyMessage) {
    SendMessage(p, true);
    p.nextLobbyMessage = now + 1000ms + std::chrono::milliseconds(jitter(random_));
  }
  if (!p.dmPending && now >= p.nextDm) {
    SendMessage(p, false);
    p.nextDm = now + 3000ms + std::chrono::milliseconds(jitter(random_));
  }
  if (!p.presencePending && now >= p.nextPresence) {
    SetPresence(p);
    p.nextPresence = now + 4000ms + std::chrono::milliseconds(jitter(random_));
  }
}

bool Soak::Settled(std::string& why) {
  // What this pass finds about the Clients must still hold when the end checks read them: a pass that took
  // long (listing the messages owed, below, on a starved machine) is followed by another, after a Pump.
  const auto passStart = Clock::now();
  for (auto& player : players_) {
    Player& p = *player;
    if (p.auth != Player::Auth::Ok || p.client->GetStatus() != Client::Status::Ready) {
      why = Tag(p) + " is " + Client::StatusToString(p.client->GetStatus());
      return false;
    }
    const auto members = static_cast<std::size_t>(std::count_if(
        players_.begin(), players_.end(), [&](const auto& q) { return q->lobbyId == p.lobbyId; }));
    if (!p.call || p.call.GetStatus() != Call::Status::Connected ||
        p.call.GetParticipants().size() != members || !p.call.GetE2eeActive()) {
      why = Tag(p) + "'s call is " + (p.call ? Call::StatusToString(p.call.GetStatus()) : "absent") +
            " with " + std::to_string(p.call ? p.call.GetParticipants().size() : 0) + " participants" +
            (p.call ? "" : " (" + p.lastRefusal + ")");
      return false;
    }
  }
  if (ledger_.Pending() != 0) {
    why = std::to_string(ledger_.Pending()) + " operations pending";
    return false;
  }
  // Every friend's last rich presence has reached the player (the last asks ended: nothing is pending).
  for (const auto& player : players_) {
    const Player* q = FriendOf(*player);
    if (q == nullptr || q->presenceState.empty()) continue;
    if (const auto seen = FriendStateSeen(*player); seen != q->presenceState) {
      why = Tag(*player) + " sees " + (seen ? *seen : "no activity") + " of " + Tag(*q) + ", who asked for " +
            q->presenceState;
      return false;
    }
  }
  // Every message sent with success has reached every member of its channel.
  if (!owed_) {
    owed_.emplace();
    for (const auto& sender : players_) {
      for (std::size_t i = 0; i < sender->sent.size(); ++i) {
        const auto& sent = sender->sent[i];
        if (!sent.ok) continue;
        for (const auto& receiver : players_) {
          if (Addressed(sent, *sender, *receiver) && receiver->receivedIds.count(sent.id) == 0 &&
              !BeyondLobbyHistory(sent, *receiver))
            owed_->push_back({sender.get(), i, receiver.get()});
        }
      }
    }
  }
  std::erase_if(*owed_,
                [](const Owed& o) { return o.receiver->receivedIds.count(o.sender->sent[o.index].id) != 0; });
  if (!owed_->empty()) {
    const auto& [sender, index, receiver] = owed_->front();
    const auto& sent = sender->sent[index];
    why = "\"" + sent.content + "\" (sent at " + std::to_string(Seconds(sent.at - start_)) + " s, channel " +
          std::to_string(sent.channelId) + ") not yet at " + Tag(*receiver);
    // Which channel ids the receiver saw this conversation's messages in.
    if (const auto it = receiver->channelIds.find(sent.channel); it != receiver->channelIds.end())
      for (const auto id : it->second)
        why += ", which has it as channel " + std::to_string(id);
    return false;
  }
  if (const auto took = Clock::now() - passStart; took > 2s) {
    why = "the check took " + std::to_string(Seconds(took)) + " s; the Clients are checked again";
    return false;
  }
  return true;
}

const Player* Soak::FriendOf(const Player& p) const {
  const auto it =
      std::find_if(players_.begin(), players_.end(), [&](const auto& q) { return q->user.id == p.friendId; });
  return it == players_.end() ? nullptr : it->get();
}

std::optional<std::string> Soak::FriendStateSeen(const Player& p) {
  const auto user = p.client->GetUser(p.friendId);
  const auto activity = user ? user->GameActivity() : std::nullopt;
  return activity ? activity->State() : std::nullopt;
}

// No strings built here: the end checks call it for every message and every player (25 million times after
// the 1-hour run, where building the channels' names took minutes).
bool Soak::Addressed(const Sent& sent, const Player& sender, const Player& receiver) {
  if (sent.toLobby)
    // A member who joined again (its lobby deleted) gets what was sent after it joined.
    return receiver.lobbyId == sent.lobbyId && sent.at >= receiver.lobbyJoinedAt;
  return sent.recipientId == sender.friendId &&
         (&receiver == &sender || receiver.user.id == sent.recipientId);
}

bool Soak::BeyondLobbyHistory(const Sent& sent, const Player& receiver) {
  if (!sent.toLobby) return false;
  const auto readyThroughout = [&](Clock::time_point from, Clock::time_point to) {
    bool ready = false;
    for (const auto& e : receiver.statuses) {
      const bool isReady = static_cast<Client::Status>(e.status) == Client::Status::Ready;
      if (e.at <= from) {
        ready = isReady;
      } else if (e.at <= to && !isReady) {
        return false;
      }
    }
    return ready;
  };
  for (const auto& injected : chaos_->InjectedSoFar()) {
    // Sent after the jump's admin call returned: the emulator stamped it after the jump. Sent while that call
    // was under way (the soak's fourth hour lost one sent 20 ms after the call began): either side of it.
    if (injected.fault.kind != FaultKind::TokenExpiry || injected.done < sent.at) continue;
    // The send's dispatch may reach the emulator's Gateway a few seconds late on a loaded machine.
    if (!readyThroughout(sent.at, injected.done + kLobbyJumpMargin)) return true;
  }
  return false;
}

void Soak::PrintCallsShort() const {
  for (const auto& player : players_) {
    const Player& p = *player;
    if (!p.call) continue;
    const auto ids = p.call.GetParticipants();
    for (const auto& q : players_) {
      if (q->lobbyId != p.lobbyId || std::find(ids.begin(), ids.end(), q->user.id) != ids.end()) continue;
      const auto theirs = q->call ? q->call.GetParticipants() : std::vector<uint64_t>{};
      std::printf("  %s's call (%s, E2EE %s) lacks %s, whose own call is %s with %zu participants%s\n",
                  Tag(p).c_str(), Call::StatusToString(p.call.GetStatus()).c_str(),
                  p.call.GetE2eeActive() ? "on" : "off", Tag(*q).c_str(),
                  q->call ? Call::StatusToString(q->call.GetStatus()).c_str() : "absent", theirs.size(),
                  std::find(theirs.begin(), theirs.end(), p.user.id) != theirs.end()
                      ? (", " + Tag(p) + " among them").c_str()
                      : "");
    }
  }
}

void Soak::CheckDelivery() {
  std::size_t beyondHistory = 0;
  for (const auto& sender : players_)
    for (const auto& sent : sender->sent)
      for (const auto& receiver : players_)
        if (sent.ok && Addressed(sent, *sender, *receiver) && receiver->receivedIds.count(sent.id) == 0 &&
            BeyondLobbyHistory(sent, *receiver))
          ++beyondHistory;
  if (beyondHistory > 0)
    std::printf(
        "lobby messages sent before the clock's jump and older than the platform's 72-hour history "
        "by the time their member was back, not received (not expected): %zu\n",
        beyondHistory);
  // Per channel: the messages sent with success, by id (the order the platform gave them).
  std::map<std::string, std::vector<uint64_t>> sentByChannel;
  std::map<uint64_t, std::string> failedContent;
  std::size_t sentOk = 0, sentFailed = 0;
  for (const auto& p : players_) {
    for (const auto& s : p->sent) {
      if (!s.ended) findings_.Add("send never ended", s.content);
      if (s.ok) {
        sentByChannel[s.channel].push_back(s.id);
        ++sentOk;
      } else {
        ++sentFailed;
      }
    }
  }
  for (auto& [channel, ids] : sentByChannel)
    std::sort(ids.begin(), ids.end());
  std::size_t deliveries = 0;
  for (const auto& p : players_) {
    for (const auto& [channel, all] : p->received) {
      deliveries += all.size();
      // In order: the others' messages, in the platform's order (by id). A player's own message is
      // announced when its send succeeds, which may come before others' messages the platform ordered
      // earlier but that are still on their way.
      std::vector<uint64_t> received;
      for (const auto id : all)
        if (!p->ownIds.count(id)) received.push_back(id);
      const auto disorder = std::adjacent_find(received.begin(), received.end(), std::greater_equal<>());
      if (disorder != received.end()) {
        const auto name = [&](uint64_t id) {
          for (const auto& q : players_)
            for (const auto& s : q->sent)
              if (s.id == id)
                return "\"" + s.content + "\" sent at " + std::to_string(Seconds(s.at - start_)) + " s";
          return std::to_string(id);
        };
        findings_.Add("messages delivered out of order",
                      Tag(*p) + ": " + name(*disorder) + " came at " +
                          std::to_string(Seconds(p->receivedAt[*disorder] - start_)) + " s before " +
                          name(*(disorder + 1)) + " at " +
                          std::to_string(Seconds(p->receivedAt[*(disorder + 1)] - start_)) + " s");
      }
      const auto& expected = sentByChannel[channel];
      for (const auto id : all)
        if (!std::binary_search(expected.begin(), expected.end(), id))
          findings_.Add("delivered a message whose send failed or that was never sent",
                        Tag(*p) + ": " + std::to_string(id) + " in " + channel);
    }
  }
  std::printf("messages: %zu sent with success (%zu failed: faults), %zu deliveries\n", sentOk, sentFailed,
              deliveries);
}

void Soak::CheckStores() {
  // The emulator's state, as it exports it: lobbies (members) and relationships.
  const auto snapshot = chaos_->Admin().ExportState();
  platformpp::json::Document document;
  if (!platformpp::json::Parse(snapshot, document) || !document.IsObject() ||
      !document.HasMember("documents")) {
    findings_.Add("the emulator's export could not be read", snapshot.substr(0, 200));
    return;
  }
  std::map<uint64_t, std::set<uint64_t>> lobbyMembers;
  std::map<uint64_t, std::set<uint64_t>> friends;
  const auto text = [](const platformpp::json::Value& object, const char* name) -> std::string {
    return object.IsObject() && object.HasMember(name) && object[name].IsString() ? object[name].GetString()
                                                                                  : "";
  };
  const auto array = [](const platformpp::json::Value& object, const char* name) {
    return object.IsObject() && object.HasMember(name) && object[name].IsArray();
  };
  for (const auto& entry : document["documents"].GetArray()) {
    if (!entry.IsObject() || !entry.HasMember("body")) continue;
    const std::string kind = text(entry, "kind");
    const auto id = std::strtoull(text(entry, "id").c_str(), nullptr, 10);
    const auto& body = entry["body"];
    if (kind == "lobby" && array(body, "members")) {
      for (const auto& member : body["members"].GetArray())
        lobbyMembers[id].insert(std::strtoull(text(member, "user_id").c_str(), nullptr, 10));
    } else if (kind == "relationships" && array(body, "relationships")) {
      for (const auto& r : body["relationships"].GetArray())
        if (r.IsObject() && r.HasMember("type") && r["type"].IsInt() && r["type"].GetInt() == 1)
          friends[id].insert(std::strtoull(text(r, "user_id").c_str(), nullptr, 10));
    }
  }
  for (const auto& player : players_) {
    Player& p = *player;
    const auto lobby = p.client->GetLobbyHandle(p.lobbyId);
    if (!lobby) {
      findings_.Add("a lobby missing from the Client", Tag(p));
    } else {
      const auto ids = lobby->LobbyMemberIds();
      if (std::set<uint64_t>(ids.begin(), ids.end()) != lobbyMembers[p.lobbyId])
        findings_.Add("lobby members differ from the emulator's", Tag(p));
    }
    std::set<uint64_t> seen;
    for (const auto& r : p.client->GetRelationships())
      if (r.DiscordRelationshipType() == platformpp::RelationshipType::Friend) seen.insert(r.Id());
    if (seen != friends[p.user.id]) findings_.Add("friends differ from the emulator's", Tag(p));
    // The friend's presence as this Client sees it: what the friend last set.
    if (const Player* friendPlayer = FriendOf(p);
        friendPlayer != nullptr && !friendPlayer->presenceState.empty()) {
      const auto user = p.client->GetUser(p.friendId);
      const auto state = FriendStateSeen(p);
      if (!state || *state != friendPlayer->presenceState) {
        // Which side lost it: when the friend asked and how that ended, and when each side's session was
        // last Ready (a READY's presences, or a PRESENCE_UPDATE missed around it).
        const Player& q = *friendPlayer;
        const auto lastReady = [&](const Player& who) {
          std::string last = "never";
          for (const auto& e : who.statuses)
            if (e.status == static_cast<int>(Client::Status::Ready)) last = SinceStart(e.at) + " s";
          return last;
        };
        findings_.Add("a friend's presence differs from what they asked for",
                      Tag(p) + " sees " + (state ? *state : "nothing") + (user ? "" : " (no such user)") +
                          ", " + Tag(q) + " asked for " + q.presenceState + " at " +
                          SinceStart(q.presenceAskedAt) + " s (" + q.presenceOutcome + "); now " + Tag(p) +
                          " " + Client::StatusToString(p.client->GetStatus()) + ", " + Tag(q) + " " +
                          Client::StatusToString(q.client->GetStatus()) + "; last Ready: " + Tag(p) + " " +
                          lastReady(p) + ", " + Tag(q) + " " + lastReady(q));
      }
    }
  }
}

// The goals: a session resumes within 2 s of a drop; a terminal close makes one status change and no retry;
// a call reconnects within 2 s of its voice connection's drop.
void Soak::PrintStatusesAround(const Player& p, Clock::time_point at) const {
  const auto near = [&](Clock::time_point t) { return t > at - 5s && t < at + 15s; };
  std::string text;
  for (const auto& e : p.statuses) {
    if (!near(e.at)) continue;
    text += " " + SinceStart(e.at) + " " + Client::StatusToString(static_cast<Client::Status>(e.status)) +
            (e.error != 0 ? "(" + std::to_string(e.error) + "/" + std::to_string(e.detail) + ")" : "");
  }
  text += "; token updates:";
  for (const auto t : p.tokenUpdates)
    if (near(t)) text += " " + SinceStart(t);
  std::printf("    %s, fault at %.3f s:%s\n", Tag(p).c_str(), Seconds(at - start_), text.c_str());
}

void Soak::CheckResumes() {
  std::vector<double> resumes, voice;
  for (const auto& injected : chaos_->InjectedSoFar()) {
    std::printf("  %s%s%s\n", Describe(injected.fault).c_str(), injected.note.empty() ? "" : ": ",
                injected.note.c_str());
    const auto& p = *players_[static_cast<std::size_t>(injected.fault.player)];
    if (injected.fault.kind == FaultKind::GatewayDrop) {
      const auto ready = std::find_if(p.statuses.begin(), p.statuses.end(), [&](const StatusEvent& e) {
        return e.at > injected.at && e.status == static_cast<int>(Client::Status::Ready);
      });
      if (ready == p.statuses.end()) {
        findings_.Add("no Ready after a Gateway drop", Tag(p));
        continue;
      }
      const double seconds = Seconds(ready->at - injected.at);
      std::printf("    Ready again %.3f s after the drop\n", seconds);
      resumes.push_back(seconds);
      if (seconds > options_.bound) findings_.Add("a Gateway session resumed late after a drop", Tag(p));
    } else if (injected.fault.kind == FaultKind::VoiceDrop) {
      const auto connected =
          std::find_if(p.callStatuses.begin(), p.callStatuses.end(), [&](const StatusEvent& e) {
            return e.at > injected.at && e.status == static_cast<int>(Call::Status::Connected);
          });
      if (connected == p.callStatuses.end()) {
        findings_.Add("no reconnection after a voice drop", Tag(p));
        continue;
      }
      const double seconds = Seconds(connected->at - injected.at);
      std::printf("    the call Connected again %.3f s after the drop\n", seconds);
      voice.push_back(seconds);
      if (seconds > options_.bound) findings_.Add("a call reconnected late after a voice drop", Tag(p));
    } else if (injected.fault.kind == FaultKind::TokenRevocation) {
      // After the terminal close: one Disconnected, then nothing until the game connects again.
      auto from = std::find_if(p.statuses.begin(), p.statuses.end(),
                               [&](const StatusEvent& e) { return e.at > injected.at; });
      // A Ready before any other status is a READY the emulator sent before the revocation (an Identify with
      // the game's refreshed token, or a resume, under way then) whose callback ran after it, as callbacks do
      // on a starved machine. The drop that comes with the revocation ends that session; what follows counts.
      // Without a session to drop, no READY can have been sent before the revocation and reported after it.
      const bool dropped = injected.note != "0";
      if (dropped && from != p.statuses.end() && from->status == static_cast<int>(Client::Status::Ready)) {
        std::printf("    (a Ready sent before the revocation, reported %.3f s after it)\n",
                    Seconds(from->at - injected.at));
        ++from;
      }
      const auto closed = std::find_if(from, p.statuses.end(), [&](const StatusEvent& e) {
        return e.status == static_cast<int>(Client::Status::Disconnected) ||
               e.status == static_cast<int>(Client::Status::Ready);
      });
      if (closed == p.statuses.end()) {
        findings_.Add("a revoked token's session neither ended nor came back", Tag(p));
        PrintStatusesAround(p, injected.at);
        continue;
      }
      if (closed->status == static_cast<int>(Client::Status::Ready)) {
        // Back without a terminal close: fine only if the game had given it a new token first (a 401 on an
        // HTTP call made it sign in again before the Gateway tried the revoked one).
        const bool renewed = std::any_of(p.tokenUpdates.begin(), p.tokenUpdates.end(),
                                         [&](auto at) { return at > injected.at && at < closed->at; });
        if (renewed) {
          std::printf("    the game signed in again before the Gateway used the revoked token\n");
        } else {
          findings_.Add("a revoked token's session came back", Tag(p));
          PrintStatusesAround(p, injected.at);
        }
        continue;
      }
      std::printf("    terminal close: %s, detail %d, %.3f s after the revocation\n",
                  closed->error == static_cast<int>(Client::Error::UnexpectedClose) ? "UnexpectedClose"
                                                                                    : "another error",
                  closed->detail, Seconds(closed->at - injected.at));
      const auto next = closed + 1;
      if (next != p.statuses.end() && next->status != static_cast<int>(Client::Status::Connecting) &&
          next->status != static_cast<int>(Client::Status::HttpWait))
        findings_.Add("a terminal close was followed by a retry of the SDK's own", Tag(p));
    }
  }
  const auto summary = [this](const char* what, std::vector<double> values) {
    if (values.empty()) return;
    std::sort(values.begin(), values.end());
    const auto late = std::count_if(values.begin(), values.end(), [](double v) { return v > 2.0; });
    std::printf("%s: %zu, median %.3f s, max %.3f s; %td over the 2 s goal (bound %.1f s)\n", what,
                values.size(), values[values.size() / 2], values.back(), late, options_.bound);
  };
  summary("Gateway resumes after a drop", resumes);
  summary("voice reconnections after a drop", voice);
}

int Soak::Run() {
  std::printf("fault soak: %d players, %.0f s, seed %" PRIu64 "%s\n", options_.players, options_.seconds,
              options_.seed, options_.kill ? ", the emulator killed once per 10 minutes" : "");
  random_.seed(options_.seed);
  ledger_.SetGameThread();
  SetUp();
  // The admin client's first request starts its resolver thread and a kept-alive connection: before the
  // first count, so that the counts compare the Clients alone.
  chaos_->Admin().Healthy();
  const auto before = Resources::Now();

  for (int i = 0; i < options_.players; ++i)
    AddPlayer(i);
  // Friends: each player and the next one of its lobby (a ring); every lobby's members, then its call.
  auto& admin = chaos_->Admin();
  std::set<std::pair<uint64_t, uint64_t>> friendships;
  for (auto& p : players_) {
    const int base = p->lobbyIndex * kLobbySize;
    const int size = std::min(kLobbySize, options_.players - base);
    const int next = base + (p->index - base + 1) % size;
    p->friendId = players_[static_cast<std::size_t>(next)]->user.id;
    const auto pair = std::minmax(p->user.id, p->friendId);
    if (p->friendId != p->user.id && friendships.insert(pair).second)
      admin.MakeFriends(p->user.id, p->friendId);
  }
  for (auto& player : players_) {
    Player& p = *player;
    const auto deadline = Clock::now() + 30s;
    while (p.client->GetStatus() != Client::Status::Ready && Clock::now() < deadline)
      Pump(), std::this_thread::sleep_for(1ms);
    auto joined = std::make_shared<bool>(false);
    JoinLobby(p, [joined](bool) { *joined = true; });
    while (!*joined && Clock::now() < deadline)
      Pump(), std::this_thread::sleep_for(1ms);
  }
  for (auto& p : players_)
    if (!StartCall(*p)) findings_.Add("setup failed", Tag(*p) + ": " + p->lastRefusal);
  std::string why;
  {
    const auto deadline = Clock::now() + 60s;
    while (!Settled(why) && Clock::now() < deadline)
      Pump(), std::this_thread::sleep_for(2ms);
    if (!Settled(why)) {
      std::printf("setup did not settle: %s\n", why.c_str());
      PrintCallsShort();
      findings_.Print();
      return 1;
    }
  }
  std::printf(
      "set up: %zu players in %zu lobbies, each with a call, all connected and end-to-end encrypted\n",
      players_.size(), static_cast<std::size_t>((options_.players + kLobbySize - 1) / kLobbySize));

  start_ = Clock::now();
  std::vector<uint64_t> userIds;
  for (const auto& p : players_)
    userIds.push_back(p->user.id);
  chaos_->Start(start_, userIds);
  const auto sendingUntil = start_ + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(options_.seconds * 0.8));
  while (Clock::now() < sendingUntil || !chaos_->ScheduleDone()) {
    Pump();
    const bool sending = Clock::now() < sendingUntil;
    for (auto& p : players_)
      Act(*p, sending);
    std::this_thread::sleep_for(2ms);
  }
  // The faults are over: the Clients must come back to the emulator's state by themselves (and the game's
  // usual answers: a new token, a new call).
  const auto settleStart = Clock::now();
  owed_.reset();  // the setup's settling listed none
  bool settled = false;
  auto longestPass = Clock::duration::zero();  // the game's callbacks, its actions and the check
  while (Clock::now() < settleStart + 90s) {
    const auto passStart = Clock::now();
    Pump();
    for (auto& p : players_)
      Act(*p, false);
    settled = Settled(why);
    longestPass = std::max(longestPass, Clock::now() - passStart);
    if (settled) break;
    std::this_thread::sleep_for(2ms);
  }
  // Sessions that came and went while settling: with no fault left, each is the machine's (a starved
  // heartbeat) or a bug.
  std::size_t changes = 0, changed = 0;
  for (const auto& p : players_) {
    const auto n = std::count_if(p->statuses.begin(), p->statuses.end(),
                                 [&](const StatusEvent& e) { return e.at > settleStart; });
    changes += static_cast<std::size_t>(n);
    changed += n > 0 ? 1 : 0;
  }
  std::printf(
      "settled in %.1f s after the last fault (longest pass %.2f s; %zu status changes in %zu Clients "
      "meanwhile)%s%s\n",
      Seconds(Clock::now() - settleStart), Seconds(longestPass), changes, changed,
      settled ? "" : ": NOT SETTLED: ", settled ? "" : why.c_str());
  if (!settled) {
    findings_.Add("did not settle within 90 s of the last fault", why);
    PrintCallsShort();
    // Each event as "<s> <status>(<error>/<detail>)", the error part only for an error.
    const auto timeline = [this](const std::vector<StatusEvent>& events, const auto& name) {
      std::string text;
      for (const auto& e : events)
        text += " " + SinceStart(e.at) + " " + name(e.status) +
                (e.error != 0 ? "(" + std::to_string(e.error) + "/" + std::to_string(e.detail) + ")" : "");
      return text;
    };
    for (const auto& p : players_) {
      const std::string line =
          Tag(*p) + ":" +
          timeline(p->statuses,
                   [](int s) { return Client::StatusToString(static_cast<Client::Status>(s)); }) +
          "; call:" +
          timeline(p->callStatuses, [](int s) { return Call::StatusToString(static_cast<Call::Status>(s)); });
      std::printf("  %s\n", line.c_str());
    }
  }
  if (!chaos_->Error().empty()) findings_.Add("the fault thread failed", chaos_->Error());
  // The last pass's actions (a call ended and started again, when settling ran out of time) may have started
  // operations whose callbacks have had no RunCallbacks yet: a few seconds of callbacks, and no new actions,
  // before one that has not ended is a finding.
  for (const auto drained = Clock::now() + 5s; ledger_.Pending() != 0 && Clock::now() < drained;)
    Pump(), std::this_thread::sleep_for(2ms);
  for (const auto& name : ledger_.PendingNames())
    findings_.Add("operation never ended", name);

  // The stores first, right after the pass that found everything settled: the other checks read only the
  // game's own books, and a Client's state may move on while they run.
  CheckStores();
  std::printf("faults injected:\n");
  CheckResumes();
  CheckDelivery();
  uint64_t frames = 0;
  int rejoins = 0, refusals = 0;
  for (const auto& p : players_) {
    frames += p->framesReceived;
    rejoins += p->rejoins;
    refusals += p->callStartsRefused;
  }
  if (refusals > 0) std::printf("call starts refused and tried again: %d\n", refusals);
  if (rejoins > 0)
    std::printf(
        "lobbies joined again after the platform deleted them (idle while nobody was connected): %d\n",
        rejoins);
  std::printf("operations: %" PRIu64 " started, each ended once; audio frames received: %" PRIu64 "\n",
              ledger_.Started(), frames);
  const auto peak = Resources::Now();

  // Every Client gone: their threads and sockets with them (the fault thread stops first: it came after the
  // first count).
  chaos_->Stop();
  for (auto& p : players_) {
    p->call = {};
    // The destructor ends what is still pending, on this thread: allowed, as inside RunCallbacks.
    Ledger::PumpScope scope;
    p->client.reset();
  }
  std::this_thread::sleep_for(500ms);
  const auto after = Resources::Now();
  std::printf("threads %d -> %d -> %d, file descriptors %d -> %d -> %d, RSS %.0f -> %.0f -> %.0f MiB\n",
              before.threads, peak.threads, after.threads, before.fds, peak.fds, after.fds, before.rssMiB,
              peak.rssMiB, after.rssMiB);
  if (after.threads > before.threads)
    findings_.Add("threads outlived the Clients", std::to_string(after.threads));
  if (after.fds > before.fds)
    findings_.Add("file descriptors outlived the Clients", std::to_string(after.fds));
  chaos_.reset();
  if (!findings_.Empty()) {
    findings_.Print();
    std::printf("fault soak: FAILED (seed %" PRIu64 ")\n", options_.seed);
    return 1;
  }
  std::printf("fault soak: passed\n");
  return 0;
}

}  // namespace
}  // namespace soak

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a crash keeps what was printed
  const auto options = soak::ParseOptions(argc, argv);
#ifdef _WIN32
  _putenv_s("PLATFORMPP_AUDIO", "null");
#else
  setenv("PLATFORMPP_AUDIO", "null", 1);  // headless: no sound card on a CI machine
#endif
  try {
    soak::Soak soak(options);
    return soak.Run();
  } catch (const std::exception& e) {
    std::printf("fault soak: %s\n", e.what());
    return 1;
  }
}
