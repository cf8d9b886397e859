// The Gateway session against an in-test fake Gateway server (plain ws:// behind an http:// API base, the way
// the emulator's --plain-http serves it): the fake answers GET {apiBase}/gateway on the same port and speaks
// the session protocol (Hello, heartbeats, Identify/READY, Resume with replay/RESUMED, op 7, op 9, close
// codes), with knobs to withhold ACKs, drop, close with a code, and send dispatches the client misses.
//
// Two levels: gateway::GatewayConnection alone (dispatches counted at its sink), and platformpp::Client
// (statuses through SetStatusChangedCallback). Tests against the emulator's Gateway are to be added beside
// these with the same SessionHarness/ClientHarness, pointed at the emulator's apiBase instead of the fake's.
#include "core/asio_prelude.hpp"

#include "core/callback_queue.hpp"
#include "core/logger.hpp"
#include "emulator_fixture.hpp"
#include "gateway/gateway_connection.hpp"
#include "net/http_client.hpp"

#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/zlib/deflate_stream.hpp>

#include <rapidjson/document.h>

#include <doctest/doctest.h>

#include <atomic>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using namespace std::chrono_literals;
using platformpp::Client;

// ---------------------------------------------------------------------------------------------------------
// The fake Gateway: one io_context thread; the test drives it through Do() (runs on that thread, waits).

class FakeGateway {
 public:
  struct Conn : std::enable_shared_from_this<Conn> {
    explicit Conn(beast::tcp_stream stream) : ws(std::move(stream)) {}
    websocket::stream<beast::tcp_stream> ws;
    bool compress = false;
    beast::zlib::deflate_stream deflate;
    bool headerSent = false;
    std::deque<std::pair<std::string, bool>> writes;
    bool writing = false;
    bool dead = false;

    void Send(const std::string& text) {
      if (dead) return;
      if (compress) {
        writes.emplace_back(Compress(text), true);
      } else {
        writes.emplace_back(text, false);
      }
      if (!writing) WriteNext();
    }
    std::string Compress(const std::string& text) {
      std::string out;
      if (!headerSent) {
        deflate.reset(6, 15, 8, beast::zlib::Strategy::normal);
        out = std::string("\x78\x9c", 2);
        headerSent = true;
      }
      beast::zlib::z_params zs;
      zs.next_in = text.data();
      zs.avail_in = text.size();
      std::vector<char> buffer(text.size() + 1024);
      for (;;) {
        zs.next_out = buffer.data();
        zs.avail_out = buffer.size();
        error_code ec;
        deflate.write(zs, beast::zlib::Flush::sync, ec);
        out.append(buffer.data(), buffer.size() - zs.avail_out);
        if (zs.avail_out != 0) break;
      }
      return out;
    }
    void WriteNext() {
      writing = true;
      ws.binary(writes.front().second);
      ws.async_write(asio::buffer(writes.front().first),
                     [self = shared_from_this()](error_code ec, std::size_t) {
                       self->writing = false;
                       if (ec) {
                         self->dead = true;
                         return;
                       }
                       self->writes.pop_front();
                       if (!self->writes.empty()) self->WriteNext();
                     });
    }
  };

