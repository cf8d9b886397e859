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
    auto fail = [&](ClientResult r) {
      (*shared)(std::move(r), {}, {}, AuthorizationTokenType::Bearer, 0, {});
    };
    json::Document body;
    ClientResult result = net::ParseJsonResponse(response, body);
    if (!result.Successful()) return fail(std::move(result));
    auto access = json::GetString(body, "access_token");
    if (!access || access->empty()) {
      return fail(ClientResult::Failure(ErrorType::HTTPError, "malformed response: no access_token"));
    }
    std::string refresh(json::GetString(body, "refresh_token").value_or(""));
    core.Log().Secrets().AddSecret(*access);
    if (auto seconds = json::GetInt(body, "expires_in"); seconds && *seconds > 0) {
      core.credentials.NoteExpiry(std::string(*access), core.Now() + std::chrono::seconds(*seconds));
    }
    core.Log().Secrets().AddSecret(refresh);
    if (auto id = json::GetString(body, "id_token")) core.Log().Secrets().AddSecret(*id);
    if (!refresh.empty() && type == AuthenticationExternalAuthType::OIDC)
      core.credentials.NoteReauthenticateOnly(refresh);
    (*shared)(
        {}, std::string(*access), std::move(refresh), AuthorizationTokenType::Bearer,
        static_cast<int32_t>(std::clamp<int64_t>(json::GetInt(body, "expires_in").value_or(0), 0, INT32_MAX)),
        std::string(json::GetString(body, "scope").value_or("")));
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
