#include <doctest/doctest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <memory>

#include "server/tls_certificates.hpp"

namespace tls_certificates_test {

using namespace platformpp::emulator;

namespace {
std::unique_ptr<X509, decltype(&X509_free)> read_certificate(const std::string& pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                BIO_free);
  return {PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr), X509_free};
}
}  // namespace

TEST_CASE("generated CA and loopback server certificate verify and carry the right extensions") {
  const auto generated = generate_certificates();
  const auto ca = read_certificate(generated.ca_certificate_pem);
  const auto server = read_certificate(generated.server_certificate_pem);
  REQUIRE(ca);
  REQUIRE(server);
  CHECK(X509_check_ca(ca.get()) == 1);
  CHECK(X509_check_ca(server.get()) == 0);
  CHECK((X509_get_key_usage(ca.get()) & KU_KEY_CERT_SIGN) != 0);
  CHECK((X509_get_extended_key_usage(server.get()) & XKU_SSL_SERVER) != 0);
  CHECK(X509_check_ip_asc(server.get(), "127.0.0.1", 0) == 1);
  CHECK(X509_check_ip_asc(server.get(), "::1", 0) == 1);
  CHECK(X509_check_host(server.get(), "localhost", 0, 0, nullptr) == 1);
  CHECK(X509_check_host(server.get(), "example.com", 0, 0, nullptr) == 0);
  CHECK(X509_cmp_current_time(X509_get0_notBefore(server.get())) < 0);
  CHECK(X509_cmp_current_time(X509_get0_notAfter(server.get())) > 0);

  std::unique_ptr<X509_STORE, decltype(&X509_STORE_free)> store(X509_STORE_new(), X509_STORE_free);
  X509_STORE_add_cert(store.get(), ca.get());
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> context(X509_STORE_CTX_new(),
                                                                          X509_STORE_CTX_free);
  X509_STORE_CTX_init(context.get(), store.get(), server.get(), nullptr);
  X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_SERVER);
  CHECK(X509_verify_cert(context.get()) == 1);

  CHECK(generated.server_private_key_pem.find("PRIVATE KEY") != std::string::npos);
  const auto again = generate_certificates();  // fresh keys and serials every start
  CHECK(again.ca_certificate_pem != generated.ca_certificate_pem);
}

}  // namespace tls_certificates_test
