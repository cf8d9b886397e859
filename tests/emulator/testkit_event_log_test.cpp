// The event log of the real binary (--event-log, through testkit's Options::eventLog): a private file of JSON
// lines, numbered without a gap, that holds the HTTP exchanges and the Gateway's frames of a session with
// who made them, and none of the secrets that crossed the emulator's edge.
#include <doctest/doctest.h>
#include <rapidjson/document.h>
#include <platformpp/testkit/emulator.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "gateway_test_client.hpp"
#include "test_support.hpp"

using platformpp::emulator::test::GatewayClient;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

namespace testkit_event_log_test {

std::string member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject() || !object.HasMember(name) || !object[name].IsString()) return {};
  return {object[name].GetString(), object[name].GetStringLength()};
}

// What both tests record: alice on the Gateway, made bob's friend, then carol made. Returns alice's id and
// her token.
std::pair<uint64_t, std::string> play_session(const platformpp::testkit::ConnectionInfo& connection) {
  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Event Log Game");
  const auto alice = admin.CreateUser("alice");
  const auto bob = admin.CreateUser("bob");
  const auto token = admin.MintToken(alice.id, app.id, "openid sdk.social_layer").accessToken;
  {
    GatewayClient a(connection.caFile, static_cast<unsigned short>(connection.port), "/?v=10&encoding=json");
    a.next();
    a.send(R"({"op":2,"d":{"token":"Bearer )" + token +
           R"(","properties":{"os":"linux","browser":"platformpp","device":"platformpp"},"intents":0}})");
    a.next_dispatch("READY");
    admin.MakeFriends(alice.id, bob.id);
    a.next_dispatch("RELATIONSHIP_ADD");
    a.close(1000);
  }
  // After the client saw RELATIONSHIP_ADD: the log's order is the emulator's, so carol's creation comes after
  // that dispatch. (Not after the close's line: the client's close returns once the emulator echoed the
  // close, which can be before the emulator writes that its client left.)
  admin.CreateUser("carol");
  return {alice.id, token};
}

TEST_CASE("testkit: Options::eventLog writes what crossed the edge, numbered, private, without a secret") {
  const std::filesystem::path dir = platformpp::emulator::test::make_temp_dir();
  const auto log_path = dir / "events.jsonl";
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  options.eventLog = log_path.string();
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
  const auto [alice_id_number, token] = play_session(connection);
  REQUIRE(process->Stop() == 0);

#ifndef _WIN32
  const auto permissions = std::filesystem::status(log_path).permissions();
  CHECK((permissions & (std::filesystem::perms::group_all | std::filesystem::perms::others_all)) ==
        std::filesystem::perms::none);
#endif
  std::ifstream file(log_path, std::ios::binary);
  REQUIRE(file);
  const std::string whole((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  REQUIRE_FALSE(whole.empty());
  CHECK(whole.find(token) == std::string::npos);
  CHECK(whole.find(connection.adminToken) == std::string::npos);

  std::vector<rapidjson::Document> lines;
  std::size_t start = 0;
  while (start < whole.size()) {
    const auto end = whole.find('\n', start);
    REQUIRE(end != std::string::npos);  // every line ends: nothing was cut at the stop
    auto& line = lines.emplace_back();
    line.Parse(whole.data() + start, end - start);
    REQUIRE_FALSE(line.HasParseError());
    REQUIRE(line.IsObject());
    start = end + 1;
  }

  const std::string alice_id = std::to_string(alice_id_number);
  bool token_minted = false;
  bool identify_seen = false;
  bool ready_seen = false;
  bool relationship_seen = false;
  bool client_left = false;
  std::size_t carol_at = 0;
  std::size_t relationship_at = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    REQUIRE(line["seq"].GetUint64() == i + 1);
    CHECK(line["real_ms"].IsInt64());
    CHECK(line["fake_ms"].IsInt64());
    const auto kind = member(line, "kind");
    if (kind == "http") {
      const auto target = member(line, "target");
      // Every admin call names its caller by a marker of the admin token, never the token.
      if (target.starts_with("/_emulator")) CHECK(member(line, "auth").starts_with("Bearer [redacted#"));
      if (target.find("/tokens") != std::string::npos && line.HasMember("status")) token_minted = true;
      if (target == "/_emulator/users" && line.HasMember("body") &&
          member(line, "body").find("carol") != std::string::npos)
        carol_at = i;
    } else if (kind == "gateway") {
      const auto dir_name = member(line, "dir");
      if (dir_name == "in" && member(line, "text").find(R"("op":2)") != std::string::npos) {
        identify_seen = true;
        CHECK(member(line, "text").find("[redacted#") != std::string::npos);
      }
      if (dir_name == "out" && line.HasMember("frame")) {
        const auto event = member(line["frame"], "t");
        if (event == "READY") {
          ready_seen = true;
          CHECK(member(line, "user") == alice_id);
          CHECK_FALSE(member(line, "session").empty());
        }
        if (event == "RELATIONSHIP_ADD") {
          relationship_seen = member(line, "user") == alice_id;
          relationship_at = i;
        }
      }
      if (dir_name == "gone") {
        client_left = true;
        CHECK(line["code"].GetInt() == 1000);
      }
    }
  }
  CHECK(token_minted);
  CHECK(identify_seen);
  CHECK(ready_seen);
  CHECK(relationship_seen);
  CHECK(client_left);
  CHECK(carol_at > relationship_at);

  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("testkit: Replay plays a recorded run back identically, and finds an answer it would not give") {
  const std::filesystem::path dir = platformpp::emulator::test::make_temp_dir();
  const auto log_path = dir / "recorded.jsonl";
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  options.eventLog = log_path.string();
  auto process = EmulatorProcess::Start(options);
  play_session(process->Connection());
  REQUIRE(process->Stop() == 0);

  EmulatorProcess::ReplayOptions replay;
  replay.binary = g_testkit_emulator_binary;
  const auto same = EmulatorProcess::Replay(log_path.string(), replay);
  INFO(same.report);
  CHECK(same.Identical());
  CHECK(same.report.find("identical") != std::string::npos);

  // The recording says the emulator named carol "caroline": a fresh emulator does not, at that line.
  std::vector<std::string> lines;
  {
    std::ifstream in(log_path);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
  }
  std::string seq;
  for (auto& line : lines) {
    const auto at = line.find(R"("username":"carol")");
    if (at == std::string::npos || line.find(R"("response":)") == std::string::npos) continue;
    line.replace(at, std::string(R"("username":"carol")").size(), R"("username":"caroline")");
    rapidjson::Document parsed;
    parsed.Parse(line.c_str());
    seq = std::to_string(parsed["seq"].GetUint64());
    break;
  }
  REQUIRE(!seq.empty());
  const auto changed_path = dir / "changed.jsonl";
  {
    std::ofstream out(changed_path);
    for (const auto& line : lines)
      out << line << "\n";
  }
  const auto changed = EmulatorProcess::Replay(changed_path.string(), replay);
  INFO(changed.report);
  CHECK(changed.exitCode == 8);
  CHECK(changed.report.find("line " + seq + ": ") != std::string::npos);
  CHECK(changed.report.find("caroline") != std::string::npos);

  const auto missing = EmulatorProcess::Replay((dir / "no-such.jsonl").string(), replay);
  CHECK(missing.exitCode == 9);
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

}  // namespace testkit_event_log_test