  FakeGateway() : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    asio::co_spawn(io_, Accept(), asio::detached);
    thread_ = std::thread([this] { io_.run(); });
  }
  ~FakeGateway() {
    io_.stop();
    thread_.join();
  }

  std::string ApiBase() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v10"; }
  std::string WsUrl() const { return "ws://127.0.0.1:" + std::to_string(port_); }

  // Knobs.
  std::atomic<int> heartbeatIntervalMs{45000};
  std::atomic<bool> ackHeartbeats{true};
  std::atomic<int> replayOverlap{
      0};  // a resume replays from (seq - overlap): duplicates the client must drop

  // Observations (any thread).
  struct Stats {
    int httpGateway = 0;
    int websockets = 0;
    int identifies = 0;
    int heartbeats = 0;
    std::vector<std::optional<int64_t>> resumeSeqs;
    std::vector<int> clientCloseCodes;  // close frames the client sent (0: none)
    std::string lastIdentify;
    std::string lastQuery;
  };
  Stats Snapshot() {
    std::lock_guard lock(mutex_);
    return stats_;
  }

  /// Runs `f` on the server's thread and waits for it.
  void Do(std::function<void()> f) {
    std::promise<void> done;
    asio::post(io_, [&] {
      f();
      done.set_value();
    });
    done.get_future().wait();
  }

  // Actions (call inside Do, or through the helpers).
  void Dispatch(const std::string& t, const std::string& d, bool deliver = true) {
    Do([&] { DispatchHere(t, d, deliver); });
  }
  void Drop() {
    Do([&] {
      if (!current_) return;
      error_code ignored;
      beast::get_lowest_layer(current_->ws).socket().shutdown(tcp::socket::shutdown_both, ignored);
      beast::get_lowest_layer(current_->ws).socket().close(ignored);
      current_->dead = true;
      current_.reset();
    });
  }
  void CloseWith(uint16_t code) {
    Do([&] {
      if (!current_) return;
      auto conn = current_;
      current_.reset();
      conn->ws.async_close(websocket::close_reason(code), [conn](error_code) {});
    });
  }
  void SendOp(int op, const std::string& d) {
    Do([&] {
      if (current_) current_->Send("{\"op\":" + std::to_string(op) + ",\"d\":" + d + "}");
    });
  }
  int64_t LastSeq() {
    int64_t seq = 0;
    Do([&] { seq = seq_; });
    return seq;
  }

 private:
  void DispatchHere(const std::string& t, const std::string& d, bool deliver) {
    int64_t s = ++seq_;
    std::string frame = "{\"op\":0,\"s\":" + std::to_string(s) + ",\"t\":\"" + t + "\",\"d\":" + d + "}";
    log_.emplace_back(s, frame);
    if (deliver && current_) current_->Send(frame);
  }

  asio::awaitable<void> Accept() {
    for (;;) {
      tcp::socket socket(io_);
      error_code ec;
      co_await acceptor_.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return;
      asio::co_spawn(io_, Serve(beast::tcp_stream(std::move(socket))), asio::detached);
    }
  }

  asio::awaitable<void> Serve(beast::tcp_stream stream) {
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    error_code ec;
    co_await http::async_read(stream, buffer, request, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    if (!websocket::is_upgrade(request)) {
      http::response<http::string_body> response{http::status::not_found, 11};
      if (request.target().ends_with("/gateway")) {
        std::lock_guard lock(mutex_);
        ++stats_.httpGateway;
        response.result(http::status::ok);
        response.set(http::field::content_type, "application/json");
        response.body() = "{\"url\":\"" + WsUrl() + "\"}";
      }
      response.keep_alive(false);
      response.prepare_payload();
      co_await http::async_write(stream, response, asio::redirect_error(asio::use_awaitable, ec));
      error_code ignored;
      stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
      co_return;
    }
    auto conn = std::make_shared<Conn>(std::move(stream));
    std::string target(request.target());
    conn->compress = target.find("compress=zlib-stream") != std::string::npos;
    co_await conn->ws.async_accept(request, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    {
      std::lock_guard lock(mutex_);
      ++stats_.websockets;
      stats_.lastQuery = target;
    }
    current_ = conn;
    conn->Send("{\"op\":10,\"d\":{\"heartbeat_interval\":" + std::to_string(heartbeatIntervalMs.load()) +
               "}}");
    beast::flat_buffer in;
    for (;;) {
      co_await conn->ws.async_read(in, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) break;
      std::string text = beast::buffers_to_string(in.data());
      in.consume(in.size());
      if (!conn->dead) OnMessage(conn, text);
    }
    {
      std::lock_guard lock(mutex_);
      stats_.clientCloseCodes.push_back(ec == websocket::error::closed ? conn->ws.reason().code : 0);
    }
    conn->dead = true;
    if (current_ == conn) current_.reset();
  }

  void OnMessage(const std::shared_ptr<Conn>& conn, const std::string& text) {
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("op")) return;
    int op = doc["op"].GetInt();
    const auto& d = doc["d"];
    if (op == 1) {
      {
        std::lock_guard lock(mutex_);
        ++stats_.heartbeats;
      }
      if (ackHeartbeats) conn->Send("{\"op\":11}");
    } else if (op == 2) {
      {
        std::lock_guard lock(mutex_);
        ++stats_.identifies;
        stats_.lastIdentify = text;
      }
      sessionId_ = "sess-" + std::to_string(++sessions_);
      seq_ = 0;
      log_.clear();
      DispatchHere("READY",
                   "{\"v\":10,\"user\":{\"id\":\"1001\",\"username\":\"tester\"},\"session_id\":\"" +
                       sessionId_ + "\",\"resume_gateway_url\":\"" + WsUrl() + "\",\"guilds\":[]}",
                   true);
    } else if (op == 6) {
      std::optional<int64_t> seq;
      if (d.HasMember("seq") && d["seq"].IsInt64()) seq = d["seq"].GetInt64();
      {
        std::lock_guard lock(mutex_);
        stats_.resumeSeqs.push_back(seq);
      }
      if (!d.HasMember("session_id") || d["session_id"].GetString() != sessionId_) {
        conn->Send("{\"op\":9,\"d\":false}");
        return;
      }
      int64_t from = seq.value_or(0) - replayOverlap.load();
      for (const auto& [s, frame] : log_) {
        if (s > from) conn->Send(frame);
      }
      conn->Send("{\"op\":0,\"s\":null,\"t\":\"RESUMED\",\"d\":{}}");
    }
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  Stats stats_;  // mutex_
  // Server thread only.
  std::shared_ptr<Conn> current_;
  std::string sessionId_;
  int sessions_ = 0;
  int64_t seq_ = 0;
  std::vector<std::pair<int64_t, std::string>> log_;
};

template <class F>
bool Eventually(F condition, std::chrono::milliseconds timeout = 5000ms) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return condition();
}

