#pragma once
// What the Authorize tests share: the callback's outcome and PKCE arguments with the default scopes.

#include <platformpp/client.hpp>

#include <string>

namespace itest {

struct AuthorizeOutcome {
  bool done = false;
  platformpp::ClientResult result;
  std::string code, redirectUri;
};

inline platformpp::Client::AuthorizationCallback Into(AuthorizeOutcome& out) {
  return [&out](platformpp::ClientResult r, std::string code, std::string redirect) {
    out = {true, std::move(r), std::move(code), std::move(redirect)};
  };
}

inline platformpp::AuthorizationArgs Args(const platformpp::AuthorizationCodeVerifier& pkce) {
  platformpp::AuthorizationArgs args;
  args.SetScopes(platformpp::Client::GetDefaultCommunicationScopes());
  args.SetCodeChallenge(pkce.Challenge());
  return args;
}

}  // namespace itest
