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
#include "core/io_context_access.hpp"
#include "core/logger.hpp"
#include "emulator_fixture.hpp"
#include "gateway/gateway_connection.hpp"
#include "gateway/gateway_url_cache.hpp"
#include "net/http_client.hpp"

#include <platformpp/client.hpp>
#include <platformpp/io_context.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/zlib/deflate_stream.hpp>

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <rapidjson/document.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace gateway_session_test {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using namespace std::chrono_literals;
using platformpp::Client;

// ---------------------------------------------------------------------------------------------------------
// The fake Gateway: blocking sockets, a thread per connection that reads, and everything else (the state,
// every write) under one mutex, from any thread. The WebSocket framing is written out here rather than
// taken from Beast: the server side is a few lines, and Beast's WebSocket templates cost a minute of compile
// time in this file. The client side under test is still the SDK's Beast client.

// The server side of RFC 6455, as much as the fake needs.
namespace fake_ws {

// What RFC 6455 section 1.3 asks of Sec-WebSocket-Accept.
std::string WebSocketAccept(const std::string& key) {
  std::string text = key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  unsigned char encoded[4 * ((SHA_DIGEST_LENGTH + 2) / 3) + 1];
  int length = EVP_EncodeBlock(encoded, digest, SHA_DIGEST_LENGTH);
  return std::string(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(length));
}

// One unfragmented server frame (never masked).
std::string EncodeFrame(uint8_t opcode, std::string_view payload) {
  std::string out(1, static_cast<char>(0x80 | opcode));
  const uint64_t size = payload.size();
  if (size < 126) {
    out.push_back(static_cast<char>(size));
  } else if (size <= 0xFFFF) {
    out.push_back(static_cast<char>(126));
    for (int shift = 8; shift >= 0; shift -= 8)
      out.push_back(static_cast<char>((size >> shift) & 0xFF));
  } else {
    out.push_back(static_cast<char>(127));
    for (int shift = 56; shift >= 0; shift -= 8)
      out.push_back(static_cast<char>((size >> shift) & 0xFF));
  }
  out.append(payload);
  return out;
}

struct Frame {
  bool fin = false;
  uint8_t opcode = 0;
  std::string payload;  // unmasked
};

// False when the connection ended or the frame is not one a client may send.
bool ReadFrame(tcp::socket& socket, Frame& frame) {
  error_code ec;
  uint8_t head[2];
  asio::read(socket, asio::buffer(head), ec);
  if (ec) return false;
  frame.fin = (head[0] & 0x80) != 0;
  frame.opcode = head[0] & 0x0F;
  uint64_t size = head[1] & 0x7F;
  if (size >= 126) {
    uint8_t extended[8];
    const std::size_t bytes = size == 126 ? 2 : 8;
    asio::read(socket, asio::buffer(extended, bytes), ec);
    if (ec) return false;
    size = 0;
    for (std::size_t i = 0; i < bytes; ++i)
      size = (size << 8) | extended[i];
  }
  if ((head[1] & 0x80) == 0 || size > (16u << 20)) return false;  // clients mask every frame
  uint8_t mask[4];
  asio::read(socket, asio::buffer(mask), ec);
  if (ec) return false;
  frame.payload.resize(size);
  asio::read(socket, asio::buffer(frame.payload), ec);
  if (ec) return false;
  for (std::size_t i = 0; i < frame.payload.size(); ++i)
    frame.payload[i] = static_cast<char>(frame.payload[i] ^ mask[i % 4]);
  return true;
}

// The value of header `name` (lower case, with the colon) in a request's header block; empty when absent.
std::string HeaderValue(const std::string& head, std::string_view name) {
  std::string lower(head);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::size_t at = lower.find("\r\n" + std::string(name));
  if (at == std::string::npos) return {};
  at += 2 + name.size();
  std::size_t end = head.find("\r\n", at);
  std::string value = head.substr(at, end - at);
  value.erase(0, value.find_first_not_of(" \t"));
  value.erase(value.find_last_not_of(" \t") + 1);
  return value;
}

}  // namespace fake_ws

class FakeGateway {
 public:
  struct Conn {
    explicit Conn(tcp::socket s) : socket(std::move(s)) {}
    tcp::socket socket;
    std::thread thread;
    bool compress = false;
    beast::zlib::deflate_stream deflate;
    bool headerSent = false;
    bool closeSent = false;
    bool dead = false;

    // With the server's mutex held.
    void Send(const std::string& text) {
      if (compress) {
        Write(fake_ws::EncodeFrame(0x2, Compress(text)));
      } else {
        Write(fake_ws::EncodeFrame(0x1, text));
      }
    }
    void Write(const std::string& frame) {
      if (dead || closeSent) return;
      error_code ec;
      asio::write(socket, asio::buffer(frame), ec);
      if (ec) dead = true;
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
  };

  FakeGateway() : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { Accept(); });
  }
  ~FakeGateway() {
    stopping_ = true;
    {
      tcp::socket wake(io_);  // unblocks accept()
      error_code ignored;
      wake.connect(acceptor_.local_endpoint(), ignored);
      thread_.join();
    }
    std::vector<std::shared_ptr<Conn>> conns;
    {
      std::lock_guard lock(mutex_);
      conns = conns_;
      for (auto& conn : conns) {
        error_code ignored;
        conn->socket.shutdown(tcp::socket::shutdown_both, ignored);
      }
    }
    for (auto& conn : conns)
      conn->thread.join();
  }

  std::string ApiBase() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v10"; }
  std::string WsUrl() const { return "ws://127.0.0.1:" + std::to_string(port_); }

  // Knobs.
  std::atomic<int> heartbeatIntervalMs{45000};
  std::atomic<bool> ackHeartbeats{true};
  std::atomic<int> withholdHello{0};  // the next n connections get no Hello
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

  /// Runs `f` with the server's state locked.
  void Do(const std::function<void()>& f) {
    std::lock_guard lock(mutex_);
    f();
  }

  // Actions (call inside Do, or through the helpers).
  void Dispatch(const std::string& t, const std::string& d, bool deliver = true) {
    Do([&] { DispatchHere(t, d, deliver); });
  }
  void Drop() {
    Do([&] {
      if (!current_) return;
      error_code ignored;
      current_->socket.shutdown(tcp::socket::shutdown_both, ignored);  // its thread sees the end
      current_->dead = true;
      current_.reset();
    });
  }
  void CloseWith(uint16_t code) {
    Do([&] {
      if (!current_) return;
      std::string payload{static_cast<char>(code >> 8), static_cast<char>(code & 0xFF)};
      current_->Write(fake_ws::EncodeFrame(0x8, payload));
      current_->closeSent = true;  // its thread waits for the client's close frame, then closes
      current_.reset();
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

  void Accept() {
    for (;;) {
      tcp::socket socket(io_);
      error_code ec;
      acceptor_.accept(socket, ec);
      if (stopping_ || ec) return;
      socket.set_option(tcp::no_delay(true), ec);
      auto conn = std::make_shared<Conn>(std::move(socket));
      std::lock_guard lock(mutex_);
      conns_.push_back(conn);
      conn->thread = std::thread([this, conn] { Serve(conn); });
    }
  }

  void Serve(const std::shared_ptr<Conn>& conn) {
    std::string head;
    error_code ec;
    asio::read_until(conn->socket, asio::dynamic_buffer(head), "\r\n\r\n", ec);
    if (ec) return;
    // "GET <target> HTTP/1.1"
    std::size_t targetAt = head.find(' ') + 1;
    std::string target = head.substr(targetAt, head.find(' ', targetAt) - targetAt);
    std::string key = fake_ws::HeaderValue(head, "sec-websocket-key:");
    if (key.empty() || fake_ws::HeaderValue(head, "upgrade:").empty()) {
      std::string response = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      if (std::string_view(target).ends_with("/gateway")) {
        std::string body = "{\"url\":\"" + WsUrl() + "\"}";
        response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                   std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        std::lock_guard lock(mutex_);
        ++stats_.httpGateway;
      }
      asio::write(conn->socket, asio::buffer(response), ec);
      conn->socket.shutdown(tcp::socket::shutdown_both, ec);
      return;
    }
    // As strict as a Beast server about what makes a WebSocket upgrade (RFC 6455 section 4.2.1).
    std::string connection = fake_ws::HeaderValue(head, "connection:");
    std::transform(connection.begin(), connection.end(), connection.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!head.starts_with("GET ") || head.find(" HTTP/1.1\r\n") == std::string::npos ||
        connection.find("upgrade") == std::string::npos ||
        fake_ws::HeaderValue(head, "sec-websocket-version:") != "13") {
      std::string response = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      asio::write(conn->socket, asio::buffer(response), ec);
      conn->socket.shutdown(tcp::socket::shutdown_both, ec);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      conn->Write(
          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          "Sec-WebSocket-Accept: " +
          fake_ws::WebSocketAccept(key) + "\r\n\r\n");
      if (conn->dead) return;
      conn->compress = target.find("compress=zlib-stream") != std::string::npos;
      ++stats_.websockets;
      stats_.lastQuery = target;
      current_ = conn;
      if (withholdHello > 0) {
        --withholdHello;  // this connection stays silent: the client's Hello watchdog must act
      } else {
        conn->Send("{\"op\":10,\"d\":{\"heartbeat_interval\":" + std::to_string(heartbeatIntervalMs.load()) +
                   "}}");
      }
    }
    std::string message;
    int closeCode = 0;  // the client's close frame, 0 when the connection simply ended
    fake_ws::Frame frame;
    while (fake_ws::ReadFrame(conn->socket, frame)) {
      if (frame.opcode == 0x8) {  // close: answer it (unless ours came first), then end the connection
        closeCode = frame.payload.size() >= 2 ? (static_cast<uint8_t>(frame.payload[0]) << 8) |
                                                    static_cast<uint8_t>(frame.payload[1])
                                              : 0;
        std::lock_guard lock(mutex_);
        conn->Write(fake_ws::EncodeFrame(0x8, frame.payload.substr(0, 2)));
        break;
      }
      if (frame.opcode == 0x9) {
        std::lock_guard lock(mutex_);
        conn->Write(fake_ws::EncodeFrame(0xA, frame.payload));
        continue;
      }
      if (frame.opcode == 0xA) continue;
      message += frame.payload;  // text, binary, or a continuation
      if (!frame.fin) continue;
      std::lock_guard lock(mutex_);
      if (!conn->dead) OnMessage(conn, message);
      message.clear();
    }
    std::lock_guard lock(mutex_);
    stats_.clientCloseCodes.push_back(closeCode);
    conn->dead = true;
    conn->socket.shutdown(tcp::socket::shutdown_both, ec);
    if (current_ == conn) current_.reset();
  }

  // With mutex_ held.
  void OnMessage(const std::shared_ptr<Conn>& conn, const std::string& text) {
    rapidjson::Document doc;
    doc.Parse(text.c_str());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("op")) return;
    int op = doc["op"].GetInt();
    const auto& d = doc["d"];
    if (op == 1) {
      ++stats_.heartbeats;
      if (ackHeartbeats) conn->Send("{\"op\":11}");
    } else if (op == 2) {
      ++stats_.identifies;
      stats_.lastIdentify = text;
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
      stats_.resumeSeqs.push_back(seq);
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

  asio::io_context io_;  // for the sockets only: every operation is synchronous
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
  std::thread thread_;  // accepts
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  // Under mutex_.
  Stats stats_;
  std::vector<std::shared_ptr<Conn>> conns_;
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
  explicit SessionHarness(const std::string& apiBase, bool compress = true, std::string caFile = {},
                          std::shared_ptr<platformpp::IoContext> sharedIo = nullptr,
                          std::chrono::milliseconds connectTimeout = 3000ms)
      : io(sharedIo ? std::move(sharedIo) : std::make_shared<platformpp::IoContext>(1)),
        http(*io, logger, HttpOptions(caFile)) {
    platformpp::gateway::GatewayOptions options;
    options.apiBase = apiBase;
    options.caFile = std::move(caFile);
    options.compress = compress;
    options.backoffInitial = 50ms;
    options.backoffMaximum = 200ms;
    options.connectTimeout = connectTimeout;
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

  std::shared_ptr<platformpp::IoContext> io;
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
  CHECK(identify["d"]["capabilities"].GetInt64() == 0);
  CHECK(session.Count("READY") == 1);

  // Heartbeats every 100 ms, all ACKed: the connection stays up.
  REQUIRE(Eventually([&] { return server.Snapshot().heartbeats >= 5; }));
  CHECK(server.Snapshot().websockets == 1);
  CHECK(session.Status() == Client::Status::Ready);

  server.Dispatch("PRESENCE_UPDATE", R"({"user":{"id":"2"},"status":"online"})");
  REQUIRE(Eventually([&] { return session.Count("PRESENCE_UPDATE") == 1; }));
}

TEST_CASE("gateway: the sessions of one IoContext ask GET /gateway once; another IoContext asks itself") {
  FakeGateway server;
  auto io = std::make_shared<platformpp::IoContext>(1);
  {
    // Started together: one fetch, the others wait for its answer.
    std::vector<std::unique_ptr<SessionHarness>> crowd;
    crowd.reserve(5);
    for (int i = 0; i < 5; ++i)
      crowd.push_back(std::make_unique<SessionHarness>(server.ApiBase(), true, std::string(), io));
    for (auto& session : crowd)
      session->gateway->Connect();
    REQUIRE(Eventually([&] {
      return std::all_of(crowd.begin(), crowd.end(),
                         [](auto& session) { return session->StatusCount(Client::Status::Connected) >= 1; });
    }));
    CHECK(server.Snapshot().httpGateway == 1);
    CHECK(server.Snapshot().websockets >= 5);
  }
  // A later session on the same IoContext goes straight to the Gateway.
  SessionHarness later(server.ApiBase(), true, std::string(), io);
  later.gateway->Connect();
  REQUIRE(Eventually([&] { return later.Status() == Client::Status::Ready; }));
  {
    std::lock_guard lock(later.mutex);
    std::vector<Client::Status> expected = {Client::Status::Connecting, Client::Status::Connected,
                                            Client::Status::Ready};
    CHECK(later.statuses == expected);
  }
  CHECK(server.Snapshot().httpGateway == 1);
  later.gateway->Disconnect();
  REQUIRE(Eventually([&] { return later.Status() == Client::Status::Disconnected; }));

  // Its own IoContext, its own fetch.
  SessionHarness apart(server.ApiBase());
  apart.gateway->Connect();
  REQUIRE(Eventually([&] { return apart.Status() == Client::Status::Ready; }));
  CHECK(server.Snapshot().httpGateway == 2);
}

TEST_CASE("gateway: a shared URL that no longer connects is forgotten and fetched again at once") {
  FakeGateway server;
  auto io = std::make_shared<platformpp::IoContext>(1);
  // Another session of this IoContext learnt a URL that has gone since (port 1: refused).
  auto& cache = platformpp::gateway::GatewayUrlCache::Of(platformpp::core::IoContextAccess::Get(*io));
  cache.Find(server.ApiBase(), {}).fetch.Store("ws://127.0.0.1:1");
  SessionHarness session(server.ApiBase(), true, std::string(), io);
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  {
    // No backoff between the stale URL and the fetch (a backoff shows as Reconnecting before HttpWait).
    std::lock_guard lock(session.mutex);
    std::vector<Client::Status> expected = {Client::Status::Connecting, Client::Status::HttpWait,
                                            Client::Status::Reconnecting, Client::Status::Connected,
                                            Client::Status::Ready};
    CHECK(session.statuses == expected);
  }
  CHECK(server.Snapshot().httpGateway == 1);
  auto now = cache.Find(server.ApiBase(), {});
  REQUIRE(now.url);
  CHECK(*now.url == server.WsUrl());
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

TEST_CASE("gateway: no Hello within the connect timeout -> the connection is closed and opened again") {
  FakeGateway server;
  server.withholdHello = 1;
  SessionHarness session(server.ApiBase(), /*compress=*/true, {}, nullptr, 300ms);
  session.gateway->Connect();
  REQUIRE(Eventually([&] { return session.Status() == Client::Status::Ready; }));
  auto stats = server.Snapshot();
  CHECK(stats.websockets == 2);  // the silent one, then the one that said Hello
  CHECK(stats.identifies == 1);  // nothing was sent on the silent one
  REQUIRE(!stats.clientCloseCodes.empty());
  CHECK(stats.clientCloseCodes[0] != 1000);  // closed as resumable: the server keeps nothing of ours anyway
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
                     [](const platformpp::ClientResult&) {});
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
                     [](const platformpp::ClientResult&) {});
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
    client.UpdateToken(platformpp::AuthorizationTokenType::Bearer, "t",
                       [](const platformpp::ClientResult&) {});
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
  client->UpdateToken(platformpp::AuthorizationTokenType::Bearer, "t",
                      [](const platformpp::ClientResult&) {});
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
  for (const auto& entry : session.bySeq)
    CHECK_MESSAGE(entry.second == 1, "seq " << entry.first);
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

}  // namespace gateway_session_test
