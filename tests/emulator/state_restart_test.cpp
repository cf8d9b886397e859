// --state against the real binary (path in argv[1]): what the emulator answered survives `kill -9` at any
// moment and a restart serves the same tokens, ids and history; files it cannot use stop it with exit code 5
// or 6 and stay as they were; snapshots go out and in through the admin API. Sockets from
// http_test_client.hpp (emulator_test_support).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.hpp"
#include "emulator_process.hpp"
#include "http_test_client.hpp"

namespace {

using platformpp::emulator::test::EmulatorProcess;
using platformpp::emulator::test::g_emulator_path;
using platformpp::emulator::test::HttpRequestSpec;
using platformpp::emulator::test::HttpResult;
using platformpp::emulator::test::HttpsConnection;
using platformpp::emulator::test::make_temp_dir;
using verb = platformpp::emulator::test::HttpMethod;

rapidjson::Document json_of(const HttpResult& response) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(platformpp::emulator::parse_json(response.body, document), response.body);
  return document;
}

std::string text_of(const rapidjson::Value& value) {
  return {value.GetString(), value.GetStringLength()};
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// A scratch directory outside the processes' own (each removes its own when it ends).
struct StateDir {
  std::string path = make_temp_dir();
  ~StateDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  [[nodiscard]] std::string file(const std::string& name = "state.db") const { return path + "/" + name; }
};

// Seeds what a game needs to chat: an application, two users with tokens, friends, one DM channel.
struct Chat {
  std::string app_id, ada, bob, ada_token, channel;
};

Chat seed_chat(HttpsConnection& http) {
  auto admin = [&](const std::string& path, const std::string& body) {
    const auto response = http.exchange(HttpRequestSpec{verb::post, "/_emulator" + path, body, {}, {}});
    REQUIRE_MESSAGE(response.status == 200, path << ": " << response.body);
    return json_of(response);
  };
  Chat chat;
  chat.app_id = text_of(admin("/apps", R"({"name":"Durable Game"})")["id"]);
  chat.ada = text_of(admin("/users", R"({"username":"ada"})")["id"]);
  chat.bob = text_of(admin("/users", R"({"username":"bob"})")["id"]);
  chat.ada_token =
      text_of(admin("/tokens", R"({"user_id":")" + chat.ada + R"(","app_id":")" + chat.app_id +
                                   R"(","scopes":"identify sdk.social_layer"})")["access_token"]);
  admin("/friendships", R"({"user_id":")" + chat.ada + R"(","other_user_id":")" + chat.bob + R"("})");
  const auto channel = http.exchange(HttpRequestSpec{verb::post,
                                                     "/api/v10/users/@me/channels",
                                                     R"({"recipient_id":")" + chat.bob + R"("})",
                                                     "Bearer " + chat.ada_token,
                                                     {}});
  REQUIRE_MESSAGE(channel.status == 200, channel.body);
  chat.channel = text_of(json_of(channel)["id"]);
  return chat;
}

// The platform's per-route and global limits would pace these clients; here the point is volume.
void lift_rate_limits(HttpsConnection& http) {
  const auto set = [&](const std::string& body) {
    REQUIRE(http.exchange(HttpRequestSpec{verb::post, "/_emulator/ratelimits", body, {}, {}}).status == 200);
  };
  set(R"({"global_per_second":0})");
  for (const auto* route : {"POST /channels/{channel_id}/messages", "GET /channels/{channel_id}/messages"})
    set(std::string(R"({"route":")") + route + R"(","limit":1000000,"window_ms":1000})");
}

// Every message id the emulator holds, from its snapshot (the channel route serves only the newest 200).
std::set<std::string> stored_message_ids(HttpsConnection& http) {
  const auto snapshot = http.exchange(HttpRequestSpec{verb::get, "/_emulator/state/export", {}, {}, {}});
  REQUIRE(snapshot.status == 200);
  std::set<std::string> ids;
  const auto document = json_of(snapshot);
  for (const auto& entry : document["documents"].GetArray()) {
    if (text_of(entry["kind"]) == "message") ids.insert(text_of(entry["id"]));
  }
  return ids;
}

// The ids the channel route serves, newest first.
std::vector<std::string> served_message_ids(HttpsConnection& http, const Chat& chat) {
  const auto page = http.exchange(HttpRequestSpec{verb::get,
                                                  "/api/v10/channels/" + chat.channel + "/messages?limit=100",
                                                  {},
                                                  "Bearer " + chat.ada_token,
                                                  {}});
  REQUIRE_MESSAGE(page.status == 200, page.body);
  std::vector<std::string> ids;
  const auto list = json_of(page);
  for (const auto& message : list.GetArray())
    ids.push_back(text_of(message["id"]));
  return ids;
}

}  // namespace

