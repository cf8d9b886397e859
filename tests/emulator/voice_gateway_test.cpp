// Lobby calls without sockets (docs/voice-protocol.md): the main Gateway's op 4 and LOBBY_VOICE_* dispatches,
// READY/lobby `voice_states`, and the voice gateway v8 (Identify, Ready, Select Protocol, Session
// Description, Speaking, Clients Connect/Disconnect, seq, buffered resume, heartbeats, close codes), plus the
// admin routes under /_emulator/voice.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "recording_gateway_peer.hpp"
#include "recording_voice_peer.hpp"
#include "service/emulator_service.hpp"
#include "test_support.hpp"
#include "voice_fixture.hpp"

namespace voice_gateway_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

using namespace platformpp::emulator::test::voice_fixture;

std::vector<std::string> user_ids(const rapidjson::Value& array) {
  std::vector<std::string> ids;
  for (const auto& v : array.GetArray())
    ids.push_back(str(v));
  return ids;
}

}  // namespace

// ---- main Gateway: op 4 -------------------------------------------------------------------------

TEST_CASE_FIXTURE(
    Fixture, "voice: op 4 join by a member -> state update to all members, server update to the joiner") {
  const auto lobby_id = lobby({alice, bob});
  voice_state(alice, lobby_id, true, true, false);

  for (const auto& user : {alice, bob}) {
    const auto update = p(user).gateway.only("LOBBY_VOICE_STATE_UPDATE");
    const auto& d = update["d"];
    CHECK(str(d["lobby_id"]) == lobby_id);
    CHECK(str(d["user_id"]) == alice);
    CHECK(str(d["session_id"]) == p(alice).session_id);
    CHECK(str(d["channel_id"]) == lobby_id);
    CHECK(d["self_mute"].GetBool());
    CHECK_FALSE(d["self_deaf"].GetBool());
  }
  CHECK(p(carol).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").empty());  // not a member
  const auto server = p(alice).gateway.only("LOBBY_VOICE_SERVER_UPDATE");
  CHECK(str(server["d"]["lobby_id"]) == lobby_id);
  CHECK(str(server["d"]["endpoint"]) == "127.0.0.1:1234/voice");
  CHECK(str(server["d"]["token"]).size() >= 16);
  // After the joiner's own state update.
  CHECK(server["s"].GetInt64() > p(alice).gateway.only("LOBBY_VOICE_STATE_UPDATE")["s"].GetInt64());
  CHECK(p(bob).gateway.dispatches("LOBBY_VOICE_SERVER_UPDATE").empty());

  // The same state again changes nothing; a mute/deaf change is announced.
  voice_state(alice, lobby_id, true, true, false);
  CHECK(p(bob).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").size() == 1);
  voice_state(alice, lobby_id, true, false, true);
  const auto changed = p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 1);
  CHECK_FALSE(changed["d"]["self_mute"].GetBool());
  CHECK(changed["d"]["self_deaf"].GetBool());
  CHECK(p(alice).gateway.dispatches("LOBBY_VOICE_SERVER_UPDATE").size() == 1);  // no new token for a change
}

TEST_CASE_FIXTURE(Fixture, "voice: op 4 from a non-member is ignored") {
  const auto lobby_id = lobby({alice, bob});
  voice_state(carol, lobby_id, true);
  CHECK_FALSE(p(carol).gateway.closed);
  for (const auto& user : {alice, bob, carol}) {
    CHECK(p(user).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").empty());
    CHECK(p(user).gateway.dispatches("LOBBY_VOICE_SERVER_UPDATE").empty());
  }
  const auto got = get_lobby(lobby_id);
  CHECK(got["voice_states"].Size() == 0);
  // An unknown lobby is ignored the same way.
  voice_state(alice, "123", true);
  CHECK(p(alice).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").empty());
}

TEST_CASE_FIXTURE(Fixture, "voice: op 4 leave sends channel_id null to every member") {
  const auto lobby_id = lobby({alice, bob});
  join(alice, lobby_id);
  CHECK(get_lobby(lobby_id)["voice_states"].Size() == 1);
  voice_state(alice, lobby_id, false);
  for (const auto& user : {alice, bob}) {
    const auto left = p(user).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 1);
    CHECK(str(left["d"]["user_id"]) == alice);
    CHECK(left["d"]["channel_id"].IsNull());
    CHECK(str(left["d"]["session_id"]) == p(alice).session_id);
  }
  CHECK(get_lobby(lobby_id)["voice_states"].Size() == 0);
  // Leaving when not in the call sends nothing.
  voice_state(alice, lobby_id, false);
  CHECK(p(bob).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").size() == 2);
}

TEST_CASE_FIXTURE(Fixture, "voice: a player is in the calls of two lobbies at once") {
  const auto first = lobby({alice, bob});
  const auto second = lobby({alice, carol});
  const auto a = join(alice, first);
  const auto b = join(alice, second);
  CHECK(a.token != b.token);
  CHECK(p(carol).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").size() == 1);
  CHECK(p(bob).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").size() == 1);
  VoicePeer one, two;
  voice(one, alice, a);
  voice(two, alice, b);
  CHECK(one.only(2)["d"]["ssrc"].GetUint() != two.only(2)["d"]["ssrc"].GetUint());
  CHECK(sessions().Size() == 2);

  voice_state(alice, first, false);
  CHECK(one.closed);
  CHECK(one.close_code == 4014);
  CHECK_FALSE(two.closed);
  CHECK(get_lobby(second)["voice_states"].Size() == 1);
  CHECK(get_lobby(first)["voice_states"].Size() == 0);
}

TEST_CASE_FIXTURE(Fixture, "voice: READY lobbies and lobby objects carry voice_states") {
  const auto lobby_id = lobby({alice, bob});
  join(alice, lobby_id, false, true);
  Player late;
  late.user_id = bob;
  connect(late);
  const auto ready = late.gateway.only("READY");
  REQUIRE(ready["d"]["lobbies"].Size() == 1);
  const auto& states = ready["d"]["lobbies"][0]["voice_states"];
  REQUIRE(states.Size() == 1);
  CHECK(str(states[0]["user_id"]) == alice);
  CHECK(str(states[0]["session_id"]) == p(alice).session_id);
  CHECK(str(states[0]["channel_id"]) == lobby_id);
  CHECK_FALSE(states[0]["self_mute"].GetBool());
  CHECK(states[0]["self_deaf"].GetBool());
  const auto got = get_lobby(lobby_id);
  CHECK(got["voice_states"].Size() == 1);
}

// ---- voice gateway: version, Hello, Identify ----------------------------------------------------

TEST_CASE("voice: the upgrade's v must be 4..8") {
  CHECK_FALSE(voice_gateway_version("/voice/").has_value());
  CHECK_FALSE(voice_gateway_version("/voice/?encoding=json").has_value());
  CHECK_FALSE(voice_gateway_version("/voice/?v=3").has_value());
  CHECK_FALSE(voice_gateway_version("/voice/?v=9").has_value());
  CHECK_FALSE(voice_gateway_version("/voice/?v=8x").has_value());
  CHECK_FALSE(voice_gateway_version("/voice/?v=").has_value());
  CHECK(voice_gateway_version("/voice/?v=4") == 4);
  CHECK(voice_gateway_version("/voice/?x=1&v=8") == 8);
  CHECK(is_voice_gateway_path("/voice"));
  CHECK(is_voice_gateway_path("/voice/"));
  CHECK_FALSE(is_voice_gateway_path("/voices"));
}

TEST_CASE_FIXTURE(Fixture, "voice: a refused upgrade is HTTP 400 with the platform's error body") {
  for (const auto* target : {"/voice/", "/voice/?v=3", "/voice?v=9"}) {
    const auto response = raw("GET", target);
    CHECK(response.status == 400);
    CHECK(parse(response.body)["code"].GetInt() == 50041);
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: v8 gets Hello without seq") {
  VoicePeer peer;
  open(peer, "/voice/?v=8");
  CHECK_FALSE(peer.closed);
  const auto hello = peer.only(8);
  CHECK(hello["d"]["heartbeat_interval"].GetInt64() == 13750);
  CHECK_FALSE(hello.HasMember("seq"));
}

// Versions 4 to 7 are still the platform's (only below 4 was discontinued): the same session, without what v8
// added (seq on server messages, {t, seq_ack} heartbeats, the buffered resume).
TEST_CASE_FIXTURE(Fixture, "voice: a session at each version from 4 to 7, without v8's seq and replay") {
  for (const int version : {4, 5, 6, 7}) {
    CAPTURE(version);
    const auto target = "/voice/?v=" + std::to_string(version);
    const auto lobby_id = lobby({alice, bob});
    const auto a = join(alice, lobby_id);
    const auto b = join(bob, lobby_id);
    VoicePeer pa, pb;
    const auto ia = open(pa, target);
    REQUIRE_FALSE(pa.closed);
    CHECK(pa.only(8)["d"]["heartbeat_interval"].GetInt64() == 13750);
    // The heartbeat is the nonce itself, and so is its ACK's d.
    send(ia, R"({"op":3,"d":1501184119561})");
    const auto ack = pa.only(6);
    REQUIRE(ack["d"].IsUint64());
    CHECK(ack["d"].GetUint64() == 1501184119561ULL);
    send(ia, identify_json(lobby_id, alice, p(alice).session_id, a.token));
    REQUIRE_FALSE(pa.closed);
    const auto ready = pa.only(2);
    CHECK(ready["d"]["ssrc"].GetUint() > 0);
    CHECK_FALSE(ready.HasMember("seq"));
    select(ia, "aead_xchacha20_poly1305_rtpsize");
    CHECK_FALSE(pa.only(4).HasMember("seq"));
    const auto listed = sessions();
    REQUIRE(listed.Size() == 1);
    CHECK(listed[0]["version"].GetInt() == version);

    // Bob on v8 in the same call: his messages are sequenced, alice's are not.
    const auto ib = voice(pb, bob, b);
    CHECK(pb.only(2)["seq"].GetInt64() == 1);
    CHECK(pb.only(11).HasMember("seq"));
    CHECK_FALSE(pa.only(11).HasMember("seq"));
    send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");
    CHECK_FALSE(pa.only(5).HasMember("seq"));
    CHECK(pa.last_seq() == -1);

    // A drop, then a Resume without seq_ack: Resumed, and what was said meanwhile is not re-sent.
    call("POST", "/_emulator/voice/drop", R"({"user_id":")" + alice + "\"}");
    send(ib, R"({"op":5,"d":{"speaking":0,"delay":0}})");
    VoicePeer again;
    const auto ir = open(again, target);
    send(ir, R"({"op":7,"d":{"server_id":")" + lobby_id + R"(","session_id":")" + p(alice).session_id +
                 R"(","token":")" + a.token + R"("}})");
    REQUIRE_FALSE(again.closed);
    std::vector<int> opcodes;
    for (const auto& text : again.sent)
      opcodes.push_back(parse(text)["op"].GetInt());
    CHECK(opcodes == std::vector<int>{8, 9});
    // The session goes on with the same SSRC; new messages reach it, still without seq.
    send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");
    const auto speaking = again.only(5);
    CHECK_FALSE(speaking.HasMember("seq"));
    CHECK(str(speaking["d"]["user_id"]) == bob);
    bool same_ssrc = false;
    const auto listed_now = sessions();
    for (const auto& session : listed_now.GetArray()) {
      if (str(session["user_id"]) == alice)
        same_ssrc = session["ssrc"].GetUint() == ready["d"]["ssrc"].GetUint();
    }
    CHECK(same_ssrc);

    voice_state(alice, lobby_id, false);
    voice_state(bob, lobby_id, false);
    CHECK(sessions().Size() == 0);
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: each version's heartbeat shape; the other shape is refused") {
  SUBCASE("v7: an object heartbeat is not a nonce: 4002") {
    VoicePeer peer;
    send(open(peer, "/voice/?v=7"), R"({"op":3,"d":{"t":5,"seq_ack":-1}})");
    CHECK(peer.close_code == 4002);
  }
  SUBCASE("v7: a negative nonce: 4020") {
    VoicePeer peer;
    send(open(peer, "/voice/?v=7"), R"({"op":3,"d":-5})");
    CHECK(peer.close_code == 4020);
  }
  SUBCASE("v8: a bare nonce: 4002") {
    VoicePeer peer;
    send(open(peer, "/voice/?v=8"), R"({"op":3,"d":5})");
    CHECK(peer.close_code == 4002);
  }
  SUBCASE("v8: {t, seq_ack} is acknowledged with {t}") {
    VoicePeer peer;
    send(open(peer, "/voice/?v=8"), R"({"op":3,"d":{"t":5,"seq_ack":-1}})");
    CHECK(peer.only(6)["d"]["t"].GetUint64() == 5);
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: v8 Resume still needs seq_ack; v7 ignores one sent") {
  const auto lobby_id = lobby({alice});
  const auto a = join(alice, lobby_id);
  const auto resume_without_ack = R"({"op":7,"d":{"server_id":")" + lobby_id + R"(","session_id":")" +
                                  p(alice).session_id + R"(","token":")" + a.token + R"("}})";
  SUBCASE("v8 without seq_ack: 4002") {
    VoicePeer pa;
    voice(pa, alice, a);
    call("POST", "/_emulator/voice/drop", "{}");
    VoicePeer again;
    send(open(again), resume_without_ack);
    CHECK(again.close_code == 4002);
  }
  SUBCASE("v7 with a seq_ack: resumed, nothing replayed") {
    VoicePeer pa;
    const auto id = open(pa, "/voice/?v=7");
    send(id, identify_json(lobby_id, alice, p(alice).session_id, a.token));
    REQUIRE(pa.ops(2).size() == 1);
    call("POST", "/_emulator/voice/drop", "{}");
    VoicePeer again;
    send(open(again, "/voice/?v=7"), resume_json(a, p(alice).session_id, 0));
    REQUIRE_FALSE(again.closed);
    CHECK(again.ops(2).empty());
    CHECK(again.ops(9).size() == 1);
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: Identify with a wrong token, session, user or lobby closes with 4004") {
  const auto lobby_id = lobby({alice, bob});
  const auto other = lobby({alice});
  const auto j = join(alice, lobby_id);
  struct Case {
    std::string lobby, user, session, token;
  };
  const std::vector<Case> cases = {
      {lobby_id, alice, p(alice).session_id, j.token + "x"},
      {lobby_id, alice, p(bob).session_id, j.token},
      {lobby_id, bob, p(alice).session_id, j.token},
      {other, alice, p(alice).session_id, j.token},
  };
  for (const auto& c : cases) {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, identify_json(c.lobby, c.user, c.session, c.token));
    CHECK(peer.closed);
    CHECK(peer.close_code == 4004);
  }
  VoicePeer good;
  voice(good, alice, j);  // the right one still works
}

