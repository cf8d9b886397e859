#include "events/secret_redaction.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <unordered_map>

namespace platformpp::emulator {
namespace {

// The SDK's list (src/core/redaction.cpp) and the emulator's own: its admin token.
constexpr std::array<std::string_view, 15> kSecretKeys = {
    "access_token",        "refresh_token", "id_token",    "token",       "code",     "code_verifier",
    "client_secret",       "bot_token",     "secret",      "device_code", "password", "parent_token",
    "external_auth_token", "child_token",   "admin_token",
};
constexpr std::array<std::string_view, 3> kSchemes = {"Bearer ", "Bot ", "Basic "};
constexpr std::array<std::string_view, 2> kTokenRoutes = {"/webhooks/", "/interactions/"};

// Character classes by table: the log redacts every frame, and the locale's isalnum is a call per byte.
enum CharClass : unsigned char { kAlpha = 1, kDigit = 2, kNameMark = 4, kCredentialMark = 8 };
constexpr std::array<unsigned char, 256> kClasses = [] {
  std::array<unsigned char, 256> classes{};
  for (int c = 'a'; c <= 'z'; ++c)
    classes[static_cast<std::size_t>(c)] = kAlpha;
  for (int c = 'A'; c <= 'Z'; ++c)
    classes[static_cast<std::size_t>(c)] = kAlpha;
  for (int c = '0'; c <= '9'; ++c)
    classes[static_cast<std::size_t>(c)] = kDigit;
  for (const char c : {'_', '-'})
    classes[static_cast<unsigned char>(c)] = kNameMark | kCredentialMark;
  for (const char c : {'.', '~', '+', '/', '=', '%'})
    classes[static_cast<unsigned char>(c)] = kCredentialMark;
  return classes;
}();

unsigned char class_of(char c) noexcept {
  return kClasses[static_cast<unsigned char>(c)];
}
bool is_alpha(char c) noexcept {
  return (class_of(c) & kAlpha) != 0;
}
bool is_digit(char c) noexcept {
  return (class_of(c) & kDigit) != 0;
}
bool is_name_char(char c) noexcept {
  return (class_of(c) & (kAlpha | kDigit | kNameMark)) != 0;
}
// What a credential in a header, form or path is made of (base64, base64url, percent-encoding, JWT dots).
bool is_credential_char(char c) noexcept {
  return (class_of(c) & (kAlpha | kDigit | kCredentialMark)) != 0;
}

bool starts_with_icase(std::string_view text, std::string_view prefix) noexcept {
  // ASCII only: the schemes are.
  return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(),
                                                    [](char a, char b) { return (a | 0x20) == (b | 0x20); });
}

// At text[i] == '"': `"key"` then `:` then a string or (secret_key) an array. Returns what it consumed, 0
// when this is not a secret's key.
std::size_t redact_json_member(std::string_view text, std::size_t i, std::string& out) {
  std::size_t key_end = i + 1;
  while (key_end < text.size() && is_name_char(text[key_end]))
    ++key_end;
  if (key_end >= text.size() || text[key_end] != '"') return 0;
  const auto key = text.substr(i + 1, key_end - i - 1);
  const bool array_secret = key == "secret_key";
  if (!array_secret && !is_secret_key(key)) return 0;
  std::size_t j = key_end + 1;
  while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
    ++j;
  if (j >= text.size() || text[j] != ':') return 0;
  ++j;
  while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
    ++j;
  if (j >= text.size()) return 0;
  std::size_t end = j + 1;
  if (text[j] == '"') {
    while (end < text.size() && text[end] != '"')
      end += text[end] == '\\' ? 2 : 1;
    end = std::min(end, text.size());
    out.append(text.substr(i, j - i));
    out += '"';
    // "Bearer x" as a value (a Gateway Identify's token): the scheme stays, so that the marker is the
    // token's, the same as in an Authorization header.
    auto value = text.substr(j + 1, end - j - 1);
    for (const auto scheme : kSchemes) {
      if (starts_with_icase(value, scheme)) {
        out.append(value.substr(0, scheme.size()));
        value.remove_prefix(scheme.size());
        break;
      }
    }
    out += secret_marker(value);
    out += '"';
    return std::min(end + 1, text.size()) - i;
  }
  if (array_secret && text[j] == '[') {
    // To its matching bracket: strings and nested arrays in it do not end it.
    int depth = 1;
    bool in_string = false;
    while (end < text.size() && depth > 0) {
      const char d = text[end];
      if (in_string) {
        if (d == '\\')
          ++end;
        else if (d == '"')
          in_string = false;
      } else if (d == '"') {
        in_string = true;
      } else if (d == '[') {
        ++depth;
      } else if (d == ']') {
        --depth;
      }
      ++end;
    }
    end = std::min(end, text.size());
    out.append(text.substr(i, j - i));
    out += '"';
    out += secret_marker(text.substr(j, end - j));
    out += '"';
    return end - i;
  }
  return 0;
}

// At a name in a form or query string: `name=value` up to the next separator.
std::size_t redact_field(std::string_view text, std::size_t i, std::string& out) {
  if (i > 0 && (is_name_char(text[i - 1]) || text[i - 1] == '\\')) return 0;
  std::size_t name_end = i;
  while (name_end < text.size() && is_name_char(text[name_end]))
    ++name_end;
  if (name_end == i || name_end >= text.size() || text[name_end] != '=' ||
      !is_secret_key(text.substr(i, name_end - i)))
    return 0;
  std::size_t end = name_end + 1;
  while (end < text.size() && text[end] != '&' && text[end] != ' ' && text[end] != '"' && text[end] != '\\' &&
         text[end] != '\n' && text[end] != '\r' && text[end] != ',' && text[end] != ';' && text[end] != '#')
    ++end;
  out.append(text.substr(i, name_end + 1 - i));
  out += secret_marker(text.substr(name_end + 1, end - name_end - 1));
  return end - i;
}

// "Bearer <credential>" as a whole word.
std::size_t redact_scheme(std::string_view text, std::size_t i, std::string& out) {
  if (i > 0 && is_name_char(text[i - 1])) return 0;
  for (const auto scheme : kSchemes) {
    if (!starts_with_icase(text.substr(i), scheme)) continue;
    std::size_t end = i + scheme.size();
    while (end < text.size() && is_credential_char(text[end]))
      ++end;
    if (end == i + scheme.size()) return 0;
    out.append(text.substr(i, scheme.size()));
    out += secret_marker(text.substr(i + scheme.size(), end - i - scheme.size()));
    return end - i;
  }
  return 0;
}

// "/webhooks/<id>/<token>": the token is the segment after the id. Not under an object ("/applications/
// <id>/interactions/<id>/modal-submit", an admin route), where the segment names an action.
std::size_t redact_route_token(std::string_view text, std::size_t i, std::string& out) {
  std::size_t segment = i;
  while (segment > 0 && is_digit(text[segment - 1]))
    --segment;
  if (segment < i && segment > 0 && text[segment - 1] == '/') return 0;
  for (const auto route : kTokenRoutes) {
    if (text.substr(i, route.size()) != route) continue;
    const std::size_t id_start = i + route.size();
    std::size_t id_end = id_start;
    while (id_end < text.size() && is_digit(text[id_end]))
      ++id_end;
    if (id_end == id_start || id_end >= text.size() || text[id_end] != '/') return 0;
    std::size_t end = id_end + 1;
    while (end < text.size() && is_credential_char(text[end]) && text[end] != '/')
      ++end;
    if (end == id_end + 1) return 0;
    out.append(text.substr(i, id_end + 1 - i));
    out += secret_marker(text.substr(id_end + 1, end - id_end - 1));
    return end - i;
  }
  return 0;
}

// Lets the markers' cache be searched by a view, without a copy of the secret.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

}  // namespace

