// Starts the real platformpp-emulator binary (path in argv[1]) on an ephemeral port and talks to it over real
// TLS and plain-HTTP sockets: connection file, health, auth, faults (delay without blocking others, drop,
// truncate), hostile input, startup failures and a clean exit on SIGTERM. The only Beast translation unit of
// the tests.
#include "asio_prelude.hpp"

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "emulator_process.hpp"
#include "json.hpp"

extern char** environ;

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using Response = http::response<http::string_body>;
using platformpp::emulator::test::EmulatorProcess;
using platformpp::emulator::test::g_emulator_path;

http::request<http::string_body> make_request(http::verb method, const std::string& target,
                                              const std::string& body = {},
                                              const std::string& authorization = {}) {
  http::request<http::string_body> request(method, target, 11);
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::user_agent, "emulator-smoke-test");
  if (!authorization.empty()) request.set(http::field::authorization, authorization);
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
  }
  request.prepare_payload();
  return request;
}

// One TLS connection that verifies the emulator's certificate against its CA file for host 127.0.0.1.
class TlsClient {
 public:
  TlsClient(const EmulatorProcess& emulator) : context_(ssl::context::tls_client), stream_(io_, context_) {
    context_.load_verify_file(emulator.ca_file());
    stream_.set_verify_mode(ssl::verify_peer);
    stream_.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    beast::get_lowest_layer(stream_).connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), emulator.port()));
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(20));
    stream_.handshake(ssl::stream_base::client);
  }

  void send(const http::request<http::string_body>& request) { http::write(stream_, request); }
  Response receive(beast::error_code& ec) {
    Response response;
    http::read(stream_, buffer_, response, ec);
    return response;
  }
  Response exchange(const http::request<http::string_body>& request) {
    send(request);
    beast::error_code ec;
    auto response = receive(ec);
    REQUIRE_MESSAGE(!ec, ec.message());
    return response;
  }

 private:
  net::io_context io_;
  ssl::context context_;
  beast::ssl_stream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
};

Response tls_exchange(const EmulatorProcess& emulator, const http::request<http::string_body>& request) {
  TlsClient client(emulator);
  return client.exchange(request);
}

rapidjson::Document json_of(const Response& response) {
  rapidjson::Document document;
  REQUIRE_MESSAGE(platformpp::emulator::parse_json(response.body(), document), response.body());
  return document;
}

