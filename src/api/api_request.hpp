#pragma once
// One request of the platform's HTTP API as a feature describes it: the route, the JSON body, and what keeps
// it from being sent (the rules its arguments broke, or a missing precondition). The API session adds the
// API base and the token (api_session.hpp).

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::api {

struct ApiRequest {
  ApiRequest() = default;
  ApiRequest(std::string method, std::string path, std::optional<std::string> body = std::nullopt,
             std::vector<FieldError> violations = {})
      : method(std::move(method)),
        path(std::move(path)),
        body(std::move(body)),
        violations(std::move(violations)) {}

  /// "GET", "POST", ...
  std::string method;
  /// Below the API base: "/lobbies/42/members/@me".
  std::string path;
  /// The JSON body, when the route takes one.
  std::optional<std::string> body;
  /// The rules the arguments broke (in the wire's field names): the request ends as a ValidationError
  /// listing them all, and nothing is sent.
  std::vector<FieldError> violations;
  /// Set when the request may not be sent for another reason (ClientNotReady, a check that names no field):
  /// it ends with this, before the violations are looked at.
  std::optional<ClientResult> refusal;
  /// The body's Content-Type; empty: application/json (multipart bodies name their boundary here).
  std::string contentType;
  /// For routes whose URL carries its own credential (an interaction's token): sent without the
  /// Authorization header, and sent even when the session has no token.
  bool anonymous = false;

  /// Extra header fields the route sends after the session's own (X-Audit-Log-Reason), name then value.
  /// Never Authorization, Host, Content-Type or Content-Length: the session sets those, and drops them here.
  std::vector<std::pair<std::string, std::string>> headers{};
};

}  // namespace platformpp::api
