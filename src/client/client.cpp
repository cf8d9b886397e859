// platformpp::Client: a thin facade; the work happens in core/, net/ and the feature folders.
#include <platformpp/client.hpp>
#include <platformpp/version.hpp>

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "auth/current_user.hpp"
#include "auth/pkce.hpp"
#include "auth/provisional.hpp"
#include "auth/token_endpoint.hpp"
#include "client/client_access.hpp"
#include "client/client_core.hpp"

#include <algorithm>
#include <optional>

namespace platformpp {

std::shared_ptr<core::Logger> client::ClientAccess::LoggerOf(const Client& client) noexcept {
  return client.core_ ? client.core_->Runtime().LoggerPtr() : nullptr;
}

Client::Client() : Client(ClientOptions{}) {}

Client::Client(ClientOptions options) : core_(std::make_shared<client::ClientCore>(std::move(options))) {}

Client::Client(std::string apiBase, const std::string& /*webBase*/)
    : Client([&] {
        ClientOptions options;
        options.apiBase = std::move(apiBase);
        return options;
      }()) {}

Client::~Client() {
  if (core_) core_->Destroy();
}

Client::Client(Client&& other) noexcept = default;

Client& Client::operator=(Client&& other) noexcept {
  if (this != &other) {
    if (core_) core_->Destroy();
    core_ = std::move(other.core_);
  }
  return *this;
}

void Client::RunCallbacks() {
  if (core_) core_->RunCallbacks();
}

bool Client::WaitForCallbacks(int32_t timeoutMilliseconds) {
  if (!core_) return false;
  return core_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

void Client::SetApplicationId(uint64_t applicationId) {
  core_->Runtime().applicationId.store(applicationId);
  core_->AuthorizeRequests().Resume();  // a subscription that waited for the id
}
uint64_t Client::GetApplicationId() const {
  return core_->Runtime().applicationId.load();
}

void Client::SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds) {
  if (httpTimeoutInMilliseconds < 1) {
    core_->Log().Warning("SetHttpRequestTimeout: " + std::to_string(httpTimeoutInMilliseconds) +
                         " ms refused; the timeout must be at least 1 ms");
    return;
  }
  core_->Http().SetTimeout(std::chrono::milliseconds(httpTimeoutInMilliseconds));
}

int32_t Client::GetHttpRequestTimeout() const {
  return static_cast<int32_t>(core_->Http().Timeout().count());
}

void Client::AddLogCallback(LogCallback callback, LoggingSeverity minSeverity) {
  core_->Log().AddCallback(std::move(callback), minSeverity);
}

bool Client::SetLogDir(const std::string& path, LoggingSeverity minSeverity) {
  return core_->Log().SetLogDir(path, minSeverity);
}

void Client::FetchCurrentUser(AuthorizationTokenType tokenType, const std::string& token,
                              FetchCurrentUserCallback callback) {
  auto completion = core_->MakeCompletion<uint64_t, std::string>(std::move(callback));
  if (core_->Destroying()) return;  // dropping the completion reports ClientDestroyed
  auth::FetchCurrentUser(core_->Runtime(), core_->Http(), tokenType, token, std::move(completion));
}

void Client::Authorize(AuthorizationArgs args, AuthorizationCallback callback) {
  auto completion = core_->MakeCompletion<std::string, std::string>(std::move(callback));
  if (core_->Destroying()) return;
  core_->Authorizer().Authorize(std::move(args), std::move(completion));
}

void Client::AbortAuthorize() {
  core_->Authorizer().Abort();
}

void Client::SetUrlOpener(UrlOpener opener) {
  core_->Authorizer().SetUrlOpener(std::move(opener));
}

AuthorizationCodeVerifier Client::CreateAuthorizationCodeVerifier() {
  return auth::CreateCodeVerifier();
}

namespace {

ClientResult Invalid(std::string message) {
  return ClientResult::Failure(ErrorType::ValidationError, std::move(message));
}

struct ExternalIdentity {
  AuthenticationExternalAuthType type;
  std::string token;
};

// The authorization_code grant (PKCE, public client), merging a provisional account when `external` is set.
void ExchangeCode(client::ClientCore& core, uint64_t applicationId, std::string code,
                  std::string codeVerifier, std::string redirectUri, std::optional<ExternalIdentity> external,
                  Client::TokenExchangeCallback callback) {
  auto completion =
      core.MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          std::move(callback));
  if (core.Destroying()) return;
  auto fail = [&](std::string message) {
    completion(Invalid(std::move(message)), {}, {}, AuthorizationTokenType::Bearer, 0, {});
  };
  if (applicationId == 0) applicationId = core.Runtime().applicationId.load();
  if (applicationId == 0) return fail("applicationId: not set (pass it or call SetApplicationId)");
  if (code.empty()) return fail("code: must not be empty");
  if (!auth::IsValidCodeVerifier(codeVerifier)) {
    return fail(
        "codeVerifier: 43 to 128 characters of [A-Za-z0-9-._~] (use CreateAuthorizationCodeVerifier)");
  }
  if (redirectUri.empty()) return fail("redirectUri: must not be empty");
  auth::FormFields fields = {{"grant_type", "authorization_code"},
                             {"code", std::move(code)},
                             {"code_verifier", std::move(codeVerifier)},
                             {"redirect_uri", std::move(redirectUri)},
                             {"client_id", std::to_string(applicationId)}};
  if (external) {
    if (*ExternalAuthTypeToWireName(external->type) == '\0') return fail("externalAuthType: unknown value");
    if (external->token.empty()) return fail("externalAuthToken: must not be empty");
    fields.emplace_back("external_auth_type", ExternalAuthTypeToWireName(external->type));
    fields.emplace_back("external_auth_token", std::move(external->token));
  }
  auth::RequestToken(core.Runtime(), core.Http(), fields, std::move(completion));
}

}  // namespace

