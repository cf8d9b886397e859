#include "auth/token_service.hpp"

#include "auth/current_user.hpp"
#include "auth/pkce.hpp"
#include "auth/provisional.hpp"
#include "auth/token_endpoint.hpp"

#include <utility>

namespace platformpp::auth {

namespace {

ClientResult Invalid(std::string message) {
  return ClientResult::Failure(ErrorType::ValidationError, std::move(message));
}

constexpr const char* kNoApplicationId = "applicationId: not set (pass it or call SetApplicationId)";

void Fail(TokenCompletion& completion, std::string message) {
  completion(Invalid(std::move(message)), {}, {}, AuthorizationTokenType::Bearer, 0, {});
}

/// The external identity's own rules: a known type and a token.
std::optional<std::string> CheckIdentity(const ExternalIdentity& identity) {
  if (*ExternalAuthTypeToWireName(identity.type) == '\0') return "externalAuthType: unknown value";
  if (identity.token.empty()) return "externalAuthToken: must not be empty";
  return std::nullopt;
}

}  // namespace

TokenService::TokenService(core::Runtime& runtime, net::HttpClient& http) : runtime_(runtime), http_(http) {}

std::optional<TokenCompletion> TokenService::StartToken(uint64_t& applicationId,
                                                        TokenExchangeCallback callback) {
  auto started = runtime_.Start<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
      std::move(callback));
  if (!started) return std::nullopt;
  applicationId = ApplicationOr(applicationId);
  if (applicationId == 0) {
    Fail(*started, kNoApplicationId);
    return std::nullopt;
  }
  return started;
}

uint64_t TokenService::ApplicationOr(uint64_t applicationId) const {
  return applicationId != 0 ? applicationId : runtime_.applicationId.load();
}

void TokenService::FetchCurrentUser(AuthorizationTokenType tokenType, const std::string& token,
                                    FetchCurrentUserCallback callback) {
  auto completion = runtime_.MakeCompletion<uint64_t, std::string>(std::move(callback));
  if (runtime_.Destroying()) return;  // dropping the completion reports ClientDestroyed
  auth::FetchCurrentUser(runtime_, http_, tokenType, token, std::move(completion));
}

void TokenService::ExchangeCode(uint64_t applicationId, std::string code, std::string codeVerifier,
                                std::string redirectUri, std::optional<ExternalIdentity> external,
                                TokenExchangeCallback callback) {
  auto started = StartToken(applicationId, std::move(callback));
  if (!started) return;  // destroying (the callback hears ClientDestroyed), or no application (reported)
  TokenCompletion& completion = *started;
  if (code.empty()) return Fail(completion, "code: must not be empty");
  if (!IsValidCodeVerifier(codeVerifier)) {
    return Fail(
        completion,
        "codeVerifier: 43 to 128 characters of [A-Za-z0-9-._~] (use CreateAuthorizationCodeVerifier)");
  }
  if (redirectUri.empty()) return Fail(completion, "redirectUri: must not be empty");
  FormFields fields = {{"grant_type", "authorization_code"},
                       {"code", std::move(code)},
                       {"code_verifier", std::move(codeVerifier)},
                       {"redirect_uri", std::move(redirectUri)},
                       {"client_id", std::to_string(applicationId)}};
  if (external) {
    if (auto broken = CheckIdentity(*external)) return Fail(completion, std::move(*broken));
    fields.emplace_back("external_auth_type", ExternalAuthTypeToWireName(external->type));
    fields.emplace_back("external_auth_token", std::move(external->token));
  }
  RequestToken(runtime_, http_, fields, std::move(completion));
}