TEST_CASE("kill -9 at a random moment loses nothing the emulator answered") {
  StateDir dir;
  Chat chat;
  std::set<std::string> acknowledged;
  std::string last_answer_body;
  {
    EmulatorProcess first({"--state", dir.file(), "--no-social-rate-limits"});
    HttpsConnection http(first);
    chat = seed_chat(http);
    lift_rate_limits(http);
    // Messages as fast as one keep-alive connection gets them answered, while the process is killed at a
    // random moment: 0 to 250 ms after the 120th answer (a count, not a time from the start, so that a loaded
    // machine still sends the 100 the checks below read back).
    std::random_device seed;
    const auto kill_after = std::chrono::milliseconds(static_cast<int>(seed() % 250));
    std::atomic<std::size_t> answered{0};
    std::atomic<bool> killed{false};
    std::atomic<bool> sender_stopped{false};
    std::thread killer([&] {
      // The sender stops only when the connection fails: then nothing more will be answered, and waiting for
      // the 120th would only spend the test's time limit before the check below reports it.
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (answered.load() < 120 && !sender_stopped && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(kill_after);
      first.kill_now();
      killed = true;
    });
    struct Joiner {
      std::thread& thread;
      ~Joiner() {
        if (thread.joinable()) thread.join();
      }
    } joiner{killer};
    for (int i = 0;; ++i) {
      std::optional<HttpResult> answer;
      try {
        http.send(HttpRequestSpec{verb::post,
                                  "/api/v10/channels/" + chat.channel + "/messages",
                                  R"({"content":"message )" + std::to_string(i) + R"("})",
                                  "Bearer " + chat.ada_token,
                                  {}});
        answer = http.receive();
      } catch (const std::exception&) {
        break;  // the connection died with the process
      }
      if (!answer) break;
      if (answer->status != 200) {
        sender_stopped = true;
        REQUIRE_MESSAGE(answer->status == 200, answer->body);
      }
      acknowledged.insert(text_of(json_of(*answer)["id"]));
      answered = acknowledged.size();
    }
    sender_stopped = true;
    killer.join();
    REQUIRE(killed);
    CHECK(first.wait_exit() == -1);  // killed, not exited
    MESSAGE("acknowledged before the kill, " << kill_after.count()
                                             << " ms after the 120th: " << acknowledged.size());
    REQUIRE(acknowledged.size() >= 120);
  }

  EmulatorProcess second({"--state", dir.file(), "--no-social-rate-limits"});
  HttpsConnection http(second);
  lift_rate_limits(http);  // test set-up, not platform data: a restart starts with the platform's limits
  // The same token still works, and every acknowledged message is there, under its id.
  const auto me =
      http.exchange(HttpRequestSpec{verb::get, "/api/v10/users/@me", {}, "Bearer " + chat.ada_token, {}});
  REQUIRE_MESSAGE(me.status == 200, me.body);
  CHECK(text_of(json_of(me)["id"]) == chat.ada);
  const auto kept = stored_message_ids(http);
  const auto served = served_message_ids(http, chat);
  REQUIRE(served.size() == 100);
  // The newest acknowledged message is among the newest served (the one in flight may be newer still).
  const auto newest = *std::max_element(
      acknowledged.begin(), acknowledged.end(),
      [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
  CHECK(std::find(served.begin(), served.begin() + 2, newest) != served.begin() + 2);
  std::size_t lost = 0;
  for (const auto& id : acknowledged)
    lost += kept.count(id) == 0 ? 1 : 0;
  CHECK(lost == 0);
  // At most the one message in flight when the process died was kept without an answer reaching us.
  CHECK(kept.size() <= acknowledged.size() + 1);
  // New ids keep growing past the old ones.
  const auto next = http.exchange(HttpRequestSpec{verb::post,
                                                  "/api/v10/channels/" + chat.channel + "/messages",
                                                  R"({"content":"after the restart"})",
                                                  "Bearer " + chat.ada_token,
                                                  {}});
  REQUIRE(next.status == 200);
  const auto next_id = text_of(json_of(next)["id"]);
  CHECK(kept.count(next_id) == 0);
  CHECK((next_id.size() > served.front().size() ||
         (next_id.size() == served.front().size() && next_id > served.front())));
}

TEST_CASE("past the checkpoint threshold the database grows while commits go on, and kill -9 loses nothing") {
  StateDir dir;
  const auto db = dir.file();
  const auto wal = db + "-wal";
  constexpr std::uintmax_t kFrame = 4096 + 24;  // a WAL page and its frame header
  Chat chat;
  std::set<std::string> acknowledged;
  {
    EmulatorProcess first({"--state", db, "--no-social-rate-limits"});
    HttpsConnection http(first);
    chat = seed_chat(http);
    lift_rate_limits(http);
    std::error_code ec;
    const auto start_size = std::filesystem::file_size(db, ec);
    std::uintmax_t wal_when_grown = 0;
    // Long messages (half a page each), one turn each, until some have reached the database file (only a
    // checkpoint writes it), then as many again; the process is then killed.
    const std::string content(1900, 'w');
    int after_growth = 0;
    for (int i = 0; i < 5000 && after_growth < 200; ++i) {
      const auto answer = http.exchange(HttpRequestSpec{verb::post,
                                                        "/api/v10/channels/" + chat.channel + "/messages",
                                                        R"({"content":")" + content + R"("})",
                                                        "Bearer " + chat.ada_token,
                                                        {}});
      REQUIRE_MESSAGE(answer.status == 200, answer.body);
      acknowledged.insert(text_of(json_of(answer)["id"]));
      if (wal_when_grown == 0 && std::filesystem::file_size(db, ec) > start_size) {
        wal_when_grown = std::filesystem::file_size(wal, ec);
      }
      if (wal_when_grown != 0) ++after_growth;
    }
    MESSAGE("the database grew with the WAL at " << wal_when_grown / kFrame << " pages; "
                                                 << acknowledged.size() << " messages acknowledged");
    REQUIRE(wal_when_grown != 0);
    // SQLite's own checkpoint is off: the checkpointer's thread copied the WAL into the database, or, on a
    // machine too loaded to run it, the writer did at the 4,000-page bound. Either way the WAL stays bounded
    // (wal_checkpointer_test shows the thread's share without depending on timing).
    CHECK(wal_when_grown <= (4000 + 8) * kFrame);
    CHECK(first.wait_exit(SIGKILL) == -1);
  }

  EmulatorProcess second({"--state", db, "--no-social-rate-limits"});
  HttpsConnection http(second);
  const auto kept = stored_message_ids(http);
  std::size_t lost = 0;
  for (const auto& id : acknowledged)
    lost += kept.count(id) == 0 ? 1 : 0;
  CHECK(lost == 0);
  CHECK(kept.size() == acknowledged.size());
}

TEST_CASE("the same certificate authority and admin token after a restart") {
  StateDir dir;
  std::string first_ca;
  std::string first_token;
  {
    EmulatorProcess first({"--state", dir.file()});
    first_ca = file_bytes(first.ca_file());
    first_token = first.admin_authorization();
    CHECK(first.wait_exit(SIGTERM) == 0);
  }
  EmulatorProcess second({"--state", dir.file()});
  CHECK(file_bytes(second.ca_file()) == first_ca);
  // The web console's tab and a test's client keep working across the restart.
  CHECK(second.admin_authorization() == first_token);
  CHECK(platformpp::emulator::test::https_request(second, verb::get, "/_emulator/health", {}, first_token)
            .status == 200);
  // Without --state every start makes its own.
  EmulatorProcess third({});
  CHECK(file_bytes(third.ca_file()) != first_ca);
  CHECK(third.admin_authorization() != first_token);
  CHECK(platformpp::emulator::test::https_request(third, verb::get, "/_emulator/health", {}, first_token)
            .status == 401);
}

TEST_CASE("files that are not usable state stop the emulator, untouched") {
  StateDir dir;
  const auto check_refused = [&](const std::string& path, int code, const std::string& says) {
    const auto before = file_bytes(path);
    EmulatorProcess emulator({"--state", path}, false);
    CHECK(emulator.wait_exit() == code);
    CHECK_MESSAGE(emulator.stderr_text().find(says) != std::string::npos, emulator.stderr_text());
    CHECK(file_bytes(path) == before);
  };
  { std::ofstream(dir.file("text.db")) << "not a database at all, just some words\n"; }
  check_refused(dir.file("text.db"), 5, "not an SQLite database");

  // Another program's SQLite database.
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(dir.file("foreign.db").c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x');", nullptr,
                       nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
  check_refused(dir.file("foreign.db"), 5, "another program");

  // Ours, but written by a newer emulator.
  {
    EmulatorProcess maker({"--state", dir.file("newer.db")});
    CHECK(maker.wait_exit(SIGTERM) == 0);
  }
  REQUIRE(sqlite3_open(dir.file("newer.db").c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "UPDATE meta SET value = '99' WHERE key = 'schema_version'", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(db);
  check_refused(dir.file("newer.db"), 6, "99");

  // Ours, with a document this emulator cannot read.
  {
    EmulatorProcess maker({"--state", dir.file("damaged.db")});
    CHECK(maker.wait_exit(SIGTERM) == 0);
  }
  REQUIRE(sqlite3_open(dir.file("damaged.db").c_str(), &db) == SQLITE_OK);
  REQUIRE(sqlite3_exec(db, "INSERT INTO documents VALUES ('user', '42', '{\"v\":1}')", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(db);
  check_refused(dir.file("damaged.db"), 5, "user/42: missing \"username\"");
}

TEST_CASE("a snapshot exported from one emulator seeds another; reset empties it") {
  EmulatorProcess source({});
  HttpsConnection from(source);
  const auto chat = seed_chat(from);
  REQUIRE(from.exchange(HttpRequestSpec{verb::post,
                                        "/api/v10/channels/" + chat.channel + "/messages",
                                        R"({"content":"<script>kept as text</script>"})",
                                        "Bearer " + chat.ada_token,
                                        {}})
              .status == 200);
  const auto snapshot = from.exchange(HttpRequestSpec{verb::get, "/_emulator/state/export", {}, {}, {}});
  REQUIRE(snapshot.status == 200);

  StateDir dir;
  EmulatorProcess target({"--state", dir.file()});
  HttpsConnection to(target);
  // A snapshot that is not one changes nothing.
  const auto bad =
      to.exchange(HttpRequestSpec{verb::post, "/_emulator/state/import", R"({"documents":[]})", {}, {}});
  CHECK(bad.status == 400);
  const auto imported =
      to.exchange(HttpRequestSpec{verb::post, "/_emulator/state/import", snapshot.body, {}, {}});
  REQUIRE_MESSAGE(imported.status == 200, imported.body);
  const auto counts = json_of(imported);
  CHECK(counts["durable"].GetBool());
  CHECK(counts["counts"]["user"].GetInt64() == 3);  // ada, bob and the application's bot
  CHECK(counts["counts"]["message"].GetInt64() == 1);
  // The same token and history, and they are in the file: a restart still has them.
  CHECK(served_message_ids(to, chat).size() == 1);
  CHECK(target.wait_exit(SIGKILL) == -1);
  EmulatorProcess restarted({"--state", dir.file()});
  HttpsConnection again(restarted);
  CHECK(served_message_ids(again, chat).size() == 1);

  const auto reset = again.exchange(HttpRequestSpec{verb::post, "/_emulator/state/reset", {}, {}, {}});
  REQUIRE(reset.status == 200);
  CHECK(json_of(reset)["counts"]["user"].GetInt64() == 0);
  CHECK(again.exchange(HttpRequestSpec{verb::get, "/api/v10/users/@me", {}, "Bearer " + chat.ada_token, {}})
            .status == 401);
}

TEST_CASE("--import starts from a snapshot file, --export-on-exit writes one at a clean stop") {
  StateDir dir;
  std::string snapshot;
  Chat chat;
  {
    EmulatorProcess source({});
    HttpsConnection from(source);
    chat = seed_chat(from);
    REQUIRE(from.exchange(HttpRequestSpec{verb::post,
                                          "/api/v10/channels/" + chat.channel + "/messages",
                                          R"({"content":"before the snapshot"})",
                                          "Bearer " + chat.ada_token,
                                          {}})
                .status == 200);
    const auto exported = from.exchange(HttpRequestSpec{verb::get, "/_emulator/state/export", {}, {}, {}});
    REQUIRE(exported.status == 200);
    snapshot = exported.body;
  }
  { std::ofstream(dir.file("world.json"), std::ios::binary) << snapshot; }

  // A test's world from a file: the same users, token and history from the first request on.
  {
    EmulatorProcess seeded({"--import", dir.file("world.json"), "--export-on-exit", dir.file("after.json")});
    HttpsConnection http(seeded);
    CHECK(served_message_ids(http, chat).size() == 1);
    REQUIRE(http.exchange(HttpRequestSpec{verb::post,
                                          "/api/v10/channels/" + chat.channel + "/messages",
                                          R"({"content":"after the import"})",
                                          "Bearer " + chat.ada_token,
                                          {}})
                .status == 200);
    CHECK_FALSE(std::filesystem::exists(dir.file("after.json")));  // written at the stop, not before
    CHECK(seeded.wait_exit(SIGTERM) == 0);
  }
  // The world as the stop left it, private to its user (it holds tokens and keys).
  REQUIRE(std::filesystem::exists(dir.file("after.json")));
#ifndef _WIN32
  CHECK((std::filesystem::status(dir.file("after.json")).permissions() & std::filesystem::perms::all) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
#endif
  EmulatorProcess again({"--import", dir.file("after.json")});
  HttpsConnection http(again);
  CHECK(served_message_ids(http, chat).size() == 2);
  // With --state the import replaces what the file held, and it is in the file.
  {
    EmulatorProcess durable({"--state", dir.file(), "--import", dir.file("after.json")});
    CHECK(durable.wait_exit(SIGKILL) == -1);
  }
  EmulatorProcess restarted({"--state", dir.file()});
  HttpsConnection kept(restarted);
  CHECK(served_message_ids(kept, chat).size() == 2);
}

TEST_CASE("an --import file that is not a snapshot this emulator reads stops it with a clear error") {
  StateDir dir;
  const auto check_refused = [&](const std::string& content, int code, const std::string& says) {
    { std::ofstream(dir.file("world.json"), std::ios::binary) << content; }
    EmulatorProcess emulator({"--import", dir.file("world.json")}, false);
    CHECK(emulator.wait_exit() == code);
    const auto said = emulator.stderr_text();
    CHECK_MESSAGE(said.find(dir.file("world.json")) != std::string::npos, said);
    CHECK_MESSAGE(said.find(says) != std::string::npos, said);
  };
  check_refused("not json", 5, "not a JSON object");
  check_refused(R"({"format":"platformpp-emulator-state","schema_version":1})", 5, "no \"documents\" array");
  // A document this emulator cannot read: nothing of the snapshot is served.
  check_refused(R"({"format":"platformpp-emulator-state","schema_version":1,"documents":[)"
                R"({"kind":"user","id":"42","body":{"v":1}}]})",
                5, "user/42: missing \"username\"");
  // Written by a newer emulator: refused, as a newer state file is (exit 6).
  check_refused(R"({"format":"platformpp-emulator-state","schema_version":99,"documents":[]})", 6, "99");
  EmulatorProcess missing({"--import", dir.file("absent.json")}, false);
  CHECK(missing.wait_exit() == 5);
  CHECK_MESSAGE(missing.stderr_text().find("absent.json") != std::string::npos, missing.stderr_text());
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: emulator_state_test <path to platformpp-emulator> [doctest options]\n");
    return 2;
  }
  g_emulator_path = argv[1];
  // A run stopped by CTest's time limit must still show what it printed (under Wine a pipe is otherwise fully
  // buffered, and one such run showed nothing). Windows' C runtime treats _IOLBF as full buffering:
  // unbuffered.
#ifdef _WIN32
  std::setvbuf(stdout, nullptr, _IONBF, 0);
#else
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
#endif
  doctest::Context context;
  context.applyCommandLine(argc - 1, argv + 1);
  return context.run();
}