TEST_CASE_FIXTURE(Fixture, "voice: protocol errors close with 4005, 4003, 4001, 4002 and 4020") {
  const auto lobby_id = lobby({alice});
  const auto j = join(alice, lobby_id);
  SUBCASE("a second Identify: 4005") {
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    send(id, identify_json(lobby_id, alice, p(alice).session_id, j.token));
    CHECK(peer.close_code == 4005);
  }
  SUBCASE("Select Protocol before Identify: 4003") {
    VoicePeer peer;
    const auto id = open(peer);
    select(id, "aead_xchacha20_poly1305_rtpsize");
    CHECK(peer.close_code == 4003);
  }
  SUBCASE("Speaking before Identify: 4003") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":5,"d":{"speaking":1,"delay":0,"ssrc":1}})");
    CHECK(peer.close_code == 4003);
  }
  SUBCASE("a heartbeat before Identify is fine") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":3,"d":{"t":5,"seq_ack":-1}})");
    CHECK_FALSE(peer.closed);
  }
  SUBCASE("an unknown opcode: 4001") {
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    send(id, R"({"op":12,"d":{}})");
    CHECK(peer.close_code == 4001);
  }
  SUBCASE("a server opcode from the client: 4001") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":2,"d":{}})");
    CHECK(peer.close_code == 4001);
  }
  SUBCASE("bad JSON: 4002") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":0,"d":)");
    CHECK(peer.close_code == 4002);
  }
  SUBCASE("Identify without its token: 4002") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":0,"d":{"server_id":")" + lobby_id + R"(","user_id":")" + alice + R"(","session_id":")" +
                 p(alice).session_id + R"("}})");
    CHECK(peer.close_code == 4002);
  }
  SUBCASE("a heartbeat with a non-numeric t: 4020") {
    VoicePeer peer;
    const auto id = open(peer);
    send(id, R"({"op":3,"d":{"t":"soon","seq_ack":-1}})");
    CHECK(peer.close_code == 4020);
  }
  SUBCASE("Speaking with another session's ssrc: 4020") {
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    const auto ssrc = peer.only(2)["d"]["ssrc"].GetUint();
    send(id, R"({"op":5,"d":{"speaking":1,"delay":0,"ssrc":)" + std::to_string(ssrc + 1) + "}}");
    CHECK(peer.close_code == 4020);
  }
  SUBCASE("a binary frame with an opcode only the server sends (29): 4001") {
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    service.voice_received(id, std::string("\x1d\x00", 2), false);
    CHECK(peer.close_code == 4001);
  }
  SUBCASE("an empty binary frame: 4002") {
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    service.voice_received(id, std::string(), false);
    CHECK(peer.close_code == 4002);
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: Ready's fields and the modes the settings make it offer") {
  const auto lobby_id = lobby({alice, bob});
  const auto j = join(alice, lobby_id);
  VoicePeer peer;
  voice(peer, alice, j);
  const auto ready = peer.only(2);
  CHECK(ready["seq"].GetInt64() == 1);
  const auto& d = ready["d"];
  CHECK(d["ssrc"].GetUint() != 0);
  CHECK(str(d["ip"]) == "127.0.0.1");
  CHECK(d["port"].GetInt() == 50000);
  CHECK(user_ids(d["modes"]) ==
        std::vector<std::string>{"aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"});
  CHECK(d["heartbeat_interval"].GetInt64() == 13750);

  settings(R"({"modes":["aead_xchacha20_poly1305_rtpsize"],"heartbeat_interval_ms":5000})");
  const auto k = join(bob, lobby_id);
  VoicePeer later;
  open(later);
  CHECK(later.only(8)["d"]["heartbeat_interval"].GetInt64() == 5000);
  VoicePeer bobs;
  voice(bobs, bob, k);
  CHECK(user_ids(bobs.only(2)["d"]["modes"]) == std::vector<std::string>{"aead_xchacha20_poly1305_rtpsize"});
  CHECK(bobs.only(2)["d"]["heartbeat_interval"].GetInt64() == 5000);

  const auto bad = raw("POST", "/_emulator/voice/settings", R"({"modes":[]})");
  CHECK(bad.status == 400);
  CHECK(raw("POST", "/_emulator/voice/settings", R"({"heartbeat_interval_ms":9})").status == 400);
}

