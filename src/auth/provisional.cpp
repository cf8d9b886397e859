#include "auth/provisional.hpp"

#include "json/json.hpp"
#include "net/http_result.hpp"

#include <algorithm>
#include <climits>

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

net::HttpRequest PartnerPost(core::ClientCore& core, std::string_view path, uint64_t applicationId,
                             AuthenticationExternalAuthType type, const std::string& token) {
  core.Log().Secrets().AddSecret(token);
  net::HttpRequest request;
  request.method = "POST";
  request.url = core.ApiUrl(path);
  request.contentType = "application/json";
  request.body = PartnerBody(applicationId, type, token);
  return request;
}

}  // namespace

void GetProvisionalToken(core::ClientCore& core, uint64_t applicationId, AuthenticationExternalAuthType type,
                         std::string externalAuthToken, TokenCompletion completion) {
  auto request = PartnerPost(core, "/partner-sdk/token", applicationId, type, externalAuthToken);
  auto shared = std::make_shared<TokenCompletion>(std::move(completion));
  core.Http().Send(std::move(request), [&core, shared, type](net::HttpResponse response) {
    CompleteFromTokenResponse(core, net::ResultOf(response), response, *shared,
                              [&core, type](const std::string& refresh) {
                                if (type == AuthenticationExternalAuthType::OIDC)
                                  core.credentials.NoteReauthenticateOnly(refresh);
                              });
  });
}

void UnmergeIntoProvisionalAccount(core::ClientCore& core, uint64_t applicationId,
                                   AuthenticationExternalAuthType type, std::string externalAuthToken,
                                   core::Completion<> completion) {
  auto request =
      PartnerPost(core, "/partner-sdk/provisional-accounts/unmerge", applicationId, type, externalAuthToken);
  auto shared = std::make_shared<core::Completion<>>(std::move(completion));
  core.Http().Send(std::move(request), [&core, shared](net::HttpResponse response) {
    ClientResult result = net::ResultOf(response);
    // The merged platform account's tokens for this game are gone now.
    if (result.Successful()) core.credentials.Clear();
    (*shared)(std::move(result));
  });
}

}  // namespace platformpp::auth
