// Voice gateway v8 payloads without sockets (docs/voice-protocol.md "Voice gateway (v8)"): every server op
// parsed, malformed input refused without throwing, the client messages built, the mode choice.
#include "voice/voice_gateway_payload.hpp"
#include "json/json.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace voice_gateway_payload_test {

using namespace platformpp;
using namespace platformpp::voice;

namespace {

std::string KeyJson(int count, int value = 7, int badIndex = -1, const char* badValue = "256") {
  std::string out = "[";
  for (int i = 0; i < count; ++i) {
    if (i) out += ',';
    out += i == badIndex ? std::string(badValue) : std::to_string((value + i) % 256);
  }
  return out + "]";
}

std::string Description(const std::string& key, const std::string& mode = "aead_aes256_gcm_rtpsize") {
  return R"({"op":4,"seq":3,"d":{"mode":")" + mode + R"(","secret_key":)" + key +
         R"(,"dave_protocol_version":0}})";
}

json::Document ParseJson(const std::string& text) {
  json::Document doc;
  REQUIRE(json::Parse(text, doc));
  return doc;
}

}  // namespace

TEST_CASE("voice Hello: heartbeat_interval as an integer or a float; missing, zero or huge is malformed") {
  VoiceServerMessage hello = ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":13750}})");
  REQUIRE(hello.As<VoiceHello>());
  CHECK(hello.op == 8);
  CHECK_FALSE(hello.seq);
  CHECK(hello.As<VoiceHello>()->heartbeatIntervalMs == 13750);
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":41250.0}})")
            .As<VoiceHello>()
            ->heartbeatIntervalMs == 41250);
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":1}})").As<VoiceHello>());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":0}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":-5}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":3600000}})").As<VoiceHello>());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":3600001}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{"heartbeat_interval":"13750"}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":8,"d":{}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":8})").Malformed());
}

TEST_CASE("voice Ready: ssrc, ip, port and every offered mode") {
  VoiceServerMessage message = ParseVoiceServerText(
      R"({"op":2,"seq":1,"d":{"ssrc":4294967295,"ip":"127.0.0.1","port":50001,)"
      R"("modes":["aead_aes256_gcm_rtpsize","xsalsa20_poly1305","aead_xchacha20_poly1305_rtpsize"],)"
      R"("heartbeat_interval":13750}})");
  const VoiceReady* ready = message.As<VoiceReady>();
  REQUIRE(ready);
  CHECK(message.seq == 1);
  CHECK(ready->ssrc == 4294967295u);
  CHECK(ready->ip == "127.0.0.1");
  CHECK(ready->port == 50001);
  CHECK(ready->modes == std::vector<std::string>{"aead_aes256_gcm_rtpsize", "xsalsa20_poly1305",
                                                 "aead_xchacha20_poly1305_rtpsize"});
  CHECK(ready->heartbeatIntervalMs == 13750);

  auto ready_with = [](const std::string& ssrc, const std::string& ip, const std::string& port,
                       const std::string& modes) {
    return ParseVoiceServerText(R"({"op":2,"seq":1,"d":{"ssrc":)" + ssrc + R"(,"ip":)" + ip + R"(,"port":)" +
                                port + R"(,"modes":)" + modes + "}}");
  };
  const std::string ip = R"("127.0.0.1")";
  const std::string modes = R"(["aead_xchacha20_poly1305_rtpsize"])";
  CHECK(ready_with("1", ip, "65535", modes).As<VoiceReady>());
  CHECK(ready_with("1", ip, "65536", modes).Malformed());
  CHECK(ready_with("1", ip, "0", modes).Malformed());
  CHECK(ready_with("4294967296", ip, "1", modes).Malformed());
  CHECK(ready_with("-1", ip, "1", modes).Malformed());
  CHECK(ready_with("1", R"("")", "1", modes).Malformed());
  CHECK(ready_with("1", "7", "1", modes).Malformed());
  CHECK(ready_with("1", ip, "1", "[1]").Malformed());
  CHECK(ready_with("1", ip, "1", R"("aead_aes256_gcm_rtpsize")").Malformed());
  CHECK(ready_with("1", ip, "1", "[]").As<VoiceReady>());  // parsed; the connection then finds no mode
  // Malformed with a readable envelope still reports its seq, so it is acknowledged.
  CHECK(ready_with("1", ip, "0", modes).seq == 1);
}