// ---- Select Protocol, Session Description -------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "voice: Select Protocol with a deprecated or unoffered mode closes with 4016") {
  const auto lobby_id = lobby({alice});
  // Offered (for the test) but deprecated: still refused.
  settings(R"({"modes":["xsalsa20_poly1305","aead_aes256_gcm","aead_xchacha20_poly1305_rtpsize"]})");
  for (const auto* mode : {"xsalsa20_poly1305", "aead_aes256_gcm", "nonsense"}) {
    const auto j = join(alice, lobby_id);
    VoicePeer peer;
    const auto id = voice(peer, alice, j);
    select(id, mode);
    CHECK(peer.close_code == 4016);
  }
  // Supported but not offered.
  const auto j = join(alice, lobby_id);
  VoicePeer peer;
  const auto id = voice(peer, alice, j);
  select(id, "aead_aes256_gcm_rtpsize");
  CHECK(peer.close_code == 4016);
  CHECK(peer.ops(4).empty());
}

TEST_CASE_FIXTURE(Fixture, "voice: Session Description carries a fresh 32-byte key per session") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  const auto ia = voice(pa, alice, a);
  const auto ib = voice(pb, bob, b);
  select(ia, "aead_aes256_gcm_rtpsize", 40001);
  select(ib, "aead_xchacha20_poly1305_rtpsize", 40002);
  REQUIRE_FALSE(pa.closed);
  const auto da = pa.only(4);
  const auto db = pb.only(4);
  CHECK(str(da["d"]["mode"]) == "aead_aes256_gcm_rtpsize");
  CHECK(str(db["d"]["mode"]) == "aead_xchacha20_poly1305_rtpsize");
  CHECK(da["d"]["dave_protocol_version"].GetInt() == 0);
  REQUIRE(da["d"]["secret_key"].Size() == 32);
  REQUIRE(db["d"]["secret_key"].Size() == 32);
  bool differ = false;
  for (rapidjson::SizeType i = 0; i < 32; ++i) {
    CHECK(da["d"]["secret_key"][i].GetUint() <= 255);
    differ = differ || da["d"]["secret_key"][i].GetUint() != db["d"]["secret_key"][i].GetUint();
  }
  CHECK(differ);

  const auto list = sessions();
  REQUIRE(list.Size() == 2);
  for (const auto& s : list.GetArray()) {
    const bool is_alice = str(s["user_id"]) == alice;
    CHECK(str(s["lobby_id"]) == lobby_id);
    CHECK(str(s["session_id"]) == (is_alice ? p(alice).session_id : p(bob).session_id));
    CHECK(str(s["mode"]) == (is_alice ? "aead_aes256_gcm_rtpsize" : "aead_xchacha20_poly1305_rtpsize"));
    CHECK(str(s["media_address"]) == (is_alice ? "127.0.0.1:40001" : "127.0.0.1:40002"));
    CHECK(s["connected"].GetBool());
    CHECK(s["ssrc"].GetUint() == (is_alice ? pa : pb).only(2)["d"]["ssrc"].GetUint());
    CHECK(s["packets_received"].GetUint64() == 0);
    CHECK(s.HasMember("packets_forwarded"));
    CHECK(s.HasMember("packets_rejected"));
  }
}

