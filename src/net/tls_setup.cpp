#include "net/tls_setup.hpp"

#include "core/logger.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <cstdlib>

namespace platformpp::net {
namespace {

bool IsIpLiteral(const std::string& host) {
  unsigned char address[16];
  return ::inet_pton(AF_INET, host.c_str(), address) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), address) == 1;
}

std::string LastOpenSslError() {
  char text[256];
  ERR_error_string_n(ERR_get_error(), text, sizeof text);
  ERR_clear_error();
  return text;
}

}  // namespace

std::string ConfigureClientTls(SSL_CTX* context, const TlsTrust& trust, core::Logger& logger,
                               std::string_view component) {
  SSL_CTX_set_options(context, SSL_OP_ALL);
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nullptr);
  if (trust.useSystemCertificates) {
    if (SSL_CTX_set_default_verify_dir(context) != 1) {
      logger.Warning(std::string(component) + ": cannot use the system's certificate directory");
      ERR_clear_error();
    }
    if (const char* file = std::getenv("SSL_CERT_FILE"); file && *file) {
      if (SSL_CTX_load_verify_locations(context, file, nullptr) != 1) {
        logger.Warning(std::string(component) + ": cannot load SSL_CERT_FILE " + file + ": " +
                       LastOpenSslError());
      }
    }
  }
  if (!trust.caFile.empty() && SSL_CTX_load_verify_locations(context, trust.caFile.c_str(), nullptr) != 1) {
    return "cannot load the CA file " + trust.caFile + ": " + LastOpenSslError();
  }
  return {};
}

void ExpectPeerName(SSL* ssl, const std::string& host) {
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  if (IsIpLiteral(host)) {
    X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, host.c_str());
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
  }
}

}  // namespace platformpp::net
