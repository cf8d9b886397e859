// Who is in a call: the participant model fed every order of the platform's voice states and the voice
// server's messages (exhaustively, for one user's join and leave), and a CallSession of a real ClientCore
// that starts in a lobby whose call is under way, then hears the dispatches before or after op 11, driven
// step by step (no sockets, no sleeping).
#include "voice/call_participants.hpp"

#include "client/client_core.hpp"
#include "core/retry_timer.hpp"
#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "lobby/lobby_store.hpp"
#include "social/social_store.hpp"
#include "voice/call_session.hpp"
#include "voice/voice_manager.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace call_participants_test {

using namespace platformpp;
using voice::CallParticipants;
using Kind = CallParticipants::Change::Kind;
using Changes = CallParticipants::Changes;
using Ids = std::vector<uint64_t>;
using Records = std::vector<lobby::VoiceStateRecord>;

namespace {

constexpr uint64_t kSelf = 1000;
constexpr uint64_t kAda = 1001;
constexpr uint64_t kBo = 1002;
constexpr uint64_t kLobby = 5000;
constexpr uint64_t kApp = 1234567890123456789ULL;

lobby::VoiceStateRecord State(uint64_t user, bool mute = false) {
  lobby::VoiceStateRecord state;
  state.userId = user;
  state.sessionId = "s" + std::to_string(user);
  state.selfMute = mute;
  return state;
}

int Count(const Changes& changes, Kind kind, uint64_t user) {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(),
                                        [&](const auto& c) { return c.kind == kind && c.userId == user; }));
}

/// One message about a user, from one of the two sources.
struct Step {
  std::string name;
  std::function<void(CallParticipants&, Changes&)> apply;
};

/// Every interleaving of `a` and `b` that keeps each one's own order.
void Interleavings(const std::vector<Step>& a, const std::vector<Step>& b, std::vector<Step>& prefix,
                   std::size_t i, std::size_t j, const std::function<void(const std::vector<Step>&)>& visit) {
  if (i == a.size() && j == b.size()) {
    visit(prefix);
    return;
  }
  if (i < a.size()) {
    prefix.push_back(a[i]);
    Interleavings(a, b, prefix, i + 1, j, visit);
    prefix.pop_back();
  }
  if (j < b.size()) {
    prefix.push_back(b[j]);
    Interleavings(a, b, prefix, i, j + 1, visit);
    prefix.pop_back();
  }
}

std::string Names(const std::vector<Step>& steps) {
  std::string out;
  for (const auto& s : steps)
    out += s.name + " ";
  return out;
}

Step Platform(bool in, bool mute = false) {
  return {in ? "dispatch-in" : "dispatch-out",
          [in, mute](CallParticipants& p, Changes& out) { p.OnVoiceState(State(kAda, mute), in, out); }};
}
Step VoiceConnect() {
  return {"op11", [](CallParticipants& p, Changes& out) { p.OnVoiceServerConnect(kAda, out); }};
}
Step VoiceDisconnect() {
  return {"op13", [](CallParticipants& p, Changes& out) { p.OnVoiceServerDisconnect(kAda, out); }};
}
Step Speaks(bool on) {
  return {on ? "op5-on" : "op5-off",
          [on](CallParticipants& p, Changes& out) { p.OnSpeaking(kAda, on, out); }};
}

}  // namespace

TEST_CASE("a call starts with the users already in it; the player's own stale voice state is not one") {
  CallParticipants p(kSelf);
  Changes changes;
  p.Seed({State(kAda), State(kBo, true), State(kSelf)}, changes);
  CHECK(p.Ids() == Ids{kAda, kBo});
  CHECK(changes ==
        Changes{{Kind::Added, kAda}, {Kind::VoiceState, kAda}, {Kind::Added, kBo}, {Kind::VoiceState, kBo}});
  REQUIRE(p.VoiceState(kBo));
  CHECK(p.VoiceState(kBo)->selfMute);
  // The voice server then names the same users: nothing new.
  changes.clear();
  p.OnVoiceServerConnect(kAda, changes);
  p.OnVoiceServerConnect(kBo, changes);
  p.OnVoiceServerConnect(kSelf, changes);
  CHECK(changes.empty());
  // Their speaking is reported (they are participants).
  p.OnSpeaking(kAda, true, changes);
  CHECK(changes == Changes{{Kind::Speaking, kAda, true}});
}

