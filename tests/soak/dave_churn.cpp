// Calls that keep their audio through key changes (issue 38, part 3; docs/fault-soak.md, "Key changes"):
// members of one end-to-end encrypted call (DAVE) speak in turns while a seeded schedule changes its keys:
// a member leaves and joins again, a member's voice connection drops and resumes, a member moves to another
// voice server (a new DAVE session of its own), the voice gateway makes the members form a new group, and the
// call is downgraded to transport encryption and upgraded again. At every receiver it counts, from the Call's
// own media statistics:
//   - the frames it could not decrypt, per key transition it went through (goal: at most one per sender
//     speaking, each of whom switches keys with a frame in flight);
//   - frames played in clear while the call was end-to-end encrypted (goal: none; clear frames are allowed
//     from a downgrade until ten seconds after the upgrade, the frames still in flight);
//   - the frames lost (missing from a sender's sequence when due to play), a figure;
// and after every transition, that every member shows the same verification code.
//
//   platformpp_dave_churn --members 8 --seconds 30 --seed 1 --js-member  # the short mode (label soak)
//   platformpp_dave_churn --members 25 --seconds 300 --js-member         # the long mode: the platform's
//   maximum
// --js-member makes one of the members an independent implementation of DAVE (@snazzah/davey, Rust on
// OpenMLS, tests/interop/dave_peer.mjs, speaking all the time): it must agree on every epoch's code and
// decrypt through every transition too. Where node or the package is missing it is skipped (exit 77), under
// CI=true failed. The emulator: --emulator PATH, else $PLATFORMPP_EMULATOR, else platformpp-emulator on
// $PATH. With DAVE_CHURN_DEBUG set it also prints each member's user id and each event as it starts (to read
// beside the emulator's or the SDK's logs).
#include "node_peer.hpp"
#include "opus_tone_frames.hpp"

#include <platformpp/client.hpp>
#include <platformpp/testkit/emulator.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using platformpp::Call;
using platformpp::CallMediaStatistics;
using platformpp::Client;
using platformpp::ClientResult;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The two events that make the members form a new group (prepare epoch 1): bounded apart (CloseTransition).
constexpr const char* kNewGroupEvent = "a new group";
constexpr const char* kDowngradeUpgradeEvent = "downgrade and upgrade";

bool FormsNewGroup(const std::string& event) {
  return event == kNewGroupEvent || event == kDowngradeUpgradeEvent;
}

struct Options {
  int members = 8;
  int seconds = 30;
  unsigned seed = 1;
  int speakers = 3;  // members speaking at a time: every one decodes each speaker's frames
  bool jsMember = false;
  std::string emulator;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--members") {
      options.members = std::stoi(next());
    } else if (arg == "--seconds") {
      options.seconds = std::stoi(next());
    } else if (arg == "--seed") {
      options.seed = static_cast<unsigned>(std::stoul(next()));
    } else if (arg == "--speakers") {
      options.speakers = std::stoi(next());
    } else if (arg == "--js-member") {
      options.jsMember = true;
    } else if (arg == "--emulator") {
      options.emulator = next();
    } else {
      throw std::runtime_error(
          "unknown argument " + arg +
          " (--members N --seconds S --seed K --speakers M --js-member --emulator PATH)");
    }
  }
  // 25 is the platform's recommended maximum for an end-to-end encrypted call.
  if (options.members < 3 || options.members > 25) throw std::runtime_error("--members: 3 to 25");
  options.speakers = std::clamp(options.speakers, 1, options.members);
  return options;
}

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

/// Problems, with the first few examples of each kind.
class Findings {
 public:
  void Add(const std::string& kind, const std::string& example) {
    if (++counts_[kind] <= 5) examples_[kind].push_back(example);
  }
  [[nodiscard]] bool Empty() const { return counts_.empty(); }
  void Print() const {
    for (const auto& [kind, count] : counts_) {
      std::printf("FINDING %s: %d\n", kind.c_str(), count);
      for (const auto& example : examples_.at(kind))
        std::printf("  %s\n", example.c_str());
    }
  }

 private:
  std::map<std::string, int> counts_;
  std::map<std::string, std::vector<std::string>> examples_;
};

