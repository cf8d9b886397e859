#include "auth/token_endpoint.hpp"

#include "net/http_result.hpp"
#include "net/url.hpp"

#include <chrono>
#include <utility>
#include <variant>

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

void CompleteFromTokenResponse(core::Runtime& runtime, ClientResult result, const net::HttpResponse& response,
                               TokenCompletion& completion,
                               const std::function<void(const std::string&)>& onRefreshToken) {
  auto fail = [&](ClientResult failure) {
    completion(std::move(failure), {}, {}, AuthorizationTokenType::Bearer, 0, {});
  };
  if (!result.Successful()) return fail(std::move(result));
  auto parsed = ParseTokenResponse(response);
  if (auto* failure = std::get_if<ClientResult>(&parsed)) return fail(std::move(*failure));
  auto& token = std::get<TokenResponse>(parsed);
  runtime.Log().Secrets().AddSecret(token.accessToken);
  runtime.Log().Secrets().AddSecret(token.refreshToken);
  if (token.idToken) runtime.Log().Secrets().AddSecret(*token.idToken);
  if (token.expiresIn > 0) {
    runtime.credentials.NoteExpiry(token.accessToken, runtime.Now() + std::chrono::seconds(token.expiresIn));
  }
  if (!token.refreshToken.empty() && onRefreshToken) onRefreshToken(token.refreshToken);
  completion({}, std::move(token.accessToken), std::move(token.refreshToken), token.tokenType, token.expiresIn,
             std::move(token.scopes));
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