TEST_CASE("a dispatch applied since the call began outranks the store's older snapshot") {
  CallParticipants p(kSelf);
  Changes changes;
  p.OnVoiceState(State(kAda), false, changes);  // Ada left, and the snapshot was taken before that
  p.OnVoiceState(State(kBo, true), true, changes);
  changes.clear();
  p.Seed({State(kAda), State(kBo, false)}, changes);
  CHECK(p.Ids() == Ids{kBo});
  CHECK(changes.empty());
  CHECK(p.VoiceState(kBo)->selfMute);  // the dispatch's state, not the snapshot's
}

TEST_CASE("a join, some speech and a leave, in every order of the two sources: added once, removed once") {
  // The platform: in, then out. The voice server: connect, speaking on, speaking off, disconnect.
  const std::vector<Step> platform{Platform(true), Platform(false)};
  const std::vector<Step> server{VoiceConnect(), Speaks(true), Speaks(false), VoiceDisconnect()};
  std::vector<Step> prefix;
  int orders = 0;
  Interleavings(platform, server, prefix, 0, 0, [&](const std::vector<Step>& steps) {
    ++orders;
    CallParticipants p(kSelf);
    Changes changes;
    for (const auto& step : steps)
      step.apply(p, changes);
    INFO("order: " << Names(steps));
    CHECK(Count(changes, Kind::Added, kAda) == 1);
    CHECK(Count(changes, Kind::Removed, kAda) == 1);
    CHECK_FALSE(p.Contains(kAda));
    CHECK_FALSE(p.Speaking(kAda));
    // Speaking edges come in pairs, never for a non-participant, and never after the leave.
    const int on = static_cast<int>(
        std::count(changes.begin(), changes.end(), CallParticipants::Change{Kind::Speaking, kAda, true}));
    const int off = static_cast<int>(
        std::count(changes.begin(), changes.end(), CallParticipants::Change{Kind::Speaking, kAda, false}));
    CHECK(on == off);
    CHECK(on <= 1);
    auto removed =
        std::find_if(changes.begin(), changes.end(), [](const auto& c) { return c.kind == Kind::Removed; });
    CHECK(std::none_of(removed, changes.end(), [](const auto& c) { return c.kind == Kind::Added; }));
    CHECK(std::none_of(removed, changes.end(),
                       [](const auto& c) { return c.kind == Kind::Speaking && c.speaking; }));
  });
  CHECK(orders == 15);
}

TEST_CASE("a user who leaves and comes back, in every order of each stay: two stays, two joins, two leaves") {
  const std::vector<Step> platform{Platform(true), Platform(false)};
  const std::vector<Step> server{VoiceConnect(), Speaks(true), Speaks(false), VoiceDisconnect()};
  std::vector<std::vector<Step>> stays;
  std::vector<Step> prefix;
  Interleavings(platform, server, prefix, 0, 0,
                [&](const std::vector<Step>& steps) { stays.push_back(steps); });
  for (const auto& first : stays) {
    for (const auto& second : stays) {
      CallParticipants p(kSelf);
      Changes changes;
      for (const auto& step : first)
        step.apply(p, changes);
      const bool stillIn = p.Contains(kAda);
      for (const auto& step : second)
        step.apply(p, changes);
      INFO("first: " << Names(first) << "| second: " << Names(second));
      CHECK_FALSE(stillIn);
      CHECK(Count(changes, Kind::Added, kAda) == 2);
      CHECK(Count(changes, Kind::Removed, kAda) == 2);
      CHECK_FALSE(p.Contains(kAda));
    }
  }
}