namespace {

// Records the forwarding unit's outgoing datagrams by receiver port.
struct RecordingSink final : MediaSink {
  void send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t>, std::int64_t) override {
    ++sent[to.port];
  }
  std::map<std::uint16_t, int> sent;
};

std::vector<std::uint8_t> key_of(const rapidjson::Document& description) {
  std::vector<std::uint8_t> key;
  for (const auto& byte : description["d"]["secret_key"].GetArray())
    key.push_back(static_cast<std::uint8_t>(byte.GetUint()));
  return key;
}

}  // namespace

TEST_CASE_FIXTURE(Fixture,
                  "voice: self_deaf reaches the forwarding unit: a deafened receiver gets no media") {
  RecordingSink sink;
  service.forwarding_unit().set_sink(&sink);
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  const auto ia = voice(pa, alice, a);
  const auto ib = voice(pb, bob, b);
  select(ia, "aead_xchacha20_poly1305_rtpsize", 40001);
  select(ib, "aead_xchacha20_poly1305_rtpsize", 40002);
  const auto key = key_of(pa.only(4));
  platformpp::media_wire::TransportKey transport_key{};
  std::copy(key.begin(), key.end(), transport_key.begin());
  platformpp::media_wire::TransportSealer sealer(
      platformpp::media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, transport_key);
  const auto ssrc = pa.only(2)["d"]["ssrc"].GetUint();
  std::uint16_t sequence = 0;
  // One sealed Opus-sized RTP packet from alice's media address.
  const auto speak = [&] {
    std::vector<std::uint8_t> rtp = {0x80,
                                     0x78,
                                     static_cast<std::uint8_t>(sequence >> 8),
                                     static_cast<std::uint8_t>(sequence & 0xff),
                                     0,
                                     0,
                                     0,
                                     0,
                                     static_cast<std::uint8_t>(ssrc >> 24),
                                     static_cast<std::uint8_t>(ssrc >> 16),
                                     static_cast<std::uint8_t>(ssrc >> 8),
                                     static_cast<std::uint8_t>(ssrc)};
    ++sequence;
    rtp.insert(rtp.end(), 40, 0x55);
    std::vector<std::uint8_t> sealed(rtp.size() + platformpp::media_wire::kTransportOverhead);
    REQUIRE(sealer.Seal(rtp, sealed) == sealed.size());
    service.forwarding_unit().on_datagram(MediaEndpoint{"127.0.0.1", 40001}, sealed);
  };
  speak();
  CHECK(sink.sent[40002] == 1);
  voice_state(bob, lobby_id, true, false, true);  // bob deafens himself
  speak();
  CHECK(sink.sent[40002] == 1);
  voice_state(bob, lobby_id, true, false, false);
  speak();
  CHECK(sink.sent[40002] == 2);
  CHECK(sink.sent[40001] == 0);  // never to the sender
  (void)ib;
  service.forwarding_unit().set_sink(nullptr);
}

