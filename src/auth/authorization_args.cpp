#include <platformpp/authorization.hpp>

namespace platformpp {

const AuthorizationArgs AuthorizationArgs::nullobj{AuthorizationArgs::Null{}};

const char* ExternalAuthTypeToWireName(AuthenticationExternalAuthType type) noexcept {
  switch (type) {
    case AuthenticationExternalAuthType::OIDC:
      return "OIDC";
    case AuthenticationExternalAuthType::EpicOnlineServicesAccessToken:
      return "EPIC_ONLINE_SERVICES_ACCESS_TOKEN";
    case AuthenticationExternalAuthType::EpicOnlineServicesIdToken:
      return "EPIC_ONLINE_SERVICES_ID_TOKEN";
    case AuthenticationExternalAuthType::SteamSessionTicket:
      return "STEAM_SESSION_TICKET";
    case AuthenticationExternalAuthType::UnityServicesIdToken:
      return "UNITY_SERVICES_ID_TOKEN";
    case AuthenticationExternalAuthType::DiscordBotIssuedAccessToken:
      return "DISCORD_BOT_ISSUED_ACCESS_TOKEN";
    case AuthenticationExternalAuthType::AppleIdToken:
      return "APPLE_ID_TOKEN";
    case AuthenticationExternalAuthType::PlayStationNetworkIdToken:
      return "PLAYSTATION_NETWORK_ID_TOKEN";
  }
  return "";
}

}  // namespace platformpp
