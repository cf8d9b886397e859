// The event log (events/): secrets leave it as markers, HTTP exchanges carry the caller the emulator
// authenticated, frames both ways carry their connection, session and user, and a dispatch fanned out to many
// sessions is written once. In process, through the service, with the log's observer in place of a file.
#include <doctest/doctest.h>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/private_files.hpp"
#include "events/secret_redaction.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace event_log_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct Peer final : GatewayPeer {
  void enable_compression() override {}
  void send(std::string json) override { sent.push_back(std::move(json)); }
  void close(int, std::string) override {}
  void drop() override {}
  std::vector<std::string> sent;
};

struct LoggedBench : ServiceBench {
  std::vector<std::string> lines;
  LoggedBench() {
    service.event_log().set_observer([this](std::string_view line) { lines.emplace_back(line); });
  }
  // Each line parsed; REQUIREs every one to be JSON.
  std::vector<rapidjson::Document> records() const {
    std::vector<rapidjson::Document> parsed;
    for (const auto& line : lines) {
      rapidjson::Document record;
      REQUIRE_MESSAGE(parse_json(line, record), line);
      parsed.push_back(std::move(record));
    }
    return parsed;
  }
  bool any_line_contains(const std::string& text) const {
    for (const auto& line : lines)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }
};

}  // namespace

TEST_CASE("secrets leave the event log as markers of their hash, and JSON stays JSON") {
  const auto marker = secret_marker("s3cr3t-token-value");
  CHECK(marker.size() == std::string("[redacted#12345678]").size());
  CHECK(marker == secret_marker("s3cr3t-token-value"));
  CHECK(marker != secret_marker("s3cr3t-token-valuf"));

  const auto json = redacted(R"({"access_token": "abc.def", "token_type":"Bearer","code":50035,)"
                             R"("secret_key":[1,2,3],"nested":{"refresh_token":"r\"x"},"content":"token"})");
  rapidjson::Document parsed;
  REQUIRE_MESSAGE(parse_json(json, parsed), json);
  CHECK(str(parsed["access_token"]) == secret_marker("abc.def"));
  CHECK(str(parsed["token_type"]) == "Bearer");  // not a secret: the key is not one
  CHECK(parsed["code"].GetInt() == 50035);       // a number under a secret's name stays
  CHECK(str(parsed["secret_key"]) == secret_marker("[1,2,3]"));
  CHECK(str(parsed["nested"]["refresh_token"]) == secret_marker(R"(r\"x)"));
  CHECK(str(parsed["content"]) == "token");

  CHECK(redacted("grant_type=authorization_code&code=C0de&code_verifier=v-1~x&redirect_uri=http%3A%2F%2Fx") ==
        "grant_type=authorization_code&code=" + secret_marker("C0de") +
            "&code_verifier=" + secret_marker("v-1~x") + "&redirect_uri=http%3A%2F%2Fx");
  CHECK(redacted("Bearer abc.DEF_123") == "Bearer " + secret_marker("abc.DEF_123"));
  CHECK(redacted("Bot MTIz.abc") == "Bot " + secret_marker("MTIz.abc"));
  CHECK(redacted("/api/v10/webhooks/123/tok-EN/messages/@original") ==
        "/api/v10/webhooks/123/" + secret_marker("tok-EN") + "/messages/@original");
  CHECK(redacted("/interactions/9/aW50/callback") ==
        "/interactions/9/" + secret_marker("aW50") + "/callback");
  CHECK(redacted("/api/v10/interactions/9/aW50/callback") ==
        "/api/v10/interactions/9/" + secret_marker("aW50") + "/callback");
  // An object's interactions (an admin route) name an action after the id, not a token.
  CHECK(redacted("/_emulator/applications/12/interactions/9/modal-submit") ==
        "/_emulator/applications/12/interactions/9/modal-submit");
  // Words that only look like a scheme or a field stay.
  CHECK(redacted("Bearers of news; encode=1; decode=2") == "Bearers of news; encode=1; decode=2");
  // The array ends at its own bracket, not at one inside a string or a nested array.
  const auto nested = redacted(R"({"secret_key":[1,"]\"",[2]],"mode":"x"})");
  REQUIRE_MESSAGE(parse_json(nested, parsed), nested);
  CHECK(str(parsed["secret_key"]) == secret_marker(R"([1,"]\"",[2]])"));
  CHECK(str(parsed["mode"]) == "x");
  // An escaped quote inside a string value does not end it, nor start a key.
  CHECK(redacted(R"({"content":"say \"token\":\"x\""})") == R"({"content":"say \"token\":\"x\""})");
}