// ---- Speaking, Clients Connect / Disconnect -----------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "voice: Speaking is relayed with user_id and replayed to a late joiner") {
  const auto lobby_id = lobby({alice, bob, carol});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  const auto c = join(carol, lobby_id);
  VoicePeer pa, pb, pc;
  const auto ia = voice(pa, alice, a);
  CHECK(pa.ops(11).empty());  // alone in the call
  const auto ib = voice(pb, bob, b);
  CHECK(user_ids(pb.only(11)["d"]["user_ids"]) == std::vector<std::string>{alice});
  CHECK(user_ids(pa.only(11)["d"]["user_ids"]) == std::vector<std::string>{bob});

  const auto ssrc_a = pa.only(2)["d"]["ssrc"].GetUint();
  send(ia, R"({"op":5,"d":{"speaking":1,"delay":0,"ssrc":)" + std::to_string(ssrc_a) + "}}");
  CHECK(pa.ops(5).empty());  // not echoed to the speaker
  const auto relayed = pb.only(5);
  CHECK(str(relayed["d"]["user_id"]) == alice);
  CHECK(relayed["d"]["ssrc"].GetUint() == ssrc_a);
  CHECK(relayed["d"]["speaking"].GetInt() == 1);
  send(ia, R"({"op":5,"d":{"speaking":5,"delay":0,"ssrc":)" + std::to_string(ssrc_a) + "}}");
  CHECK(pb.ops(5).size() == 2);

  // carol joins late: Clients Connect lists both, then alice's last Speaking (bob never spoke).
  voice(pc, carol, c);
  auto connected = user_ids(pc.only(11)["d"]["user_ids"]);
  std::sort(connected.begin(), connected.end());
  auto expected = std::vector<std::string>{alice, bob};
  std::sort(expected.begin(), expected.end());
  CHECK(connected == expected);
  const auto replay = pc.only(5);
  CHECK(str(replay["d"]["user_id"]) == alice);
  CHECK(replay["d"]["speaking"].GetInt() == 5);
  CHECK(replay["seq"].GetInt64() > pc.only(11)["seq"].GetInt64());

  // bob's session ends: the others get Client Disconnect.
  voice_state(bob, lobby_id, false);
  CHECK(pb.close_code == 4014);
  CHECK(str(pa.only(13)["d"]["user_id"]) == bob);
  CHECK(str(pc.only(13)["d"]["user_id"]) == bob);
  (void)ib;
}