// ---------------------------------------------------------------------------------------------------------
// gateway::GatewayConnection on its own, with the Client's building blocks.

struct SessionHarness {
  explicit SessionHarness(const std::string& apiBase, bool compress = true, std::string caFile = {})
      : http(*io, logger, HttpOptions(caFile)) {
    platformpp::gateway::GatewayOptions options;
    options.apiBase = apiBase;
    options.caFile = std::move(caFile);
    options.compress = compress;
    options.backoffInitial = 50ms;
    options.backoffMaximum = 200ms;
    options.connectTimeout = 3000ms;
    options.token = [this] {
      std::lock_guard lock(mutex);
      return token;
    };
    gateway = std::make_unique<platformpp::gateway::GatewayConnection>(*io, logger, http, options);
    gateway->SetStatusHandler([this](Client::Status status, Client::Error error, int32_t detail) {
      std::lock_guard lock(mutex);
      statuses.push_back(status);
      errors.emplace_back(error, detail);
    });
    gateway->SetDispatchSink([this](const platformpp::gateway::Dispatch& dispatch) {
      std::lock_guard lock(mutex);
      ++bySeq[dispatch.seq];
      types.emplace_back(dispatch.type);
    });
  }
  ~SessionHarness() { gateway->Shutdown(); }

  Client::Status Status() {
    std::lock_guard lock(mutex);
    return statuses.empty() ? Client::Status::Disconnected : statuses.back();
  }
  int Count(std::string_view type) {
    std::lock_guard lock(mutex);
    return static_cast<int>(std::count(types.begin(), types.end(), type));
  }
  int StatusCount(Client::Status status) {
    std::lock_guard lock(mutex);
    return static_cast<int>(std::count(statuses.begin(), statuses.end(), status));
  }

  std::shared_ptr<platformpp::IoContext> io = std::make_shared<platformpp::IoContext>(1);
  std::shared_ptr<platformpp::core::CallbackQueue> queue =
      std::make_shared<platformpp::core::CallbackQueue>();
  std::shared_ptr<platformpp::core::Logger> logger = std::make_shared<platformpp::core::Logger>(queue);
  platformpp::net::HttpClient http;

  static platformpp::net::HttpClientOptions HttpOptions(const std::string& caFile) {
    platformpp::net::HttpClientOptions options;
    options.caFile = caFile;
    return options;
  }
  std::unique_ptr<platformpp::gateway::GatewayConnection> gateway;

