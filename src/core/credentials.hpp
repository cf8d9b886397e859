#pragma once
// The token the Client presents to the platform (set by UpdateToken), shared by every feature that calls the
// API.

#include <platformpp/client.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

namespace platformpp::core {

struct Credentials {
  AuthorizationTokenType type = AuthorizationTokenType::Bearer;
  std::string token;

  /// The Authorization header value.
  std::string Header() const { return type == AuthorizationTokenType::Bearer ? "Bearer " + token : token; }
};

class CredentialStore {
 public:
  void Set(Credentials credentials) {
    std::lock_guard lock(mutex_);
    credentials_ = std::move(credentials);
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
};

}  // namespace platformpp::core
