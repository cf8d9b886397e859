#include "auth/token_endpoint.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <climits>
#include "net/http_result.hpp"
#include "net/url.hpp"

namespace platformpp::auth {
namespace {

constexpr const char* kFormContentType = "application/x-www-form-urlencoded";

net::HttpRequest FormPost(core::Runtime& runtime, std::string_view path, const FormFields& fields) {
  net::HttpRequest request;
  request.method = "POST";
  request.url = runtime.ApiUrl(path);
  request.contentType = kFormContentType;
  request.body = FormEncode(fields);
  for (const auto& [name, value] : fields) {
    if (name == "code" || name == "code_verifier" || name == "refresh_token" || name == "token" ||
        name == "client_secret" || name == "external_auth_token" || name == "subject_token") {
      runtime.Log().Secrets().AddSecret(value);
    }
  }
  return request;
}

}  // namespace

std::string FormEncode(const FormFields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out.push_back('&');
    out += net::UrlEncode(name);
    out.push_back('=');
    out += net::UrlEncode(value);
  }
  return out;
}

ClientResult TokenEndpointResult(const net::HttpResponse& response) {
  ClientResult result = net::ResultOf(response);
  if (result.Successful() || result.Type() != ErrorType::HTTPError || response.status >= 500 ||
      result.OAuthError().empty()) {
    return result;
  }
  ClientResult::Details details;
  details.type = ErrorType::AuthorizationFailed;
  details.status = result.Status();
  details.errorCode = result.ErrorCode();
  details.oauthError = result.OAuthError();
  details.error = result.Error();
  details.fieldErrors = result.FieldErrors();
  details.responseBody = result.ResponseBody();
  return ClientResult(std::move(details));
}

void CompleteFromTokenResponse(core::Runtime& runtime, ClientResult result, const net::HttpResponse& response,
                               TokenCompletion& completion,
                               const std::function<void(const std::string&)>& onRefreshToken) {
  auto fail = [&](ClientResult failure) {
    completion(std::move(failure), {}, {}, AuthorizationTokenType::Bearer, 0, {});
  };
  if (!result.Successful()) return fail(std::move(result));
  json::Document body;
  result = net::ParseJsonResponse(response, body);
  if (!result.Successful()) return fail(std::move(result));
  auto access = json::GetString(body, "access_token");
  if (!access || access->empty()) {
    return fail(ClientResult::Failure(ErrorType::HTTPError,
                                      "malformed response: token response without access_token"));
  }
  std::string refresh(json::GetString(body, "refresh_token").value_or(""));
  runtime.Log().Secrets().AddSecret(*access);
  runtime.Log().Secrets().AddSecret(refresh);
  if (auto id = json::GetString(body, "id_token")) runtime.Log().Secrets().AddSecret(*id);
  int64_t expiresIn = std::clamp<int64_t>(json::GetInt(body, "expires_in").value_or(0), 0, INT32_MAX);
  if (expiresIn > 0)
    runtime.credentials.NoteExpiry(std::string(*access), runtime.Now() + std::chrono::seconds(expiresIn));
  if (!refresh.empty() && onRefreshToken) onRefreshToken(refresh);
  std::string_view type = json::GetString(body, "token_type").value_or("Bearer");
  completion(
      {}, std::string(*access), std::move(refresh),
      type == "Bearer" || type == "bearer" ? AuthorizationTokenType::Bearer : AuthorizationTokenType::User,
      static_cast<int32_t>(expiresIn), std::string(json::GetString(body, "scope").value_or("")));
}

void RequestToken(core::Runtime& runtime, net::HttpClient& http, const FormFields& fields,
                  TokenCompletion completion) {
  net::HttpRequest request = FormPost(runtime, "/oauth2/token", fields);
  auto shared = std::make_shared<TokenCompletion>(std::move(completion));
  http.Send(std::move(request), [&runtime, shared](const net::HttpResponse& response) {
    CompleteFromTokenResponse(runtime, TokenEndpointResult(response), response, *shared);
  });
}

void RevokeToken(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId, std::string token,
                 core::Completion<> completion) {
  net::HttpRequest request = FormPost(runtime, "/oauth2/token/revoke",
                                      {{"token", token}, {"client_id", std::to_string(applicationId)}});
  auto shared = std::make_shared<core::Completion<>>(std::move(completion));
  http.Send(std::move(request), [&runtime, shared, token](const net::HttpResponse& response) {
    ClientResult result = TokenEndpointResult(response);
    if (result.Successful()) runtime.credentials.ClearIf(token);  // a revoked token is no use to the Client
    (*shared)(std::move(result));
  });
}

}  // namespace platformpp::auth
