// The live-only document kinds the web console shows (docs/emulator-state.md, "Live web console"):
// "presence" (who is online, their status, activities and Gateway sessions) and "voice_call" (a lobby's call:
// its members, who is speaking, whether its media is end-to-end encrypted). Each change is named in the turn
// it happens (a mirror kept from the changes equals everything saved whole), and neither kind is ever part of
// what a state file keeps.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "dave_member.hpp"
#include "presence/presence_module.hpp"
#include "voice/voice_module.hpp"

namespace console_live_kinds_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::test::voice_fixture;
using namespace platformpp::emulator::test::dave_member;

namespace {

// What the console holds: the first view, then each turn's changes, live kinds included.
class LiveMirror {
 public:
  explicit LiveMirror(StateChanges& changes) : changes_(changes) {
    changes_.start_recording();
    for (auto& document : changes_.save_all())
      documents_[{document.kind, document.id}] = *document.body;
  }

  // The end of a turn: applies its changes and returns them, by (kind, id).
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> sync() {
    std::map<std::pair<std::string, std::string>, std::optional<std::string>> turn;
    for (auto& change : changes_.take()) {
      if (change.body) {
        documents_[{change.kind, change.id}] = *change.body;
      } else {
        documents_.erase({change.kind, change.id});
      }
      turn[{change.kind, change.id}] = std::move(change.body);
    }
    check_complete();
    return turn;
  }

  // The live documents saved whole equal the mirror's: no change of who is online or in a call went unnamed.
  void check_complete() const {
    std::map<std::pair<std::string, std::string>, std::string> whole;
    for (auto& document : changes_.save_all()) {
      if (document.kind == kPresenceDocument || document.kind == kVoiceCallDocument)
        whole[{document.kind, document.id}] = *document.body;
    }
    std::map<std::pair<std::string, std::string>, std::string> mirrored;
    for (const auto& [key, body] : documents_) {
      if (key.first == kPresenceDocument || key.first == kVoiceCallDocument) mirrored[key] = body;
    }
    // (No structured bindings here: clang 14 cannot capture them in doctest's message lambdas.)
    for (const auto& entry : whole) {
      const auto& key = entry.first;
      const auto it = mirrored.find(key);
      CHECK_MESSAGE(it != mirrored.end(), "not named when created: " << key.first << "/" << key.second);
      if (it != mirrored.end()) {
        CHECK_MESSAGE(it->second == entry.second,
                      "not named when changed: " << key.first << "/" << key.second << "\n  mirror: "
                                                 << it->second << "\n  now:    " << entry.second);
      }
    }
    for (const auto& entry : mirrored) {
      CHECK_MESSAGE(whole.count(entry.first) == 1,
                    "not named when removed: " << entry.first.first << "/" << entry.first.second);
    }
  }

  [[nodiscard]] rapidjson::Document body(std::string_view kind, const std::string& id) const {
    const auto it = documents_.find({std::string(kind), id});
    REQUIRE_MESSAGE(it != documents_.end(), "no document " << kind << "/" << id);
    return parse(it->second);
  }
  [[nodiscard]] bool has(std::string_view kind, const std::string& id) const {
    return documents_.count({std::string(kind), id}) == 1;
  }