/// One member: a Client in the call, its microphone a tone while it is a speaker, and what its receiver side
/// counted. Measuring starts once the member is keyed (end-to-end encrypted in the call's group) and stops
/// while it rejoins the group (left, or moved to another voice server): a frame that reaches a member that is
/// not in the group yet cannot be decrypted by design, and is not a loss of a key change.
struct Member {
  int index = 0;
  platformpp::testkit::EmulatorAdmin::User user;
  std::unique_ptr<Client> client;
  Call call;
  bool inCall = false;

  // The microphone: written on the voice thread.
  std::atomic<bool> speaking{false};
  double phase = 0;
  double frequency = 300;

  // The receiver's books (game thread).
  bool keyed = false;                   // counting: in the group, E2EE active
  bool rejoining = false;               // moved to another voice server, its new DAVE session not started yet
  int connections = 0;                  // times its call reached Connected (the status callback)
  std::optional<int> reconnectingFrom;  // its voice connection dropped when `connections` was this
  Clock::time_point keyedAt{};
  std::optional<Clock::time_point> readyAt;  // when it was first seen in the group since it (re)joined
  CallMediaStatistics last;
  std::vector<uint8_t> authenticator;  // the last one seen while keyed
  bool e2ee = false;                   // the last E2EE flag seen while keyed
  uint64_t transitions = 0;            // epoch changes and E2EE flips seen while keyed
  uint64_t undecryptable = 0, lost = 0, decrypted = 0, inClear = 0;
  uint64_t sinceTransition = 0;  // undecryptable frames since the last transition it saw
  uint64_t worstTransition = 0;  // the most undecryptable frames one transition cost it

  Client::UserAudioCapturedCallback Microphone() {
    return [this](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
      const double step = 2 * std::numbers::pi * frequency / rate;
      const bool on = speaking.load(std::memory_order_relaxed);
      for (uint64_t i = 0; i < samples; ++i) {
        const auto value = on ? static_cast<int16_t>(std::lround(8000 * std::sin(phase))) : int16_t{0};
        phase = std::fmod(phase + step, 2 * std::numbers::pi);
        for (uint64_t c = 0; c < channels; ++c)
          data[i * channels + c] = value;
      }
    };
  }
};

/// The member on @snazzah/davey (tests/interop/dave_peer.mjs): one JSON event per line, an "e2ee" event at
/// each transition it executes (epoch, code, the group's users), "stats" every 500 ms (frames decrypted, and
/// those that failed to decrypt, counted only for senders op 5 has mapped).
struct JsMember {
  platformpp::testkit::EmulatorAdmin::User user;
  std::unique_ptr<node_peer::NodePeer> peer;
  std::filesystem::path frames;
  int transitionsSeen = 0;      // "e2ee" events counted
  uint64_t failuresAtJoin = 0;  // decryptFailures when it first executed a transition
  uint64_t failuresSeen = 0;
  std::map<std::string, uint64_t> failuresByEvent;

  [[nodiscard]] std::optional<rapidjson::Document> Last(const std::string& event) const {
    return peer->Last(event);
  }
  [[nodiscard]] uint64_t Stat(const char* name) const {
    const auto stats = Last("stats");
    return stats && (*stats).HasMember(name) && (*stats)[name].IsUint64() ? (*stats)[name].GetUint64() : 0;
  }
};

class Churn {
 public:
  explicit Churn(Options options) : options_(std::move(options)), random_(options_.seed) {}

  int Run() {
    platformpp::testkit::EmulatorProcess::Options processOptions;
    processOptions.binary = options_.emulator;
    processOptions.ipc = false;
    emulator_ = platformpp::testkit::EmulatorProcess::Start(processOptions);
    admin_ = std::make_unique<platformpp::testkit::EmulatorAdmin>(emulator_->Connection());
    // Downgrades are refused while E2EE is required (the platform's rule since 1 March 2026).
    platformpp::testkit::EmulatorAdmin::VoiceSettings settings;
    settings.e2ee = "optional";
    admin_->SetVoiceSettings(settings);
    std::printf("DAVE churn: %d members, %d speaking at a time, %d s, seed %u\n", options_.members,
                options_.speakers, options_.seconds, options_.seed);
    SetUp();
    const auto setUp = Clock::now();
    std::printf("set up: %d members in one end-to-end encrypted call\n", options_.members);
    ChurnFor(std::chrono::seconds(options_.seconds));
    std::printf("churned for %.1f s: %zu events\n", Seconds(Clock::now() - setUp), settleTimes_.size());
    Report();
    for (auto& member : members_)
      member->client.reset();  // ends the calls
    if (js_) {
      js_->peer.reset();
      std::filesystem::remove(js_->frames);
    }
    findings_.Print();
    std::printf(findings_.Empty() ? "DAVE churn passed\n" : "DAVE churn FAILED\n");
    return findings_.Empty() ? 0 : 1;
  }

