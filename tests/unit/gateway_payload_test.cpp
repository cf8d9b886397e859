// Gateway envelopes and client payloads (docs/gateway-protocol.md, "Payloads", "Identify and READY",
// "Resume").
#include "gateway/gateway_payload.hpp"
#include "gateway/dispatch.hpp"

#include "json/json.hpp"

#include <doctest/doctest.h>

namespace gateway_payload_test {

using namespace platformpp::gateway;
using platformpp::json::Document;

TEST_CASE("gateway envelope: a dispatch keeps op, s, t and d as raw text") {
  std::string text =
      R"({"t":"PRESENCE_UPDATE","s":42,"op":0,"d":{"user":{"id":"1"},"status":"online","a":[1,{"b":null}]}})";
  auto envelope = ParseEnvelope(text);
  REQUIRE(envelope);
  CHECK(envelope->op == 0);
  CHECK(envelope->s == 42);
  CHECK(envelope->t == "PRESENCE_UPDATE");
  CHECK(envelope->d == R"({"user":{"id":"1"},"status":"online","a":[1,{"b":null}]})");
}

TEST_CASE("gateway envelope: d of every JSON type, whitespace around, fields in any order") {
  auto hello =
      ParseEnvelope("{ \"op\" : 10 , \"d\" :\n {\"heartbeat_interval\": 45000} , \"s\":null,\"t\":null}");
  REQUIRE(hello);
  CHECK(hello->op == 10);
  CHECK(!hello->s);
  CHECK(hello->t.empty());
  CHECK(hello->d == R"({"heartbeat_interval": 45000})");
  CHECK(ParseHelloInterval(hello->d) == 45000);

  auto invalid = ParseEnvelope(R"({"op":9,"d":false})");
  REQUIRE(invalid);
  CHECK(invalid->d == "false");
  CHECK(!ParseInvalidSessionResumable(invalid->d));
  CHECK(ParseInvalidSessionResumable(ParseEnvelope(R"({"op":9,"d":true})")->d));

  CHECK(ParseEnvelope(R"({"op":11})")->d == "null");
  CHECK(ParseEnvelope(R"({"op":1,"d":17})")->d == "17");
  CHECK(ParseEnvelope(R"({"op":1,"d":-1.5e3})")->d == "-1.5e3");
  CHECK(ParseEnvelope(R"({"op":0,"d":"x\"y","s":1,"t":"A"})")->d == R"("x\"y")");
  CHECK(ParseEnvelope(R"({"op":0,"d":[[],[{}]],"s":1,"t":"A"})")->d == "[[],[{}]]");
  // Keys inside d named like envelope fields change nothing.
  auto nested = ParseEnvelope(R"({"op":0,"d":{"op":5,"s":"x","t":3,"d":[]},"s":7,"t":"X"})");
  REQUIRE(nested);
  CHECK(nested->op == 0);
  CHECK(nested->s == 7);
  CHECK(nested->t == "X");
  CHECK(nested->d == R"({"op":5,"s":"x","t":3,"d":[]})");
}

TEST_CASE("gateway envelope: clear errors, never a crash") {
  std::string error;
  auto refused = [&](std::string_view text) {
    error.clear();
    bool failed = !ParseEnvelope(text, &error);
    CHECK(!error.empty());
    return failed;
  };
  CHECK(refused(""));
  CHECK(refused("{"));
  CHECK(refused("[1]"));
  CHECK(error == "the payload is not a JSON object");
  CHECK(refused("42"));
  CHECK(refused(R"({"d":{}})"));
  CHECK(error == "`op` is missing");
  CHECK(refused(R"({"op":"0"})"));
  CHECK(error == "`op` is not an integer");
  CHECK(refused(R"({"op":1.5})"));
  CHECK(refused(R"({"op":{}})"));
  CHECK(refused(R"({"op":99999999999})"));
  CHECK(refused(R"({"op":0,"s":"1"})"));
  CHECK(error == "`s` is not an integer or null");
  CHECK(refused(R"({"op":0,"t":5})"));
  CHECK(error == "`t` is not a string or null");
  CHECK(refused(R"({"op":0,"t":[]})"));
  CHECK(refused(R"({"op":0} trailing)"));
  CHECK(refused(std::string_view("{\"op\":0}\0", 9)));
}

TEST_CASE("gateway client payloads: heartbeat, identify, resume") {
  CHECK(BuildHeartbeat(std::nullopt) == R"({"op":1,"d":null})");
  CHECK(BuildHeartbeat(251) == R"({"op":1,"d":251})");

  IdentifyParams params;
  params.token = "Bearer abc";
  params.os = "linux";
  auto identify = BuildIdentify(params);
  REQUIRE(identify);
  Document doc;
  REQUIRE(platformpp::json::Parse(*identify, doc));
  CHECK(doc["op"].GetInt() == 2);
  const auto& d = doc["d"];
  CHECK(std::string(d["token"].GetString()) == "Bearer abc");
  CHECK(std::string(d["properties"]["os"].GetString()) == "linux");
  CHECK(std::string(d["properties"]["browser"].GetString()) == "platformpp");
  CHECK(std::string(d["properties"]["device"].GetString()) == "platformpp");
  CHECK(d["intents"].GetInt64() == kSocialIntents);
  CHECK((d["intents"].GetInt64() & ((1 << 1) | (1 << 8) | (1 << 15))) == 0);  // nothing privileged
  CHECK(d["capabilities"].GetInt64() == 0);  // the channel obfuscation switch is for tests that ask for it
  CHECK(d["compress"].IsFalse());
  params.capabilities = kCapabilityChannelObfuscation;
  REQUIRE(platformpp::json::Parse(*BuildIdentify(params), doc));
  CHECK(doc["d"]["capabilities"].GetInt64() == (1 << 15));
  params.transportCompression = false;
  REQUIRE(platformpp::json::Parse(*BuildIdentify(params), doc));
  CHECK(!doc["d"].HasMember("compress"));

  auto resume = BuildResume("Bearer abc", "sess", 17);
  REQUIRE(resume);
  CHECK(*resume == R"({"op":6,"d":{"token":"Bearer abc","session_id":"sess","seq":17}})");
  CHECK(*BuildResume("t", "s", std::nullopt) == R"({"op":6,"d":{"token":"t","session_id":"s","seq":null}})");
}

TEST_CASE("gateway client payloads over 4096 bytes are refused") {
  // {"op":3,"d":"<n x>"} is 15 + n bytes.
  std::string error;
  auto at = BuildPayload(Opcode::PresenceUpdate, "\"" + std::string(4096 - 15, 'x') + "\"", &error);
  REQUIRE(at);
  CHECK(at->size() == 4096);
  auto over = BuildPayload(Opcode::PresenceUpdate, "\"" + std::string(4096 - 14, 'x') + "\"", &error);
  CHECK(!over);
  CHECK(error.find("4096") != std::string::npos);
  CHECK(BuildPayload(Opcode::PresenceUpdate, "{\"since\":null}")->size() == 27);
  CHECK(!BuildPayload(Opcode::PresenceUpdate, "{oops", &error));
  CHECK(error.find("not JSON") != std::string::npos);
  IdentifyParams params;
  params.token = std::string(5000, 't');
  CHECK(!BuildIdentify(params, &error));
}

TEST_CASE("gateway READY, Hello and GET /gateway answers") {
  auto ready = ParseReady(
      R"({"v":10,"user":{"id":"80351110224678912","username":"nelly"},"session_id":"abc","resume_gateway_url":"wss://r.example","guilds":[]})");
  REQUIRE(ready);
  CHECK(ready->sessionId == "abc");
  CHECK(ready->resumeGatewayUrl == "wss://r.example");
  CHECK(ready->userId == 80351110224678912ULL);
  CHECK(ready->userJson == R"({"id":"80351110224678912","username":"nelly"})");
  std::string error;
  CHECK(!ParseReady(R"({"v":10})", &error));
  CHECK(error == "READY has no session_id");
  CHECK(!ParseReady("[]", &error));

  CHECK(!ParseHelloInterval(R"({"heartbeat_interval":0})"));
  CHECK(!ParseHelloInterval(R"({"heartbeat_interval":"45000"})"));
  CHECK(!ParseHelloInterval("null"));
  CHECK(ParseHelloInterval(R"({"heartbeat_interval":41250.5})") == 41250);

  CHECK(ParseGatewayUrl(R"({"url":"wss://gateway.example"})") == "wss://gateway.example");
  CHECK(!ParseGatewayUrl(R"({"url":""})"));
  CHECK(!ParseGatewayUrl("nope"));
  CHECK(GatewayConnectUrl("wss://gateway.example", true) ==
        "wss://gateway.example/?v=10&encoding=json&compress=zlib-stream");
  CHECK(GatewayConnectUrl("ws://127.0.0.1:5/gw/?v=9", false) == "ws://127.0.0.1:5/gw/?v=10&encoding=json");
}

}  // namespace gateway_payload_test

TEST_CASE("Dispatch: `d` parsed once, on first use, and shared by every reader") {
  const std::string text = R"({"user":{"id":"7"},"status":"online","activities":[]})";
  const platformpp::gateway::Dispatch dispatch("PRESENCE_UPDATE", text, 3);
  const auto* first = dispatch.Data();
  REQUIRE(first != nullptr);
  CHECK(dispatch.Data() == first);  // the same document for the next reader
  CHECK(std::string((*first)["status"].GetString()) == "online");
  CHECK(std::string((*first)["user"]["id"].GetString()) == "7");
  // A big one (READY) outgrows the inline buffer and still parses.
  std::string big = R"({"guilds":[)";
  for (int i = 0; i < 2000; ++i)
    big += std::string(i == 0 ? "" : ",") + R"({"id":")" + std::to_string(i) + R"(","name":"guild"})";
  big += "]}";
  const platformpp::gateway::Dispatch ready("READY", big, 1);
  REQUIRE(ready.Data() != nullptr);
  CHECK((*ready.Data())["guilds"].Size() == 2000);
}

TEST_CASE("Dispatch: `d` that is not a JSON object: null, with the reason, never the contents") {
  std::string error;
  CHECK(platformpp::gateway::Dispatch("RESUMED", "null", 2).Data(&error) == nullptr);
  CHECK(error == "not a JSON object");
  const platformpp::gateway::Dispatch broken("MESSAGE_CREATE", R"({"content":"secret-token-xyz")", 4);
  CHECK(broken.Data(&error) == nullptr);
  CHECK(error.find("offset") != std::string::npos);
  CHECK(error.find("secret") == std::string::npos);
  CHECK(broken.Data() == nullptr);  // the failure is kept too
  const std::string with_nul("{\"a\":\"b\0c\"}", 11);
  CHECK(platformpp::gateway::Dispatch("X", with_nul, 5).Data(&error) == nullptr);
  CHECK(error == "a NUL character");
}
