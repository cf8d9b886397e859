#pragma once
// TLS client setup shared by every connection the SDK makes (HTTP and the Gateway): TLS 1.2 or newer, the
// peer verified against the system's store and/or a CA file, and its host name (or IP address) checked.
// OpenSSL types only, so callers keep their Asio streams to themselves.

#include <string>
#include <string_view>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace platformpp::core {
class Logger;
}

namespace platformpp::net {

struct TlsTrust {
  std::string caFile;                 ///< extra PEM CAs to trust
  bool useSystemCertificates = true;  ///< also trust the system store (and $SSL_CERT_FILE)
};

/// Makes `context` a verifying TLS 1.2+ client context. Problems with the system store are logged as warnings
/// naming `component`; an unreadable CA file is returned as an error (empty when all is well), because then
/// no connection could be trusted as the game asked.
std::string ConfigureClientTls(SSL_CTX* context, const TlsTrust& trust, core::Logger& logger,
                               std::string_view component);

/// Before the handshake: send `host` as SNI (names only) and require the certificate to match it.
void ExpectPeerName(SSL* ssl, const std::string& host);

}  // namespace platformpp::net
