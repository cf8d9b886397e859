#pragma once
// TLS client setup shared by every connection the SDK makes (HTTP, the Gateway, the voice gateway): TLS 1.2
// or newer, the peer verified against the system's store and/or a CA file, and its host name (or IP address)
// checked. OpenSSL types only, so callers keep their Asio streams to themselves.

#include <memory>
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

/// A verifying TLS 1.2+ client context for `trust`, shared by every connection of every Client in the process
/// that asks for the same trust (the same CA file and system store, unchanged on disk) while any of them
/// holds it, and the last one asked for even after its holders are gone: loading a CA bundle costs tens of
/// milliseconds and over a MiB, so it is done once, not per Client or per connection. Immutable once made
/// (what differs per connection is set on its SSL). Problems with the system store are logged as warnings
/// naming `component`, for every caller; an unreadable CA file gives nullptr and `error`, because then no
/// connection could be trusted as the game asked.
std::shared_ptr<SSL_CTX> ClientTlsContext(const TlsTrust& trust, core::Logger& logger,
                                          std::string_view component, std::string& error);

/// Before the handshake: send `host` as SNI (names only) and require the certificate to match it.
void ExpectPeerName(SSL* ssl, const std::string& host);

}  // namespace platformpp::net