std::string secret_marker(std::string_view secret) {
  // The same few tokens come back on every request of a session: their markers are remembered (per thread,
  // bounded) rather than hashed again, which was a tenth of the event log's cost.
  thread_local std::unordered_map<std::string, std::string, TextHash, std::equal_to<>> known;
  if (const auto it = known.find(secret); it != known.end()) return it->second;
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), digest.data());
  constexpr char kHex[] = "0123456789abcdef";
  std::string marker = "[redacted#";
  for (std::size_t k = 0; k < 4; ++k) {
    marker += kHex[digest[k] >> 4];
    marker += kHex[digest[k] & 0xF];
  }
  marker += ']';
  constexpr std::size_t kKnownLimit = 4096;
  if (known.size() >= kKnownLimit) known.clear();
  known.emplace(secret, marker);
  return marker;
}

bool is_secret_key(std::string_view key) noexcept {
  return std::find(kSecretKeys.begin(), kSecretKeys.end(), key) != kSecretKeys.end();
}

void append_redacted(std::string_view text, std::string& out) {
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    std::size_t used = 0;
    if (c == '"') {
      used = redact_json_member(text, i, out);
    } else if (c == '/') {
      used = redact_route_token(text, i, out);
    } else if (is_alpha(c)) {
      if (c == 'B' || c == 'b') used = redact_scheme(text, i, out);
      if (used == 0) used = redact_field(text, i, out);
      if (used == 0) {
        // Not a secret's start: the rest of the word cannot be one either (a field name starts a word).
        std::size_t next = i + 1;
        while (next < text.size() && is_name_char(text[next]))
          ++next;
        used = next - i;
        out.append(text.substr(i, used));
      }
    }
    if (used == 0) {
      // Copy up to the next character that can start a secret in one piece.
      std::size_t next = i + 1;
      while (next < text.size() && text[next] != '"' && text[next] != '/' && !is_alpha(text[next]))
        ++next;
      used = next - i;
      out.append(text.substr(i, used));
    }
    i += used;
  }
}

}  // namespace platformpp::emulator