TEST_CASE_FIXTURE(Fixture, "voice: seq on every server message but 6, 8 and 9") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  const auto ia = voice(pa, alice, a);
  send(ia, R"({"op":3,"d":{"t":1,"seq_ack":1}})");
  select(ia, "aead_xchacha20_poly1305_rtpsize");
  const auto ib = voice(pb, bob, b);
  send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");
  call("POST", "/_emulator/voice/drop", R"({"user_id":")" + alice + "\"}");
  VoicePeer again;
  const auto ir = open(again);
  send(ir, resume_json(a, p(alice).session_id, 2));
  REQUIRE_FALSE(again.closed);

  // Hello, Ready 1, ACK, Session Description 2, Clients Connect 3, Speaking 4; then Hello, 3, 4, Resumed.
  const auto seqs_of = [](const VoicePeer& peer) {
    std::vector<std::int64_t> seqs;
    std::vector<int> unsequenced;
    for (const auto& text : peer.sent) {
      const auto message = parse(text);
      if (message.HasMember("seq")) {
        seqs.push_back(message["seq"].GetInt64());
      } else {
        unsequenced.push_back(message["op"].GetInt());
      }
    }
    return std::make_pair(seqs, unsequenced);
  };
  const auto first = seqs_of(pa);
  CHECK(first.first == std::vector<std::int64_t>{1, 2, 3, 4});
  CHECK(first.second == std::vector<int>{8, 6});
  const auto second = seqs_of(again);
  CHECK(second.first == std::vector<std::int64_t>{3, 4});
  CHECK(second.second == std::vector<int>{8, 9});
}

// ---- resume and heartbeats ----------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "voice: Resume replays exactly the messages after seq_ack, then op 9") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  voice(pa, alice, a);
  const auto ib = voice(pb, bob, b);
  CHECK(pa.last_seq() == 2);  // Ready, Clients Connect
  call("POST", "/_emulator/voice/drop", R"({"user_id":")" + alice + "\"}");
  CHECK(pa.dropped);
  // Still in the call while resumable: what happens meanwhile is kept for alice.
  send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");
  send(ib, R"({"op":5,"d":{"speaking":0,"delay":0}})");
  CHECK(sessions().Size() == 2);

  VoicePeer resumed;
  const auto id = open(resumed);
  send(id, resume_json(a, p(alice).session_id, 1));
  REQUIRE_FALSE(resumed.closed);
  std::vector<std::int64_t> seqs;
  std::vector<int> opcodes;
  for (const auto& text : resumed.sent) {
    const auto message = parse(text);
    opcodes.push_back(message["op"].GetInt());
    if (message.HasMember("seq")) seqs.push_back(message["seq"].GetInt64());
  }
  CHECK(opcodes == std::vector<int>{8, 11, 5, 5, 9});
  CHECK(seqs == std::vector<std::int64_t>{2, 3, 4});
  // The session goes on: the same SSRC, new messages on the new connection.
  send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");
  CHECK(resumed.ops(5).size() == 3);
  CHECK(resumed.ops(5).back()["seq"].GetInt64() == 5);
}