TEST_CASE("voice Session Description: exactly 32 key bytes in 0..255") {
  VoiceServerMessage message = ParseVoiceServerText(Description(KeyJson(32)));
  const VoiceSessionDescription* description = message.As<VoiceSessionDescription>();
  REQUIRE(description);
  CHECK(message.seq == 3);
  CHECK(description->mode == "aead_aes256_gcm_rtpsize");
  CHECK(description->parsedMode == media_wire::TransportMode::AeadAes256GcmRtpsize);
  CHECK(description->daveProtocolVersion == 0);
  for (std::size_t i = 0; i < media_wire::kTransportKeySize; ++i)
    CHECK(description->secretKey[i] == (7 + i) % 256);

  CHECK(ParseVoiceServerText(Description(KeyJson(31))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(33))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(0))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "255"))).As<VoiceSessionDescription>());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "256"))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "-1"))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "1.5"))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "\"1\""))).Malformed());
  CHECK(ParseVoiceServerText(Description(KeyJson(32, 0, 5, "null"))).Malformed());
  CHECK(ParseVoiceServerText(R"({"op":4,"d":{"mode":"aead_aes256_gcm_rtpsize","secret_key":"abc"}})")
            .Malformed());
  CHECK(ParseVoiceServerText(R"({"op":4,"d":{"secret_key":)" + KeyJson(32) + "}}").Malformed());
  // A deprecated or unknown mode is read, but not as a supported one.
  VoiceServerMessage deprecated = ParseVoiceServerText(Description(KeyJson(32), "xsalsa20_poly1305"));
  REQUIRE(deprecated.As<VoiceSessionDescription>());
  CHECK_FALSE(deprecated.As<VoiceSessionDescription>()->parsedMode);
}

TEST_CASE("voice Speaking, Clients Connect, Client Disconnect, Heartbeat ACK, Resumed, unknown ops") {
  VoiceServerMessage speaking =
      ParseVoiceServerText(R"({"op":5,"seq":4,"d":{"user_id":"123456789012345678","ssrc":77,"speaking":5}})");
  REQUIRE(speaking.As<VoiceSpeaking>());
  CHECK(speaking.As<VoiceSpeaking>()->userId == 123456789012345678u);
  CHECK(speaking.As<VoiceSpeaking>()->ssrc == 77);
  CHECK(speaking.As<VoiceSpeaking>()->speaking == 5);
  CHECK(ParseVoiceServerText(R"({"op":5,"d":{"user_id":"x","ssrc":77,"speaking":1}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":5,"d":{"user_id":"1","speaking":1}})").Malformed());

  VoiceServerMessage connect = ParseVoiceServerText(R"({"op":11,"seq":5,"d":{"user_ids":["1","22",333]}})");
  REQUIRE(connect.As<VoiceClientsConnect>());
  CHECK(connect.As<VoiceClientsConnect>()->userIds == std::vector<uint64_t>{1, 22, 333});
  CHECK(ParseVoiceServerText(R"({"op":11,"d":{"user_ids":["1",""]}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":11,"d":{"user_ids":["1","2x"]}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":11,"d":{"user_ids":"1"}})").Malformed());

  VoiceServerMessage disconnect = ParseVoiceServerText(R"({"op":13,"seq":6,"d":{"user_id":"42"}})");
  REQUIRE(disconnect.As<VoiceClientDisconnect>());
  CHECK(disconnect.As<VoiceClientDisconnect>()->userId == 42);
  CHECK(ParseVoiceServerText(R"({"op":13,"d":{}})").Malformed());

  VoiceServerMessage ack = ParseVoiceServerText(R"({"op":6,"d":{"t":1700000000123}})");
  REQUIRE(ack.As<VoiceHeartbeatAck>());
  CHECK(ack.As<VoiceHeartbeatAck>()->t == 1700000000123u);
  CHECK(ParseVoiceServerText(R"({"op":6,"d":99})").As<VoiceHeartbeatAck>()->t == 99u);
  CHECK_FALSE(ParseVoiceServerText(R"({"op":6,"d":null})").As<VoiceHeartbeatAck>()->t);

  VoiceServerMessage resumed = ParseVoiceServerText(R"({"op":9,"d":null})");
  CHECK(resumed.As<VoiceResumed>());
  CHECK_FALSE(resumed.seq);

  VoiceServerMessage unknown = ParseVoiceServerText(R"({"op":40,"seq":9,"d":{"protocol_version":0}})");
  REQUIRE(unknown.As<VoiceUnknown>());
  CHECK(unknown.op == 40);
  CHECK(unknown.seq == 9);
  CHECK(unknown.As<VoiceUnknown>()->dJson == R"({"protocol_version":0})");
  CHECK(ParseVoiceServerText(R"({"op":12})").As<VoiceUnknown>()->dJson == "null");
}

