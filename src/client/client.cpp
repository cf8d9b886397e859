// platformpp::Client: a thin facade; each call is one statement handing over to the feature that owns it
// (docs/architecture.md).
#include <platformpp/client.hpp>
#include <platformpp/version.hpp>

#include "auth/authorize_requests.hpp"
#include "auth/authorizer.hpp"
#include "auth/pkce.hpp"
#include "auth/token_service.hpp"
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

Client::Client(std::string apiBase, std::string webBase)
    : Client([&] {
        ClientOptions options;
        options.apiBase = std::move(apiBase);
        options.webBase = std::move(webBase);
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
  return core_ && core_->WaitForCallbacks(std::chrono::milliseconds(std::max(timeoutMilliseconds, 0)));
}

void Client::SetApplicationId(uint64_t applicationId) {
  core_->SetApplicationId(applicationId);
}
uint64_t Client::GetApplicationId() const {
  return core_->Runtime().applicationId.load();
}

void Client::SetHttpRequestTimeout(int32_t httpTimeoutInMilliseconds) {
  core_->Api().SetRequestTimeout(httpTimeoutInMilliseconds);
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
  core_->Tokens().FetchCurrentUser(tokenType, token, std::move(callback));
}

void Client::Authorize(AuthorizationArgs args, AuthorizationCallback callback) {
  core_->Authorizer().Authorize(std::move(args), std::move(callback));
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

void Client::GetToken(uint64_t applicationId, std::string code, std::string codeVerifier,
                      std::string redirectUri, TokenExchangeCallback callback) {
  core_->Tokens().ExchangeCode(applicationId, std::move(code), std::move(codeVerifier),
                               std::move(redirectUri), std::nullopt, std::move(callback));
}

void Client::RefreshToken(uint64_t applicationId, std::string refreshToken, TokenExchangeCallback callback) {
  core_->Tokens().Refresh(applicationId, std::move(refreshToken), std::move(callback));
}

void Client::ExchangeChildToken(std::string parentApplicationToken, uint64_t childApplicationId,
                                ExchangeChildTokenCallback callback) {
  core_->Tokens().ExchangeChild(std::move(parentApplicationToken), childApplicationId, std::move(callback));
}

void Client::RevokeToken(uint64_t applicationId, std::string token, RevokeTokenCallback callback) {
  core_->Tokens().Revoke(applicationId, std::move(token), std::move(callback));
}

void Client::UpdateToken(AuthorizationTokenType tokenType, std::string token, UpdateTokenCallback callback) {
  core_->UpdateToken(tokenType, std::move(token), std::move(callback));
}

void Client::GetProvisionalToken(uint64_t applicationId, AuthenticationExternalAuthType externalAuthType,
                                 const std::string& externalAuthToken, TokenExchangeCallback callback) {
  core_->Tokens().GetProvisional(applicationId, {externalAuthType, externalAuthToken}, std::move(callback));
}

void Client::GetTokenFromProvisionalMerge(uint64_t applicationId, std::string code, std::string codeVerifier,
                                          std::string redirectUri,
                                          AuthenticationExternalAuthType externalAuthType,
                                          std::string externalAuthToken, TokenExchangeCallback callback) {
  core_->Tokens().ExchangeCode(
      applicationId, std::move(code), std::move(codeVerifier), std::move(redirectUri),
      auth::ExternalIdentity{externalAuthType, std::move(externalAuthToken)}, std::move(callback));
}

void Client::UnmergeIntoProvisionalAccount(uint64_t applicationId,
                                           AuthenticationExternalAuthType externalAuthType,
                                           const std::string& externalAuthToken,
                                           UpdateTokenCallback callback) {
  core_->Tokens().Unmerge(applicationId, {externalAuthType, externalAuthToken}, std::move(callback));
}

void Client::UpdateProvisionalAccountDisplayName(const std::string& name,
                                                 UpdateProvisionalAccountDisplayNameCallback callback) {
  core_->Tokens().UpdateProvisionalDisplayName(name, std::move(callback));
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