TEST_CASE_FIXTURE(Fixture, "voice: Resume fails with 4006 when a needed message is no longer kept") {
  settings(R"({"buffer_size":2})");
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  voice(pa, alice, a);
  const auto ib = voice(pb, bob, b);
  call("POST", "/_emulator/voice/drop", R"({"user_id":")" + alice + "\"}");
  send(ib, R"({"op":5,"d":{"speaking":1,"delay":0}})");  // seq 3; kept now: 2, 3
  SUBCASE("seq_ack one before the oldest kept still resumes") {
    VoicePeer ok;
    const auto id = open(ok);
    send(id, resume_json(a, p(alice).session_id, 1));
    CHECK_FALSE(ok.closed);
    CHECK(ok.ops(9).size() == 1);
  }
  SUBCASE("one more missing message fails and ends the call") {
    VoicePeer late;
    const auto id = open(late);
    send(id, resume_json(a, p(alice).session_id, 0));
    CHECK(late.close_code == 4006);
    CHECK(sessions().Size() == 1);
    CHECK(str(pb.only(13)["d"]["user_id"]) == alice);
    CHECK(p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 2)["d"]["channel_id"].IsNull());
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: Resume after the resume window fails with 4006") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  VoicePeer pa;
  voice(pa, alice, a);
  SUBCASE("within the window") {
    settings(R"({"resume_window_ms":60000})");
    call("POST", "/_emulator/voice/drop", "{}");
    service.voice_tick();
    VoicePeer again;
    send(open(again), resume_json(a, p(alice).session_id, 1));
    CHECK_FALSE(again.closed);
  }
  SUBCASE("past the window") {
    ManualSteadyTime time;
    settings(R"({"resume_window_ms":0})");
    call("POST", "/_emulator/voice/drop", "{}");
    service.voice_tick();
    CHECK(sessions().Size() == 1);  // at the window's end: still resumable
    time.advance(1);
    service.voice_tick();
    CHECK(sessions().Size() == 0);
    // The user left the call with it.
    CHECK(p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 1)["d"]["channel_id"].IsNull());
    VoicePeer again;
    send(open(again), resume_json(a, p(alice).session_id, 1));
    CHECK(again.close_code == 4006);
  }
}

TEST_CASE_FIXTURE(Fixture,
                  "voice: a heartbeat's ACK echoes t; no heartbeat for 2 intervals closes with 4009") {
  ManualSteadyTime time;
  settings(R"({"heartbeat_interval_ms":200})");
  VoicePeer peer;
  const auto id = open(peer);
  send(id, R"({"op":3,"d":{"t":18446744073709551615,"seq_ack":-1}})");
  const auto ack = peer.only(6);
  CHECK(ack["d"]["t"].GetUint64() == 18446744073709551615ULL);
  CHECK_FALSE(ack.HasMember("seq"));
  // Exactly 2 intervals after the heartbeat: still alive.
  time.advance(400);
  service.voice_tick();
  CHECK_FALSE(peer.closed);
  // One millisecond past them.
  time.advance(1);
  service.voice_tick();
  CHECK(peer.close_code == 4009);
}

// ---- the end of a voice state -------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "voice: leaving or losing the lobby ends the voice state (4014 + op 13)") {
  const auto lobby_id = secret_lobby("room", {alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  voice(pa, alice, a);
  voice(pb, bob, b);
  SUBCASE("alice leaves the lobby") {
    const auto left = as(alice, "DELETE", "/lobbies/" + lobby_id + "/members/@me");
    CHECK(left.status == 204);
    CHECK(pa.close_code == 4014);
    CHECK(str(pb.only(13)["d"]["user_id"]) == alice);
    const auto update = p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 2);
    CHECK(str(update["d"]["user_id"]) == alice);
    CHECK(update["d"]["channel_id"].IsNull());
    // alice hears it too, before her LOBBY_DELETE.
    const auto own = p(alice).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 2);
    CHECK(own["d"]["channel_id"].IsNull());
    CHECK(own["s"].GetInt64() < p(alice).gateway.only("LOBBY_DELETE")["s"].GetInt64());
    CHECK(sessions().Size() == 1);
  }
  SUBCASE("the backend removes alice") {
    CHECK(
        raw("DELETE", "/api/v10/lobbies/" + lobby_id + "/members/" + alice, {}, "Bot " + bot_token).status ==
        204);
    CHECK(pa.close_code == 4014);
    CHECK_FALSE(pb.closed);
  }
  SUBCASE("the lobby is deleted") {
    CHECK(raw("DELETE", "/api/v10/lobbies/" + lobby_id, {}, "Bot " + bot_token).status == 204);
    CHECK(pa.close_code == 4014);
    CHECK(pb.close_code == 4014);
    CHECK(sessions().Size() == 0);
    CHECK(p(alice).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE").size() == 4);
  }
  SUBCASE("alice's Gateway session ends") {
    call("POST", "/_emulator/gateway/close", R"({"user_id":")" + alice + R"(","code":1000})");
    CHECK(pa.close_code == 4014);
    CHECK(str(pb.only(13)["d"]["user_id"]) == alice);
    CHECK(p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 2)["d"]["channel_id"].IsNull());
  }
}

TEST_CASE_FIXTURE(Fixture, "voice: a join from another Gateway session moves the call there") {
  const auto lobby_id = lobby({alice, bob});
  const auto first = join(alice, lobby_id);
  VoicePeer old;
  voice(old, alice, first);
  Player second;
  second.user_id = alice;
  connect(second);
  service.gateway_received(second.connection,
                           R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":")" + lobby_id +
                               R"(","self_mute":false,"self_deaf":false}})",
                           true);
  CHECK(old.close_code == 4014);
  // bob sees the old join end, then the new one.
  const auto ended = p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 1);
  CHECK(ended["d"]["channel_id"].IsNull());
  CHECK(str(ended["d"]["session_id"]) == p(alice).session_id);
  const auto moved = p(bob).gateway.nth("LOBBY_VOICE_STATE_UPDATE", 2);
  CHECK(str(moved["d"]["session_id"]) == second.session_id);
  const auto token = str(second.gateway.only("LOBBY_VOICE_SERVER_UPDATE")["d"]["token"]);
  CHECK(token != first.token);
  // The old join's credentials no longer identify.
  VoicePeer stale;
  send(open(stale), identify_json(lobby_id, alice, p(alice).session_id, first.token));
  CHECK(stale.close_code == 4004);
}