 private:
  StateChanges& changes_;
  std::map<std::pair<std::string, std::string>, std::string> documents_;
};

using Turn = std::map<std::pair<std::string, std::string>, std::optional<std::string>>;

bool named(const Turn& turn, std::string_view kind, const std::string& id) {
  return turn.count({std::string(kind), id}) == 1;
}

const rapidjson::Value* member_of(const rapidjson::Value& call, const std::string& user_id) {
  for (const auto& member : call["members"].GetArray()) {
    if (str(member["user_id"]) == user_id) return &member;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("console: presence and voice_call are live-only kinds, never kept in a state file") {
  Fixture f;
  for (const auto name : {kPresenceDocument, kVoiceCallDocument}) {
    const auto* kind = f.service.changes().find_kind(name);
    REQUIRE(kind != nullptr);
    CHECK_FALSE(kind->persisted);
  }
  // The three players are online: the console's first view has them, an export does not.
  bool online = false;
  for (const auto& document : f.service.changes().save_all())
    online = online || (document.kind == kPresenceDocument && document.id == f.alice);
  CHECK(online);
  for (const auto& document : f.service.changes().save_all(true)) {
    CHECK(document.kind != kPresenceDocument);
    CHECK(document.kind != kVoiceCallDocument);
  }
}

TEST_CASE("console: a user's presence changes when they connect, set a presence, drop and leave") {
  Fixture f;
  LiveMirror mirror(f.service.changes());
  CHECK(mirror.has(kPresenceDocument, f.alice));

  const auto dave = f.add_player("dave");
  auto turn = mirror.sync();
  REQUIRE(named(turn, kPresenceDocument, dave));
  auto presence = mirror.body(kPresenceDocument, dave);
  CHECK(str(presence["status"]) == "online");
  CHECK(presence["activities"].Size() == 0);
  REQUIRE(presence["sessions"].Size() == 1);
  CHECK(str(presence["sessions"][0]["session_id"]) == f.p(dave).session_id);
  CHECK(str(presence["sessions"][0]["application_id"]) == f.app_id);
  CHECK(presence["sessions"][0]["connected"].GetBool());
  CHECK_FALSE(presence["desktop"].GetBool());

  // Op 3: do not disturb, playing; the secret stays with the server.
  f.service.gateway_received(
      f.p(dave).connection,
      R"({"op":3,"d":{"since":null,"afk":false,"status":"dnd","activities":[{"name":"Chess","type":0,)"
      R"("secrets":{"join":"s3cret"}}]}})",
      true);
  turn = mirror.sync();
  REQUIRE(named(turn, kPresenceDocument, dave));
  presence = mirror.body(kPresenceDocument, dave);
  CHECK(str(presence["status"]) == "dnd");
  CHECK(str(presence["shown_as"]) == "dnd");
  REQUIRE(presence["activities"].Size() == 1);
  CHECK(str(presence["activities"][0]["name"]) == "Chess");
  CHECK_FALSE(presence["activities"][0].HasMember("secrets"));

  f.service.gateway_received(
      f.p(dave).connection, R"({"op":3,"d":{"since":null,"afk":false,"status":"invisible","activities":[]}})",
      true);
  mirror.sync();
  presence = mirror.body(kPresenceDocument, dave);
  CHECK(str(presence["status"]) == "invisible");
  CHECK(str(presence["shown_as"]) == "offline");

  // A drop: the session waits for a resume (still online, not connected).
  f.call("POST", "/_emulator/gateway/drop", R"({"user_id":")" + dave + R"("})");
  turn = mirror.sync();
  REQUIRE(named(turn, kPresenceDocument, dave));
  presence = mirror.body(kPresenceDocument, dave);
  REQUIRE(presence["sessions"].Size() == 1);
  CHECK_FALSE(presence["sessions"][0]["connected"].GetBool());

  // A session that ends (closed with 1000) takes its user offline: the document is removed.
  f.call("POST", "/_emulator/gateway/close", R"({"user_id":")" + f.alice + R"(","code":1000})");
  turn = mirror.sync();
  REQUIRE(named(turn, kPresenceDocument, f.alice));
  CHECK_FALSE(turn.at({std::string(kPresenceDocument), f.alice}).has_value());
  CHECK_FALSE(mirror.has(kPresenceDocument, f.alice));
}

TEST_CASE("console: a lobby's call: who joins, connects, speaks and leaves, and its end") {
  Fixture f;
  const auto lobby_id = f.lobby({f.alice, f.bob});
  LiveMirror mirror(f.service.changes());
  CHECK_FALSE(mirror.has(kVoiceCallDocument, lobby_id));

  const auto alice_join = f.join(f.alice, lobby_id);
  auto turn = mirror.sync();
  REQUIRE(named(turn, kVoiceCallDocument, lobby_id));
  auto call = mirror.body(kVoiceCallDocument, lobby_id);
  REQUIRE(call["members"].Size() == 1);
  CHECK(str(call["members"][0]["user_id"]) == f.alice);
  CHECK_FALSE(call["members"][0]["voice_connected"].GetBool());
  CHECK(call["members"][0]["mode"].IsNull());
  CHECK_FALSE(call["e2ee"].GetBool());

  VoicePeer alice_voice;
  const auto alice_connection = f.voice(alice_voice, f.alice, alice_join);
  f.select(alice_connection, "aead_aes256_gcm_rtpsize");
  mirror.sync();
  call = mirror.body(kVoiceCallDocument, lobby_id);
  CHECK((*member_of(call, f.alice))["voice_connected"].GetBool());
  CHECK(str((*member_of(call, f.alice))["mode"]) == "aead_aes256_gcm_rtpsize");
  CHECK(call["dave_protocol_version"].GetInt() == 0);  // the fixture's calls are plain
  CHECK_FALSE(call["e2ee"].GetBool());

  const auto bob_join = f.join(f.bob, lobby_id, true);
  VoicePeer bob_voice;
  f.voice(bob_voice, f.bob, bob_join);
  mirror.sync();
  call = mirror.body(kVoiceCallDocument, lobby_id);
  REQUIRE(call["members"].Size() == 2);
  CHECK((*member_of(call, f.bob))["self_mute"].GetBool());

  // Alice speaks, then stops.
  f.send(alice_connection, R"({"op":5,"d":{"speaking":1,"delay":0}})");
  turn = mirror.sync();
  REQUIRE(named(turn, kVoiceCallDocument, lobby_id));
  call = mirror.body(kVoiceCallDocument, lobby_id);
  CHECK((*member_of(call, f.alice))["speaking"].GetBool());
  CHECK_FALSE((*member_of(call, f.bob))["speaking"].GetBool());
  f.send(alice_connection, R"({"op":5,"d":{"speaking":0,"delay":0}})");
  mirror.sync();
  CHECK_FALSE((*member_of(mirror.body(kVoiceCallDocument, lobby_id), f.alice))["speaking"].GetBool());
  // Saying the same again changes nothing.
  f.send(alice_connection, R"({"op":5,"d":{"speaking":0,"delay":0}})");
  CHECK_FALSE(named(mirror.sync(), kVoiceCallDocument, lobby_id));

  // A dropped voice connection: still in the call, not connected.
  f.call("POST", "/_emulator/voice/drop", R"({"user_id":")" + f.bob + R"("})");
  mirror.sync();
  call = mirror.body(kVoiceCallDocument, lobby_id);
  CHECK_FALSE((*member_of(call, f.bob))["voice_connected"].GetBool());

  // Bob leaves, then Alice: the call is over and its document removed.
  f.voice_state(f.bob, lobby_id, false);
  mirror.sync();
  CHECK(mirror.body(kVoiceCallDocument, lobby_id)["members"].Size() == 1);
  f.voice_state(f.alice, lobby_id, false);
  turn = mirror.sync();
  REQUIRE(named(turn, kVoiceCallDocument, lobby_id));
  CHECK_FALSE(turn.at({std::string(kVoiceCallDocument), lobby_id}).has_value());
  CHECK_FALSE(mirror.has(kVoiceCallDocument, lobby_id));
}

TEST_CASE("console: a call's end-to-end encryption follows DAVE: established group, epoch, downgrade") {
  Fixture f;
  f.settings(R"({"e2ee":"optional"})");
  const auto lobby_id = f.lobby({f.alice, f.bob});
  LiveMirror mirror(f.service.changes());
  Member a(f, f.alice);
  Member b(f, f.bob);
  a.lobby = b.lobby = lobby_id;
  a.join(lobby_id);
  b.join(lobby_id);
  settle({&a, &b});
  REQUIRE(a.established);
  REQUIRE(b.established);
  mirror.sync();
  auto call = mirror.body(kVoiceCallDocument, lobby_id);
  CHECK(call["dave_protocol_version"].GetInt() == 1);
  CHECK(call["established"].GetBool());
  CHECK(call["epoch"].GetUint64() == 1);
  CHECK(call["e2ee"].GetBool());
  CHECK((*member_of(call, f.alice))["in_e2ee_group"].GetBool());
  CHECK((*member_of(call, f.bob))["in_e2ee_group"].GetBool());

  // The platform drops the call to transport encryption only: the console shows it unencrypted at once.
  f.call("POST", "/_emulator/voice/dave", R"({"lobby_id":")" + lobby_id + R"(","action":"downgrade"})");
  const auto turn = mirror.sync();
  REQUIRE(named(turn, kVoiceCallDocument, lobby_id));
  call = mirror.body(kVoiceCallDocument, lobby_id);
  CHECK(call["dave_protocol_version"].GetInt() == 0);
  CHECK_FALSE(call["e2ee"].GetBool());
}

}  // namespace console_live_kinds_test