  std::mutex mutex;
  std::string token = "Bearer test-token";
  std::vector<Client::Status> statuses;
  std::vector<std::pair<Client::Error, int32_t>> errors;
  std::map<int64_t, int> bySeq;
  std::vector<std::string> types;
};

}  // namespace

TEST_CASE("gateway: Hello, Identify, READY -> Ready; heartbeats answered; zlib-stream transport") {
  FakeGateway server;
  server.heartbeatIntervalMs = 100;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  {
    std::lock_guard lock(session.mutex);
    std::vector<Client::Status> expected = {Client::Status::HttpWait, Client::Status::Connecting,
                                            Client::Status::Connected, Client::Status::Ready};
    CHECK(session.statuses == expected);
  }
  auto stats = server.Snapshot();
  CHECK(stats.httpGateway == 1);
  CHECK(stats.identifies == 1);
  CHECK(stats.lastQuery == "/?v=10&encoding=json&compress=zlib-stream");
  rapidjson::Document identify;
  identify.Parse(stats.lastIdentify.c_str());
  REQUIRE(identify.IsObject());
  CHECK(std::string(identify["d"]["token"].GetString()) == "Bearer test-token");
  CHECK(identify["d"]["compress"].IsFalse());
  CHECK((identify["d"]["capabilities"].GetInt64() & (1 << 15)) != 0);
  CHECK(session.Count("READY") == 1);

  // Heartbeats every 100 ms, all ACKed: the connection stays up.
  REQUIRE(Eventually([&] { return server.Snapshot().heartbeats >= 5; }));
  CHECK(server.Snapshot().websockets == 1);
  CHECK(session.Status() == Client::Status::Ready);

  server.Dispatch("PRESENCE_UPDATE", R"({"user":{"id":"2"},"status":"online"})");
  REQUIRE(Eventually([&] { return session.Count("PRESENCE_UPDATE") == 1; }));
}

TEST_CASE("gateway: a drop mid-stream resumes with the last seq; replayed dispatches arrive exactly once") {
  FakeGateway server;
  server.replayOverlap = 3;  // the server re-sends some the client already has
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  for (int i = 0; i < 10; ++i)
    server.Dispatch("MESSAGE_CREATE", R"({"id":")" + std::to_string(i) + R"(","content":"hi"})");
  REQUIRE(Eventually([&] { return session.Count("MESSAGE_CREATE") == 10; }));
  const int64_t delivered = server.LastSeq();  // 11: READY + 10
  // These never reach the client: the connection drops first.
  for (int i = 10; i < 15; ++i)
    server.Dispatch("MESSAGE_CREATE", R"({"id":")" + std::to_string(i) + R"(","content":"lost"})", false);
  server.Drop();
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
  CHECK(session.StatusCount(Client::Status::Reconnecting) >= 1);
  auto stats = server.Snapshot();
  CHECK(stats.identifies == 1);
  REQUIRE(stats.resumeSeqs.size() == 1);
  CHECK(stats.resumeSeqs[0] == delivered);
  CHECK(stats.httpGateway == 1);  // resumes go to resume_gateway_url; no second GET /gateway
  CHECK(Eventually([&] { return session.Count("MESSAGE_CREATE") == 15; }));
  CHECK(session.Count("RESUMED") == 1);
  std::lock_guard lock(session.mutex);
  for (int64_t s = 1; s <= 16; ++s)
    CHECK_MESSAGE(session.bySeq[s] == 1, "seq " << s);
}

TEST_CASE("gateway: withheld ACKs -> zombie -> closed with a resumable code and resumed") {
  FakeGateway server;
  server.heartbeatIntervalMs = 100;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  server.Dispatch("RELATIONSHIP_ADD", R"({"id":"5","type":1})");
  server.ackHeartbeats = false;
  REQUIRE(Eventually([&] { return server.Snapshot().resumeSeqs.size() == 1; }));
  server.ackHeartbeats = true;
  auto stats = server.Snapshot();
  REQUIRE(!stats.clientCloseCodes.empty());
  CHECK(stats.clientCloseCodes[0] != 1000);
  CHECK(stats.clientCloseCodes[0] != 1001);
  CHECK(stats.resumeSeqs[0] == 2);
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
  CHECK(session.Count("RELATIONSHIP_ADD") == 1);
  CHECK(server.Snapshot().identifies == 1);
}

