// Starts the real platformpp-emulator binary (path in argv[1]) on an ephemeral port and talks to it over real
// TLS and plain-HTTP sockets: connection file, health, auth, faults (delay without blocking others, drop,
// truncate), hostile input, startup failures and a clean exit on SIGTERM. The sockets are
// http_test_client.hpp's (emulator_test_support).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <csignal>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.hpp"
#include "emulator_process.hpp"
#include "http_test_client.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using Response = platformpp::emulator::test::HttpResult;
using TlsClient = platformpp::emulator::test::HttpsConnection;
using platformpp::emulator::test::EmulatorProcess;
using platformpp::emulator::test::g_emulator_path;
using platformpp::emulator::test::HttpRequestSpec;
using platformpp::emulator::test::PlainConnections;
using platformpp::emulator::test::raw_exchange;
using verb = platformpp::emulator::test::HttpMethod;

HttpRequestSpec make_request(verb method, const std::string& target, const std::string& body = {},
                             const std::string& authorization = {}) {
  return HttpRequestSpec{method, target, body, authorization, "emulator-smoke-test"};
}

Response tls_exchange(const EmulatorProcess& emulator, const HttpRequestSpec& request) {
  TlsClient client(emulator);
  return client.exchange(request);
}

rapidjson::Document json_of(const Response& response) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(platformpp::emulator::parse_json(response.body, document), response.body);
  return document;
}

}  // namespace

