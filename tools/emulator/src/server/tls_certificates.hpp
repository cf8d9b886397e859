// A throwaway ECDSA P-256 CA and a loopback server certificate, generated at start. Only the CA certificate
// is written to disk (for clients to trust); private keys stay in memory.
#pragma once

#include <string>

namespace platformpp::emulator {

struct GeneratedCertificates {
  std::string ca_certificate_pem;
  std::string server_certificate_pem;  // SANs IP:127.0.0.1, IP:::1, DNS:localhost; EKU serverAuth
  std::string server_private_key_pem;
};

// Throws std::runtime_error with OpenSSL's reason on failure.
GeneratedCertificates generate_certificates();

}  // namespace platformpp::emulator