TEST_CASE("gateway: op 9 false -> fresh Identify; op 9 true and op 7 -> resume") {
  FakeGateway server;
  SessionHarness session(server.ApiBase(), /*compress=*/false);
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  CHECK(server.Snapshot().lastQuery == "/?v=10&encoding=json");

  server.SendOp(7, "null");
  REQUIRE(Eventually([&] { return server.Snapshot().resumeSeqs.size() == 1; }));
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));

  server.SendOp(9, "true");
  REQUIRE(Eventually([&] { return server.Snapshot().resumeSeqs.size() == 2; }));
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 3; }));
  CHECK(server.Snapshot().identifies == 1);

  server.SendOp(9, "false");
  REQUIRE(Eventually([&] { return server.Snapshot().identifies == 2; }));
  CHECK(server.Snapshot().resumeSeqs.size() == 2);
  REQUIRE(Eventually([&] { return session.Count("READY") == 2; }));
  // The new session numbers from 1 again, and its READY (seq 1) was delivered although seq 1 was seen before.
  std::lock_guard lock(session.mutex);
  CHECK(session.bySeq[1] == 2);
}

TEST_CASE("gateway: close 4004 -> Disconnected with the error, no reconnect") {
  FakeGateway server;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  server.CloseWith(4004);
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Disconnected; }));
  {
    std::lock_guard lock(session.mutex);
    CHECK(session.errors.back().first == Client::Error::UnexpectedClose);
    CHECK(session.errors.back().second == 4004);
  }
  std::this_thread::sleep_for(1500ms);  // backoff here is 50..200 ms: a retry would have happened
  CHECK(server.Snapshot().websockets == 1);
  CHECK(session.Status() == Client::Status::Disconnected);
}

TEST_CASE("gateway: close 4000 resumes; close 4009 identifies afresh") {
  FakeGateway server;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  server.CloseWith(4000);
  REQUIRE(Eventually([&] { return server.Snapshot().resumeSeqs.size() == 1; }));
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
  server.CloseWith(4009);
  REQUIRE(Eventually([&] { return server.Snapshot().identifies == 2; }));
  CHECK(server.Snapshot().resumeSeqs.size() == 1);
}

TEST_CASE("gateway: Disconnect closes with 1000 -> Disconnected; Connect again identifies afresh") {
  FakeGateway server;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  session.gateway->Disconnect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Disconnected; }));
  REQUIRE(Eventually([&] { return server.Snapshot().clientCloseCodes.size() == 1; }));
  CHECK(server.Snapshot().clientCloseCodes[0] == 1000);
  CHECK(session.StatusCount(Client::Status::Disconnecting) == 1);
  {
    std::lock_guard lock(session.mutex);
    CHECK(session.errors.back().first == Client::Error::None);
  }
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
  CHECK(server.Snapshot().identifies == 2);
  CHECK(server.Snapshot().resumeSeqs.empty());
}

TEST_CASE("gateway: Reidentify (new token) closes and identifies with the new token") {
  FakeGateway server;
  SessionHarness session(server.ApiBase());
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  {
    std::lock_guard lock(session.mutex);
    session.token = "Bearer second-token";
  }
  session.gateway->Reidentify();
  REQUIRE(Eventually([&] { return server.Snapshot().identifies == 2; }));
  CHECK(server.Snapshot().lastIdentify.find("Bearer second-token") != std::string::npos);
  CHECK(server.Snapshot().clientCloseCodes.at(0) == 1000);
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
}

// ---------------------------------------------------------------------------------------------------------
// platformpp::Client.

namespace {

struct StatusLog {
  std::vector<Client::Status> statuses;
  std::vector<std::pair<Client::Error, int32_t>> errors;
  bool matched = true;  // GetStatus already returned the new status (or a later one) in every callback
};

platformpp::ClientOptions FakeOptions(const FakeGateway& server) {
  platformpp::ClientOptions options;
  options.apiBase = server.ApiBase();
  options.ipcEnabled = false;
  return options;
}

template <class F>
bool Pump(Client& client, F condition, std::chrono::milliseconds timeout = 5000ms) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    client.RunCallbacks();
    if (condition()) return true;
    client.WaitForCallbacks(10);
  }
  client.RunCallbacks();
  return condition();
}

}  // namespace