TEST_CASE("TLS emulator: connection file, health, auth, faults and SIGTERM") {
  EmulatorProcess emulator({});
  const auto& connection = emulator.connection();
  const std::string authority = "127.0.0.1:" + std::to_string(emulator.port());
  CHECK(std::string(connection["api_base"].GetString()) == "https://" + authority + "/api/v10");
  CHECK(std::string(connection["gateway_url"].GetString()) == "wss://" + authority);
  CHECK(std::string(connection["admin_base"].GetString()) == "https://" + authority + "/_emulator");
  CHECK(std::string(connection["web_base"].GetString()) == "https://" + authority);
  CHECK(connection["tls"].GetBool());
  CHECK(std::string(connection["ipc_name"].GetString()) == "platformpp");
#ifdef _WIN32
  // The first free pipe of the machine (another emulator may hold -0); the file's DACL is checked by the unit
  // tests (connection_file_test.cpp).
  const std::string ipc_path = connection["ipc_path"].GetString();
  CHECK(ipc_path.starts_with(R"(\\?\pipe\platformpp-ipc-)"));
  const std::string ipc_part = " and pipe:" + ipc_path;
#else
  CHECK(std::string(connection["ipc_path"].GetString()) == emulator.dir() + "/platformpp-ipc-0");
  struct stat info {};
  REQUIRE(::stat(emulator.connection_file().c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  const std::string ipc_part = " and unix:" + emulator.dir() + "/platformpp-ipc-0";
#endif
  // The line is printed right after the connection file is written.
  const std::string expected_line = "platformpp-emulator listening on https://" + authority + ipc_part +
                                    " (connection file: " + emulator.connection_file() + ")\n";
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (emulator.stdout_text() != expected_line && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(emulator.stdout_text() == expected_line);

  // The admin API wants the connection file's admin token; its refusal is logged without any token.
  const std::string admin_token = connection["admin_token"].GetString();
  CHECK(admin_token.size() == 43);
  CHECK(platformpp::emulator::test::https_request(emulator.ca_file(), emulator.port(), verb::get,
                                                  "/_emulator/tokens/" + admin_token)
            .status == 401);
  CHECK(emulator.stderr_text().find("refused GET /_emulator/tokens/... without the admin token") !=
        std::string::npos);
  CHECK(emulator.stderr_text().find(admin_token) == std::string::npos);
  CHECK(tls_exchange(emulator, make_request(verb::get, "/_emulator/health", {}, "Bearer x" + admin_token))
            .status == 401);

  auto response = tls_exchange(emulator, make_request(verb::get, "/_emulator/health"));
  CHECK(response.status == 200);
  CHECK(json_of(response)["ok"].GetBool());

  // Seed a user, an app and a token, then call the API with it.
  const auto user = json_of(
      tls_exchange(emulator, make_request(verb::post, "/_emulator/users", R"({"username":"smoke"})")));
  const auto app =
      json_of(tls_exchange(emulator, make_request(verb::post, "/_emulator/apps", R"({"name":"Smoke"})")));
  // The consent page at the web root answers a real redirect.
  response = tls_exchange(
      emulator, make_request(verb::get, std::string("/oauth2/authorize?response_type=code&scope=openid"
                                                    "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
                                                    "&state=s1&client_id=") +
                                            app["id"].GetString()));
  CHECK(response.status == 302);
  CHECK(std::string(response.header("Location")).starts_with("http://127.0.0.1:9/cb?code="));
  CHECK(std::string(response.header("Location")).ends_with("&state=s1"));
  const auto token = json_of(tls_exchange(
      emulator, make_request(verb::post, "/_emulator/tokens",
                             std::string(R"({"user_id":")") + user["id"].GetString() + R"(","app_id":")" +
                                 app["id"].GetString() + R"(","scopes":"openid"})")));
  {
    TlsClient client(emulator);  // two requests on one keep-alive connection
    const std::string bearer = std::string("Bearer ") + token["access_token"].GetString();
    response = client.exchange(make_request(verb::get, "/api/v10/users/@me", {}, bearer));
    CHECK(response.status == 200);
    CHECK(std::string(json_of(response)["username"].GetString()) == "smoke");
    CHECK(response.header("Content-Type") == "application/json");
    CHECK(response.header("X-RateLimit-Remaining") == "49");
    response = client.exchange(make_request(verb::get, "/api/v10/users/@me", {}, bearer));
    CHECK(response.header("X-RateLimit-Remaining") == "48");
  }

  SUBCASE("a delayed request does not hold up others") {
    // Held for a minute: the other request's answer arrives while it is still held (an order, not a time).
    tls_exchange(emulator, make_request(verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","delay_ms":60000,"count":1})"));
    TlsClient held(emulator);
    held.send(make_request(verb::get, "/api/v10/gateway"));
    CHECK(tls_exchange(emulator, make_request(verb::get, "/_emulator/health")).status == 200);
    CHECK(held.nothing_received());
    // The check itself sees an answer that has come, and keeps what it read of it.
    TlsClient quick(emulator);
    quick.send(make_request(verb::get, "/_emulator/health"));
    const auto give_up = Clock::now() + std::chrono::seconds(10);
    while (quick.nothing_received() && Clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const auto quick_answer = quick.receive();
    REQUIRE(quick_answer);
    CHECK(quick_answer->status == 200);
    // A delayed request is answered, and never before its delay (a lower bound only: a busy machine is late).
    tls_exchange(emulator, make_request(verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","delay_ms":300,"count":1})"));
    TlsClient slow(emulator);
    const auto started = Clock::now();
    slow.send(make_request(verb::get, "/api/v10/gateway"));
    auto slow_response = slow.receive();
    REQUIRE(slow_response);
    response = *slow_response;
    CHECK(response.status == 200);
    CHECK(Clock::now() - started >= std::chrono::milliseconds(300));
  }

  SUBCASE("drop closes without an answer; truncate announces more than it sends") {
    tls_exchange(emulator,
                 make_request(verb::post, "/_emulator/faults", R"({"route":"GET /gateway","drop":true})"));
    {
      TlsClient client(emulator);
      client.send(make_request(verb::get, "/api/v10/gateway"));
      CHECK_FALSE(client.receive());  // an error, not a response
    }
    tls_exchange(emulator, make_request(verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","truncate":true})"));
    {
      TlsClient client(emulator);
      client.send(make_request(verb::get, "/api/v10/gateway"));
      CHECK_FALSE(client.receive());  // an error, not a response
    }
    CHECK(tls_exchange(emulator, make_request(verb::get, "/api/v10/gateway")).status == 200);
  }

  SUBCASE("garbage and plain HTTP on the TLS port are survived") {
    raw_exchange(emulator.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    raw_exchange(emulator.port(), std::string("\x16\x03\x01\x00\x05hello\xff\x00garbage", 17));
    CHECK(tls_exchange(emulator, make_request(verb::get, "/_emulator/health")).status == 200);
  }

  check_clean_exit(emulator, SIGTERM);
}

TEST_CASE("plain-HTTP emulator: hostile input gets clean errors and SIGINT exits 0") {
  EmulatorProcess emulator({"--plain-http", "--frozen-clock"});
  CHECK(emulator.connection()["ca_file"].IsNull());
  CHECK(std::string(emulator.connection()["api_base"].GetString()).starts_with("http://127.0.0.1:"));

  // Raw requests carry the admin token themselves.
  const std::string token = "Authorization: " + emulator.admin_authorization() + "\r\n";
  auto answer =
      raw_exchange(emulator.port(), "GET /_emulator/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(answer.starts_with("HTTP/1.1 401"));
  answer = raw_exchange(
      emulator.port(), "GET /_emulator/health HTTP/1.1\r\nHost: x\r\n" + token + "Connection: close\r\n\r\n");
  CHECK(answer.starts_with("HTTP/1.1 200 OK"));
  CHECK(answer.find("\"ok\":true") != std::string::npos);

  answer = raw_exchange(emulator.port(), "\x01\x02 not http at all\r\n\r\n");
  CHECK(answer.starts_with("HTTP/1.1 400"));

  answer = raw_exchange(emulator.port(),
                        "POST /_emulator/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        "Content-Length: 2000000\r\n\r\n{");
  CHECK(answer.starts_with("HTTP/1.1 413"));

  answer = raw_exchange(emulator.port(), "GET / HTTP/1.1\r\nX-Big: " + std::string(20000, 'a') + "\r\n\r\n");
  CHECK(answer.starts_with("HTTP/1.1 431"));

  answer = raw_exchange(emulator.port(),
                        "POST /_emulator/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
                            token + "Content-Length: 5\r\nConnection: close\r\n\r\n{\"a\":");
  CHECK(answer.starts_with("HTTP/1.1 400"));
  CHECK(answer.find("50109") != std::string::npos);

  {  // hundreds of concurrent connections are all served
    PlainConnections streams;
    for (int i = 0; i < 300; ++i)
      streams.connect(emulator.port());
    const std::string request = "GET /_emulator/health HTTP/1.1\r\nHost: x\r\n" + token + "\r\n";
    for (std::size_t i = 0; i < streams.size(); ++i)
      streams.write(i, request);
    int answered = 0;
    for (std::size_t i = 0; i < streams.size(); ++i) {
      const auto response = streams.read_response(i);
      if (response && response->status == 200) ++answered;
    }
    CHECK(answered == 300);
  }

  answer = raw_exchange(emulator.port(),
                        "GET /_emulator/clock HTTP/1.1\r\nHost: x\r\n" + token + "Connection: close\r\n\r\n");
  CHECK(answer.find("\"frozen\":true") != std::string::npos);

  check_clean_exit(emulator, SIGINT);
}

TEST_CASE("slowloris: a request trickled a byte at a time is cut at --idle-timeout-ms; others are served") {
  EmulatorProcess emulator({"--plain-http", "--no-ipc", "--idle-timeout-ms", "1000"});
  PlainConnections slow;
  slow.connect(emulator.port());
  // A header that never ends, one byte every 100 ms: the deadline is the request's, not the byte's, so the
  // emulator closes it at about 1 s; the writes fail soon after (its kernel resets the connection).
  const std::string trickle = "GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nX-Slow: " + std::string(100, 'a');
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::chrono::steady_clock::duration> cut;
  for (std::size_t i = 0; i < trickle.size() && !cut; ++i) {
    try {
      slow.write(0, trickle.substr(i, 1));
    } catch (const std::exception&) {
      cut = std::chrono::steady_clock::now() - start;
    }
    if (i == 5) {  // meanwhile another client is answered at once
      const auto answer = raw_exchange(emulator.port(),
                                       "GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\n"
                                       "Connection: close\r\n\r\n");
      CHECK(answer.starts_with("HTTP/1.1 200"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE_MESSAGE(cut, "10 s of trickling and the connection is still open");
  CHECK(*cut >= std::chrono::milliseconds(900));
  CHECK(*cut < std::chrono::milliseconds(2500));
}

TEST_CASE(
    "--max-connections: one over the limit is closed as it is accepted, and a place given back is taken") {
  EmulatorProcess emulator({"--plain-http", "--no-ipc", "--max-connections", "3"});
  const std::string health = "GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\n\r\n";
  PlainConnections held;
  for (std::size_t i = 0; i < 3; ++i) {  // three kept-alive connections, each served
    held.connect(emulator.port());
    held.write(i, health);
    const auto answer = held.read_response(i);
    REQUIRE(answer);
    CHECK(answer->status == 200);
  }
  // The fourth: the kernel accepts it, the emulator closes it unread.
  const std::string closing = "GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  CHECK(raw_exchange(emulator.port(), closing).empty());
#ifndef _WIN32
  // Open finding: under Wine the refusal works (above, below) but its log line does not reach the captured
  // stderr; checked on Linux until that is understood.
  // The log line reaches the test's end of the stderr pipe after the close may (Windows): awaited.
  const std::string refused = "TCP connection refused: 3 are open, the limit (--max-connections)";
  const auto logged_by = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (emulator.stderr_text().find(refused) == std::string::npos &&
         std::chrono::steady_clock::now() < logged_by)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(emulator.stderr_text().find(refused) != std::string::npos);
#endif
  // The three are still served.
  held.write(2, health);
  const auto again = held.read_response(2);
  REQUIRE(again);
  CHECK(again->status == 200);
  // One of them ends: its place is given back as the emulator sees the close.
  held.close(0);
  bool served = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!served && std::chrono::steady_clock::now() < deadline) {
    served = raw_exchange(emulator.port(), closing).starts_with("HTTP/1.1 200");
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(served);
}

TEST_CASE("startup failures exit non-zero with a message") {
  EmulatorProcess first({"--plain-http"});
  EmulatorProcess clash({"--plain-http", "--port", std::to_string(first.port())}, false);
  CHECK(clash.wait_exit() == 1);
  CHECK(clash.stderr_text().find("cannot listen") != std::string::npos);

  EmulatorProcess unwritable({"--plain-http", "--connection-file", "/nonexistent-dir/c.json"}, false);
  CHECK(unwritable.wait_exit() == 1);
  CHECK_FALSE(unwritable.stderr_text().empty());

  EmulatorProcess bad_flag({"--no-such-flag"}, false);
  CHECK(bad_flag.wait_exit() == 2);
  EmulatorProcess remote({"--host", "0.0.0.0"}, false);
  CHECK(remote.wait_exit() == 2);

  check_clean_exit(first, SIGTERM);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: emulator_smoke_test <path to platformpp-emulator> [doctest options]\n");
    return 2;
  }
  g_emulator_path = argv[1];
  doctest::Context context;
  context.applyCommandLine(argc - 1, argv + 1);
  return context.run();
}