// Sends raw bytes over plain TCP and returns everything the server answers until it closes.
std::string raw_exchange(unsigned short port, const std::string& bytes) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  stream.expires_after(std::chrono::seconds(20));
  net::write(stream, net::buffer(bytes));
  std::string received;
  beast::error_code ec;
  char chunk[4096];
  while (true) {
    const auto n = stream.read_some(net::buffer(chunk), ec);
    received.append(chunk, n);
    if (ec) break;
  }
  return received;
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
  CHECK(std::string(connection["ipc_path"].GetString()) == emulator.dir() + "/platformpp-ipc-0");
  CHECK(std::string(connection["ipc_name"].GetString()) == "platformpp");
  struct stat info {};
  REQUIRE(::stat(emulator.connection_file().c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  // The line is printed right after the connection file is written.
  const std::string expected_line =
      "platformpp-emulator listening on https://" + authority + " and unix:" + emulator.dir() +
      "/platformpp-ipc-0 (connection file: " + emulator.connection_file() + ")\n";
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (emulator.stdout_text() != expected_line && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(emulator.stdout_text() == expected_line);

  auto response = tls_exchange(emulator, make_request(http::verb::get, "/_emulator/health"));
  CHECK(response.result_int() == 200);
  CHECK(json_of(response)["ok"].GetBool());

  // Seed a user, an app and a token, then call the API with it.
  const auto user = json_of(
      tls_exchange(emulator, make_request(http::verb::post, "/_emulator/users", R"({"username":"smoke"})")));
  const auto app = json_of(
      tls_exchange(emulator, make_request(http::verb::post, "/_emulator/apps", R"({"name":"Smoke"})")));
  // The consent page at the web root answers a real redirect.
  response = tls_exchange(
      emulator, make_request(http::verb::get, std::string("/oauth2/authorize?response_type=code&scope=openid"
                                                          "&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb"
                                                          "&state=s1&client_id=") +
                                                  app["id"].GetString()));
  CHECK(response.result_int() == 302);
  CHECK(std::string(response[http::field::location]).starts_with("http://127.0.0.1:9/cb?code="));
  CHECK(std::string(response[http::field::location]).ends_with("&state=s1"));
  const auto token = json_of(tls_exchange(
      emulator, make_request(http::verb::post, "/_emulator/tokens",
                             std::string(R"({"user_id":")") + user["id"].GetString() + R"(","app_id":")" +
                                 app["id"].GetString() + R"(","scopes":"openid"})")));
  {
    TlsClient client(emulator);  // two requests on one keep-alive connection
    const std::string bearer = std::string("Bearer ") + token["access_token"].GetString();
    response = client.exchange(make_request(http::verb::get, "/api/v10/users/@me", {}, bearer));
    CHECK(response.result_int() == 200);
    CHECK(std::string(json_of(response)["username"].GetString()) == "smoke");
    CHECK(response[http::field::content_type] == "application/json");
    CHECK(response["X-RateLimit-Remaining"] == "49");
    response = client.exchange(make_request(http::verb::get, "/api/v10/users/@me", {}, bearer));
    CHECK(response["X-RateLimit-Remaining"] == "48");
  }

  SUBCASE("a delayed request does not hold up others") {
    tls_exchange(emulator, make_request(http::verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","delay_ms":1000})"));
    TlsClient slow(emulator);
    const auto started = Clock::now();
    slow.send(make_request(http::verb::get, "/api/v10/gateway"));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(tls_exchange(emulator, make_request(http::verb::get, "/_emulator/health")).result_int() == 200);
    CHECK(Clock::now() - started < std::chrono::milliseconds(900));
    beast::error_code ec;
    response = slow.receive(ec);
    REQUIRE(!ec);
    CHECK(response.result_int() == 200);
    CHECK(Clock::now() - started >= std::chrono::milliseconds(1000));
  }

  SUBCASE("drop closes without an answer; truncate announces more than it sends") {
    tls_exchange(emulator, make_request(http::verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","drop":true})"));
    {
      TlsClient client(emulator);
      client.send(make_request(http::verb::get, "/api/v10/gateway"));
      beast::error_code ec;
      client.receive(ec);
      CHECK(ec);
    }
    tls_exchange(emulator, make_request(http::verb::post, "/_emulator/faults",
                                        R"({"route":"GET /gateway","truncate":true})"));
    {
      TlsClient client(emulator);
      client.send(make_request(http::verb::get, "/api/v10/gateway"));
      beast::error_code ec;
      client.receive(ec);
      CHECK(ec);
    }
    CHECK(tls_exchange(emulator, make_request(http::verb::get, "/api/v10/gateway")).result_int() == 200);
  }

  SUBCASE("garbage and plain HTTP on the TLS port are survived") {
    raw_exchange(emulator.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    raw_exchange(emulator.port(), std::string("\x16\x03\x01\x00\x05hello\xff\x00garbage", 17));
    CHECK(tls_exchange(emulator, make_request(http::verb::get, "/_emulator/health")).result_int() == 200);
  }

  CHECK(emulator.wait_exit(SIGTERM) == 0);
}

TEST_CASE("plain-HTTP emulator: hostile input gets clean errors and SIGINT exits 0") {
  EmulatorProcess emulator({"--plain-http", "--frozen-clock"});
  CHECK(emulator.connection()["ca_file"].IsNull());
  CHECK(std::string(emulator.connection()["api_base"].GetString()).starts_with("http://127.0.0.1:"));

  auto answer =
      raw_exchange(emulator.port(), "GET /_emulator/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
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
                        "POST /_emulator/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        "Content-Length: 5\r\nConnection: close\r\n\r\n{\"a\":");
  CHECK(answer.starts_with("HTTP/1.1 400"));
  CHECK(answer.find("50109") != std::string::npos);

  {  // hundreds of concurrent connections are all served
    net::io_context io;
    const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), emulator.port());
    std::vector<beast::tcp_stream> streams;
    streams.reserve(300);
    for (int i = 0; i < 300; ++i) {
      streams.emplace_back(io);
      streams.back().connect(endpoint);
    }
    const std::string request = "GET /_emulator/health HTTP/1.1\r\nHost: x\r\n\r\n";
    for (auto& stream : streams)
      net::write(stream, net::buffer(request));
    int answered = 0;
    for (auto& stream : streams) {
      stream.expires_after(std::chrono::seconds(20));
      beast::flat_buffer buffer;
      Response response;
      beast::error_code ec;
      http::read(stream, buffer, response, ec);
      if (!ec && response.result_int() == 200) ++answered;
    }
    CHECK(answered == 300);
  }

  answer =
      raw_exchange(emulator.port(), "GET /_emulator/clock HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(answer.find("\"frozen\":true") != std::string::npos);

  CHECK(emulator.wait_exit(SIGINT) == 0);
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

  CHECK(first.wait_exit(SIGTERM) == 0);
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