TEST_CASE("voice DAVE JSON ops 21, 22, 24: typed, with transition ids within u16") {
  const auto prepare =
      ParseVoiceServerText(R"({"op":21,"seq":9,"d":{"protocol_version":0,"transition_id":10}})");
  REQUIRE(prepare.As<VoiceDavePrepareTransition>());
  CHECK(prepare.As<VoiceDavePrepareTransition>()->transitionId == 10);
  CHECK(prepare.As<VoiceDavePrepareTransition>()->protocolVersion == 0);
  CHECK(prepare.seq == 9);
  CHECK(ParseVoiceServerText(R"({"op":21,"d":{"protocol_version":0}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":21,"d":{"protocol_version":-1,"transition_id":1}})").Malformed());

  const auto execute = ParseVoiceServerText(R"({"op":22,"d":{"transition_id":65535}})");
  REQUIRE(execute.As<VoiceDaveExecuteTransition>());
  CHECK(execute.As<VoiceDaveExecuteTransition>()->transitionId == 65535);
  CHECK(ParseVoiceServerText(R"({"op":22,"d":{"transition_id":65536}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":22,"d":{"transition_id":"3"}})").Malformed());
  CHECK(ParseVoiceServerText(R"({"op":22,"d":null})").Malformed());

  const auto epoch = ParseVoiceServerText(R"({"op":24,"d":{"protocol_version":1,"epoch":1}})");
  REQUIRE(epoch.As<VoiceDavePrepareEpoch>());
  CHECK(epoch.As<VoiceDavePrepareEpoch>()->epoch == 1);
  CHECK(epoch.As<VoiceDavePrepareEpoch>()->protocolVersion == 1);
  CHECK(ParseVoiceServerText(R"({"op":24,"d":{"protocol_version":1}})").Malformed());

  json::Document ready = ParseJson(BuildVoiceDaveReadyForTransition(10));
  CHECK(json::GetInt(ready, "op") == 23);
  CHECK(json::GetInt(ready["d"], "transition_id") == 10);
  json::Document invalid = ParseJson(BuildVoiceDaveInvalidCommitWelcome(32));
  CHECK(json::GetInt(invalid, "op") == 31);
  CHECK(json::GetInt(invalid["d"], "transition_id") == 32);
  const std::vector<uint8_t> payload = {7, 8};
  CHECK(BuildVoiceBinary(26, payload) == std::vector<uint8_t>{26, 7, 8});
}

TEST_CASE("malformed voice envelopes never throw") {
  for (const char* text :
       {"", "null", "[]", "{}", "{\"op\":\"2\"}", "{\"op\":2.5}", "{\"op\":4294967296}",
        "{\"op\":2,\"seq\":-1}", "{\"op\":2,\"seq\":\"1\"}", "{\"op\":2,\"seq\":1.5}", "{\"op\":8",
        "{\"op\":8,\"d\":{}}garbage", "\xff\xfe", "[[[[[[[[[[[[[[[[[[[[[[[["}) {
    CAPTURE(text);
    CHECK(ParseVoiceServerText(text).Malformed());
  }
  std::string withNul = R"({"op":9,"d":null})";
  withNul.insert(5, 1, '\0');
  CHECK(ParseVoiceServerText(withNul).Malformed());
  // seq null is no seq.
  VoiceServerMessage noSeq = ParseVoiceServerText(R"({"op":9,"seq":null,"d":null})");
  CHECK(noSeq.As<VoiceResumed>());
  CHECK_FALSE(noSeq.seq);
}

