// The emulator on a shared CI host (issue 38, part 5): one well-behaved client's request latency while
// another client attacks, against the same client alone, in the same run. The victim sends keep-alive HTTPS
// GETs of /users/@me; each attack runs on threads of its own for a fixed time while the victim measures:
//   - slowloris: 200 TCP connections that trickle a TLS ClientHello a byte at a time (the handshake deadline
//     cuts them; they come back);
//   - oversized Gateway frames: 60 KiB of JSON (the limit is 4,096 bytes), closed with 4002, reconnecting at
//     once;
//   - compression bombs: a 64 MiB deflate bomb in a compressed WebSocket frame, closed unread;
//   - oversized bodies: POSTs of 1 MiB + 1, answered 413;
//   - and, as the control of the last two, bare TLS connections at their pace: connect, handshake, close.
//     What these cost is what the last two cost before their first byte of attack;
//   - and as the control of that one, the same handshakes with both sides in this process (a BIO pair, no
//     socket, no emulator): what their CPU alone costs the victim on this machine.
// Prints p50 and p99 of each phase and the p99 ratio to the victim alone (goal <= 2x). A benchmark, not a
// timed test: it fails only when the work itself fails (the victim's requests must all succeed).
//   bench_emulator_hostile_input [emulator binary [its extra arguments...]]
#include "core/asio_prelude.hpp"

#include <platformpp/testkit/emulator.hpp>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/zlib/deflate_stream.hpp>

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_mode.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

const auto kPhase = platformpp::bench::Sized<std::chrono::milliseconds>(std::chrono::seconds(3),
                                                                        std::chrono::milliseconds(500));

struct Target {
  platformpp::testkit::ConnectionInfo info;
  std::string token;
  tcp::endpoint endpoint() const {
    return {asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(info.port)};
  }
  std::string host() const { return "127.0.0.1:" + std::to_string(info.port); }
};

asio::ssl::context ClientTls(const Target& target) {
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.load_verify_file(target.info.caFile);
  tls.set_verify_mode(asio::ssl::verify_peer);
  return tls;
}

// A TLS connection to the emulator, its handshake done, with a 5 s deadline on what follows.
struct TlsConnection {
  explicit TlsConnection(const Target& target) : tls(ClientTls(target)), stream(io, tls) {
    beast::get_lowest_layer(stream).connect(target.endpoint());
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(5));
    stream.handshake(asio::ssl::stream_base::client);
  }
  asio::io_context io;
  asio::ssl::context tls;
  beast::ssl_stream<beast::tcp_stream> stream;
};

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

// The victim: one kept-alive HTTPS connection, sequential GETs, each timed.
std::vector<double> VictimLatencies(const Target& target, Clock::duration length) {
  asio::io_context io;
  auto tls = ClientTls(target);
  beast::ssl_stream<beast::tcp_stream> stream(io, tls);
  beast::get_lowest_layer(stream).connect(target.endpoint());
  beast::get_lowest_layer(stream).socket().set_option(tcp::no_delay(true));
  stream.handshake(asio::ssl::stream_base::client);
  const std::string path = target.info.apiBase.substr(target.info.apiBase.find("/api/")) + "/users/@me";
  beast::flat_buffer buffer;
  std::vector<double> latencies;
  const auto end = Clock::now() + length;
  while (Clock::now() < end) {
    http::request<http::empty_body> request{http::verb::get, path, 11};
    request.set(http::field::host, target.host());
    request.set(http::field::authorization, "Bearer " + target.token);
    const auto start = Clock::now();
    http::write(stream, request);
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (response.result() != http::status::ok)
      throw std::runtime_error("the victim's GET " + path + " answered " +
                               std::to_string(response.result_int()) + ": " + response.body());
  }
  return latencies;
}