TEST_CASE("an HTTP exchange names the caller the emulator authenticated; its token never appears") {
  LoggedBench bench;
  const auto alice = bench.user("alice");
  const auto app = bench.app_json("Game");
  const auto app_id = str(app["id"]);
  const auto bot_token = str(app["bot_token"]);
  const auto token = bench.token(alice, app_id);
  bench.lines.clear();

  const auto me = bench.as("Bearer " + token, "GET", "/users/@me");
  REQUIRE(me.status == 200);
  const auto records = bench.records();
  REQUIRE(records.size() == 1);
  const auto& record = records[0];
  CHECK(str(record["kind"]) == "http");
  CHECK(record["seq"].GetUint64() >= 1);
  CHECK(record["fake_ms"].GetInt64() == bench.clock.now_ms());
  CHECK(record["real_ms"].GetInt64() > 0);
  CHECK(str(record["method"]) == "GET");
  CHECK(str(record["target"]) == "/api/v10/users/@me");
  CHECK(str(record["user"]) == alice);
  CHECK(str(record["app"]) == app_id);
  CHECK(str(record["auth"]) == "Bearer " + secret_marker(token));
  CHECK(record["status"].GetInt() == 200);
  CHECK(str(record["response"]["id"]) == alice);  // the answer as JSON, not as a string

  // The seeding calls' answers carried the token and the bot token: neither is anywhere in the log.
  LoggedBench seeded;
  const auto bob = seeded.user("bob");
  const auto game = seeded.app_json("Other");
  const auto bob_token = seeded.token(bob, str(game["id"]));
  REQUIRE(!seeded.lines.empty());
  CHECK_FALSE(seeded.any_line_contains(bob_token));
  CHECK_FALSE(seeded.any_line_contains(str(game["bot_token"])));
  CHECK(seeded.any_line_contains(secret_marker(bob_token)));
}