TEST_CASE_FIXTURE(Fixture,
                  "voice: a moved call's old session ending tells the others nothing (the user stays)") {
  // The soak's "call left unencrypted": the others heard op 13 for a user who was in the call on its new
  // session, forgot it (SSRC, DAVE's list of the call's users) and refused to commit its Add.
  ManualSteadyTime time;
  settings(R"({"resume_window_ms":0})");
  const auto lobby_id = secret_lobby("moving", {alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer old, pb;
  const auto io = voice(old, alice, a);
  voice(pb, bob, b);
  call("POST", "/_emulator/voice/move", R"({"user_id":")" + alice + "\"}");
  const auto updates = p(alice).gateway.dispatches("LOBBY_VOICE_SERVER_UPDATE");
  const auto& update = updates.back();
  const Join moved{lobby_id, str(update["d"]["token"]), str(update["d"]["endpoint"])};
  REQUIRE(moved.token != a.token);
  VoicePeer fresh;
  voice(fresh, alice, moved);
  REQUIRE(pb.ops(11).size() == 2);  // at bob's Identify (alice), then alice's new session
  // The client leaves the old session for the new server (its normal close): it ends when its resume window
  // is over.
  service.voice_disconnected(io, 1000);
  time.advance(1);
  service.voice_tick();
  CHECK(sessions().Size() == 2);  // alice's new session and bob's
  CHECK_FALSE(fresh.closed);
  CHECK(pb.ops(13).empty());
  // Her voice state is the new session's: bob saw no leave.
  for (const auto& dispatch : p(bob).gateway.dispatches("LOBBY_VOICE_STATE_UPDATE"))
    CHECK_FALSE(dispatch["d"]["channel_id"].IsNull());

  // When she leaves for good, bob hears it once.
  const auto left = as(alice, "DELETE", "/lobbies/" + lobby_id + "/members/@me");
  CHECK(left.status == 204);
  CHECK(pb.ops(13).size() == 1);
}

TEST_CASE_FIXTURE(Fixture, "voice: a second Identify for the same join replaces the voice session") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer first, pb;
  voice(first, alice, a);
  voice(pb, bob, b);
  VoicePeer second;
  voice(second, alice, a);
  CHECK(first.close_code == 4006);
  CHECK(str(pb.only(13)["d"]["user_id"]) == alice);
  REQUIRE(pb.ops(11).size() == 2);  // at bob's Identify, then alice again
  CHECK(user_ids(pb.ops(11).back()["d"]["user_ids"]) == std::vector<std::string>{alice});
  CHECK(pb.ops(11).back()["seq"].GetInt64() > pb.only(13)["seq"].GetInt64());
  CHECK(user_ids(second.only(11)["d"]["user_ids"]) == std::vector<std::string>{bob});
  CHECK(sessions().Size() == 2);
  // Resume needs the join's token.
  call("POST", "/_emulator/voice/drop", R"({"user_id":")" + alice + "\"}");
  Join wrong = a;
  wrong.token += "x";
  VoicePeer bad;
  send(open(bad), resume_json(wrong, p(alice).session_id, 0));
  CHECK(bad.close_code == 4004);
}

TEST_CASE_FIXTURE(Fixture,
                  "voice: a malformed op 4 closes the main Gateway with 4002; guild voice is ignored") {
  const auto lobby_id = lobby({alice});
  service.gateway_received(p(alice).connection, R"({"op":4,"d":{"guild_id":"1","channel_id":null}})", true);
  CHECK_FALSE(p(alice).gateway.closed);
  service.gateway_received(
      p(alice).connection,
      R"({"op":4,"d":{"lobby_id":")" + lobby_id + R"(","channel_id":5,"self_mute":false}})", true);
  CHECK(p(alice).gateway.close_code == 4002);
}

// ---- admin --------------------------------------------------------------------------------------

TEST_CASE_FIXTURE(Fixture, "voice: admin close with a code; 4015 keeps the session resumable, 4014 ends it") {
  const auto lobby_id = lobby({alice, bob});
  const auto a = join(alice, lobby_id);
  const auto b = join(bob, lobby_id);
  VoicePeer pa, pb;
  voice(pa, alice, a);
  voice(pb, bob, b);
  auto closed =
      parse(call("POST", "/_emulator/voice/close", R"({"user_id":")" + alice + R"(","code":4015})").body);
  CHECK(closed["connections"].GetInt() == 1);
  CHECK(pa.close_code == 4015);
  CHECK_FALSE(pb.closed);
  CHECK(sessions().Size() == 2);
  VoicePeer again;
  send(open(again), resume_json(a, p(alice).session_id, pa.last_seq()));
  CHECK(again.ops(9).size() == 1);

  closed = parse(call("POST", "/_emulator/voice/close", R"({"code":4014})").body);
  CHECK(closed["connections"].GetInt() == 2);
  CHECK(again.close_code == 4014);
  CHECK(pb.close_code == 4014);
  CHECK(sessions().Size() == 0);
  CHECK(raw("POST", "/_emulator/voice/close", R"({"code":999})").status == 400);
}

}  // namespace voice_gateway_test
