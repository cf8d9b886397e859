#include "server/tls_certificates.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <stdexcept>

namespace platformpp::emulator {

namespace {

template <auto Free>
struct OpenSslDeleter {
  template <class T>
  void operator()(T* p) const noexcept {
    Free(p);
  }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, OpenSslDeleter<EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, OpenSslDeleter<X509_free>>;
using BioPtr = std::unique_ptr<BIO, OpenSslDeleter<BIO_free>>;
using BignumPtr = std::unique_ptr<BIGNUM, OpenSslDeleter<BN_free>>;
using ExtensionPtr = std::unique_ptr<X509_EXTENSION, OpenSslDeleter<X509_EXTENSION_free>>;

[[noreturn]] void fail(const char* what) {
  char reason[256] = "unknown error";
  if (const unsigned long code = ERR_get_error(); code != 0) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error(std::string("certificate generation failed: ") + what + ": " + reason);
}

void check(int ok, const char* what) {
  if (ok <= 0) fail(what);
}

KeyPtr generate_p256_key() {
  KeyPtr key(EVP_EC_gen("P-256"));
  if (!key) fail("EC key generation");
  return key;
}

void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx_nodb(&context);
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  ExtensionPtr extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  if (!extension) fail(value);
  check(X509_add_ext(cert, extension.get(), -1), "X509_add_ext");
}

// A certificate with a random positive 127-bit serial, valid from real-now minus one day to plus one year.
CertPtr new_certificate(EVP_PKEY* subject_key, const char* common_name) {
  CertPtr cert(X509_new());
  if (!cert) fail("X509_new");
  check(X509_set_version(cert.get(), 2), "X509_set_version");
  BignumPtr serial(BN_new());
  if (!serial) fail("BN_new");
  check(BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY), "BN_rand");
  if (BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) == nullptr) fail("serial");
  if (X509_gmtime_adj(X509_getm_notBefore(cert.get()), -24L * 3600) == nullptr) fail("notBefore");
  if (X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600) == nullptr) fail("notAfter");
  check(X509_set_pubkey(cert.get(), subject_key), "X509_set_pubkey");
  X509_NAME* name = X509_get_subject_name(cert.get());
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(common_name), -1, -1, 0),
        "subject CN");
  return cert;
}

std::string to_pem(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio) fail("BIO_new");
  check(PEM_write_bio_X509(bio.get(), cert), "PEM_write_bio_X509");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string to_pem(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio) fail("BIO_new");
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr),
        "PEM_write_bio_PrivateKey");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

GeneratedCertificates generate_certificates() {
  const auto ca_key = generate_p256_key();
  const auto ca = new_certificate(ca_key.get(), "platformpp-emulator CA");
  check(X509_set_issuer_name(ca.get(), X509_get_subject_name(ca.get())), "CA issuer");
  add_extension(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_extension(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
  add_extension(ca.get(), ca.get(), NID_subject_key_identifier, "hash");
  check(X509_sign(ca.get(), ca_key.get(), EVP_sha256()), "CA signature");

  const auto server_key = generate_p256_key();
  const auto server = new_certificate(server_key.get(), "localhost");
  check(X509_set_issuer_name(server.get(), X509_get_subject_name(ca.get())), "server issuer");
  add_extension(server.get(), ca.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_extension(server.get(), ca.get(), NID_key_usage, "critical,digitalSignature");
  add_extension(server.get(), ca.get(), NID_ext_key_usage, "serverAuth");
  add_extension(server.get(), ca.get(), NID_subject_alt_name, "IP:127.0.0.1,IP:::1,DNS:localhost");
  add_extension(server.get(), ca.get(), NID_subject_key_identifier, "hash");
  add_extension(server.get(), ca.get(), NID_authority_key_identifier, "keyid:always");
  check(X509_sign(server.get(), ca_key.get(), EVP_sha256()), "server signature");

  return {to_pem(ca.get()), to_pem(server.get()), to_pem(server_key.get())};
}

}  // namespace platformpp::emulator
