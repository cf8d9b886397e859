#pragma once
// The benchmarks' bare connections to the emulator: OpenSSL and blocking sockets, no SDK. A TLS connection
// (the peer's address verified against the emulator's CA), a Gateway session on it (WebSocket upgrade, Hello,
// Identify, READY; JSON text frames, no compression) and one HTTP/1.1 keep-alive exchange. The least such a
// connection can cost: what the SDK is measured against.

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

namespace platformpp::bench {

struct GatewayAddress {
  std::string host;
  int port = 0;
  std::string path;
};

/// wss://127.0.0.1:PORT/path (also https://127.0.0.1:PORT/path: the host and port of an API base).
inline GatewayAddress ParseGateway(const std::string& url) {
  GatewayAddress address;
  const auto hostStart = url.find("://") + 3;
  const auto colon = url.find(':', hostStart);
  const auto slash = url.find('/', colon);
  address.host = url.substr(hostStart, colon - hostStart);
  address.port = std::atoi(url.substr(colon + 1, slash - colon - 1).c_str());
  address.path = slash == std::string::npos ? "/" : url.substr(slash);
  return address;
}

/// A verifying client context for the emulator's CA (made once per run, as a shared one is).
inline SSL_CTX* NewClientContext(const std::string& caFile) {
  SSL_CTX* context = SSL_CTX_new(TLS_client_method());
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  if (SSL_CTX_load_verify_locations(context, caFile.c_str(), nullptr) != 1) {
    SSL_CTX_free(context);
    throw std::runtime_error("baseline: CA file");
  }
  return context;
}

inline void WriteAll(SSL* ssl, const std::string& data) {
  if (SSL_write(ssl, data.data(), static_cast<int>(data.size())) != static_cast<int>(data.size()))
    throw std::runtime_error("baseline: TLS write failed");
}

/// Reads one unmasked server frame's payload (text; the emulator sends no fragments here).
inline std::string ReadFrame(SSL* ssl, std::string& pending) {
  auto need = [&](std::size_t n) {
    char buffer[16384];
    while (pending.size() < n) {
      const int got = SSL_read(ssl, buffer, sizeof buffer);
      if (got <= 0)
        throw std::runtime_error("baseline: TLS read failed: " + std::to_string(SSL_get_error(ssl, got)) +
                                 " " + ERR_error_string(ERR_get_error(), nullptr) + " after " + pending);
      pending.append(buffer, static_cast<std::size_t>(got));
    }
  };
  need(2);
  uint64_t length = static_cast<uint8_t>(pending[1]) & 0x7f;
  std::size_t header = 2;
  if (length == 126) {
    need(4);
    length =
        (static_cast<uint64_t>(static_cast<uint8_t>(pending[2])) << 8) | static_cast<uint8_t>(pending[3]);
    header = 4;
  } else if (length == 127) {
    need(10);
    length = 0;
    for (int i = 2; i < 10; ++i)
      length = (length << 8) | static_cast<uint8_t>(pending[static_cast<std::size_t>(i)]);
    header = 10;
  }
  need(header + length);
  if ((static_cast<uint8_t>(pending[0]) & 0x0f) == 0x8)
    throw std::runtime_error("baseline: the server closed");
  std::string payload = pending.substr(header, length);
  pending.erase(0, header + length);
  return payload;
}

/// A client frame (masked, as RFC 6455 requires): `opcode` 0x1 text, 0x8 close.
inline std::string MaskedFrame(const std::string& payload, std::mt19937& random, int opcode = 0x1) {
  std::string frame;
  frame.push_back(static_cast<char>(0x80 | opcode));
  if (payload.size() < 126) {
    frame.push_back(static_cast<char>(0x80 | payload.size()));
  } else {
    frame.push_back(static_cast<char>(0x80 | 126));
    frame.push_back(static_cast<char>((payload.size() >> 8) & 0xff));
    frame.push_back(static_cast<char>(payload.size() & 0xff));
  }
  char mask[4];
  for (char& m : mask)
    m = static_cast<char>(random() & 0xff);
  frame.append(mask, 4);
  for (std::size_t i = 0; i < payload.size(); ++i)
    frame.push_back(static_cast<char>(payload[i] ^ mask[i % 4]));
  return frame;
}

inline std::string MaskedTextFrame(const std::string& payload, std::mt19937& random) {
  return MaskedFrame(payload, random, 0x1);
}

/// One TCP connection (TCP_NODELAY) with TLS on it, open until destroyed.
struct BareConnection {
  int fd = -1;
  SSL* ssl = nullptr;
  std::string pending;  ///< read and not yet consumed
  BareConnection() = default;
  BareConnection(const BareConnection&) = delete;
  BareConnection& operator=(const BareConnection&) = delete;
  ~BareConnection() {
    if (ssl) {
      SSL_shutdown(ssl);
      SSL_free(ssl);
    }
    if (fd >= 0) ::close(fd);
  }
};

/// Connects and shakes hands (TLS, the peer's address checked).
inline std::unique_ptr<BareConnection> ConnectTls(SSL_CTX* context, const std::string& host, int port) {
  auto c = std::make_unique<BareConnection>();
  c->fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, host.c_str(), &to.sin_addr);
  if (::connect(c->fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0)
    throw std::runtime_error("baseline: connect failed");
  int one = 1;
  ::setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  c->ssl = SSL_new(context);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl), host.c_str());
  SSL_set_fd(c->ssl, c->fd);
  if (SSL_connect(c->ssl) != 1) throw std::runtime_error("baseline: TLS handshake failed");
  return c;
}

