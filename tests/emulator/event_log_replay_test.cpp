// Record and replay (replay/event_log_replay.hpp): a session recorded through the service's event log plays
// back identically against a fresh emulator, time, ids and random values included; a recorded answer that a
// fresh emulator would not give is found at its line; logs that cannot be replayed are refused with why.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "events/secret_redaction.hpp"
#include "recording_gateway_peer.hpp"
#include "replay/event_log_replay.hpp"
#include "replay/file_digest.hpp"
#include "scenario/scenario_file.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace event_log_replay_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// A service recording to a file of its own, on a clock that flows (and rate limits as the emulator's).
struct Recorder {
  std::filesystem::path path;
  // Ends before the file goes: Windows removes no file a process holds open.
  std::unique_ptr<ServiceBench> owned = std::make_unique<ServiceBench>(kBenchStart, Pace::live);
  ServiceBench& bench = *owned;

  explicit Recorder(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("platformpp-replay-" + name + ".log")) {
    bench.step_ms = 3;
    bench.service.event_log().open(path.string());
    EventLogStart start;
    start.version = kEmulatorVersion;
    start.gateway_url = "wss://127.0.0.1:1234";
    start.api_base = "https://127.0.0.1:1234/api/v10";
    start.authority = "127.0.0.1:1234";
    start.clock = bench.clock.save();
    start.admin_token = false;  // a service in a test's process leaves the admin API open
    bench.service.event_log().start(start);
  }
  ~Recorder() {
    owned.reset();
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  std::vector<std::string> lines() {
    bench.service.event_log().flush();
    std::ifstream file(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(file, line);)
      out.push_back(line);
    return out;
  }
};

ReplayReport replay_lines(const std::vector<std::string>& lines, const ReplayOptions& options = {}) {
  std::stringstream text;
  for (const auto& line : lines)
    text << line << "\n";
  return replay_event_log(text, options);
}

// A session: accounts and tokens through the admin API, two Clients on the Gateway, a lobby with a secret
// only its creator knew, a message in it, a heartbeat, a month's clock jump, one Client gone.
void record_session(Recorder& recorder) {
  auto& bench = recorder.bench;
  const auto alice = bench.user("alice");
  const auto bob = bench.user("bob");
  const auto app_id = str(bench.app_json("Game")["id"]);
  const auto alice_token = bench.token(alice, app_id);
  const auto bob_token = bench.token(bob, app_id);
  RecordingGatewayPeer alice_peer;
  RecordingGatewayPeer bob_peer;
  const auto alice_connection = bench.service.gateway_opened(alice_peer, "/?v=10&encoding=json");
  bench.real_now += 2;
  bench.service.gateway_received(
      alice_connection,
      R"({"op":2,"d":{"token":"Bearer )" + alice_token + R"(","properties":{},"intents":0}})", true);
  bench.real_now += 5;
  const auto bob_connection = bench.service.gateway_opened(bob_peer, "/?v=10&encoding=json");
  bench.service.gateway_received(
      bob_connection, R"({"op":2,"d":{"token":"Bearer )" + bob_token + R"(","properties":{},"intents":0}})",
      true);
  const std::string lobby_body = R"({"secret":"only-alice-knows-this-one"})";
  const auto lobby = bench.as("Bearer " + alice_token, "PUT", "/lobbies", lobby_body);
  REQUIRE(lobby.status == 200);
  const auto joined = bench.as("Bearer " + bob_token, "PUT", "/lobbies", lobby_body);
  REQUIRE(joined.status == 200);
  const auto lobby_id = str(parse(lobby.body)["id"]);
  const auto sent = bench.as("Bearer " + bob_token, "POST", "/lobbies/" + lobby_id + "/messages",
                             R"({"content":"hello from bob"})");
  REQUIRE(sent.status < 300);
  bench.real_now += 1;
  bench.service.gateway_received(alice_connection, R"({"op":1,"d":3})", true);
  bench.call("POST", "/_emulator/clock", R"({"advance_ms":2592000000})");
  bench.service.gateway_disconnected(bob_connection, 1000);
  // A month on, her token has expired: the replay must find that too.
  const auto me = bench.as("Bearer " + alice_token, "GET", "/users/@me");
  REQUIRE(me.status == 401);
}

}  // namespace

TEST_CASE("a recorded session replays identically: times, ids, answers, dispatches") {
  Recorder recorder("identical");
  record_session(recorder);
  const auto lines = recorder.lines();
  REQUIRE(lines.size() > 20);

  const auto report = replay_lines(lines);
  INFO(report.text());
  CHECK(report.refused.empty());
  CHECK(report.identical());
  CHECK(report.recorded_lines == lines.size());
  CHECK(report.compared_lines == lines.size());  // the start line included
  CHECK(report.inputs > 10);
  // Tokens and session ids are new in the replay; the lobby's secret was the client's own.
  CHECK(report.mapped_values >= 4);
  CHECK(report.stand_ins == 1);
  CHECK(report.text().find("identical") != std::string::npos);
}