TEST_CASE("gateway Client: Connect without a token stays Disconnected and reports ConnectionFailed") {
  FakeGateway server;
  Client client(FakeOptions(server));
  StatusLog log;
  client.SetStatusChangedCallback([&](Client::Status status, Client::Error error, int32_t detail) {
    log.statuses.push_back(status);
    log.errors.emplace_back(error, detail);
  });
  client.Connect();
  CHECK(client.GetStatus() == Client::Status::Disconnected);
  REQUIRE(Pump(client, [&] { return !log.statuses.empty(); }));
  CHECK(log.statuses[0] == Client::Status::Disconnected);
  CHECK(log.errors[0].first == Client::Error::ConnectionFailed);
  CHECK(log.errors[0].second == 401);
  CHECK(server.Snapshot().httpGateway == 0);
  CHECK(Client::StatusToString(Client::Status::HttpWait) == "HttpWait");
  CHECK(Client::ErrorToString(Client::Error::UnexpectedClose) == "UnexpectedClose");
}

TEST_CASE("gateway Client: Connect -> Ready in RunCallbacks, in order; Disconnect -> Disconnected") {
  FakeGateway server;
  Client client(FakeOptions(server));
  StatusLog log;
  auto thread = std::this_thread::get_id();
  client.SetStatusChangedCallback([&](Client::Status status, Client::Error error, int32_t detail) {
    CHECK(std::this_thread::get_id() == thread);
    log.statuses.push_back(status);
    log.errors.emplace_back(error, detail);
    if (status == Client::Status::Ready && client.GetStatus() != Client::Status::Ready) log.matched = false;
  });
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, "client-token",
                     [](platformpp::ClientResult) {});
  client.Connect();
  REQUIRE(
      Pump(client, [&] { return !log.statuses.empty() && log.statuses.back() == Client::Status::Ready; }));
  std::vector<Client::Status> expected = {Client::Status::HttpWait, Client::Status::Connecting,
                                          Client::Status::Connected, Client::Status::Ready};
  CHECK(log.statuses == expected);
  CHECK(log.matched);
  CHECK(client.GetStatus() == Client::Status::Ready);
  CHECK(server.Snapshot().lastIdentify.find("Bearer client-token") != std::string::npos);

  // UpdateToken with another token while connected: a fresh Identify with it.
  client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, "client-token-2",
                     [](platformpp::ClientResult) {});
  REQUIRE(Pump(client, [&] { return server.Snapshot().identifies == 2; }));
  CHECK(server.Snapshot().lastIdentify.find("Bearer client-token-2") != std::string::npos);
  REQUIRE(Pump(client, [&] {
    return std::count(log.statuses.begin(), log.statuses.end(), Client::Status::Ready) == 2;
  }));

  client.Disconnect();
  REQUIRE(Pump(client, [&] { return log.statuses.back() == Client::Status::Disconnected; }));
  CHECK(log.statuses[log.statuses.size() - 2] == Client::Status::Disconnecting);
  CHECK(log.errors.back().first == Client::Error::None);
  CHECK(client.GetStatus() == Client::Status::Disconnected);
  REQUIRE(Eventually([&] { return !server.Snapshot().clientCloseCodes.empty(); }));
  CHECK(server.Snapshot().clientCloseCodes.back() == 1000);
}