void Client::GetToken(uint64_t applicationId, std::string code, std::string codeVerifier,
                      std::string redirectUri, TokenExchangeCallback callback) {
  ExchangeCode(*core_, applicationId, std::move(code), std::move(codeVerifier), std::move(redirectUri),
               std::nullopt, std::move(callback));
}

void Client::RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback) {
  // invalid_grant means the link is gone (seed: treat it as APPLICATION_DEAUTHORIZED): drop our token too.
  client::ClientCore* core = core_.get();
  auto completion =
      core_->MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          [core, callback = std::move(callback)](ClientResult result, std::string access, std::string refresh,
                                                 AuthorizationTokenType type, int32_t expiresIn,
                                                 std::string scopes) {
            if (result.Type() == ErrorType::AuthorizationFailed && result.OAuthError() == "invalid_grant" &&
                !core->Destroying()) {
              core->Runtime().credentials.Clear();
              core->Log().Warning(
                  "RefreshToken: invalid_grant: the authorization is gone; the Client dropped its token");
            }
            if (callback)
              callback(std::move(result), std::move(access), std::move(refresh), type, expiresIn,
                       std::move(scopes));
          });
  if (core_->Destroying()) return;
  if (applicationId == 0) applicationId = core_->Runtime().applicationId.load();
  if (applicationId == 0) {
    return completion(Invalid("applicationId: not set (pass it or call SetApplicationId)"), {}, {},
                      AuthorizationTokenType::Bearer, 0, {});
  }
  if (refreshToken.empty()) {
    return completion(Invalid("refreshToken: must not be empty"), {}, {}, AuthorizationTokenType::Bearer, 0,
                      {});
  }
  if (core_->Runtime().credentials.IsReauthenticateOnly(refreshToken)) {
    return completion(ClientResult::Failure(ErrorType::AuthorizationFailed, auth::kProvisionalRefreshRefused),
                      {}, {}, AuthorizationTokenType::Bearer, 0, {});
  }
  auth::RequestToken(core_->Runtime(), core_->Http(),
                     {{"grant_type", "refresh_token"},
                      {"refresh_token", std::move(refreshToken)},
                      {"client_id", std::to_string(applicationId)}},
                     std::move(completion));
}

void Client::ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                                ExchangeChildTokenCallback callback) {
  // The token endpoint's completion has a refresh token too; the child exchange's callback does not.
  auto completion =
      core_->MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          [callback = std::move(callback)](ClientResult result, std::string access, const std::string&,
                                           AuthorizationTokenType type, int32_t expiresIn,
                                           std::string scopes) {
            if (callback) callback(std::move(result), std::move(access), type, expiresIn, std::move(scopes));
          });
  if (core_->Destroying()) return;
  auto fail = [&](std::string message) {
    completion(Invalid(std::move(message)), {}, {}, AuthorizationTokenType::Bearer, 0, {});
  };
  if (parentApplicationToken.empty()) return fail("parentApplicationToken: must not be empty");
  if (childApplicationId == 0) return fail("childApplicationId: must not be 0");
  auth::RequestToken(core_->Runtime(), core_->Http(),
                     {{"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
                      {"subject_token", std::move(parentApplicationToken)},
                      {"subject_token_type", "urn:ietf:params:oauth:token-type:access_token"},
                      {"client_id", std::to_string(childApplicationId)}},
                     std::move(completion));
}

void Client::RevokeToken(uint64_t applicationId, std::string token, RevokeTokenCallback callback) {
  auto completion = core_->MakeCompletion<>(std::move(callback));
  if (core_->Destroying()) return;
  if (applicationId == 0) applicationId = core_->Runtime().applicationId.load();
  if (applicationId == 0)
    return completion(Invalid("applicationId: not set (pass it or call SetApplicationId)"));
  if (token.empty()) return completion(Invalid("token: must not be empty"));
  auth::RevokeToken(core_->Runtime(), core_->Http(), applicationId, std::move(token), std::move(completion));
}