TEST_CASE("a replay finds a recorded answer the fresh emulator does not give, at its line") {
  Recorder recorder("tampered");
  record_session(recorder);
  auto lines = recorder.lines();
  // The message's content as the recording says the emulator answered it.
  std::size_t tampered = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(R"("kind":"http")") == std::string::npos ||
        lines[i].find(R"("response":{)") == std::string::npos ||
        lines[i].find(R"("content":"hello from bob")") == std::string::npos)
      continue;
    const auto at = lines[i].rfind(R"("content":"hello from bob")");
    lines[i].replace(at, std::string(R"("content":"hello from bob")").size(),
                     R"("content":"hello from eve")");
    tampered = i;
    break;
  }
  REQUIRE(tampered != 0);
  const auto seq = static_cast<std::uint64_t>(parse(lines[tampered])["seq"].GetUint64());

  const auto report = replay_lines(lines);
  INFO(report.text());
  CHECK(report.refused.empty());
  CHECK_FALSE(report.identical());
  REQUIRE(!report.differences.empty());
  CHECK(report.differences.front().seq == seq);
  CHECK(report.differences.front().what.find("hello from eve") != std::string::npos);

  // A recorded time one millisecond off is a difference too: the replay's clock is the recording's.
  auto shifted = recorder.lines();
  const auto line = parse(shifted.back());
  const auto fake = std::to_string(line["fake_ms"].GetInt64());
  const auto at = shifted.back().find(R"("fake_ms":)" + fake);
  REQUIRE(at != std::string::npos);
  shifted.back().replace(at, std::string(R"("fake_ms":)").size() + fake.size(),
                         R"("fake_ms":)" + std::to_string(line["fake_ms"].GetInt64() + 1));
  const auto late = replay_lines(shifted);
  INFO(late.text());
  REQUIRE(late.difference_count == 1);
  CHECK(late.differences.front().what.find("fake_ms") != std::string::npos);
}

TEST_CASE("a log that cannot be replayed is refused, saying why") {
  Recorder recorder("refused");
  record_session(recorder);
  auto lines = recorder.lines();

  CHECK(replay_lines({}).refused == "the log is empty");
  auto headless = lines;
  headless.erase(headless.begin());
  CHECK(replay_lines(headless).refused.find("no start line") != std::string::npos);
  auto broken = lines;
  broken[3] = "{not json";
  CHECK(replay_lines(broken).refused == "line 4 is not a JSON object");

  // A run that began from a scenario names it with its SHA-256: another file is not it.
  const auto scenario = std::filesystem::temp_directory_path() / "platformpp-replay-scenario.json";
  {
    std::ofstream file(scenario);
    file << R"({"users":[{"as":"zed","username":"zed"}]})";
  }
  auto with_scenario = lines;
  const auto digest = file_sha256_hex(scenario.generic_string());
  REQUIRE(digest.size() == 64);
  with_scenario[0].insert(with_scenario[0].size() - 1, R"(,"scenario":{"path":")" +
                                                           scenario.generic_string() + R"(","sha256":")" +
                                                           std::string(64, '0') + R"("})");
  CHECK(replay_lines(with_scenario).refused.find("SHA-256 differs") != std::string::npos);
  ReplayOptions moved;
  moved.scenario_path =
      (std::filesystem::temp_directory_path() / "platformpp-replay-missing.json").generic_string();
  CHECK(replay_lines(with_scenario, moved).refused.find("cannot be read") != std::string::npos);
  std::error_code ignored;
  std::filesystem::remove(scenario, ignored);

  auto from_state = lines;
  from_state[0].insert(from_state[0].size() - 1, R"(,"state_loaded":true)");
  CHECK(replay_lines(from_state).refused.find("--state") != std::string::npos);
}

TEST_CASE("the event log keeps what a replay needs, and no secret a scenario value holds") {
  ServiceBench bench;
  std::vector<std::string> lines;
  bench.service.event_log().set_observer([&](std::string_view line) { lines.emplace_back(line); });
  Scenario scenario =
      parse_scenario(R"({"scenario":1,"applications":[{"as":"game","name":"Game"}]})", "inline.json");
  bench.service.play_scenario(std::move(scenario), "");
  REQUIRE(!lines.empty());
  CHECK(str(parse(lines.front())["origin"]) == "scenario");

  lines.clear();
  const auto secret = bench.raw("GET", "/_emulator/scenario/values/game.client_secret");
  REQUIRE(secret.status == 200);
  const auto value = str(parse(secret.body));
  REQUIRE(value.size() > 16);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find(value) == std::string::npos);
  CHECK(str(parse(lines[0])["response_text"]) == "\"" + secret_marker(value) + "\"");
  CHECK_FALSE(parse(lines[0]).HasMember("origin"));  // the client's own call
}

}  // namespace event_log_replay_test
