// The platform's signature of a webhook request: Ed25519 (libsodium) with the application's signing key over
// the X-Signature-Timestamp header's text followed by the body, byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace platformpp::emulator {

// X-Signature-Ed25519: the 128 hex digits of the detached signature. `secret_key` is the application's
// 64-byte libsodium secret key (Application::signing_secret_key).
std::string sign_webhook(std::string_view secret_key, std::string_view timestamp, std::string_view body);

}  // namespace platformpp::emulator
