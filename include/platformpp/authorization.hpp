#pragma once
// Arguments and values of the OAuth2 authorization flow (PKCE), named and shaped as in the platform's own
// Social SDK: AuthorizationArgs for Client::Authorize, AuthorizationCodeVerifier from
// Client::CreateAuthorizationCodeVerifier.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace platformpp {

/// How a PKCE code challenge is derived from its verifier; values match the platform's own Social SDK.
enum class AuthenticationCodeChallengeMethod : int32_t {
  S256 = 0,  ///< The challenge is the unpadded base64url SHA-256 of the verifier (the only method).
};

/// How the application is installed; values match the platform's own Social SDK.
enum class IntegrationType : int32_t {
  GuildInstall = 0,  ///< Installed to a guild (server).
  UserInstall = 1,   ///< Installed to the player's own account.
};

/// Identity providers for provisional accounts; values match the platform's own Social SDK.
enum class AuthenticationExternalAuthType : int32_t {
  OIDC = 0,                           ///< An OpenID Connect ID token of the game's own identity provider.
  EpicOnlineServicesAccessToken = 1,  ///< An Epic Online Services access token.
  EpicOnlineServicesIdToken = 2,      ///< An Epic Online Services ID token.
  SteamSessionTicket = 3,             ///< A Steam session ticket.
  UnityServicesIdToken = 4,           ///< A Unity Services ID token.
  DiscordBotIssuedAccessToken = 5,    ///< An access token issued by a bot (DISCORD_BOT_ISSUED_ACCESS_TOKEN).
  AppleIdToken = 6,                   ///< A Sign in with Apple ID token.
  PlayStationNetworkIdToken = 7,      ///< A PlayStation Network ID token.
};

/// The wire name of an external auth type ("OIDC", "STEAM_SESSION_TICKET", ...); "" for a value outside
/// the enum. A static string.
const char* ExternalAuthTypeToWireName(AuthenticationExternalAuthType type) noexcept;

/// The public half of a PKCE pair, sent with Client::Authorize (AuthorizationArgs::SetCodeChallenge).
///
/// Get one from Client::CreateAuthorizationCodeVerifier rather than building it by hand.
class AuthorizationCodeChallenge {
 public:
  /// An empty challenge with method S256.
  AuthorizationCodeChallenge() = default;
  /// How the challenge was derived from the verifier (S256 by default).
  AuthenticationCodeChallengeMethod Method() const noexcept { return method_; }
  /// Sets how the challenge was derived from the verifier.
  void SetMethod(AuthenticationCodeChallengeMethod method) noexcept { method_ = method; }
  /// The challenge string sent to the authorize page.
  const std::string& Challenge() const noexcept { return challenge_; }
  /// Sets the challenge string sent to the authorize page.
  void SetChallenge(std::string challenge) { challenge_ = std::move(challenge); }

 private:
  AuthenticationCodeChallengeMethod method_ = AuthenticationCodeChallengeMethod::S256;
  std::string challenge_;
};

/// A PKCE pair: keep Verifier() secret until GetToken; pass Challenge() in
/// AuthorizationArgs::SetCodeChallenge.
class AuthorizationCodeVerifier {
 public:
  /// An empty pair.
  AuthorizationCodeVerifier() = default;
  /// A pair of `challenge` and the `verifier` it was derived from.
  AuthorizationCodeVerifier(AuthorizationCodeChallenge challenge, std::string verifier)
      : challenge_(std::move(challenge)), verifier_(std::move(verifier)) {}
  /// The public half, for AuthorizationArgs::SetCodeChallenge.
  const AuthorizationCodeChallenge& Challenge() const noexcept { return challenge_; }
  /// Replaces the public half.
  void SetChallenge(AuthorizationCodeChallenge challenge) { challenge_ = std::move(challenge); }
  /// The secret half, for the `codeVerifier` of Client::GetToken.
  const std::string& Verifier() const noexcept { return verifier_; }
  /// Replaces the secret half.
  void SetVerifier(std::string verifier) { verifier_ = std::move(verifier); }

 private:
  AuthorizationCodeChallenge challenge_;
  std::string verifier_;
};

/// Arguments of Client::Authorize. Each field has a getter and a Set<Field> setter.
class AuthorizationArgs {
 public:
  /// An uninitialised instance: operator bool is false, and Authorize refuses it.
  static const AuthorizationArgs nullobj;

  AuthorizationArgs() = default;
  /// True for every instance except nullobj and its copies.
  explicit operator bool() const noexcept { return valid_; }

