#include <platformpp/client_result.hpp>

namespace platformpp {
namespace {

const std::string kEmpty;
const std::vector<FieldError> kNoFieldErrors;

}  // namespace

ClientResult::ClientResult(Details details) {
  if (details.type != ErrorType::None) details_ = std::make_shared<const Details>(std::move(details));
}

ClientResult ClientResult::Failure(ErrorType type, std::string error) {
  Details details;
  details.type = type;
  details.error = std::move(error);
  return ClientResult(std::move(details));
}

ErrorType ClientResult::Type() const noexcept {
  return details_ ? details_->type : ErrorType::None;
}
int32_t ClientResult::Status() const noexcept {
  return details_ ? details_->status : 0;
}
int32_t ClientResult::ErrorCode() const noexcept {
  return details_ ? details_->errorCode : 0;
}
const std::string& ClientResult::Error() const noexcept {
  return details_ ? details_->error : kEmpty;
}
const std::string& ClientResult::OAuthError() const noexcept {
  return details_ ? details_->oauthError : kEmpty;
}
bool ClientResult::Retryable() const noexcept {
  return details_ && details_->retryable;
}
float ClientResult::RetryAfter() const noexcept {
  return details_ ? details_->retryAfter : 0.0f;
}
const std::vector<FieldError>& ClientResult::FieldErrors() const noexcept {
  return details_ ? details_->fieldErrors : kNoFieldErrors;
}
const std::string& ClientResult::ResponseBody() const noexcept {
  return details_ ? details_->responseBody : kEmpty;
}

std::string ClientResult::ToString() const {
  if (!details_) return "None";
  std::string out = ErrorTypeToString(details_->type);
  if (details_->status) out += " " + std::to_string(details_->status);
  if (details_->errorCode) out += " (" + std::to_string(details_->errorCode) + ")";
  if (!details_->oauthError.empty()) out += " [" + details_->oauthError + "]";
  if (!details_->error.empty()) out += ": " + details_->error;
  for (const FieldError& field : details_->fieldErrors) {
    out += "; " + (field.path.empty() ? std::string("body") : field.path) + ": " + field.message;
  }
  if (details_->retryAfter > 0) out += " (retry after " + std::to_string(details_->retryAfter) + " s)";
  return out;
}

const char* ErrorTypeToString(ErrorType type) noexcept {
  switch (type) {
    case ErrorType::None:
      return "None";
    case ErrorType::NetworkError:
      return "NetworkError";
    case ErrorType::HTTPError:
      return "HTTPError";
    case ErrorType::ClientNotReady:
      return "ClientNotReady";
    case ErrorType::Disabled:
      return "Disabled";
    case ErrorType::ClientDestroyed:
      return "ClientDestroyed";
    case ErrorType::ValidationError:
      return "ValidationError";
    case ErrorType::Aborted:
      return "Aborted";
    case ErrorType::AuthorizationFailed:
      return "AuthorizationFailed";
    case ErrorType::RPCError:
      return "RPCError";
  }
  return "Unknown";
}

}  // namespace platformpp
