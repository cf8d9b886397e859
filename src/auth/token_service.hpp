#pragma once
// The player's token calls (docs/auth-protocol.md): the authorization-code grant with PKCE (merging a
// provisional account when an external identity comes with it), the refresh and child-token grants,
// revocation, provisional accounts, and who a token belongs to. Each checks its arguments first (a
// ValidationError naming the argument, nothing sent) and fills in the Client's application id where 0 is
// passed; the platform's answer ends it.
//
// A refresh answered with invalid_grant means the authorization is gone (the seed: treat it as
// APPLICATION_DEAUTHORIZED): the Client drops its own token too.

#include "auth/token_endpoint.hpp"
#include "core/runtime.hpp"
#include "net/http_client.hpp"

#include <platformpp/authorization.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace platformpp::auth {

/// The game's own identity of the player (Steam, Epic, OIDC...): a provisional account's key.
struct ExternalIdentity {
  AuthenticationExternalAuthType type = AuthenticationExternalAuthType::OIDC;
  std::string token;
};

class TokenService {
 public:
  TokenService(core::Runtime& runtime, net::HttpClient& http);

  /// GET /users/@me with `token` (not the Client's): the token's user.
  void FetchCurrentUser(AuthorizationTokenType tokenType, const std::string& token,
                        FetchCurrentUserCallback callback);
  /// The authorization_code grant (public client, PKCE); with `external`, the provisional account of that
  /// identity is merged into the player's platform account.
  void ExchangeCode(uint64_t applicationId, std::string code, std::string codeVerifier,
                    std::string redirectUri, std::optional<ExternalIdentity> external,
                    TokenExchangeCallback callback);
  /// The refresh_token grant; refused for a provisional account's refresh token.
  void Refresh(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback);
  /// The token-exchange grant: a child application's token from its parent's.
  void ExchangeChild(std::string parentApplicationToken, uint64_t childApplicationId,
                     ExchangeChildTokenCallback callback);
  void Revoke(uint64_t applicationId, std::string token, RevokeTokenCallback callback);
  /// A provisional account's token for the player's external identity.
  void GetProvisional(uint64_t applicationId, const ExternalIdentity& identity,
                      TokenExchangeCallback callback);
  /// Splits the external identity off the platform account into a fresh provisional account.
  void Unmerge(uint64_t applicationId, const ExternalIdentity& identity, UpdateTokenCallback callback);
  void UpdateProvisionalDisplayName(const std::string& name,
                                    UpdateProvisionalAccountDisplayNameCallback callback);

 private:
  /// A token operation's completion, with `applicationId` resolved (ApplicationOr). None while the Client is
  /// being destroyed (core::Runtime::Start), or when there is no application id: that operation has already
  /// ended with a validation error.
  std::optional<TokenCompletion> StartToken(uint64_t& applicationId, TokenExchangeCallback callback);
  /// `applicationId`, else the Client's (SetApplicationId); 0 when neither is set.
  uint64_t ApplicationOr(uint64_t applicationId) const;

  core::Runtime& runtime_;
  net::HttpClient& http_;
};

}  // namespace platformpp::auth
