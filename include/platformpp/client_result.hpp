#pragma once
// The outcome of every SDK operation: success, or what went wrong and whether trying again can help.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace platformpp {

/// Kinds of failure; the numeric values match the platform's own Social SDK.
enum class ErrorType : int32_t {
  None = 0,                 ///< Success: no error.
  NetworkError = 1,         ///< No usable answer: connection, TLS or timeout failure (see Retryable()).
  HTTPError = 2,            ///< The platform refused (Status(), ErrorCode()) or sent a malformed answer.
  ClientNotReady = 3,       ///< A precondition is missing: no token, not connected, no application id, ...
  Disabled = 4,             ///< Not produced by platformpp; kept for the platform SDK's numbering.
  ClientDestroyed = 5,      ///< The Client was destroyed before the operation ended.
  ValidationError = 6,      ///< Refused by the SDK's own checks (FieldErrors() names the fields, if any).
  Aborted = 7,              ///< Cancelled (e.g. AbortAuthorize) or abandoned before it completed.
  AuthorizationFailed = 8,  ///< An OAuth2 step failed or was refused (OAuthError() when the platform said).
  RPCError = 9,             ///< The local desktop client answered with an error (ErrorCode()).
};

/// One entry of the platform's nested `errors` object, flattened: `path` is the JSON path of the field
/// (e.g. "activity.state" or "members.3.id"), `code` the machine code (e.g. "BASE_TYPE_REQUIRED").
struct FieldError {
  std::string path;     ///< JSON path of the offending field, e.g. "activity.state"; empty for the body
  std::string code;     ///< machine-readable code, e.g. "BASE_TYPE_REQUIRED"
  std::string message;  ///< human-readable explanation
};

/// The outcome of every SDK operation: success, or what went wrong and whether trying again can help.
///
/// Each operation's callback gets one. A default-constructed result is success; a failed one shares its
/// Details, so copies are cheap. The getters return 0, false or empty values on success.
class ClientResult {
 public:
  /// Everything a result can carry. Results are cheap to copy: success holds no allocation at all.
  struct Details {
    /// The kind of failure; None means success.
    ErrorType type = ErrorType::None;
    int32_t status = 0;       ///< HTTP status, 0 when no response was received
    int32_t errorCode = 0;    ///< the platform's JSON error code (e.g. 50035), 0 when none
    std::string error;        ///< human-readable message
    std::string oauthError;   ///< RFC 6749 `error` of OAuth2 token endpoints (e.g. "invalid_grant")
    bool retryable = false;   ///< the same request may succeed later
    float retryAfter = 0.0f;  ///< seconds to wait before retrying (rate limits), 0 when unknown
    /// The refused fields (of a ValidationError, or the platform's `errors` object).
    std::vector<FieldError> fieldErrors;
    std::string responseBody;  ///< raw body of an HTTP error response (secrets redacted)
  };

  ClientResult() = default;  ///< success
  /// A result carrying `details`; a `details.type` of None gives success (the other fields are dropped).
  explicit ClientResult(Details details);
  /// A failure of kind `type` with the message `error` and no other details.
  static ClientResult Failure(ErrorType type, std::string error);

  /// The kind of failure; None on success.
  ErrorType Type() const noexcept;
  /// True when the operation succeeded (Type() is None).
  bool Successful() const noexcept { return !details_; }
  /// The HTTP status of the platform's answer; 0 when no response was received.
  int32_t Status() const noexcept;
  /// The platform's JSON error code (e.g. 50035) or the desktop client's; 0 when none.
  int32_t ErrorCode() const noexcept;
  /// The human-readable error message; empty on success.
  const std::string& Error() const noexcept;
  /// The OAuth2 `error` of a token endpoint (e.g. "invalid_grant", "access_denied"); empty when none.
  const std::string& OAuthError() const noexcept;
  /// Whether the same request may succeed later (e.g. a network failure, HTTP 429 or 5xx).
  bool Retryable() const noexcept;
  /// Seconds to wait before retrying (rate limits); 0 when unknown.
  float RetryAfter() const noexcept;
  /// The refused fields of a ValidationError or of the platform's `errors` object; empty when none.
  const std::vector<FieldError>& FieldErrors() const noexcept;
  /// The raw body of an HTTP error response, with secrets redacted; empty when none.
  const std::string& ResponseBody() const noexcept;
  /// One line for logs and asserts, e.g. "HTTPError 400 (50035): Invalid Form Body; username: ...".
  std::string ToString() const;

 private:
  std::shared_ptr<const Details> details_;
};

/// The enumerator's name ("HTTPError", ...); "Unknown" for a value outside the enum. A static string.
const char* ErrorTypeToString(ErrorType type) noexcept;

}  // namespace platformpp
