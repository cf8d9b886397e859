// Synchronous HTTP(S) helpers for the socket-level emulator tests: one-shot HTTPS requests verified with the
// emulator's CA, a keep-alive TLS connection, raw bytes over plain TCP, and many plain connections at once.
// Beast-free: the Beast/Asio templates are compiled once, in http_test_client.cpp (emulator_test_support).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator_process.hpp"

namespace platformpp::emulator::test {

// The enumerators are spelled as Beast's http::verb so call sites read the same.
enum class HttpMethod { get, post, put, patch, delete_ };

struct HttpResult {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // The first header named `name` (case-insensitive); empty when absent.
  [[nodiscard]] std::string header(std::string_view name) const;
};
using AdminResult = HttpResult;

// Whether `target` is the admin API's (/_emulator...), whose requests carry the admin token.
inline bool is_admin_target(std::string_view target) {
  return target.starts_with("/_emulator");
}

struct HttpRequestSpec {
  HttpMethod method = HttpMethod::get;
  std::string target;
  std::string body;           // sent as application/json when not empty
  std::string authorization;  // no Authorization header when empty
  std::string user_agent;     // no User-Agent header when empty
};

// One HTTPS request to 127.0.0.1:port on its own connection (the certificate verified against `ca_file` for
// host 127.0.0.1). Throws on a transport error.
HttpResult https_request(const std::string& ca_file, unsigned short port, HttpMethod method,
                         const std::string& target, const std::string& body = {},
                         const std::string& authorization = {});
// The same to `emulator`; an admin request (/_emulator...) without an `authorization` carries the emulator's
// admin token.
HttpResult https_request(const EmulatorProcess& emulator, HttpMethod method, const std::string& target,
                         const std::string& body = {}, const std::string& authorization = {});

// One TLS connection that verifies the emulator's certificate against its CA file for host 127.0.0.1;
// requests on it are kept alive, and an admin request without an Authorization carries the admin token.
class HttpsConnection {
 public:
  explicit HttpsConnection(const EmulatorProcess& emulator);
  ~HttpsConnection();
  HttpsConnection(const HttpsConnection&) = delete;
  HttpsConnection& operator=(const HttpsConnection&) = delete;

  void send(const HttpRequestSpec& request);
  // The next response; nullopt when the connection failed or ended before a whole response arrived.
  std::optional<HttpResult> receive();
  // True when no byte of an answer has arrived yet (checked with one read that does not wait; a byte it finds
  // is kept for receive()).
  [[nodiscard]] bool nothing_received();
  // send + receive; fails the test on a transport error.
  HttpResult exchange(const HttpRequestSpec& request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string admin_authorization_;
};

// Sends raw bytes over plain TCP to 127.0.0.1:port and returns everything the server answers until it closes.
std::string raw_exchange(unsigned short port, const std::string& bytes);

// Sends `request` over plain TCP, waits for the head of the answer, then sends `then` and returns everything
// received until the server closes. Made for a server that may close while `then` is being written.
std::string raw_exchange_after_head(unsigned short port, const std::string& request, const std::string& then);

// Many plain TCP connections to 127.0.0.1:port at once, sharing one io_context (few file descriptors).
class PlainConnections {
 public:
  PlainConnections();
  ~PlainConnections();
  PlainConnections(const PlainConnections&) = delete;
  PlainConnections& operator=(const PlainConnections&) = delete;

  // Opens one more connection; returns its index.
  std::size_t connect(unsigned short port);
  void write(std::size_t index, const std::string& bytes);
  // Reads one HTTP response; nullopt on an error.
  std::optional<HttpResult> read_response(std::size_t index);
  // Closes one connection (its index stays taken).
  void close(std::size_t index);
  [[nodiscard]] std::size_t size() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::emulator::test