TEST_CASE("a lobby object's whole voice_states: listed users in, those who were in and are not listed out") {
  CallParticipants p(kSelf);
  Changes changes;
  p.OnVoiceState(State(kAda), true, changes);
  p.OnVoiceServerConnect(kBo, changes);  // known to the voice server only: its op 11 may be newer
  changes.clear();
  p.Sync({State(kSelf), State(kAda, true)}, changes);
  CHECK(p.Ids() == Ids{kSelf, kAda, kBo});
  CHECK(changes == Changes{{Kind::Added, kSelf}, {Kind::VoiceState, kSelf}, {Kind::VoiceState, kAda}});
  changes.clear();
  p.Sync({State(kBo)}, changes);
  CHECK(p.Ids() == Ids{kBo});
  CHECK(changes == Changes{{Kind::Removed, kSelf},
                           {Kind::VoiceState, kSelf},
                           {Kind::Removed, kAda},
                           {Kind::VoiceState, kAda},
                           {Kind::VoiceState, kBo}});
  changes.clear();
  p.Sync({State(kBo)}, changes);  // the same list again: nothing
  CHECK(changes.empty());
}

TEST_CASE("a join in every order of the two sources ends with the user in the call and their voice state") {
  const std::vector<Step> platform{Platform(true, true)};
  const std::vector<Step> server{VoiceConnect(), Speaks(true)};
  std::vector<Step> prefix;
  Interleavings(platform, server, prefix, 0, 0, [&](const std::vector<Step>& steps) {
    CallParticipants p(kSelf);
    Changes changes;
    for (const auto& step : steps)
      step.apply(p, changes);
    INFO("order: " << Names(steps));
    CHECK(p.Ids() == Ids{kAda});
    CHECK(Count(changes, Kind::Added, kAda) == 1);
    CHECK(Count(changes, Kind::VoiceState, kAda) == 1);  // once it is known
    CHECK(Count(changes, Kind::Speaking, kAda) == 1);
    REQUIRE(p.VoiceState(kAda));
    CHECK(p.VoiceState(kAda)->selfMute);
    CHECK(p.Speaking(kAda));
  });
}

TEST_CASE("the voice server cannot contradict the platform's voice state") {
  SUBCASE("a late op 11 of someone who already left does not bring them back") {
    CallParticipants p(kSelf);
    Changes changes;
    p.OnVoiceState(State(kAda), true, changes);
    p.OnVoiceState(State(kAda), false, changes);
    changes.clear();
    p.OnVoiceServerConnect(kAda, changes);
    p.OnSpeaking(kAda, true, changes);
    CHECK(changes.empty());
    CHECK(p.Ids().empty());
    // They come back: the platform says so.
    p.OnVoiceState(State(kAda), true, changes);
    CHECK(p.Ids() == Ids{kAda});
  }
  SUBCASE("op 13 of a replaced voice session leaves a user whose voice state stays in the call") {
    CallParticipants p(kSelf);
    Changes changes;
    p.OnVoiceState(State(kAda), true, changes);
    p.OnSpeaking(kAda, true, changes);
    changes.clear();
    p.OnVoiceServerDisconnect(kAda, changes);
    CHECK(p.Ids() == Ids{kAda});
    CHECK(changes == Changes{{Kind::Speaking, kAda, false}});  // no audio from them any more
    changes.clear();
    p.OnVoiceServerConnect(kAda, changes);
    CHECK(changes.empty());
  }
  SUBCASE("known to the voice server only: op 13 removes them") {
    CallParticipants p(kSelf);
    Changes changes;
    p.OnVoiceServerConnect(kAda, changes);
    CHECK(p.Ids() == Ids{kAda});
    CHECK_FALSE(p.VoiceState(kAda));  // not known yet, so not made up
    p.OnVoiceServerDisconnect(kAda, changes);
    CHECK(changes == Changes{{Kind::Added, kAda}, {Kind::Removed, kAda}, {Kind::VoiceState, kAda}});
  }
}

TEST_CASE("the player's own speaking is reported whatever the voice states say; a repeat is not") {
  CallParticipants p(kSelf);
  Changes changes;
  p.OnSpeaking(kSelf, true, changes);
  p.OnSpeaking(kSelf, true, changes);
  p.OnSpeaking(kSelf, false, changes);
  CHECK(changes == Changes{{Kind::Speaking, kSelf, true}, {Kind::Speaking, kSelf, false}});
  changes.clear();
  p.OnVoiceServerConnect(kSelf, changes);  // the voice server never makes the player a participant
  p.OnVoiceServerDisconnect(kSelf, changes);
  CHECK(changes.empty());
  CHECK(p.Ids().empty());
}

