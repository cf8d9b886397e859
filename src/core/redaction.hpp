#pragma once
// Keeps secrets out of logs. Two layers, both applied to every message before any sink sees it:
// - by shape: credentials after an auth scheme ("Bearer x", "Bot x", "Basic x") and the values of sensitive
// keys in
//   JSON ("access_token": "x") and in forms or query strings (code_verifier=x);
// - by value: every secret the SDK has handled (tokens it sent or received, codes, verifiers) is replaced
// wherever
//   it appears, whatever the shape around it.

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::core {

inline constexpr std::string_view kRedacted = "[redacted]";

/// Removes credentials recognisable by their shape. Pure; used by SecretRedactor and by the HTTP layer.
std::string RedactByShape(std::string_view text);

/// True for header names whose values are credentials (Authorization, Cookie, ...), compared
/// case-insensitively.
bool IsSensitiveHeader(std::string_view name) noexcept;

class SecretRedactor {
 public:
  /// Remembers `secret` so it is removed from every later message. Thread-safe. Very short values are
  /// ignored: they would blank out ordinary words and are not credentials.
  void AddSecret(std::string_view secret);
  std::string Redact(std::string_view text) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> secrets_;
};

}  // namespace platformpp::core
