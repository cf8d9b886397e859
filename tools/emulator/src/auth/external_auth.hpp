// External identity providers a game may exchange tokens of for a provisional account (docs/http-api.md,
// "Provisional accounts").
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace platformpp::emulator {

// Tokens of this type are access tokens the bot route issued; they name that route's identity themselves.
inline constexpr std::string_view kBotIssuedAuthType = "DISCORD_BOT_ISSUED_ACCESS_TOKEN";
inline constexpr std::string_view kOidcAuthType = "OIDC";
inline constexpr std::array<std::string_view, 8> kExternalAuthTypes = {
    "OIDC",
    "STEAM_SESSION_TICKET",
    "EPIC_ONLINE_SERVICES_ACCESS_TOKEN",
    "EPIC_ONLINE_SERVICES_ID_TOKEN",
    "UNITY_SERVICES_ID_TOKEN",
    "APPLE_ID_TOKEN",
    "PLAYSTATION_NETWORK_ID_TOKEN",
    "DISCORD_BOT_ISSUED_ACCESS_TOKEN",
};
// The scope of every provisional-account token.
inline constexpr std::string_view kProvisionalScope = "sdk.social_layer";

inline bool is_external_auth_type(std::string_view type) {
  return std::find(kExternalAuthTypes.begin(), kExternalAuthTypes.end(), type) != kExternalAuthTypes.end();
}

}  // namespace platformpp::emulator
