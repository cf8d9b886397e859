// platformpp::Client: a thin facade; the work happens in core/, net/ and the feature folders.
#include <platformpp/client.hpp>
#include <platformpp/version.hpp>

#include "auth/current_user.hpp"
#include "core/client_core.hpp"

#include <algorithm>

namespace platformpp {

Client::Client() : Client(ClientOptions{}) {}

Client::Client(ClientOptions options) : core_(std::make_shared<core::ClientCore>(std::move(options))) {}

Client::Client(std::string apiBase, std::string /*webBase*/)
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
  core_->applicationId.store(applicationId);
}
uint64_t Client::GetApplicationId() const {
  return core_->applicationId.load();
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

void Client::FetchCurrentUser(AuthorizationTokenType tokenType, std::string token,
                              FetchCurrentUserCallback callback) {
  auto completion = core_->MakeCompletion<uint64_t, std::string>(std::move(callback));
  if (core_->Destroying()) return;  // dropping the completion reports ClientDestroyed
  auth::FetchCurrentUser(*core_, tokenType, std::move(token), std::move(completion));
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
  switch (status) {
    case Status::Disconnected:
      return "Disconnected";
    case Status::Connecting:
      return "Connecting";
    case Status::Connected:
      return "Connected";
    case Status::Ready:
      return "Ready";
    case Status::Reconnecting:
      return "Reconnecting";
    case Status::Disconnecting:
      return "Disconnecting";
    case Status::HttpWait:
      return "HttpWait";
  }
  return "Unknown";
}

std::string Client::ErrorToString(Error error) {
  switch (error) {
    case Error::None:
      return "None";
    case Error::ConnectionFailed:
      return "ConnectionFailed";
    case Error::UnexpectedClose:
      return "UnexpectedClose";
    case Error::ConnectionCanceled:
      return "ConnectionCanceled";
  }
  return "Unknown";
}

std::string Client::ThreadToString(Thread thread) {
  switch (thread) {
    case Thread::Client:
      return "Client";
    case Thread::Voice:
      return "Voice";
    case Thread::Network:
      return "Network";
  }
  return "Unknown";
}

}  // namespace platformpp
