// WebhookEvents over real loopback sockets: requests signed with a libsodium test key, PINGs, refusals
// (forged signature, replayed timestamp, truncated body, missing headers) that deliver nothing, a retried
// event delivered once, the body limit crossed by one, slow clients, keep-alive, Stop/Start, and HTTPS.
#include "core/asio_prelude.hpp"

#include <platformpp/webhook_events.hpp>

#include "webhook_signer.hpp"

#include "server/tls_certificates.hpp"

#include <doctest/doctest.h>

#include <sodium.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include "test_portability.hpp"

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace webhook_endpoint_test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using platformpp::backend::WebhookEvent;
using platformpp::backend::WebhookEvents;
using platformpp::backend::WebhookEventsOptions;

using webhook_test::Signer;

std::string NowText(std::chrono::seconds offset = std::chrono::seconds(0)) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                            (std::chrono::system_clock::now() + offset).time_since_epoch())
                            .count());
}

const std::string kPing = R"({"version":1,"application_id":"1234567890123456789","type":0})";
const std::string kDeauthorized =
    R"({"version":1,"application_id":"1234567890123456789","type":1,"event":{"type":"APPLICATION_DEAUTHORIZED",)"
    R"("timestamp":"2026-11-18T08:53:20.000000+00:00","data":{"user":{"id":"42","username":"ada"}}}})";

std::string Request(const std::string& body, const std::string& timestamp, const std::string& signature,
                    const std::string& path = "/webhooks", const std::string& method = "POST") {
  std::string request =
      method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  if (!signature.empty()) request += "X-Signature-Ed25519: " + signature + "\r\n";
  if (!timestamp.empty()) request += "X-Signature-Timestamp: " + timestamp + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  return request;
}

std::string Signed(const Signer& platform, const std::string& body, const std::string& path = "/webhooks") {
  const std::string timestamp = NowText();
  return Request(body, timestamp, platform.Sign(timestamp, body), path);
}

