#include "core/redaction.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace platformpp::core {
namespace {

constexpr std::array<std::string_view, 14> kSensitiveKeys = {
    "access_token",        "refresh_token", "id_token",     "token",       "code",
    "code_verifier",       "client_secret", "bot_token",    "secret",      "device_code",
    "external_auth_token", "password",      "parent_token", "child_token",
};

constexpr std::array<std::string_view, 3> kAuthSchemes = {"bearer", "bot", "basic"};

bool IEquals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool IsSensitiveKey(std::string_view key) noexcept {
  return std::any_of(kSensitiveKeys.begin(), kSensitiveKeys.end(),
                     [&](std::string_view k) { return IEquals(k, key); });
}

bool IsKeyChar(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}
bool IsTokenChar(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '~' ||
         c == '+' || c == '/' || c == '=' || c == '%';
}

// "Bearer <credential>": the scheme as a whole word, then spaces, then the credential.
std::size_t RedactAuthScheme(std::string_view text, std::size_t i, std::string& out) {
  if (i > 0 && IsKeyChar(text[i - 1])) return 0;
  for (std::string_view scheme : kAuthSchemes) {
    if (text.size() - i <= scheme.size() || !IEquals(text.substr(i, scheme.size()), scheme)) continue;
    std::size_t j = i + scheme.size();
    if (text[j] != ' ') continue;
    while (j < text.size() && text[j] == ' ')
      ++j;
    std::size_t end = j;
    while (end < text.size() && IsTokenChar(text[end]))
      ++end;
    if (end == j) continue;
    out.append(text.substr(i, j - i));
    out.append(kRedacted);
    return end - i;
  }
  return 0;
}

// "key": "value" in JSON (string values only) or key=value in a form or query string.
std::size_t RedactKeyValue(std::string_view text, std::size_t i, std::string& out) {
  bool quoted = text[i] == '"';
  if (!quoted && i > 0 && IsKeyChar(text[i - 1])) return 0;
  std::size_t keyStart = quoted ? i + 1 : i;
  std::size_t keyEnd = keyStart;
  while (keyEnd < text.size() && IsKeyChar(text[keyEnd]))
    ++keyEnd;
  if (keyEnd == keyStart || !IsSensitiveKey(text.substr(keyStart, keyEnd - keyStart))) return 0;
  std::size_t j = keyEnd;
  if (quoted) {
    if (j >= text.size() || text[j] != '"') return 0;
    ++j;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
      ++j;
    if (j >= text.size() || text[j] != ':') return 0;
    ++j;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
      ++j;
    if (j >= text.size() || text[j] != '"') return 0;
    std::size_t end = j + 1;
    while (end < text.size() && text[end] != '"')
      end += text[end] == '\\' ? 2 : 1;
    out.append(text.substr(i, j + 1 - i));
    out.append(kRedacted);
    out.push_back('"');
    return std::min(end + 1, text.size()) - i;
  }
  if (j >= text.size() || text[j] != '=') return 0;
  ++j;
  std::size_t end = j;
  while (end < text.size() && text[end] != '&' && text[end] != ' ' && text[end] != '"' && text[end] != '\n' &&
         text[end] != '\r' && text[end] != ',' && text[end] != ';')
    ++end;
  out.append(text.substr(i, j - i));
  out.append(kRedacted);
  return end - i;
}

// "/webhooks/<id>/<token>" and "/interactions/<id>/<token>": a webhook's or an interaction's token is the
// path segment after the id (the URL is the credential on those routes).
std::size_t RedactRouteToken(std::string_view text, std::size_t i, std::string& out) {
  constexpr std::array<std::string_view, 2> kRoutes = {"/webhooks/", "/interactions/"};
  for (std::string_view route : kRoutes) {
    if (text.substr(i, route.size()) != route) continue;
    std::size_t j = i + route.size();
    std::size_t idEnd = j;
    while (idEnd < text.size() && text[idEnd] != '/' && IsTokenChar(text[idEnd]))
      ++idEnd;
    if (idEnd == j || idEnd >= text.size() || text[idEnd] != '/') continue;
    std::size_t end = idEnd + 1;
    while (end < text.size() && text[end] != '/' && IsTokenChar(text[end]))
      ++end;
    if (end == idEnd + 1) continue;
    out.append(text.substr(i, idEnd + 1 - i));
    out.append(kRedacted);
    return end - i;
  }
  return 0;
}

}  // namespace

bool IsSensitiveHeader(std::string_view name) noexcept {
  return IEquals(name, "authorization") || IEquals(name, "proxy-authorization") || IEquals(name, "cookie") ||
         IEquals(name, "set-cookie") || IEquals(name, "x-super-properties");
}

std::string RedactByShape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t used = 0;
    char c = text[i];
    if (c == '"' || std::isalpha(static_cast<unsigned char>(c))) used = RedactKeyValue(text, i, out);
    if (used == 0 && std::isalpha(static_cast<unsigned char>(c))) used = RedactAuthScheme(text, i, out);
    if (used == 0 && c == '/') used = RedactRouteToken(text, i, out);
    if (used == 0) {
      out.push_back(c);
      used = 1;
    }
    i += used;
  }
  return out;
}

void SecretRedactor::AddSecret(std::string_view secret) {
  if (secret.size() < 8) return;
  std::lock_guard lock(mutex_);
  if (std::find(secrets_.begin(), secrets_.end(), secret) == secrets_.end()) secrets_.emplace_back(secret);
}

std::string SecretRedactor::Redact(std::string_view text) const {
  std::string out = RedactByShape(text);
  std::lock_guard lock(mutex_);
  for (const std::string& secret : secrets_) {
    for (std::size_t pos = out.find(secret); pos != std::string::npos; pos = out.find(secret, pos)) {
      out.replace(pos, secret.size(), kRedacted);
      pos += kRedacted.size();
    }
  }
  return out;
}

}  // namespace platformpp::core
