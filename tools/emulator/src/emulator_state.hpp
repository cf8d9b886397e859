// In-memory platform data seeded through the admin API: users, applications and their tokens.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace platformpp::emulator {

struct User {
  std::string id;
  std::string username;
  std::optional<std::string> global_name;
  bool bot = false;
};

struct Application {
  std::string id;
  std::string name;
  std::string client_secret;
  std::string bot_token;
  std::string bot_user_id;
  std::optional<std::string> parent_id;
  bool public_client_flows = true;  // PKCE with client_id and no secret, as Social SDK apps allow
};

struct AccessGrant {
  std::string access_token;
  std::string refresh_token;
  std::string user_id;
  std::string app_id;
  std::vector<std::string> scopes;
  std::int64_t expires_at_ms = 0;  // fake-clock epoch ms
};

class EmulatorState {
 public:
  const User& add_user(User user);
  [[nodiscard]] const User* find_user(std::string_view id) const;
  [[nodiscard]] bool username_taken(std::string_view username) const;

  const Application& add_application(Application app);
  [[nodiscard]] const Application* find_application(std::string_view id) const;
  [[nodiscard]] const Application* find_application_by_bot_token(std::string_view token) const;

  const AccessGrant& add_grant(AccessGrant grant);
  [[nodiscard]] const AccessGrant* find_grant_by_access_token(std::string_view token) const;
  // Revokes the grant owning this access or refresh token; false if none does.
  bool revoke_token(std::string_view token);

 private:
  std::map<std::string, User, std::less<>> users_;
  std::map<std::string, Application, std::less<>> applications_;
  std::map<std::string, AccessGrant, std::less<>> grants_;                   // by access token
  std::map<std::string, std::string, std::less<>> access_by_refresh_token_;  // refresh -> access token
};

}  // namespace platformpp::emulator
