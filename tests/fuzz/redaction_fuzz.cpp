// Redaction sees every log line, including bodies that came from the network.
#include "core/redaction.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  platformpp::core::SecretRedactor redactor;
  const std::string secret = "planted-secret-value-0123456789";
  redactor.AddSecret(secret);
  std::string line = std::string(text) + secret + std::string(text);
  std::string out = redactor.Redact(line);
  if (out.find(secret) != std::string::npos) __builtin_trap();  // a known secret never survives
  (void)platformpp::core::RedactByShape(text);
  return 0;
}