  /// Application id; 0 (unset) means the value given to Client::SetApplicationId.
  uint64_t ClientId() const noexcept { return clientId_; }
  /// Sets the application id to authorize; 0 means the value given to Client::SetApplicationId.
  void SetClientId(uint64_t clientId) noexcept { clientId_ = clientId; }
  /// Space-separated scopes; required. Client::GetDefaultCommunicationScopes or GetDefaultPresenceScopes.
  const std::string& Scopes() const noexcept { return scopes_; }
  /// Sets the space-separated scopes to ask the player for.
  void SetScopes(std::string scopes) { scopes_ = std::move(scopes); }
  /// Leave unset: the SDK then generates a secure random value and checks it when the code comes back.
  const std::optional<std::string>& State() const noexcept { return state_; }
  /// Sets the OAuth2 `state`; best left unset (see State()). Authorize refuses an empty string.
  void SetState(std::optional<std::string> state) { state_ = std::move(state); }
  /// Only useful for backends that use ID tokens.
  const std::optional<std::string>& Nonce() const noexcept { return nonce_; }
  /// Sets the OpenID Connect `nonce` sent with the request; unset sends none.
  void SetNonce(std::optional<std::string> nonce) { nonce_ = std::move(nonce); }
  /// Needed for the GetToken flow: the Challenge() of Client::CreateAuthorizationCodeVerifier.
  const std::optional<AuthorizationCodeChallenge>& CodeChallenge() const noexcept { return codeChallenge_; }
  /// Sets the PKCE challenge: AuthorizationCodeVerifier::Challenge() of
  /// Client::CreateAuthorizationCodeVerifier.
  void SetCodeChallenge(std::optional<AuthorizationCodeChallenge> challenge) {
    codeChallenge_ = std::move(challenge);
  }
  /// How the application is to be installed (sent as `integration_type`); unset sends nothing.
  const std::optional<platformpp::IntegrationType>& IntegrationType() const noexcept {
    return integrationType_;
  }
  /// Sets how the application is to be installed; unset (the default) sends nothing.
  void SetIntegrationType(std::optional<platformpp::IntegrationType> type) noexcept {
    integrationType_ = type;
  }
  /// A custom URI scheme for mobile redirects: "<scheme>" gives the redirect "<scheme>:/authorize/callback".
  const std::optional<std::string>& CustomSchemeParam() const noexcept { return customSchemeParam_; }
  /// Sets the custom URI scheme for mobile redirects (see CustomSchemeParam()).
  void SetCustomSchemeParam(std::optional<std::string> scheme) { customSchemeParam_ = std::move(scheme); }

 private:
  struct Null {};
  explicit AuthorizationArgs(Null) noexcept : valid_(false) {}

  bool valid_ = true;
  uint64_t clientId_ = 0;
  std::string scopes_;
  std::optional<std::string> state_;
  std::optional<std::string> nonce_;
  std::optional<AuthorizationCodeChallenge> codeChallenge_;
  std::optional<platformpp::IntegrationType> integrationType_;
  std::optional<std::string> customSchemeParam_;
};

/// How a token passed to the SDK is to be presented; values match the platform's own Social SDK.
enum class AuthorizationTokenType : int32_t {
  User = 0,    ///< Sent as is in the Authorization header.
  Bearer = 1,  ///< Sent as "Bearer <token>": the type of the OAuth2 tokens the platform issues.
};

// The callbacks of Client's authorization calls (also reachable as Client::<name>). Each runs once, inside
// RunCallbacks.

/// Client::FetchCurrentUser: the id and username of the token's user.
using FetchCurrentUserCallback = std::function<void(ClientResult result, uint64_t id, std::string name)>;
/// Client::GetToken, RefreshToken, GetProvisionalToken and GetTokenFromProvisionalMerge: the new pair, its
/// type, its lifetime in seconds and its space-separated scopes.
using TokenExchangeCallback =
    std::function<void(ClientResult result, std::string accessToken, std::string refreshToken,
                       AuthorizationTokenType tokenType, int32_t expiresIn, std::string scopes)>;
/// Client::ExchangeChildToken: the child application's access token, its type, lifetime and scopes.
using ExchangeChildTokenCallback =
    std::function<void(ClientResult result, std::string accessToken, AuthorizationTokenType tokenType,
                       int32_t expiresIn, std::string scopes)>;
/// Client::RevokeToken.
using RevokeTokenCallback = std::function<void(ClientResult result)>;
/// Client::UpdateProvisionalAccountDisplayName.
using UpdateProvisionalAccountDisplayNameCallback = std::function<void(ClientResult result)>;
/// Client::RegisterAuthorizeRequestCallback: the player asked the desktop client to link this game.
using AuthorizeRequestCallback = std::function<void()>;
/// Client::UpdateToken and UnmergeIntoProvisionalAccount.
using UpdateTokenCallback = std::function<void(ClientResult result)>;
/// Client::Authorize: the authorization code and the redirect URI to pass to GetToken.
using AuthorizationCallback =
    std::function<void(ClientResult result, std::string code, std::string redirectUri)>;
/// Client::SetUrlOpener: opens a URL in a browser and returns whether it could; runs inside RunCallbacks.
using UrlOpener = std::function<bool(const std::string& url)>;

}  // namespace platformpp