TEST_CASE("voice binary frames: u16 BE seq, u8 op, payload; shorter than 3 bytes is malformed") {
  const std::vector<uint8_t> frame = {0x01, 0x02, 25, 0xAA, 0xBB};
  VoiceServerMessage message = ParseVoiceServerBinary(frame);
  REQUIRE(message.As<VoiceBinary>());
  CHECK(message.seq == 0x0102);
  CHECK(message.op == 25);
  CHECK(message.As<VoiceBinary>()->payload == std::vector<uint8_t>{0xAA, 0xBB});
  const std::vector<uint8_t> header = {0xFF, 0xFF, 30};
  VoiceServerMessage empty = ParseVoiceServerBinary(header);
  REQUIRE(empty.As<VoiceBinary>());
  CHECK(empty.seq == 65535);
  CHECK(empty.As<VoiceBinary>()->payload.empty());
  const std::vector<uint8_t> runt = {0x00, 0x01};
  CHECK(ParseVoiceServerBinary(runt).Malformed());
  CHECK(ParseVoiceServerBinary({}).Malformed());
}

TEST_CASE("seq_ack is the highest seq, text and binary on one counter; duplicates refused") {
  VoiceSeqTracker seq;
  CHECK(seq.Last() == -1);
  CHECK(seq.Accept(1));
  CHECK(seq.Accept(2));
  CHECK_FALSE(seq.Accept(2));
  CHECK_FALSE(seq.Accept(1));
  CHECK(seq.Last() == 2);
  CHECK(seq.AcceptBinary(3));
  CHECK(seq.Last() == 3);
  CHECK_FALSE(seq.AcceptBinary(3));
  // Past 65535 the binary header wraps; the tracker keeps counting.
  VoiceSeqTracker high;
  CHECK(high.Accept(65534));
  CHECK(high.AcceptBinary(65535));
  CHECK(high.AcceptBinary(0));
  CHECK(high.Last() == 65536);
  CHECK(high.Accept(65537));
  CHECK(high.AcceptBinary(2));
  CHECK(high.Last() == 65538);
}

