#include "auth/provisional.hpp"

#include "core/utf8.hpp"

#include "json/json.hpp"
#include "net/http_result.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <string_view>

namespace platformpp::auth {
namespace {

std::string PartnerBody(uint64_t applicationId, AuthenticationExternalAuthType type,
                        const std::string& token) {
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("client_id", json::Value(std::to_string(applicationId).c_str(), a), a);
  body.AddMember("external_auth_type", json::Value(ExternalAuthTypeToWireName(type), a), a);
  body.AddMember("external_auth_token",
                 json::Value(token.c_str(), static_cast<rapidjson::SizeType>(token.size()), a), a);
  return json::Serialize(body);
}

net::HttpRequest PartnerPost(core::Runtime& runtime, std::string_view path, uint64_t applicationId,
                             AuthenticationExternalAuthType type, const std::string& token) {
  runtime.Log().Secrets().AddSecret(token);
  net::HttpRequest request;
  request.method = "POST";
  request.url = runtime.ApiUrl(path);
  request.contentType = "application/json";
  request.body = PartnerBody(applicationId, type, token);
  return request;
}

}  // namespace

void GetProvisionalToken(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId,
                         AuthenticationExternalAuthType type, const std::string& externalAuthToken,
                         TokenCompletion completion) {
  auto request = PartnerPost(runtime, "/partner-sdk/token", applicationId, type, externalAuthToken);
  auto shared = std::make_shared<TokenCompletion>(std::move(completion));
  http.Send(std::move(request), [&runtime, shared, type](const net::HttpResponse& response) {
    CompleteFromTokenResponse(runtime, net::ResultOf(response), response, *shared,
                              [&runtime, type](const std::string& refresh) {
                                if (type == AuthenticationExternalAuthType::OIDC)
                                  runtime.credentials.NoteReauthenticateOnly(refresh);
                              });
  });
}

void UnmergeIntoProvisionalAccount(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId,
                                   AuthenticationExternalAuthType type, const std::string& externalAuthToken,
                                   core::Completion<> completion) {
  auto request = PartnerPost(runtime, "/partner-sdk/provisional-accounts/unmerge", applicationId, type,
                             externalAuthToken);
  auto shared = std::make_shared<core::Completion<>>(std::move(completion));
  http.Send(std::move(request), [&runtime, shared](const net::HttpResponse& response) {
    ClientResult result = net::ResultOf(response);
    // The merged platform account's tokens for this game are gone now.
    if (result.Successful()) runtime.credentials.Clear();
    (*shared)(std::move(result));
  });
}

void UpdateProvisionalAccountDisplayName(core::Runtime& runtime, net::HttpClient& http,
                                         const std::string& name, core::Completion<> completion) {
  auto invalid = [&](const char* message) {
    completion(ClientResult::Failure(ErrorType::ValidationError, message));
  };
  std::string_view trimmed = core::TrimAsciiSpace(name);
  auto length = core::CountCodePoints(trimmed);
  if (!length) return invalid("name: not valid UTF-8");
  if (*length < 1 || *length > 32) return invalid("name: 1 to 32 characters");
  auto credentials = runtime.credentials.Get();
  if (!credentials) return invalid("no token: call UpdateToken with the provisional account's token first");

  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("global_name",
                 json::Value(trimmed.data(), static_cast<rapidjson::SizeType>(trimmed.size()), a), a);
  net::HttpRequest request;
  request.method = "PATCH";
  request.url = runtime.ApiUrl("/users/@me");
  request.contentType = "application/json";
  request.body = json::Serialize(body);
  request.headers.emplace_back("Authorization", credentials->Header());
  auto shared = std::make_shared<core::Completion<>>(std::move(completion));
  http.Send(std::move(request),
            [shared](const net::HttpResponse& response) { (*shared)(net::ResultOf(response)); });
}

}  // namespace platformpp::auth
