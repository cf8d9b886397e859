#pragma once
// The outcome of every SDK operation: success, or what went wrong and whether trying again can help.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace platformpp {

/// Kinds of failure; the numeric values match the platform's own Social SDK.
enum class ErrorType : int32_t {
  None = 0,
  NetworkError = 1,
  HTTPError = 2,
  ClientNotReady = 3,
  Disabled = 4,
  ClientDestroyed = 5,
  ValidationError = 6,
  Aborted = 7,
  AuthorizationFailed = 8,
  RPCError = 9,
};

/// One entry of the platform's nested `errors` object, flattened: `path` is the JSON path of the field
/// (e.g. "activity.state" or "members.3.id"), `code` the machine code (e.g. "BASE_TYPE_REQUIRED").
struct FieldError {
  std::string path;
  std::string code;
  std::string message;
};

class ClientResult {
 public:
  /// Everything a result can carry. Results are cheap to copy: success holds no allocation at all.
  struct Details {
    ErrorType type = ErrorType::None;
    int32_t status = 0;       ///< HTTP status, 0 when no response was received
    int32_t errorCode = 0;    ///< the platform's JSON error code (e.g. 50035), 0 when none
    std::string error;        ///< human-readable message
    std::string oauthError;   ///< RFC 6749 `error` of OAuth2 token endpoints (e.g. "invalid_grant")
    bool retryable = false;   ///< the same request may succeed later
    float retryAfter = 0.0f;  ///< seconds to wait before retrying (rate limits), 0 when unknown
    std::vector<FieldError> fieldErrors;
    std::string responseBody;  ///< raw body of an HTTP error response (secrets redacted)
  };

  ClientResult() = default;  ///< success
  explicit ClientResult(Details details);
  static ClientResult Failure(ErrorType type, std::string error);

  ErrorType Type() const noexcept;
  bool Successful() const noexcept { return !details_; }
  int32_t Status() const noexcept;
  int32_t ErrorCode() const noexcept;
  const std::string& Error() const noexcept;
  const std::string& OAuthError() const noexcept;
  bool Retryable() const noexcept;
  float RetryAfter() const noexcept;
  const std::vector<FieldError>& FieldErrors() const noexcept;
  const std::string& ResponseBody() const noexcept;
  /// One line for logs and asserts, e.g. "HTTPError 400 (50035): Invalid Form Body; username: ...".
  std::string ToString() const;

 private:
  std::shared_ptr<const Details> details_;
};

const char* ErrorTypeToString(ErrorType type) noexcept;

}  // namespace platformpp