// Runs `attack` on `threads` threads until stopped, `pause` between two runs; an attack's own errors (cut
// connections) are its business. Counts the runs.
class Attack {
 public:
  Attack(int threads, std::chrono::milliseconds pause,
         const std::function<void(const std::atomic<bool>&)>& attack) {
    for (int i = 0; i < threads; ++i)
      threads_.emplace_back([this, pause, attack] {
        while (!stop_) {
          try {
            attack(stop_);
          } catch (const std::exception&) {
            // Refused, reset or closed: what the attack is for. Go again.
          }
          ++runs_;
          std::this_thread::sleep_for(pause);
        }
      });
  }
  [[nodiscard]] int Runs() const { return runs_; }
  ~Attack() {
    stop_ = true;
    for (auto& thread : threads_)
      thread.join();
  }
  Attack(const Attack&) = delete;
  Attack& operator=(const Attack&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> runs_{0};
  std::vector<std::thread> threads_;
};

// 200 connections that send a TLS record header and then a byte every 50 ms, for as long as they are let.
void Slowloris(const Target& target, const std::atomic<bool>& stop) {
  asio::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> sockets;
  for (int i = 0; i < 200; ++i) {
    auto socket = std::make_unique<tcp::socket>(io);
    socket->connect(target.endpoint());
    sockets.push_back(std::move(socket));
  }
  const std::string hello("\x16\x03\x01\x02\x00", 5);  // a ClientHello record of 512 bytes, never finished
  for (auto& socket : sockets)
    asio::write(*socket, asio::buffer(hello));
  while (!stop) {
    for (auto& socket : sockets) {
      boost::system::error_code ec;
      asio::write(*socket, asio::buffer("\x01", 1), ec);
      if (ec) {  // cut at the handshake deadline: come back
        socket = std::make_unique<tcp::socket>(io);
        socket->connect(target.endpoint(), ec);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// A Gateway connection that sends one frame and reads until the emulator closes it.
void GatewayFrame(const Target& target, const std::string& frame) {
  asio::io_context io;
  auto tls = ClientTls(target);
  websocket::stream<beast::ssl_stream<beast::tcp_stream>> ws(io, tls);
  beast::get_lowest_layer(ws).connect(target.endpoint());
  beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(5));
  ws.next_layer().handshake(asio::ssl::stream_base::client);
  ws.handshake(target.host(), "/?v=10&encoding=json");
  ws.write(asio::buffer(frame));
  beast::flat_buffer buffer;
  for (;;)
    ws.read(buffer);  // Hello, then the close: read throws
}

// A compressed frame (RSV1) carrying a deflate bomb, written raw after the upgrade.
void CompressedBomb(const Target& target, const std::string& bomb) {
  TlsConnection connection(target);
  std::string bytes =
      "GET /?v=10&encoding=json HTTP/1.1\r\nHost: " + target.host() +
      "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n";
  bytes += "\xc1\xff";  // FIN + RSV1 + text; 64-bit length; a zero mask key leaves the payload as is
  for (int shift = 56; shift >= 0; shift -= 8)
    bytes += static_cast<char>((bomb.size() >> shift) & 0xff);
  bytes += std::string(4, '\0') + bomb;
  asio::write(connection.stream, asio::buffer(bytes));
  char sink[4096];
  for (;;)
    connection.stream.read_some(asio::buffer(sink));  // until the emulator closes
}

void OversizedBody(const Target& target) {
  TlsConnection connection(target);
  const std::string path = target.info.apiBase.substr(target.info.apiBase.find("/api/")) + "/lobbies";
  http::request<http::string_body> request{http::verb::put, path, 11};
  request.set(http::field::host, target.host());
  request.set(http::field::authorization, "Bearer " + target.token);
  request.set(http::field::content_type, "application/json");
  request.body() = std::string((std::size_t{1} << 20) + 1, ' ');
  request.prepare_payload();
  http::write(connection.stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(connection.stream, buffer, response);
  if (response.result() != http::status::payload_too_large) throw std::runtime_error("not 413");
}

// TLS handshakes with no emulator: a client and a server in one thread over a BIO pair, on an ECDSA P-256
// certificate as the emulator's, with the client verifying it.
class LocalHandshakes {
 public:
  LocalHandshakes() {
    key_ = EVP_EC_gen("P-256");
    certificate_ = X509_new();
    X509_set_version(certificate_, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(certificate_), 1);
    X509_gmtime_adj(X509_getm_notBefore(certificate_), 0);
    X509_gmtime_adj(X509_getm_notAfter(certificate_), 3600);
    X509_set_pubkey(certificate_, key_);
    X509_NAME* name = X509_get_subject_name(certificate_);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"),
                               -1, -1, 0);
    X509_set_issuer_name(certificate_, name);
    X509_sign(certificate_, key_, EVP_sha256());
    server_ = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate(server_, certificate_);
    SSL_CTX_use_PrivateKey(server_, key_);
    client_ = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(client_, SSL_VERIFY_PEER, nullptr);
    X509_STORE_add_cert(SSL_CTX_get_cert_store(client_), certificate_);
  }
  ~LocalHandshakes() {
    SSL_CTX_free(client_);
    SSL_CTX_free(server_);
    X509_free(certificate_);
    EVP_PKEY_free(key_);
  }
  LocalHandshakes(const LocalHandshakes&) = delete;
  LocalHandshakes& operator=(const LocalHandshakes&) = delete;

  void Once() const {
    SSL* client = SSL_new(client_);
    SSL* server = SSL_new(server_);
    BIO* clientBio = nullptr;
    BIO* serverBio = nullptr;
    BIO_new_bio_pair(&clientBio, 0, &serverBio, 0);
    SSL_set_bio(client, clientBio, clientBio);
    SSL_set_bio(server, serverBio, serverBio);
    SSL_set_connect_state(client);
    SSL_set_accept_state(server);
    bool clientDone = false, serverDone = false;
    const auto step = [](SSL* ssl, bool& done) {
      if (done) return true;
      const int result = SSL_do_handshake(ssl);
      if (result == 1) return done = true;
      const int error = SSL_get_error(ssl, result);
      return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE;
    };
    bool ok = true;
    for (int round = 0; ok && round < 20 && !(clientDone && serverDone); ++round)
      ok = step(client, clientDone) && step(server, serverDone);
    SSL_free(client);
    SSL_free(server);
    if (!ok || !clientDone || !serverDone) throw std::runtime_error("the local TLS handshake failed");
  }

 private:
  EVP_PKEY* key_ = nullptr;
  X509* certificate_ = nullptr;
  SSL_CTX* server_ = nullptr;
  SSL_CTX* client_ = nullptr;
};

std::string DeflateBomb() {
  beast::zlib::deflate_stream deflater;
  deflater.reset(6, 15, 8, beast::zlib::Strategy::normal);
  const std::string zeros(std::size_t{64} << 20, '\0');
  std::string out(std::size_t{1} << 20, '\0');
  beast::zlib::z_params zs;
  zs.next_in = zeros.data();
  zs.avail_in = zeros.size();
  zs.next_out = out.data();
  zs.avail_out = out.size();
  beast::error_code ec;
  deflater.write(zs, beast::zlib::Flush::sync, ec);
  out.resize(out.size() - zs.avail_out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  platformpp::testkit::EmulatorProcess::Options options;
  if (argc > 1) options.binary = argv[1];
  for (int i = 2; i < argc; ++i)
    options.extraArguments.emplace_back(argv[i]);  // e.g. --io-threads 1
  options.ipc = false;
  auto emulator = platformpp::testkit::EmulatorProcess::Start(options);
  platformpp::testkit::EmulatorAdmin admin(emulator->Connection());
  const auto app = admin.CreateApp("Hostile input bench");
  const auto user = admin.CreateUser("hostile_bench_victim");
  // The victim's pace is the measure, not the platform's limits (50 requests a second per token).
  admin.SetGlobalRateLimit(0);
  admin.SetRateLimit("GET /users/@me", 1'000'000, std::chrono::seconds(1));
  Target target{emulator->Connection(),
                admin.MintToken(user.id, app.id, "openid sdk.social_layer").accessToken};
  const std::string oversized = R"({"op":1,"d":")" + std::string(std::size_t{60} * 1024, 'x') + "\"}";
  const std::string bomb = DeflateBomb();
  const LocalHandshakes local;
  local.Once();  // fails here, not in the phase, if it cannot work at all

  VictimLatencies(target, std::chrono::seconds(1));  // warm-up
  const auto alone = VictimLatencies(target, kPhase);
  const double baseP99 = Percentile(alone, 0.99);
  std::printf("victim alone: %zu requests, p50 %.2f ms, p99 %.2f ms\n", alone.size(), Percentile(alone, 0.5),
              baseP99);
  // Each attack paced at about 100 a second: on 2 cores an attacker spinning a core of its own (TLS of a
  // megabyte a request) would measure the machine, not the emulator.
  struct Phase {
    const char* name;
    int threads;
    std::chrono::milliseconds pause;
    std::function<void(const std::atomic<bool>&)> attack;
    bool emulator = true;  // false: a control that does not touch the emulator (not in the worst ratio)
  };
  constexpr std::chrono::milliseconds kPace(10);
  const std::vector<Phase> phases{
      {"slowloris (200 connections)", 1, kPace,
       [&](const std::atomic<bool>& stop) { Slowloris(target, stop); }},
      {"oversized Gateway frames", 1, kPace,
       [&](const std::atomic<bool>&) { GatewayFrame(target, oversized); }},
      {"compression bombs", 1, kPace, [&](const std::atomic<bool>&) { CompressedBomb(target, bomb); }},
      {"oversized bodies (413)", 1, kPace, [&](const std::atomic<bool>&) { OversizedBody(target); }},
      {"bare TLS handshakes", 1, kPace, [&](const std::atomic<bool>&) { TlsConnection connection(target); }},
      {"the same, in process (no emulator)", 1, kPace, [&](const std::atomic<bool>&) { local.Once(); },
       false},
  };
  double worst = 0;
  for (const auto& phase : phases) {
    std::vector<double> latencies;
    double perSecond = 0;
    {
      Attack attack(phase.threads, phase.pause, phase.attack);
      std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the attack under way
      const int before = attack.Runs();
      const auto start = Clock::now();
      latencies = VictimLatencies(target, kPhase);
      perSecond = (attack.Runs() - before) / std::chrono::duration<double>(Clock::now() - start).count();
    }
    const double p99 = Percentile(latencies, 0.99);
    if (phase.emulator) worst = std::max(worst, p99 / baseP99);
    std::printf("under %-28s (%.0f/s) %zu requests, p50 %.2f ms, p99 %.2f ms: p99 %.2fx the victim alone\n",
                phase.name, perSecond, latencies.size(), Percentile(latencies, 0.5), p99, p99 / baseP99);
  }
  std::printf("worst p99 ratio under attack: %.2fx (goal <= 2x)\n", worst);
  return 0;
}