/// Connects, shakes hands (TLS, WebSocket), reads Hello, sends Identify and reads until READY. Returns the
/// connection, open.
inline std::unique_ptr<BareConnection> ConnectBare(SSL_CTX* context, const GatewayAddress& address,
                                                   const std::string& token, std::mt19937& random) {
  auto c = ConnectTls(context, address.host, address.port);
  std::string key = "dGhlIHNhbXBsZSBub25jZQ==";
  WriteAll(c->ssl, "GET " + address.path + "?v=10&encoding=json HTTP/1.1\r\nHost: " + address.host + ":" +
                       std::to_string(address.port) +
                       "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
                       "\r\nSec-WebSocket-Version: 13\r\n\r\n");
  std::string& pending = c->pending;
  char buffer[4096];
  while (pending.find("\r\n\r\n") == std::string::npos) {
    const int got = SSL_read(c->ssl, buffer, sizeof buffer);
    if (got <= 0)
      throw std::runtime_error("baseline: no upgrade answer: " + std::to_string(SSL_get_error(c->ssl, got)));
    pending.append(buffer, static_cast<std::size_t>(got));
  }
  if (pending.rfind("HTTP/1.1 101", 0) != 0)
    throw std::runtime_error("baseline: upgrade refused: " + pending);
  pending.erase(0, pending.find("\r\n\r\n") + 4);
  if (ReadFrame(c->ssl, pending).find("\"op\":10") == std::string::npos)
    throw std::runtime_error("baseline: no Hello");
  WriteAll(c->ssl, MaskedTextFrame(R"({"op":2,"d":{"token":"Bearer )" + token +
                                       R"(","properties":{"os":"linux","browser":"bare","device":"bare"},)"
                                       R"("intents":0,"capabilities":0}})",
                                   random));
  for (;;) {
    std::string frame;
    try {
      frame = ReadFrame(c->ssl, pending);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("after Identify: ") + e.what());
    }
    if (frame.find("\"t\":\"READY\"") != std::string::npos) break;
    if (frame.find("\"op\":9") != std::string::npos) throw std::runtime_error("baseline: invalid session");
  }
  return c;
}

/// Ends the Gateway session the way a client that is done does: close 1000 (the session is not kept for a
/// resume).
inline void CloseBare(BareConnection& c, std::mt19937& random) {
  WriteAll(c.ssl, MaskedFrame(std::string("\x03\xe8", 2), random, 0x8));
}

/// Reads one HTTP/1.1 response (with a Content-Length) from a keep-alive connection; returns the status, the
/// body in `body`.
inline int ReadHttpResponse(BareConnection& c, std::string& body) {
  std::string& pending = c.pending;
  char buffer[16384];
  auto more = [&] {
    const int got = SSL_read(c.ssl, buffer, sizeof buffer);
    if (got <= 0) throw std::runtime_error("baseline: HTTP read failed");
    pending.append(buffer, static_cast<std::size_t>(got));
  };
  std::size_t end = 0;
  while ((end = pending.find("\r\n\r\n")) == std::string::npos)
    more();
  const int status = std::atoi(pending.c_str() + 9);  // "HTTP/1.1 201 ..."
  std::size_t length = 0;
  for (std::size_t line = pending.find("\r\n") + 2; line < end;) {
    const std::size_t next = pending.find("\r\n", line);
    const std::string header = pending.substr(line, next - line);
    if (header.size() > 15 && strncasecmp(header.c_str(), "content-length:", 15) == 0)
      length = static_cast<std::size_t>(std::strtoull(header.c_str() + 15, nullptr, 10));
    line = next + 2;
  }
  while (pending.size() < end + 4 + length)
    more();
  body = pending.substr(end + 4, length);
  pending.erase(0, end + 4 + length);
  return status;
}

}  // namespace platformpp::bench
