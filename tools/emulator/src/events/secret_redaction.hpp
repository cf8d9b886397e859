// Secrets out of the event log (event_log.hpp), recognised by their shape as the SDK's logs recognise them
// (src/core/redaction.hpp), with one difference: a secret becomes "[redacted#xxxxxxxx]", the first 8 hex
// digits of its SHA-256, not a bare "[redacted]". A replay (and a person reading the log) can then tell which
// of the secrets it saw a request carried, and use the live one it stands for, while the log holds none:
// 32 bits of a hash of a 256-bit random token say nothing about the token.
#pragma once

#include <string>
#include <string_view>

namespace platformpp::emulator {

// "[redacted#" + 8 hex digits of SHA-256(secret) + "]".
[[nodiscard]] std::string secret_marker(std::string_view secret);

// Whether a JSON key, form field or query parameter of this name holds a credential (compared as is: the
// platform's names are lower case).
[[nodiscard]] bool is_secret_key(std::string_view key) noexcept;

// Appends `text` to `out` with every secret replaced by its marker: the string values of secret keys in JSON
// ("access_token": "x") and the number array of the voice session's "secret_key", the values of secret
// fields in forms and query strings (code_verifier=x), the credential after an auth scheme ("Bearer x",
// "Bot x", "Basic x") and the token segment of webhook and interaction routes (/webhooks/<id>/<token>).
// JSON stays JSON: only string contents and one array are replaced, by a string.
void append_redacted(std::string_view text, std::string& out);

[[nodiscard]] inline std::string redacted(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_redacted(text, out);
  return out;
}

}  // namespace platformpp::emulator