TEST_CASE("voice client messages: Identify, Select Protocol, Heartbeat, Resume, Speaking") {
  json::Document identify = ParseJson(BuildVoiceIdentify(1111, 2222, "session-abc", "token-xyz"));
  CHECK(json::GetInt(identify, "op") == 0);
  const json::Value& d = identify["d"];
  CHECK(json::GetString(d, "server_id") == "1111");
  CHECK(json::GetString(d, "user_id") == "2222");
  CHECK(json::GetString(d, "session_id") == "session-abc");
  CHECK(json::GetString(d, "token") == "token-xyz");
  CHECK(json::GetInt(d, "max_dave_protocol_version") == 1);  // DAVE v1 offered

  json::Document select = ParseJson(
      BuildVoiceSelectProtocol("127.0.0.1", 40000, media_wire::TransportMode::AeadAes256GcmRtpsize));
  CHECK(json::GetInt(select, "op") == 1);
  CHECK(json::GetString(select["d"], "protocol") == "udp");
  CHECK(json::GetString(select["d"]["data"], "address") == "127.0.0.1");
  CHECK(json::GetInt(select["d"]["data"], "port") == 40000);
  CHECK(json::GetString(select["d"]["data"], "mode") == "aead_aes256_gcm_rtpsize");
  json::Document selectX =
      ParseJson(BuildVoiceSelectProtocol("::1", 1, media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize));
  CHECK(json::GetString(selectX["d"]["data"], "mode") == "aead_xchacha20_poly1305_rtpsize");

  json::Document heartbeat = ParseJson(BuildVoiceHeartbeat(1700000000123u, 41));
  CHECK(json::GetInt(heartbeat, "op") == 3);
  CHECK(json::GetInt(heartbeat["d"], "t") == 1700000000123);
  CHECK(json::GetInt(heartbeat["d"], "seq_ack") == 41);
  CHECK(json::GetInt(ParseJson(BuildVoiceHeartbeat(1, -1))["d"], "seq_ack") == -1);

  json::Document resume = ParseJson(BuildVoiceResume(1111, "session-abc", "token-xyz", -1));
  CHECK(json::GetInt(resume, "op") == 7);
  CHECK(json::GetString(resume["d"], "server_id") == "1111");
  CHECK(json::GetString(resume["d"], "session_id") == "session-abc");
  CHECK(json::GetString(resume["d"], "token") == "token-xyz");
  CHECK(json::GetInt(resume["d"], "seq_ack") == -1);
  CHECK(json::GetInt(ParseJson(BuildVoiceResume(1, "s", "t", 12))["d"], "seq_ack") == 12);

  json::Document speaking =
      ParseJson(BuildVoiceSpeaking(kSpeakingMicrophone | kSpeakingPriority, 4294967295u));
  CHECK(json::GetInt(speaking, "op") == 5);
  CHECK(json::GetInt(speaking["d"], "speaking") == 5);
  CHECK(json::GetInt(speaking["d"], "delay") == 0);
  CHECK(json::GetInt(speaking["d"], "ssrc") == 4294967295);

  // Strings that need escaping stay valid JSON.
  json::Document escaped = ParseJson(BuildVoiceIdentify(1, 2, "a\"b\\c", "t\n"));
  CHECK(json::GetString(escaped["d"], "session_id") == "a\"b\\c");
}

TEST_CASE("the selected mode: GCM when offered, else XChaCha; deprecated modes never") {
  using Modes = std::vector<std::string>;
  CHECK(
      media_wire::ChooseTransportMode(Modes{"aead_xchacha20_poly1305_rtpsize", "aead_aes256_gcm_rtpsize"}) ==
      media_wire::TransportMode::AeadAes256GcmRtpsize);
  CHECK(media_wire::ChooseTransportMode(Modes{"xsalsa20_poly1305", "aead_xchacha20_poly1305_rtpsize"}) ==
        media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  CHECK(media_wire::ChooseTransportMode(Modes{"aead_aes256_gcm", "aead_xchacha20_poly1305_rtpsize"}) ==
        media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  CHECK_FALSE(media_wire::ChooseTransportMode(Modes{"aead_aes256_gcm", "xsalsa20_poly1305",
                                                    "xsalsa20_poly1305_suffix", "xsalsa20_poly1305_lite",
                                                    "xsalsa20_poly1305_lite_rtpsize"}));
  CHECK_FALSE(media_wire::ChooseTransportMode(Modes{}));
  // What a Ready offers goes straight to the choice.
  VoiceServerMessage ready = ParseVoiceServerText(
      R"({"op":2,"seq":1,"d":{"ssrc":1,"ip":"127.0.0.1","port":5,"modes":["xsalsa20_poly1305_lite","aead_aes256_gcm"]}})");
  REQUIRE(ready.As<VoiceReady>());
  CHECK_FALSE(media_wire::ChooseTransportMode(ready.As<VoiceReady>()->modes));
}

TEST_CASE("the voice gateway URL: wss://<endpoint>/?v=8, ws:// when plain") {
  CHECK(VoiceGatewayUrl("127.0.0.1:4433/voice", false) == "wss://127.0.0.1:4433/voice/?v=8");
  CHECK(VoiceGatewayUrl("127.0.0.1:4433/voice", true) == "ws://127.0.0.1:4433/voice/?v=8");
  CHECK(VoiceGatewayUrl("voice.example.com:443", false) == "wss://voice.example.com:443/?v=8");
  CHECK(VoiceGatewayUrl("wss://voice.example.com/", false) == "wss://voice.example.com/?v=8");
}

}  // namespace voice_gateway_payload_test
