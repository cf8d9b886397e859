#pragma once
// Provisional accounts: a platform identity made from the game's own identity provider (Steam, Epic, OIDC,
// ...), and merging it into (or out of) a full platform account.

#include "auth/token_endpoint.hpp"

#include <platformpp/authorization.hpp>

namespace platformpp::auth {

/// POST /partner-sdk/token. OIDC answers may carry a refresh_token: it is handed over, but remembered so that
/// RefreshToken refuses it (the refresh grant is deprecated for provisional accounts).
void GetProvisionalToken(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId,
                         AuthenticationExternalAuthType type, const std::string& externalAuthToken,
                         TokenCompletion completion);

/// POST /partner-sdk/provisional-accounts/unmerge: the platform account keeps its data, the external identity
/// gets a fresh provisional account.
void UnmergeIntoProvisionalAccount(core::Runtime& runtime, net::HttpClient& http, uint64_t applicationId,
                                   AuthenticationExternalAuthType type, const std::string& externalAuthToken,
                                   core::Completion<> completion);

/// PATCH /users/@me `{global_name}` with the Client's own (provisional) token. `name` must be 1 to 32
/// characters (code points) once trimmed; checked before anything is sent.
void UpdateProvisionalAccountDisplayName(core::Runtime& runtime, net::HttpClient& http,
                                         const std::string& name, core::Completion<> completion);

/// The message RefreshToken gives for a provisional account's refresh token.
inline constexpr const char* kProvisionalRefreshRefused =
    "refreshToken: the refresh_token grant is deprecated for provisional accounts: re-authenticate with the "
    "identity "
    "provider, get a new token with GetProvisionalToken and pass it to UpdateToken";

}  // namespace platformpp::auth