TEST_CASE("gateway Client: destroying a connected Client is clean; no callback afterwards") {
  FakeGateway server;
  server.heartbeatIntervalMs = 50;
  int calls = 0;
  {
    Client client(FakeOptions(server));
    client.SetStatusChangedCallback([&](Client::Status, Client::Error, int32_t) { ++calls; });
    client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, "t", [](platformpp::ClientResult) {});
    client.Connect();
    REQUIRE(Pump(client, [&] { return client.GetStatus() == Client::Status::Ready; }));
    client.RunCallbacks();
    server.Dispatch("PRESENCE_UPDATE", "{}");  // work in flight while the Client goes away
  }
  int after = calls;
  std::this_thread::sleep_for(200ms);
  CHECK(calls == after);
  REQUIRE(Eventually([&] { return server.Snapshot().clientCloseCodes.size() == 1; }));

  // Destroyed while still waiting for the connection, and from inside a status callback.
  auto client = std::make_unique<Client>(FakeOptions(server));
  client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, "t", [](platformpp::ClientResult) {});
  client->SetStatusChangedCallback([&](Client::Status status, Client::Error, int32_t) {
    if (status == Client::Status::Connected) client.reset();
  });
  client->Connect();
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (client && std::chrono::steady_clock::now() < deadline) {
    client->RunCallbacks();
    std::this_thread::sleep_for(1ms);
  }
  CHECK(!client);
}

// The same session against the emulator's Gateway: TLS, zlib-stream with the zlib header, its own resume
// buffer and close codes.
namespace {

struct EmulatorSession : SessionHarness {
  EmulatorSession()
      : SessionHarness(itest::Shared().Options().apiBase, true, itest::Shared().Options().caFile) {
    std::lock_guard lock(mutex);
    token = "Bearer " + itest::Shared().token.accessToken;
  }
  platformpp::testkit::EmulatorAdmin::GatewayTarget Me() const {
    platformpp::testkit::EmulatorAdmin::GatewayTarget target;
    target.userId = itest::Shared().user.id;
    return target;
  }
};

}  // namespace

TEST_CASE("gateway against the emulator: a cut mid-stream resumes and every dispatch arrives exactly once") {
  auto& emu = itest::Shared();
  EmulatorSession session;
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  for (int i = 0; i < 5; ++i)
    emu.admin->InjectDispatch(emu.user.id, "MESSAGE_CREATE", R"({"id":")" + std::to_string(i) + R"("})");
  REQUIRE(Eventually([&] { return session.Count("MESSAGE_CREATE") == 5; }));
  REQUIRE(emu.admin->DropGateway(session.Me()) == 1);
  // Sent while the connection is gone: the emulator keeps them for the resume.
  for (int i = 5; i < 10; ++i)
    emu.admin->InjectDispatch(emu.user.id, "MESSAGE_CREATE", R"({"id":")" + std::to_string(i) + R"("})");
  REQUIRE(Eventually([&] { return session.StatusCount(Client::Status::Ready) == 2; }));
  REQUIRE(Eventually([&] { return session.Count("MESSAGE_CREATE") == 10; }));
  CHECK(session.Count("RESUMED") == 1);
  CHECK(session.Count("READY") == 1);
  std::lock_guard lock(session.mutex);
  for (auto& [seq, count] : session.bySeq)
    CHECK_MESSAGE(count == 1, "seq " << seq);
}

TEST_CASE("gateway against the emulator: withheld ACKs -> zombie -> resumed; op 9 false -> fresh Identify") {
  auto& emu = itest::Shared();
  emu.admin->SetHeartbeatInterval(std::chrono::milliseconds(150));
  EmulatorSession session;
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  REQUIRE(emu.admin->StallGateway(session.Me()) == 1);
  REQUIRE(Eventually([&] { return session.Count("RESUMED") == 1; }));
  CHECK(session.Count("READY") == 1);
  REQUIRE(emu.admin->InvalidateGateway(session.Me(), false) == 1);
  REQUIRE(Eventually([&] { return session.Count("READY") == 2; }));
  emu.admin->SetHeartbeatInterval(std::chrono::milliseconds(45000));
}

TEST_CASE("gateway against the emulator: close 4004 -> Disconnected with the error, no reconnect") {
  auto& emu = itest::Shared();
  EmulatorSession session;
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  REQUIRE(emu.admin->CloseGateway(session.Me(), 4004, "Authentication failed.") == 1);
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Disconnected; }));
  {
    std::lock_guard lock(session.mutex);
    CHECK(session.errors.back() == std::make_pair(Client::Error::UnexpectedClose, 4004));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK(session.StatusCount(Client::Status::Connecting) == 1);
  CHECK(session.Status() == Client::Status::Disconnected);
}