void TokenService::Refresh(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback) {
  core::Runtime& runtime = runtime_;
  auto completion =
      runtime_.MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          [&runtime, callback = std::move(callback)](ClientResult result, std::string access,
                                                     std::string refresh, AuthorizationTokenType type,
                                                     int32_t expiresIn, std::string scopes) {
            if (result.Type() == ErrorType::AuthorizationFailed && result.OAuthError() == "invalid_grant" &&
                !runtime.Destroying()) {
              runtime.credentials.Clear();
              runtime.Log().Warning(
                  "RefreshToken: invalid_grant: the authorization is gone; the Client dropped its token");
            }
            if (callback)
              callback(std::move(result), std::move(access), std::move(refresh), type, expiresIn,
                       std::move(scopes));
          });
  if (runtime_.Destroying()) return;
  applicationId = ApplicationOr(applicationId);
  if (applicationId == 0) return Fail(completion, kNoApplicationId);
  if (refreshToken.empty()) return Fail(completion, "refreshToken: must not be empty");
  if (runtime_.credentials.IsReauthenticateOnly(refreshToken)) {
    return completion(ClientResult::Failure(ErrorType::AuthorizationFailed, kProvisionalRefreshRefused), {},
                      {}, AuthorizationTokenType::Bearer, 0, {});
  }
  RequestToken(runtime_, http_,
               {{"grant_type", "refresh_token"},
                {"refresh_token", std::move(refreshToken)},
                {"client_id", std::to_string(applicationId)}},
               std::move(completion));
}

void TokenService::ExchangeChild(std::string parentApplicationToken, uint64_t childApplicationId,
                                 ExchangeChildTokenCallback callback) {
  // The token endpoint's completion has a refresh token too; the child exchange's callback does not.
  auto completion =
      runtime_.MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          [callback = std::move(callback)](ClientResult result, std::string access, const std::string&,
                                           AuthorizationTokenType type, int32_t expiresIn,
                                           std::string scopes) {
            if (callback) callback(std::move(result), std::move(access), type, expiresIn, std::move(scopes));
          });
  if (runtime_.Destroying()) return;
  if (parentApplicationToken.empty()) return Fail(completion, "parentApplicationToken: must not be empty");
  if (childApplicationId == 0) return Fail(completion, "childApplicationId: must not be 0");
  RequestToken(runtime_, http_,
               {{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
                {"subject_token", std::move(parentApplicationToken)},
                {"subject_token_type", "urn:ietf:params:oauth:token-type:access_token"},
                {"client_id", std::to_string(childApplicationId)}},
               std::move(completion));
}

void TokenService::Revoke(uint64_t applicationId, std::string token, RevokeTokenCallback callback) {
  auto completion = runtime_.MakeCompletion<>(std::move(callback));
  if (runtime_.Destroying()) return;
  applicationId = ApplicationOr(applicationId);
  if (applicationId == 0) return completion(Invalid(kNoApplicationId));
  if (token.empty()) return completion(Invalid("token: must not be empty"));
  RevokeToken(runtime_, http_, applicationId, std::move(token), std::move(completion));
}

void TokenService::GetProvisional(uint64_t applicationId, const ExternalIdentity& identity,
                                  TokenExchangeCallback callback) {
  auto started = StartToken(applicationId, std::move(callback));
  if (!started) return;  // destroying (the callback hears ClientDestroyed), or no application (reported)
  TokenCompletion& completion = *started;
  if (auto broken = CheckIdentity(identity)) return Fail(completion, std::move(*broken));
  GetProvisionalToken(runtime_, http_, applicationId, identity.type, identity.token, std::move(completion));
}

void TokenService::Unmerge(uint64_t applicationId, const ExternalIdentity& identity,
                           UpdateTokenCallback callback) {
  auto completion = runtime_.MakeCompletion<>(std::move(callback));
  if (runtime_.Destroying()) return;
  applicationId = ApplicationOr(applicationId);
  if (applicationId == 0) return completion(Invalid(kNoApplicationId));
  if (auto broken = CheckIdentity(identity)) return completion(Invalid(std::move(*broken)));
  UnmergeIntoProvisionalAccount(runtime_, http_, applicationId, identity.type, identity.token,
                                std::move(completion));
}

void TokenService::UpdateProvisionalDisplayName(const std::string& name,
                                                UpdateProvisionalAccountDisplayNameCallback callback) {
  auto completion = runtime_.MakeCompletion<>(std::move(callback));
  if (runtime_.Destroying()) return;
  UpdateProvisionalAccountDisplayName(runtime_, http_, name, std::move(completion));
}

}  // namespace platformpp::auth