 private:
  void SetUp() {
    const auto app = admin_->CreateApp("DAVE churn");
    const int sdkMembers = options_.members - (options_.jsMember ? 1 : 0);
    for (int i = 0; i < sdkMembers; ++i) {
      auto member = std::make_unique<Member>();
      member->index = i;
      member->frequency = 200 + 40 * i;
      member->user = admin_->CreateUser("churner" + std::to_string(i));
      const auto token = admin_->MintToken(member->user.id, app.id, "openid sdk.social_layer").accessToken;
      member->client = std::make_unique<Client>(emulator_->Connection().ClientOptionsFor());
      Client& client = *member->client;
      members_.push_back(std::move(member));  // pumped from here on
      client.SetApplicationId(app.id);
      client.SetEchoCancellation(false);
      client.SetNoiseSuppression(false);
      client.SetAutomaticGainControl(false);
      bool updated = false;
      client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, token,
                         [&updated](const ClientResult& result) { updated = result.Successful(); });
      Require(PumpUntil([&] { return updated; }, 10s), "UpdateToken");
      client.Connect();
    }
    Require(PumpUntil(
                [&] {
                  return std::all_of(members_.begin(), members_.end(), [](const auto& m) {
                    return m->client->GetStatus() == Client::Status::Ready;
                  });
                },
                60s),
            "every Client Ready");
    for (auto& member : members_) {
      std::optional<ClientResult> joined;
      member->client->CreateOrJoinLobby("dave-churn-lobby", [&](const ClientResult& result, uint64_t id) {
        joined = result;
        lobbyId_ = id;
      });
      Require(PumpUntil([&] { return joined.has_value(); }, 20s) && joined->Successful(),
              "CreateOrJoinLobby");
    }
    for (auto& member : members_)
      StartCall(*member);
    if (options_.jsMember) StartJsMember(app.id);
    Require(Settle("set-up", 120s), "every member in the call, end-to-end encrypted, on one epoch");
  }

  void StartJsMember(uint64_t appId) {
    node_peer::RequireInterop({"@snazzah/davey", "ws"});
    std::printf("the JS member: @snazzah/davey %s on Node.js %s\n",
                node_peer::InstalledVersion("@snazzah/davey").c_str(), node_peer::NodeVersion().c_str());
    js_ = std::make_unique<JsMember>();
    js_->user = admin_->CreateUser("churner_js");
    const auto token = admin_->MintToken(js_->user.id, appId, "openid sdk.social_layer").accessToken;
    js_->frames = opus_tone_frames::Write("dave-churn", 500);
    const auto& connection = emulator_->Connection();
    std::ostringstream argument;
    argument << R"({"gatewayUrl":")" << connection.gatewayUrl << R"(","apiBase":")" << connection.apiBase
             << R"(","caFile":")" << connection.caFile << R"(","token":")" << token << R"(","userId":")"
             << js_->user.id << R"(","lobbySecret":"dave-churn-lobby","watchUserId":")"
             << members_[0]->user.id << R"(","framesFile":")" << js_->frames.string() << R"(","durationMs":)"
             << (options_.seconds + 300) * 1000 << "}";
    js_->peer =
        std::make_unique<node_peer::NodePeer>("dave_peer.mjs", std::vector<std::string>{argument.str()});
    Require(PumpUntil([&] { return js_->Last("joined") || js_->Last("error"); }, 30s) && !js_->Last("error"),
            "the JS member joined the call");
  }

  // The JS member's side of Settle: in the group, on the SDK members' epoch code.
  [[nodiscard]] bool JsSettled(std::size_t inCall, const std::string& code) const {
    if (!js_) return true;
    if (js_->Last("error")) return true;  // reported by AccountJs
    if (downgraded_) return true;         // nothing to compare: no group
    const auto e2ee = js_->Last("e2ee");
    return e2ee && (*e2ee)["users"].Size() == inCall && code == (*e2ee)["privacyCode"].GetString();
  }

  // The JS member's books: its transitions (its "e2ee" events) and its decryption failures since its join.
  // Its statistics come every 500 ms, too seldom to split them per transition: the end checks the total.
  void AccountJs() {
    if (!js_) return;
    if (const auto error = js_->Last("error"); error && !jsFailed_) {
      jsFailed_ = true;
      findings_.Add("the JS member failed", (*error)["message"].GetString());
    }
    // Its failures by the event under way when they were reported (for the report: where they come from).
    const uint64_t failures = js_->Stat("decryptFailures");
    if (js_->transitionsSeen > 0 && failures > js_->failuresSeen) {
      js_->failuresByEvent[eventKind_] += failures - js_->failuresSeen;
    }
    js_->failuresSeen = failures;
    const int transitions = js_->peer->Count("e2ee");
    if (transitions == js_->transitionsSeen) return;
    // Its first is its join: frames of the epoch before it cannot be decrypted by design.
    if (js_->transitionsSeen == 0) js_->failuresAtJoin = js_->Stat("decryptFailures");
    js_->transitionsSeen = transitions;
  }

  // Who speaks at a time: the members whose turn it is, and the JS member, which speaks all the time.
  [[nodiscard]] int Speakers() const { return options_.speakers + (js_ ? 1 : 0); }

  void StartCall(Member& member) {
    member.call = member.client->StartCallWithAudioCallbacks(
        lobbyId_,
        [](uint64_t, int16_t*, uint64_t, int32_t, uint64_t, bool& mute) {
          mute = true;  // the null device plays nothing anyway
        },
        member.Microphone());
    if (!member.call)
      throw std::runtime_error("StartCall refused for member " + std::to_string(member.index));
    Member* self = &member;
    member.call.SetStatusChangedCallback([self](Call::Status status, Call::Error, int32_t) {
      if (status == Call::Status::Connected) ++self->connections;
    });
    member.inCall = true;
    member.keyed = false;
    member.readyAt.reset();
  }

  static void Require(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error("set-up failed: " + what);
  }

  // --- the game loop: every Client's callbacks, then the books ---------------------------------------------

  bool PumpUntil(const std::function<bool()>& done, Clock::duration timeout) {
    const auto deadline = Clock::now() + timeout;
    while (!done()) {
      if (Clock::now() > deadline) return false;
      PumpOnce();
    }
    return true;
  }

  void PumpFor(Clock::duration duration) {
    const auto until = Clock::now() + duration;
    PumpUntil([&] { return Clock::now() >= until; }, duration + 1s);
  }

  void PumpOnce() {
    for (auto& member : members_)
      member->client->RunCallbacks();
    const auto now = Clock::now();
    if (now >= nextSpeakers_) RotateSpeakers(now);
    for (auto& member : members_)
      Account(*member, now);
    AccountJs();
    std::this_thread::sleep_for(2ms);
  }

  void RotateSpeakers(Clock::time_point now) {
    for (auto& member : members_)
      member->speaking = false;
    // The members made so far (the set-up pumps while it makes them).
    const int count = static_cast<int>(members_.size());
    for (int i = 0; i < std::min(options_.speakers, count); ++i)
      members_[static_cast<std::size_t>((speakerTurn_ * options_.speakers + i) % count)]->speaking = true;
    ++speakerTurn_;
    nextSpeakers_ = now + 2s;
  }

  // Clear frames are the call's own while it is downgraded, and for ten seconds after the upgrade (what was
  // sent in clear before the senders upgraded, still in flight): the SDK's pass-through window.
  [[nodiscard]] bool ClearAllowed(Clock::time_point now) const {
    return downgraded_ || (upgradedAt_ && now < *upgradedAt_ + 10s);
  }

  void Account(Member& m, Clock::time_point now) {
    if (!m.inCall || !m.call) return;
    const bool e2ee = m.call.GetE2eeActive();
    if (m.reconnectingFrom) {
      // Its own voice connection dropped: what it misses until it is back (op 5 of a new speaker comes with
      // the resume) is the drop's, not a key transition's.
      if (m.connections <= *m.reconnectingFrom) return;
      m.reconnectingFrom.reset();
    }
    if (m.rejoining) {
      // Its old session until the new one starts over: E2EE off, or already in the group's next epoch.
      if (e2ee && m.call.GetEpochAuthenticator() == m.authenticator) return;
      m.rejoining = false;
    }
    if (!m.keyed) {
      // Counting starts in the group (or, in a downgraded call, once connected without E2EE), 100 ms after
      // its join executed: the statistics are published every 20 ms or so, and a joiner cannot decrypt the
      // frames of the epoch before its join still in flight (it never held that epoch's keys). Its join is
      // not a transition it went through with keys.
      const bool ready = m.call.GetStatus() == Call::Status::Connected && (downgraded_ ? !e2ee : e2ee);
      if (!ready) {
        m.readyAt.reset();
        return;
      }
      if (!m.readyAt) m.readyAt = now;
      if (now < *m.readyAt + 100ms) return;
      m.keyed = true;
      m.keyedAt = now;
      m.last = m.call.GetMediaStatistics();
      m.authenticator = m.call.GetEpochAuthenticator();
      m.e2ee = e2ee;
      m.sinceTransition = 0;
      return;
    }
    const CallMediaStatistics now_ = m.call.GetMediaStatistics();
    const uint64_t undecryptable = now_.framesUndecryptable - m.last.framesUndecryptable;
    const uint64_t inClear = now_.framesInClear - m.last.framesInClear;
    m.undecryptable += undecryptable;
    m.sinceTransition += undecryptable;
    const uint64_t lost = now_.framesLost - m.last.framesLost;
    m.lost += lost;
    if (lost >= 5) {
      std::printf("member %d: %llu frames lost at once at %.2f s (%s)\n", m.index,
                  static_cast<unsigned long long>(lost), Seconds(now - start_), event_.c_str());
    }
    m.decrypted += now_.framesDecrypted - m.last.framesDecrypted;
    m.inClear += inClear;
    if (inClear > 0 && !ClearAllowed(now)) {
      findings_.Add("frames played in clear while the call was end-to-end encrypted",
                    "member " + std::to_string(m.index) + ": " + std::to_string(inClear) + " at " +
                        std::to_string(Seconds(now - start_)) + " s");
    }
    m.last = now_;
    // One transition, one count: an E2EE flip (a downgrade, an upgrade), or a new epoch while encrypted. An
    // upgrade's group exists before its transition executes, and a new group's members have none for a
    // moment: neither counts on its own.
    auto authenticator = m.call.GetEpochAuthenticator();
    if (e2ee != m.e2ee || (e2ee && !authenticator.empty() && authenticator != m.authenticator)) {
      // A key transition at this receiver: what it could not decrypt since the last one is that one's cost
      // (a sender ahead of it encrypts with the new key before it has processed the commit).
      CloseTransition(m, now);
      ++m.transitions;
    }
    if (!authenticator.empty()) m.authenticator = std::move(authenticator);
    m.e2ee = e2ee;
  }

  // The goal is one frame per sender's stream: every speaker switches keys at the transition, each with its
  // frames in flight (the voice server's execute reaches the members a few milliseconds apart). It holds at a
  // new group (op 24, epoch 1; an upgrade makes one too) as well, since the voice gateway forms it in one
  // commit; before it did, a member whose key package came after the first commit was added by a later one
  // and could not decrypt the speakers on the new group's keys until its Welcome (counted apart below).
  void CloseTransition(Member& m, Clock::time_point now) {
    m.worstTransition = std::max(m.worstTransition, m.sinceTransition);
    ++lossHistogram_[std::min<uint64_t>(m.sinceTransition, 9)];
    const uint64_t bound = static_cast<uint64_t>(Speakers());
    if (FormsNewGroup(event_) && m.sinceTransition > bound) ++lateToNewGroup_;
    if (m.sinceTransition > bound) {
      findings_.Add("more than one frame per speaker lost to a key transition",
                    "member " + std::to_string(m.index) + ": " + std::to_string(m.sinceTransition) +
                        " undecryptable frames before its transition at " +
                        std::to_string(Seconds(now - start_)) + " s (" + event_ + "; keyed " +
                        std::to_string(Seconds(now - m.keyedAt)) + " s before)");
    }
    m.sinceTransition = 0;
  }

  // Stops counting for a member that rejoins the group (its frames in between are undecryptable by design).
  void Unkey(Member& m) {
    if (m.keyed) {
      const CallMediaStatistics now = m.call.GetMediaStatistics();
      m.undecryptable += now.framesUndecryptable - m.last.framesUndecryptable;
      m.sinceTransition += now.framesUndecryptable - m.last.framesUndecryptable;
      CloseTransition(m, Clock::now());
    }
    m.keyed = false;
    m.readyAt.reset();
  }

  /// Every member in the call is connected, sees all the others, and (unless downgraded) is end-to-end
  /// encrypted on the same epoch; then the verification codes must be equal. Records the time it took.
  bool Settle(const std::string& event, Clock::duration timeout) {
    const auto started = Clock::now();
    std::string mismatch;  // a member whose code differs from the others' on the same epoch
    const bool settled = PumpUntil(
        [&] {
          const auto in = static_cast<std::size_t>(std::count_if(members_.begin(), members_.end(),
                                                                 [](const auto& m) { return m->inCall; })) +
                          (js_ ? 1 : 0);
          std::vector<uint8_t> first;
          std::string code;
          for (auto& m : members_) {
            if (!m->inCall) continue;
            if (m->call.GetStatus() != Call::Status::Connected || m->call.GetParticipants().size() != in)
              return false;
            if (downgraded_) {
              if (m->call.GetE2eeActive()) return false;
              continue;
            }
            if (!m->call.GetE2eeActive() || !m->keyed) return false;
            // The code is read between two reads of the authenticator: a transition executing on the
            // Client's network thread meanwhile makes the pass start over, not a false finding.
            const auto authenticator = m->call.GetEpochAuthenticator();
            const auto mine = m->call.GetEpochVerificationCode();
            if (m->call.GetEpochAuthenticator() != authenticator) return false;
            if (first.empty()) {
              first = authenticator;
              code = mine;
            }
            if (authenticator.size() != 32 || authenticator != first) return false;
            if (mine.size() != 30 || mine != code) {
              mismatch = "member " + std::to_string(m->index) + " on the same epoch";
              return true;
            }
          }
          return JsSettled(in, code);
        },
        timeout);
    settleTimes_.push_back(Seconds(Clock::now() - started));
    if (!mismatch.empty()) {
      findings_.Add("verification codes differ", event + ": " + mismatch);
      return false;
    }
    if (!settled) {
      std::string states;
      for (auto& m : members_) {
        if (!m->inCall) continue;
        states += " [" + std::to_string(m->index) + ": " + Call::StatusToString(m->call.GetStatus()) + ", " +
                  std::to_string(m->call.GetParticipants().size()) + " seen, e2ee " +
                  (m->call.GetE2eeActive() ? "on" : "off") + ", code " +
                  m->call.GetEpochVerificationCode().substr(0, 5) + "]";
      }
      findings_.Add("the call did not settle after an event", event + ":" + states);
      return false;
    }
    return true;
  }

  // --- the schedule ----------------------------------------------------------------------------------------

  Member& Pick() {
    std::uniform_int_distribution<std::size_t> pick(0, members_.size() - 1);
    return *members_[pick(random_)];
  }

  void ChurnFor(Clock::duration length) {
    start_ = Clock::now();
    if (std::getenv("DAVE_CHURN_DEBUG")) {
      for (auto& m : members_)
        std::printf("member %d is user %llu\n", m->index, static_cast<unsigned long long>(m->user.id));
    }
    const auto end = start_ + length;
    // The downgrade and upgrade in the middle of the run (and every 60 s in a long one); the other events
    // drawn from the seed.
    auto nextDowngrade = start_ + std::min<Clock::duration>(length / 2, 60s);
    std::uniform_int_distribution<int> kind(0, 3);
    std::uniform_int_distribution<int> pauseMs(300, 1500);
    while (Clock::now() < end) {
      if (Clock::now() >= nextDowngrade) {
        Downgrade();
        nextDowngrade = Clock::now() + 60s;
      } else {
        switch (kind(random_)) {
          case 0:
            LeaveAndRejoin(Pick());
            break;
          case 1:
            DropVoice(Pick());
            break;
          case 2:
            MoveVoice(Pick());
            break;
          default:
            NewGroup();
            break;
        }
      }
      PumpFor(std::chrono::milliseconds(pauseMs(random_)));
    }
  }

  // An event of `kind` starts; `what` names it in the findings (and, with DAVE_CHURN_DEBUG set, in the log).
  void Begin(const std::string& kind, std::string what) {
    ++events_[kind];
    eventKind_ = kind;
    event_ = std::move(what);
    if (std::getenv("DAVE_CHURN_DEBUG"))
      std::printf("[%.3f] %s\n", Seconds(Clock::now() - start_), event_.c_str());
  }

  void LeaveAndRejoin(Member& m) {
    Begin("leave and join again", "member " + std::to_string(m.index) + " left and joins again");
    bool ended = false;
    Unkey(m);
    m.client->EndCall(lobbyId_, [&ended] { ended = true; });
    m.inCall = false;
    if (!PumpUntil([&] { return ended; }, 10s)) findings_.Add("EndCall never ended", std::to_string(m.index));
    Settle("member " + std::to_string(m.index) + " left", 30s);
    PumpFor(500ms);
    StartCall(m);
    Settle("member " + std::to_string(m.index) + " joined again", 30s);
  }

  void DropVoice(Member& m) {
    // The session resumes: the member keeps its DAVE session; it is counted again once it is back.
    Begin("voice connection dropped and resumed",
          "member " + std::to_string(m.index) + "'s voice connection dropped");
    Unkey(m);
    m.reconnectingFrom = m.connections;
    if (admin_->DropVoice(m.user.id) == 0) {
      m.reconnectingFrom.reset();
      return;
    }
    Settle(event_, 30s);
  }

  void MoveVoice(Member& m) {
    // Another voice server: a new voice session, a new DAVE session; the member joins the group again.
    Begin("moved to another voice server", "member " + std::to_string(m.index) + " moved");
    Unkey(m);
    m.rejoining = true;
    if (admin_->MoveVoice(m.user.id) == 0) return;
    Settle(event_, 30s);
  }

  void NewGroup() {
    Begin(kNewGroupEvent, kNewGroupEvent);
    if (!admin_->DaveAction(lobbyId_, "new_group")) return;
    Settle(event_, 30s);
  }

  void Downgrade() {
    Begin(kDowngradeUpgradeEvent, kDowngradeUpgradeEvent);
    downgraded_ = true;
    if (!admin_->DaveAction(lobbyId_, "downgrade")) {
      findings_.Add("downgrade refused", "lobby " + std::to_string(lobbyId_));
      downgraded_ = false;
      return;
    }
    Settle("downgraded", 30s);
    PumpFor(1s);
    admin_->DaveAction(lobbyId_, "upgrade");
    downgraded_ = false;
    upgradedAt_ = Clock::now();
    Settle("upgraded", 30s);
  }

  void Report() {
    uint64_t transitions = 0, undecryptable = 0, lost = 0, decrypted = 0, inClear = 0, worst = 0;
    for (auto& member : members_) {
      if (member->inCall) Unkey(*member);
      transitions += member->transitions;
      undecryptable += member->undecryptable;
      lost += member->lost;
      decrypted += member->decrypted;
      inClear += member->inClear;
      worst = std::max(worst, member->worstTransition);
    }
    std::sort(settleTimes_.begin(), settleTimes_.end());
    std::printf("events:");
    for (const auto& [name, count] : events_)
      std::printf(" %s %d;", name.c_str(), count);
    std::printf("\n");
    std::printf("key transitions seen by the receivers: %llu (%.1f per member)\n",
                static_cast<unsigned long long>(transitions),
                static_cast<double>(transitions) / static_cast<double>(members_.size()));
    std::printf(
        "frames decrypted %llu; undecryptable %llu (%.3f per transition; the worst transition %llu at "
        "one receiver); lost %llu (%.3f per transition); in clear %llu, all while downgraded\n",
        static_cast<unsigned long long>(decrypted), static_cast<unsigned long long>(undecryptable),
        transitions ? static_cast<double>(undecryptable) / static_cast<double>(transitions) : 0.0,
        static_cast<unsigned long long>(worst), static_cast<unsigned long long>(lost),
        transitions ? static_cast<double>(lost) / static_cast<double>(transitions) : 0.0,
        static_cast<unsigned long long>(inClear));
    std::printf("undecryptable frames per transition at a receiver:");
    for (const auto& [frames, count] : lossHistogram_)
      std::printf(" %llu%s: %d;", static_cast<unsigned long long>(frames), frames == 9 ? "+" : "", count);
    std::printf("\n");
    std::printf(
        "new-group transitions that cost a receiver more than a frame per speaker (a member added to "
        "the new group by a later commit): %d\n",
        lateToNewGroup_);
    if (!settleTimes_.empty()) {
      std::printf("the call settled after an event in: median %.2f s, max %.2f s\n",
                  settleTimes_[settleTimes_.size() / 2], settleTimes_.back());
    }
    if (js_) {
      const uint64_t failed = js_->Stat("decryptFailures") - js_->failuresAtJoin;
      const auto after = static_cast<uint64_t>(std::max(js_->transitionsSeen - 1, 0));
      std::printf(
          "the JS member: %llu transitions after its join, decrypted %llu frames, %llu failed to decrypt "
          "after its join, sent %llu\n",
          static_cast<unsigned long long>(after), static_cast<unsigned long long>(js_->Stat("decrypted")),
          static_cast<unsigned long long>(failed), static_cast<unsigned long long>(js_->Stat("sent")));
      std::printf("  its failures to decrypt by the event under way when reported:");
      for (const auto& [kind, count] : js_->failuresByEvent)
        std::printf(" %s %llu;", kind.c_str(), static_cast<unsigned long long>(count));
      std::printf("\n");
      if (js_->Stat("decrypted") == 0)
        findings_.Add("the JS member decrypted nothing", "no frame reached it");
      // davey's reinit, which a new group (op 24, epoch 1) and so an upgrade call for, deletes the group and
      // its keys at once: frames of senders that have not executed the new group's transition yet then fail
      // there (our SDK keeps the old keys for ten seconds). The bound holds for the other events.
      uint64_t others = 0;
      for (const auto& [kind, count] : js_->failuresByEvent)
        if (!FormsNewGroup(kind)) others += count;
      if (others > after * static_cast<uint64_t>(Speakers())) {
        findings_.Add("more than one frame per speaker lost to a key transition",
                      "the JS member: " + std::to_string(others) + " frames over " + std::to_string(after) +
                          " transitions, new groups aside");
      }
    }
    for (const auto& call : admin_->VoiceCalls()) {
      std::printf(
          "the voice gateway: %llu commits accepted, %llu refused, %llu welcomes, %llu transitions (%llu "
          "timed out), %llu op 31 reports, %llu new groups formed without every key package in time\n",
          static_cast<unsigned long long>(call.commitsAccepted),
          static_cast<unsigned long long>(call.commitsRefused),
          static_cast<unsigned long long>(call.welcomesSent),
          static_cast<unsigned long long>(call.transitionsExecuted),
          static_cast<unsigned long long>(call.transitionsTimedOut),
          static_cast<unsigned long long>(call.invalidReports),
          static_cast<unsigned long long>(call.newGroupWaitsExpired));
    }
    if (decrypted == 0) findings_.Add("no frame decrypted", "the speakers' frames never arrived");
    if (transitions == 0) findings_.Add("no key transition", "the schedule changed nothing");
  }

  Options options_;
  std::mt19937 random_;
  Findings findings_;
  std::unique_ptr<platformpp::testkit::EmulatorProcess> emulator_;
  std::unique_ptr<platformpp::testkit::EmulatorAdmin> admin_;
  std::vector<std::unique_ptr<Member>> members_;
  std::unique_ptr<JsMember> js_;  // with --js-member
  bool jsFailed_ = false;
  uint64_t lobbyId_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point nextSpeakers_{};
  int speakerTurn_ = 0;
  bool downgraded_ = false;
  std::optional<Clock::time_point> upgradedAt_;
  std::vector<double> settleTimes_;
  std::map<std::string, int> events_;
  std::map<uint64_t, int> lossHistogram_;  // transitions by what they cost a receiver (9: 9 or more)
  int lateToNewGroup_ = 0;  // new-group transitions that cost a receiver more than a frame per speaker
  std::string event_ = "set-up";
  std::string eventKind_ = "set-up";  // the event under way, for the findings
};

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
#ifdef _WIN32
  _putenv_s("PLATFORMPP_AUDIO", "null");
#else
  setenv("PLATFORMPP_AUDIO", "null", 1);  // headless: no sound card on a CI machine
#endif
  try {
    Churn churn(ParseOptions(argc, argv));
    return churn.Run();
  } catch (const std::exception& e) {
    std::printf("DAVE churn: %s\n", e.what());
    return 1;
  }
}