// A blocking HTTP/1.1 client over plain TCP: the raw request text in, the status out (0: no answer).
class Connection {
 public:
  explicit Connection(uint16_t port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  int Exchange(const std::string& request) {
    asio::write(socket_, asio::buffer(request));
    return Read();
  }
  int Read() {
    http::response<http::string_body> response;
    beast::error_code ec;
    http::read(socket_, buffer_, response, ec);
    return ec ? 0 : static_cast<int>(response.result_int());
  }
  void Write(const std::string& text) { asio::write(socket_, asio::buffer(text)); }
  // True when the server closed the connection within `within`.
  bool ClosedWithin(std::chrono::milliseconds within) {
    socket_.non_blocking(true);
    auto deadline = std::chrono::steady_clock::now() + within;
    std::array<char, 64> scratch{};
    while (std::chrono::steady_clock::now() < deadline) {
      beast::error_code ec;
      socket_.read_some(asio::buffer(scratch), ec);
      if (ec && ec != asio::error::would_block) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

int Post(uint16_t port, const std::string& request) {
  Connection connection(port);
  return connection.Exchange(request);
}

struct Endpoint {
  explicit Endpoint(const Signer& platform, WebhookEventsOptions options = {}) {
    options.publicKeyHex = platform.PublicHex();
    options.path = "/webhooks";
    events.emplace(std::move(options));
    events->SetEventCallback([this](const WebhookEvent& event) { delivered.push_back(event); });
    auto started = events->Start();
    REQUIRE_MESSAGE(started.Successful(), started.Error());
    REQUIRE(events->Port() != 0);
  }
  // Delivers what is queued; waits up to `wait` for a first event.
  void Pump(std::chrono::milliseconds wait = std::chrono::milliseconds(0)) {
    events->WaitForCallbacks(static_cast<int32_t>(wait.count()));
    events->RunCallbacks();
  }
  std::optional<WebhookEvents> events;
  std::vector<WebhookEvent> delivered;
};

TEST_CASE("webhook endpoint: a PING is answered 204, delivers nothing; port 0 gives an ephemeral port") {
  Signer platform;
  Endpoint endpoint(platform);
  CHECK(endpoint.events->Running());
  CHECK(Post(endpoint.events->Port(), Signed(platform, kPing)) == 204);
  endpoint.Pump(std::chrono::milliseconds(50));
  CHECK(endpoint.delivered.empty());
}

TEST_CASE("webhook endpoint: an event is delivered typed; the platform's retry (fresh signature) is not") {
  Signer platform;
  Endpoint endpoint(platform);
  const uint16_t port = endpoint.events->Port();
  CHECK(Post(port, Signed(platform, kDeauthorized)) == 204);
  endpoint.Pump(std::chrono::seconds(5));
  REQUIRE(endpoint.delivered.size() == 1);
  CHECK(endpoint.delivered[0].eventType == "APPLICATION_DEAUTHORIZED");
  CHECK(std::get<platformpp::backend::ApplicationDeauthorized>(endpoint.delivered[0].data).user.id == 42);
  // The retry comes a second later, signed again with a new timestamp.
  const std::string later = NowText(std::chrono::seconds(1));
  CHECK(Post(port, Request(kDeauthorized, later, platform.Sign(later, kDeauthorized))) == 204);
  endpoint.Pump(std::chrono::milliseconds(200));
  CHECK(endpoint.delivered.size() == 1);
  // A different event still is.
  std::string other = kDeauthorized;
  other.replace(other.find("\"42\""), 4, "\"43\"");
  CHECK(Post(port, Signed(platform, other)) == 204);
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 2);
}

TEST_CASE(
    "webhook endpoint: forged signature, replayed timestamp, truncated body, no headers: 401, nothing") {
  Signer platform;
  Signer forger;
  Endpoint endpoint(platform);
  const uint16_t port = endpoint.events->Port();
  const std::string now = NowText();
  CHECK(Post(port, Request(kDeauthorized, now, forger.Sign(now, kDeauthorized))) == 401);
  const std::string old = NowText(-std::chrono::seconds(301));
  CHECK(Post(port, Request(kDeauthorized, old, platform.Sign(old, kDeauthorized))) == 401);
  const std::string truncated = kDeauthorized.substr(0, kDeauthorized.size() - 2);
  CHECK(Post(port, Request(truncated, now, platform.Sign(now, kDeauthorized))) == 401);
  CHECK(Post(port, Request(kDeauthorized, now, "")) == 401);
  CHECK(Post(port, Request(kDeauthorized, "", platform.Sign(now, kDeauthorized))) == 401);
  // Signed, but not a webhook event.
  CHECK(Post(port, Signed(platform, R"({"type":1})")) == 400);
  endpoint.Pump(std::chrono::milliseconds(200));
  CHECK(endpoint.delivered.empty());
  // 4 minutes 59 seconds old is still within the window.
  const std::string recent = NowText(-std::chrono::seconds(299));
  CHECK(Post(port, Request(kDeauthorized, recent, platform.Sign(recent, kDeauthorized))) == 204);
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 1);
}

TEST_CASE("webhook endpoint: other paths 404, other methods 405") {
  Signer platform;
  Endpoint endpoint(platform);
  CHECK(Post(endpoint.events->Port(), Signed(platform, kPing, "/elsewhere")) == 404);
  CHECK(Post(endpoint.events->Port(), Request("", NowText(), "", "/webhooks", "GET")) == 405);
  // A query string does not change the path.
  CHECK(Post(endpoint.events->Port(), Signed(platform, kPing, "/webhooks?x=1")) == 204);
}

TEST_CASE("webhook endpoint: a body at the limit is accepted, one byte over is refused with 413") {
  Signer platform;
  WebhookEventsOptions options;
  options.maxBodyBytes = 1024;
  Endpoint endpoint(platform, options);
  // Trailing spaces keep it JSON.
  std::string atLimit = kDeauthorized + std::string(1024 - kDeauthorized.size(), ' ');
  CHECK(Post(endpoint.events->Port(), Signed(platform, atLimit)) == 204);
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 1);
  std::string over = kDeauthorized;
  over.replace(over.find("\"42\""), 4, "\"43\"");
  over += std::string(1025 - over.size(), ' ');
  CHECK(Post(endpoint.events->Port(), Signed(platform, over)) == 413);
  endpoint.Pump(std::chrono::milliseconds(200));
  CHECK(endpoint.delivered.size() == 1);
}

TEST_CASE("webhook endpoint: keep-alive serves several requests; a slow client is cut off") {
  Signer platform;
  WebhookEventsOptions options;
  options.requestTimeout = std::chrono::milliseconds(300);
  Endpoint endpoint(platform, options);
  Connection connection(endpoint.events->Port());
  CHECK(connection.Exchange(Signed(platform, kPing)) == 204);
  CHECK(connection.Exchange(Signed(platform, kDeauthorized)) == 204);
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 1);
  // Headers that never end.
  Connection slow(endpoint.events->Port());
  slow.Write("POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  CHECK(slow.ClosedWithin(std::chrono::seconds(5)));
  // An idle keep-alive connection too.
  CHECK(connection.ClosedWithin(std::chrono::seconds(5)));
}

TEST_CASE("webhook endpoint: Stop closes, Start listens again and still knows the events delivered") {
  Signer platform;
  Endpoint endpoint(platform);
  CHECK(Post(endpoint.events->Port(), Signed(platform, kDeauthorized)) == 204);
  endpoint.events->Stop();
  CHECK_FALSE(endpoint.events->Running());
  CHECK(endpoint.events->Port() == 0);
  // What was accepted before Stop is still delivered.
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 1);
  REQUIRE(endpoint.events->Start().Successful());
  CHECK(Post(endpoint.events->Port(), Signed(platform, kDeauthorized)) == 204);
  endpoint.Pump(std::chrono::milliseconds(200));
  CHECK(endpoint.delivered.size() == 1);
}

