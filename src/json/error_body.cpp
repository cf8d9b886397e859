#include "json/error_body.hpp"

#include "json/json.hpp"

namespace platformpp::json {
namespace {

constexpr int kMaxErrorDepth = 32;
constexpr std::size_t kMaxFieldErrors = 256;

// Walks the nested `errors` object; keys build the path, "_errors" arrays are the leaves.
void FlattenErrors(const Value& node, const std::string& path, int depth, std::vector<FieldError>& out) {
  if (!node.IsObject() || depth > kMaxErrorDepth) return;
  for (auto it = node.MemberBegin(); it != node.MemberEnd() && out.size() < kMaxFieldErrors; ++it) {
    std::string_view key(it->name.GetString(), it->name.GetStringLength());
    if (key == "_errors") {
      if (!it->value.IsArray()) continue;
      for (const Value& entry : it->value.GetArray()) {
        if (out.size() >= kMaxFieldErrors) break;
        FieldError error;
        error.path = path;
        error.code = std::string(GetString(entry, "code").value_or(""));
        error.message = std::string(GetString(entry, "message").value_or(""));
        out.push_back(std::move(error));
      }
    } else {
      FlattenErrors(it->value, path.empty() ? std::string(key) : path + "." + std::string(key), depth + 1,
                    out);
    }
  }
}

std::string StatusText(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "HTTP error";
  }
}

}  // namespace

ClientResult::Details ParseErrorResponse(int status, std::string_view body,
                                         std::optional<double> retryAfterHeader) {
  ClientResult::Details details;
  details.type = ErrorType::HTTPError;
  details.status = status;
  details.retryable = status == 429 || status >= 500;
  if (retryAfterHeader && *retryAfterHeader > 0) details.retryAfter = static_cast<float>(*retryAfterHeader);

  Document document;
  if (Parse(body, document) && document.IsObject()) {
    if (auto code = GetInt(document, "code")) details.errorCode = static_cast<int32_t>(*code);
    if (auto message = GetString(document, "message")) details.error = std::string(*message);
    if (auto retryAfter = GetNumber(document, "retry_after"); retryAfter && *retryAfter >= 0) {
      details.retryAfter = static_cast<float>(*retryAfter);  // the body is more precise than the header
    }
    if (auto oauth = GetString(document, "error")) {
      details.oauthError = std::string(*oauth);
      auto description = GetString(document, "error_description");
      details.error = description ? std::string(*description) : details.oauthError;
    }
    if (const Value* errors = Member(document, "errors")) FlattenErrors(*errors, "", 0, details.fieldErrors);
  }
  if (details.error.empty()) details.error = std::to_string(status) + ": " + StatusText(status);
  return details;
}

}  // namespace platformpp::json