void Client::UpdateToken(AuthorizationTokenType tokenType, std::string token, UpdateTokenCallback callback) {
  auto completion = core_->MakeCompletion<>(std::move(callback));
  if (core_->Destroying()) return;
  if (token.empty()) return completion(Invalid("token: must not be empty"));
  core_->Log().Secrets().AddSecret(token);
  core_->SetToken(tokenType, std::move(token));
  completion({});
}

void Client::GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                 const std::string& externalAuthToken, TokenExchangeCallback callback) {
  auto completion =
      core_->MakeCompletion<std::string, std::string, AuthorizationTokenType, int32_t, std::string>(
          std::move(callback));
  if (core_->Destroying()) return;
  auto fail = [&](std::string message) {
    completion(Invalid(std::move(message)), {}, {}, AuthorizationTokenType::Bearer, 0, {});
  };
  if (applicationId == 0) applicationId = core_->Runtime().applicationId.load();
  if (applicationId == 0) return fail("applicationId: not set (pass it or call SetApplicationId)");
  if (*ExternalAuthTypeToWireName(externalAuthType) == '\0') return fail("externalAuthType: unknown value");
  if (externalAuthToken.empty()) return fail("externalAuthToken: must not be empty");
  auth::GetProvisionalToken(core_->Runtime(), core_->Http(), applicationId, externalAuthType,
                            externalAuthToken, std::move(completion));
}

void Client::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                          std::string redirectUri,
                                          AuthenticationExternalAuthType externalAuthType,
                                          std::string externalAuthToken, TokenExchangeCallback callback) {
  ExchangeCode(*core_, applicationId, std::move(code), std::move(codeVerifier), std::move(redirectUri),
               ExternalIdentity{externalAuthType, std::move(externalAuthToken)}, std::move(callback));
}

void Client::UnmergeIntoProvisionalAccount(uint64_t applicationId,
                                           AuthenticationExternalAuthType externalAuthType,
                                           const std::string& externalAuthToken,
                                           UpdateTokenCallback callback) {
  auto completion = core_->MakeCompletion<>(std::move(callback));
  if (core_->Destroying()) return;
  if (applicationId == 0) applicationId = core_->Runtime().applicationId.load();
  if (applicationId == 0)
    return completion(Invalid("applicationId: not set (pass it or call SetApplicationId)"));
  if (*ExternalAuthTypeToWireName(externalAuthType) == '\0') {
    return completion(Invalid("externalAuthType: unknown value"));
  }
  if (externalAuthToken.empty()) return completion(Invalid("externalAuthToken: must not be empty"));
  auth::UnmergeIntoProvisionalAccount(core_->Runtime(), core_->Http(), applicationId, externalAuthType,
                                      externalAuthToken, std::move(completion));
}

void Client::UpdateProvisionalAccountDisplayName(const std::string& name,
                                                 UpdateProvisionalAccountDisplayNameCallback callback) {
  auto completion = core_->MakeCompletion<>(std::move(callback));
  if (core_->Destroying()) return;
  auth::UpdateProvisionalAccountDisplayName(core_->Runtime(), core_->Http(), name, std::move(completion));
}

void Client::RegisterAuthorizeRequestCallback(AuthorizeRequestCallback callback) {
  core_->AuthorizeRequests().Register(std::move(callback));
}

void Client::RemoveAuthorizeRequestCallback() {
  core_->AuthorizeRequests().Remove();
}

void Client::SetTokenExpirationCallback(std::function<void()> callback) {
  core_->SetTokenExpirationCallback(std::move(callback));
}

bool Client::IsAuthenticated() const {
  return core_ && core_->Runtime().credentials.Get().has_value();
}

void Client::Connect() {
  core_->Connect();
}

void Client::Disconnect() {
  core_->Disconnect();
}

Client::Status Client::GetStatus() const {
  return core_ ? core_->GetStatus() : Status::Disconnected;
}

void Client::SetStatusChangedCallback(StatusChangedCallback callback) {
  core_->SetStatusChangedCallback(std::move(callback));
}

std::string Client::GetDefaultCommunicationScopes() {
  return "openid sdk.social_layer";
}
std::string Client::GetDefaultPresenceScopes() {
  return "openid sdk.social_layer_presence";
}

int32_t Client::GetVersionMajor() {
  return PLATFORMPP_VERSION_MAJOR;
}
int32_t Client::GetVersionMinor() {
  return PLATFORMPP_VERSION_MINOR;
}
int32_t Client::GetVersionPatch() {
  return PLATFORMPP_VERSION_PATCH;
}
std::string Client::GetVersionHash() {
  return PLATFORMPP_VERSION_HASH;
}

std::string Client::StatusToString(Status status) {
  return ClientStatusToString(status);
}
std::string Client::ErrorToString(Error error) {
  return ClientErrorToString(error);
}
std::string Client::ThreadToString(Thread thread) {
  return ClientThreadToString(thread);
}

}  // namespace platformpp