// --- a CallSession of a real ClientCore ------------------------------------------------------------------

namespace {

std::string User(uint64_t id) {
  return R"({"id":")" + std::to_string(id) + R"(","username":"u)" + std::to_string(id) +
         R"(","global_name":null,"avatar":null,"discriminator":"0","bot":false})";
}

std::string VoiceStateJson(uint64_t user, bool in, bool mute = false) {
  return R"({"lobby_id":")" + std::to_string(kLobby) + R"(","user_id":")" + std::to_string(user) +
         R"(","session_id":"s)" + std::to_string(user) + R"(","channel_id":)" +
         (in ? "\"" + std::to_string(kLobby) + "\"" : std::string("null")) + R"(,"self_mute":)" +
         (mute ? "true" : "false") + R"(,"self_deaf":false})";
}

/// READY with one lobby of the player, Ada and Bo, whose call has `inCall` in it.
std::string Ready(const std::vector<uint64_t>& inCall) {
  std::string members, states;
  for (uint64_t id : {kSelf, kAda, kBo})
    members += std::string(members.empty() ? "" : ",") + R"({"id":")" + std::to_string(id) +
               R"(","metadata":null,"flags":0,"connected":true,"user":)" + User(id) + "}";
  for (uint64_t id : inCall)
    states += std::string(states.empty() ? "" : ",") + R"({"user_id":")" + std::to_string(id) +
              R"(","session_id":"s)" + std::to_string(id) + R"(","self_mute":false,"self_deaf":false})";
  return R"({"v":10,"session_id":"g1","user":)" + User(kSelf) +
         R"(,"relationships":[],"presences":[],"guilds":[],"lobbies":[{"id":")" + std::to_string(kLobby) +
         R"(","application_id":")" + std::to_string(kApp) + R"(","metadata":null,"members":[)" + members +
         R"(],"linked_channel":null,"flags":0,"voice_states":[)" + states + "]}]}";
}

struct SessionFixture {
  std::unique_ptr<client::ClientCore> core;
  std::unique_ptr<core::RetryTimer> timer;
  std::shared_ptr<voice::CallSession> session;
  std::vector<std::string> events;
  int64_t seq = 0;

  SessionFixture() {
    ClientOptions options;
    options.ipcEnabled = false;
    core = std::make_unique<client::ClientCore>(options);
    core->Runtime().applicationId.store(kApp);
    timer = std::make_unique<core::RetryTimer>(core->Io());
  }
  ~SessionFixture() {
    if (session) session->Shutdown();
    session.reset();
    timer->Shutdown();
  }

  // As the Gateway does: the stores, then the calls (ClientCore's sink order).
  void Feed(std::string_view type, const std::string& data) {
    gateway::Dispatch dispatch{type, data, ++seq};
    core->Social().OnDispatch(dispatch);
    core->Lobbies().OnDispatch(dispatch);
    if (type == "LOBBY_VOICE_STATE_UPDATE" && session) {
      json::Document document;
      REQUIRE(json::Parse(data, document));
      auto event = lobby::ParseVoiceStateEvent(document);
      REQUIRE(event);
      session->OnVoiceStateDispatch(*event);
    }
  }

  /// What VoiceManager::StartCall does, but Start (op 4 on a Gateway this test has not got): register the
  /// session, then read the store. The callbacks are set after that, as a game sets them after StartCall.
  void StartCall() {
    session =
        std::make_shared<voice::CallSession>(core->Runtime(), core->Gateway(), core->Voice().Fingerprints(),
                                             core->Voice().Engine(), *timer, kLobby, kSelf, 1);
    session->SeedParticipants(core->Lobbies().VoiceStates(kLobby).value_or(Records{}));
    session->callbacks.participant.Set([this](uint64_t user, bool added) {
      events.push_back((added ? "joined " : "left ") + std::to_string(user));
    });
    session->callbacks.speaking.Set([this](uint64_t user, bool speaking) {
      events.push_back("speaking " + std::to_string(user) + (speaking ? " on" : " off"));
    });
    session->callbacks.voiceState.Set(
        [this](uint64_t user) { events.push_back("voice state " + std::to_string(user)); });
  }