TEST_CASE("Gateway frames both ways carry connection, session and user; a fan-out is written once") {
  LoggedBench bench;
  const auto alice = bench.user("alice");
  const auto app_id = str(bench.app_json("Game")["id"]);
  const auto token = bench.token(alice, app_id);
  Peer first;
  Peer second;
  const auto first_id = bench.service.gateway_opened(first, "/?v=10&encoding=json");
  const auto second_id = bench.service.gateway_opened(second, "/?v=10&encoding=json");
  const std::string identify =
      R"({"op":2,"d":{"token":"Bearer )" + token + R"(","properties":{},"intents":0}})";
  bench.service.gateway_received(first_id, identify, true);
  bench.service.gateway_received(second_id, identify, true);
  bench.lines.clear();

  bench.call("POST", "/_emulator/gateway/dispatch",
             R"({"user_id":")" + alice + R"(","t":"SOMETHING_HAPPENED","d":{"n":1}})");
  std::vector<rapidjson::Document> dispatches;
  for (auto& record : bench.records())
    if (str(record["kind"]) == "gateway" && str(record["dir"]) == "out")
      dispatches.push_back(std::move(record));
  REQUIRE(dispatches.size() == 2);
  const auto& whole = dispatches[0];
  CHECK(str(whole["frame"]["t"]) == "SOMETHING_HAPPENED");
  CHECK(whole["frame"]["d"]["n"].GetInt() == 1);
  CHECK(str(whole["user"]) == alice);
  CHECK_FALSE(str(whole["session"]).empty());
  // The rest of the fan-out on the next line, one entry per session.
  const auto& named = dispatches[1];
  CHECK(named["seq"].GetUint64() == whole["seq"].GetUint64() + 1);
  CHECK(named["same_as"].GetUint64() == whole["seq"].GetUint64());
  REQUIRE(named["to"].Size() == 1);
  const auto& other = named["to"][0];
  CHECK(other["s"].GetInt64() == 2);  // that session's own sequence: READY was 1
  CHECK(other["conn"].GetUint64() != whole["conn"].GetUint64());
  CHECK(str(other["session"]) != str(whole["session"]));
  CHECK(str(other["user"]) == alice);

  // What the client sent is a string (it need not be JSON), its token a marker.
  bench.lines.clear();
  bench.service.gateway_received(first_id, R"({"op":1,"d":7})", true);
  Peer third;
  const auto third_id = bench.service.gateway_opened(third, "/?v=10&encoding=json");
  bench.service.gateway_received(third_id, identify, true);
  bench.service.gateway_disconnected(third_id, 4000);
  const auto records = bench.records();
  REQUIRE(records.size() >= 6);
  CHECK(str(records[0]["dir"]) == "in");
  CHECK(str(records[0]["text"]) == R"({"op":1,"d":7})");
  CHECK(records[1]["frame"]["op"].GetInt() == 11);  // the heartbeat's ACK
  CHECK(str(records[2]["dir"]) == "open");
  CHECK(str(records[2]["detail"]) == "/?v=10&encoding=json");
  CHECK(records[3]["frame"]["op"].GetInt() == 10);  // Hello, written after the open it follows
  CHECK(records[3]["conn"].GetUint64() == third_id);
  CHECK(str(records[4]["text"]).find(secret_marker(token)) != std::string::npos);
  CHECK_FALSE(bench.any_line_contains(token));
  CHECK(str(records.back()["dir"]) == "gone");
  CHECK(records.back()["code"].GetInt() == 4000);
  CHECK(str(records.back()["user"]) == alice);
}

}  // namespace event_log_test

namespace event_log_test {

TEST_CASE("the event log replaces a file with a private one, and writes into what is not a file") {
  using namespace platformpp::emulator;
  namespace fs = std::filesystem;
  const auto directory = make_private_temp_directory("event-log-test-");
  const auto file = directory + "/events.jsonl";
  {
    std::ofstream(file) << "an older run's line\n";
    fs::permissions(file, fs::perms::all);
    FakeClock clock;
    EventLog log(clock);
    log.open(file);
    log.connection(EventLog::Protocol::gateway, "open", 1, {}, {}, std::nullopt, "/?v=10");
  }
  std::ifstream written(file);
  std::string line;
  REQUIRE(std::getline(written, line));
  CHECK(line.find(R"("kind":"gateway","dir":"open","conn":1)") != std::string::npos);
  CHECK_FALSE(std::getline(written, line));  // the older run's line is gone
#ifndef _WIN32
  CHECK((fs::status(file).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));

  // A FIFO (as /dev/null or /dev/stdout would be) is written into, not unlinked and replaced.
  const auto fifo = directory + "/events.fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string read;
  std::thread reader([&] {
    std::ifstream in(fifo);
    std::getline(in, read);
  });
  {
    FakeClock clock;
    EventLog log(clock);
    log.open(fifo);
    CHECK(fs::is_fifo(fs::status(fifo)));
    log.connection(EventLog::Protocol::voice, "drop", 2, {}, {}, std::nullopt, {});
  }
  reader.join();
  CHECK(read.find(R"("kind":"voice","dir":"drop","conn":2)") != std::string::npos);
#endif
  std::error_code ignored;
  fs::remove_all(directory, ignored);
}

}  // namespace event_log_test
