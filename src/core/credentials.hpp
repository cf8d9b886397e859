#pragma once
// The token the Client presents to the platform (set by UpdateToken), shared by every feature that calls the
// API.

#include <platformpp/authorization.hpp>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace platformpp::core {

struct Credentials {
  AuthorizationTokenType type = AuthorizationTokenType::Bearer;
  std::string token;
  /// When the token stops working, if the SDK saw it issued (expires_in of a token response).
  std::optional<std::chrono::system_clock::time_point> expiresAt;

  /// The Authorization header value.
  std::string Header() const { return type == AuthorizationTokenType::Bearer ? "Bearer " + token : token; }
};

class CredentialStore {
 public:
  /// Sets the token; its expiry comes from NoteExpiry when the SDK saw it issued.
  Credentials Set(AuthorizationTokenType type, std::string token) {
    std::lock_guard lock(mutex_);
    Credentials credentials{type, std::move(token), std::nullopt};
    if (auto it = expiries_.find(credentials.token); it != expiries_.end())
      credentials.expiresAt = it->second;
    credentials_ = credentials;
    return credentials;
  }
  /// Remembers when an issued token expires (the SDK saw its token response).
  void NoteExpiry(const std::string& token, std::chrono::system_clock::time_point expiresAt) {
    std::lock_guard lock(mutex_);
    if (expiries_.size() > 64) expiries_.clear();  // only recent tokens matter
    expiries_[token] = expiresAt;
  }
  std::optional<Credentials> Get() const {
    std::lock_guard lock(mutex_);
    return credentials_;
  }
  /// Forgets the token if it is still `token` (a later UpdateToken wins over an older failure).
  void ClearIf(const std::string& token) {
    std::lock_guard lock(mutex_);
    if (credentials_ && credentials_->token == token) credentials_.reset();
  }
  void Clear() {
    std::lock_guard lock(mutex_);
    credentials_.reset();
  }

  /// Refresh tokens that must not be used with the refresh grant (provisional OIDC accounts re-authenticate).
  void NoteReauthenticateOnly(const std::string& refreshToken) {
    std::lock_guard lock(mutex_);
    reauthenticateOnly_.insert(refreshToken);
  }
  bool IsReauthenticateOnly(const std::string& refreshToken) const {
    std::lock_guard lock(mutex_);
    return reauthenticateOnly_.count(refreshToken) > 0;
  }

 private:
  mutable std::mutex mutex_;
  std::optional<Credentials> credentials_;
  std::unordered_set<std::string> reauthenticateOnly_;
  std::unordered_map<std::string, std::chrono::system_clock::time_point> expiries_;
};

}  // namespace platformpp::core