  std::vector<std::string> Drain() {
    core->RunCallbacks();
    return std::exchange(events, {});
  }
};

using Events = std::vector<std::string>;

}  // namespace

TEST_CASE("a player joining a call under way lists those already in it and is told of each once") {
  SessionFixture f;
  f.Feed("READY", Ready({kAda, kBo}));
  f.StartCall();
  CHECK(f.session->Participants() == Ids{kAda, kBo});
  // Set after StartCall returned, before RunCallbacks: the callbacks of the call's start reach them.
  CHECK(f.Drain() == Events{"joined 1001", "voice state 1001", "joined 1002", "voice state 1002"});
  // The voice server names them, then replays Ada's speaking; the player's own join comes by dispatch.
  f.session->OnVoiceClientsConnect({{kAda, kBo}});
  f.session->OnVoiceSpeaking({kAda, 111, 1});
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kSelf, true));
  CHECK(f.session->Participants() == Ids{kSelf, kAda, kBo});
  CHECK(f.Drain() == Events{"speaking 1001 on", "joined 1000", "voice state 1000"});
  // Volume and local mute of a participant who was there first.
  f.session->SetParticipantVolume(kBo, 150);
  f.session->SetLocalMute(kAda, true);
  CHECK(f.session->ParticipantVolume(kBo) == 150);
  CHECK(f.session->LocalMute(kAda));
  // Bo leaves: the dispatch and op 13, in this order, remove him once.
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kBo, false));
  f.session->OnVoiceClientDisconnect({kBo});
  CHECK(f.Drain() == Events{"left 1002", "voice state 1002"});
  CHECK(f.session->Participants() == Ids{kSelf, kAda});
}

TEST_CASE("a dispatch that arrives after op 11 adds nobody twice, and fills in the voice state") {
  SessionFixture f;
  f.Feed("READY", Ready({}));  // the store knows of nobody in the call yet
  f.StartCall();
  CHECK(f.Drain().empty());
  f.session->OnVoiceClientsConnect({{kAda, kBo}});
  CHECK(f.session->Participants() == Ids{kAda, kBo});
  CHECK_FALSE(f.session->VoiceState(kAda));
  CHECK(f.Drain() == Events{"joined 1001", "joined 1002"});
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kAda, true, true));
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kBo, true));
  CHECK(f.Drain() == Events{"voice state 1001", "voice state 1002"});
  REQUIRE(f.session->VoiceState(kAda));
  CHECK(f.session->VoiceState(kAda)->SelfMute());
  // The store has them too (the lobby's call info), for the next call.
  CHECK(f.core->Lobbies().VoiceStates(kLobby).value_or(Records{}).size() == 2);
}

TEST_CASE("a dispatch between the call's registration and the store read is not lost or doubled") {
  SessionFixture f;
  f.Feed("READY", Ready({kAda}));
  // Registered, then Ada leaves and Bo joins before the snapshot is read: the session hears both
  // dispatches, and the snapshot (which already shows them) changes nothing.
  f.session = std::make_shared<voice::CallSession>(f.core->Runtime(), f.core->Gateway(),
                                                   f.core->Voice().Fingerprints(), f.core->Voice().Engine(),
                                                   *f.timer, kLobby, kSelf, 1);
  f.session->callbacks.participant.Set([&](uint64_t user, bool added) {
    f.events.push_back((added ? "joined " : "left ") + std::to_string(user));
  });
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kAda, false));
  f.Feed("LOBBY_VOICE_STATE_UPDATE", VoiceStateJson(kBo, true));
  f.session->SeedParticipants(f.core->Lobbies().VoiceStates(kLobby).value_or(Records{}));
  CHECK(f.session->Participants() == Ids{kBo});
  CHECK(f.Drain() == Events{"joined 1002"});
}

}  // namespace call_participants_test
