#pragma once
// The TLS context of one connection owner (the HTTP client, a Gateway or voice gateway connection): the
// context shared by every Client with the same trust settings (tls_setup.hpp), wrapped for Asio and taken on
// first use (on the network thread), so that a Client that never opens a TLS connection loads nothing.

#include "core/asio_prelude.hpp"
#include "core/logger.hpp"
#include "net/tls_setup.hpp"

#include <openssl/ssl.h>
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace platformpp::net {

class ClientTls {
 public:
  ClientTls(TlsTrust trust, std::string component)
      : trust_(std::move(trust)), component_(std::move(component)) {}
  ClientTls(const ClientTls&) = delete;
  ClientTls& operator=(const ClientTls&) = delete;

  /// The context; nullptr when the trust settings cannot be loaded (Error() says why). Not thread-safe: one
  /// strand calls it.
  boost::asio::ssl::context* Get(core::Logger& logger) {
    if (!ready_) {
      ready_ = true;
      shared_ = ClientTlsContext(trust_, logger, component_, error_);
      if (shared_) {
        SSL_CTX_up_ref(shared_.get());  // the Asio wrapper frees its own reference
        context_.emplace(shared_.get());
      }
    }
    return context_ ? &*context_ : nullptr;
  }
  const std::string& Error() const noexcept { return error_; }

 private:
  TlsTrust trust_;
  std::string component_;
  bool ready_ = false;
  std::string error_;
  std::shared_ptr<SSL_CTX> shared_;  // keeps the shared entry alive while this owner may connect
  std::optional<boost::asio::ssl::context> context_;
};

}  // namespace platformpp::net
