// The platform's error body: {"code", "message", "errors"?} where `errors` mirrors the request's JSON path
// and ends in "_errors": [{"code", "message"}]. Shared by the API and the admin API. And its 429 body.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/http_message.hpp"
#include "core/json.hpp"

namespace platformpp::emulator {

// Well-known platform error codes the emulator answers with.
namespace error_code {
inline constexpr int kGeneral = 0;
inline constexpr int kUnknownApplication = 10002;
inline constexpr int kUnknownChannel = 10003;
inline constexpr int kUnknownGuild = 10004;
inline constexpr int kUnknownMessage = 10008;
inline constexpr int kUnknownRole = 10011;
inline constexpr int kUnknownUser = 10013;
inline constexpr int kUnknownLobby = 10031;
inline constexpr int kUnknownCommand = 10063;
inline constexpr int kBotsCannotUseEndpoint = 20001;
inline constexpr int kMissingAccess = 50001;
inline constexpr int kMissingPermissions = 50013;
inline constexpr int kInvalidApiVersion = 50041;
inline constexpr int kInvalidFormBody = 50035;
inline constexpr int kInvalidJson = 50109;
inline constexpr int kInvalidToken = 50014;
inline constexpr int kNotMerged = 530010;         // unmerge of an identity that is not merged
inline constexpr int kMergeWhileBanned = 530017;  // also sent in RFC 6749 bodies as "code"
}  // namespace error_code

struct FieldIssue {
  std::string code;     // e.g. "BASE_TYPE_REQUIRED"
  std::string message;  // e.g. "This field is required"
};

// An issue from its code and message, e.g. field_issue("BASE_TYPE_REQUIRED", "This field is required").
FieldIssue field_issue(std::string code, std::string message);
FieldIssue required_field_issue();

// Field errors keyed by JSON path (array indices as string keys), serialized as nested objects.
class FieldErrors {
 public:
  FieldErrors();
  ~FieldErrors();
  FieldErrors(FieldErrors&&) noexcept;
  FieldErrors& operator=(FieldErrors&&) noexcept;

  void add(const std::vector<std::string>& path, FieldIssue issue);
  // These errors moved under `key` (a nested body's, e.g. an interaction response's `data`).
  [[nodiscard]] FieldErrors nested_under(const std::string& key) &&;
  [[nodiscard]] bool empty() const noexcept { return empty_; }
  void write(JsonWriter& writer) const;

 private:
  struct Node;
  std::unique_ptr<Node> root_;
  bool empty_ = true;
};

std::string error_body(int code, std::string_view message, const FieldErrors* errors = nullptr);
HttpResponse error_response(int status, int code, std::string_view message,
                            const FieldErrors* errors = nullptr);
// 400 with code 50035 "Invalid Form Body" and the nested errors.
HttpResponse invalid_form_body(const FieldErrors& errors);
// Generic "<status>: <reason>" error with code 0, e.g. 404 "404: Not Found".
HttpResponse status_error(int status);
// The errors many routes answer: 404 "Unknown Application" (10002), "Unknown Channel" (10003), "Unknown
// Message" (10008), "Unknown User" (10013), "Unknown Lobby" (10031); 403 "Missing Access" (50001) and
// "Missing Permissions" (50013).
HttpResponse unknown_application();
HttpResponse unknown_channel();
HttpResponse unknown_message();
HttpResponse unknown_user();
HttpResponse unknown_lobby();
HttpResponse missing_access();
HttpResponse missing_permissions();
// A 429 in the platform's shape: body {code, message, retry_after, global}, Retry-After and X-RateLimit-Scope
// ("global" when global, else `scope`: "user", or "shared" for the Social SDK development limits).
HttpResponse rate_limited_response(double retry_after_s, bool global, std::string_view scope = "user");

}  // namespace platformpp::emulator
