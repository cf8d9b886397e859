#pragma once
// The platform's signature on what it POSTs to an application's URLs (webhook events and interactions alike):
// Ed25519 with the application's key over the X-Signature-Timestamp header's text followed by the raw body,
// and a timestamp close enough to now that the request is no replay.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::backend {

/// Why the request is refused (401: a bad key, signature or timestamp, never quoting the body or the key);
/// nullopt when it is the platform's.
std::optional<std::string> CheckRequestSignature(std::string_view publicKeyHex, std::string_view signatureHex,
                                                 std::string_view timestampHeader, std::string_view body,
                                                 std::chrono::system_clock::time_point now,
                                                 std::chrono::seconds maxAge);

}  // namespace platformpp::backend
