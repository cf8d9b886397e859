#include "auth/current_user.hpp"

#include "net/http_result.hpp"

namespace platformpp::auth {

std::string AuthorizationHeader(AuthorizationTokenType tokenType, const std::string& token) {
  return tokenType == AuthorizationTokenType::Bearer ? "Bearer " + token : token;
}

void FetchCurrentUser(core::Runtime& runtime, net::HttpClient& http, AuthorizationTokenType tokenType,
                      const std::string& token, core::Completion<uint64_t, std::string> completion) {
  if (token.empty()) {
    completion(ClientResult::Failure(ErrorType::ValidationError, "token: must not be empty"), 0, {});
    return;
  }
  runtime.Log().Secrets().AddSecret(token);
  net::HttpRequest request;
  request.url = runtime.ApiUrl("/users/@me");
  request.headers.emplace_back("Authorization", AuthorizationHeader(tokenType, token));
  http.Send(std::move(request), [completion = std::make_shared<decltype(completion)>(std::move(completion))](
                                    const net::HttpResponse& response) {
    // The user object fits this buffer: parsing it then allocates nothing (the pool's default first chunk
    // is a 64 KiB malloc and free per response).
    char pool[2048];
    rapidjson::MemoryPoolAllocator<> allocator(pool, sizeof pool);
    json::Document body(&allocator);
    ClientResult result = net::ParseJsonResponse(response, body);
    if (!result.Successful()) return (*completion)(std::move(result), 0, {});
    auto id = json::GetSnowflake(body, "id");
    auto username = json::GetString(body, "username");
    if (!id || !username) {
      return (*completion)(
          ClientResult::Failure(ErrorType::HTTPError, "malformed response: user without id or username"), 0,
          {});
    }
    (*completion)({}, *id, std::string(*username));
  });
}

}  // namespace platformpp::auth