TEST_CASE("webhook endpoint: options are checked at Start") {
  Signer platform;
  WebhookEventsOptions options;
  options.publicKeyHex = "abc";
  WebhookEvents badKey(options);
  CHECK(badKey.Start().Type() == platformpp::ErrorType::ValidationError);
  options.publicKeyHex = platform.PublicHex();
  options.path = "webhooks";
  WebhookEvents badPath(options);
  CHECK(badPath.Start().Type() == platformpp::ErrorType::ValidationError);
  options.path = "/";
  options.tlsCertificateChainFile = "/nonexistent/chain.pem";
  WebhookEvents badTls(options);
  CHECK(badTls.Start().Type() == platformpp::ErrorType::ValidationError);
  CHECK_FALSE(badTls.Running());
}

TEST_CASE("webhook endpoint: HTTPS with the user's certificate and key") {
  const auto certificates = platformpp::emulator::generate_certificates();
  const auto dir = std::filesystem::temp_directory_path() /
                   ("platformpp-webhooks-" + std::to_string(platformpp_test::ProcessId()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "chain.pem") << certificates.server_certificate_pem << certificates.ca_certificate_pem;
  std::ofstream(dir / "key.pem") << certificates.server_private_key_pem;
  Signer platform;
  WebhookEventsOptions options;
  options.tlsCertificateChainFile = (dir / "chain.pem").string();
  options.tlsPrivateKeyFile = (dir / "key.pem").string();
  Endpoint endpoint(platform, options);
  std::filesystem::remove_all(dir);

  asio::io_context io;
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.add_certificate_authority(asio::buffer(certificates.ca_certificate_pem));
  tls.set_verify_mode(asio::ssl::verify_peer);
  beast::ssl_stream<tcp::socket> stream(io, tls);
  stream.set_verify_callback(asio::ssl::host_name_verification("127.0.0.1"));
  stream.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), endpoint.events->Port()));
  stream.handshake(asio::ssl::stream_base::client);
  beast::flat_buffer buffer;
  for (const std::string& body : {kPing, kDeauthorized}) {
    asio::write(stream, asio::buffer(Signed(platform, body)));
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    CHECK(response.result_int() == 204);
  }
  endpoint.Pump(std::chrono::seconds(5));
  CHECK(endpoint.delivered.size() == 1);
  // Plain HTTP to the HTTPS port gets no answer.
  CHECK(Post(endpoint.events->Port(), Signed(platform, kPing)) == 0);
}

}  // namespace webhook_endpoint_test
