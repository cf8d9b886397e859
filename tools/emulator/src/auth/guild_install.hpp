// What an OAuth2 guild install (scope `bot`, or integration_type 0) needs of the guilds, which the auth
// module does not own: whether the consenting user may add the application to a guild, and adding its bot
// there. The guild module implements it (guild_install.cpp); the service connects the two after building
// both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/emulator_state.hpp"

namespace platformpp::emulator {

class GuildInstalls {
 public:
  virtual ~GuildInstalls() = default;

  enum class Check { allowed, unknown_guild, not_permitted };
  // The platform lets a member with MANAGE_GUILD there (the owner and administrators included) install an
  // application to a guild.
  [[nodiscard]] virtual Check may_install(const std::string& guild_id, const std::string& user_id) const = 0;
  // Adds the application's bot to the guild (already a member: unchanged) and, when `permissions` is not 0,
  // gives it a role named after the application with those permissions (the platform's managed bot role).
  // Returns the guild object as the token response and APPLICATION_AUTHORIZED carry it.
  virtual std::string install_bot(const Application& app, const std::string& guild_id,
                                  std::uint64_t permissions) = 0;
  // How many guilds the user (an application's bot) is a member of.
  [[nodiscard]] virtual std::size_t guild_count(const std::string& user_id) const = 0;
  // The guild object of `guild_id` as install_bot returns it; nullopt for an unknown guild.
  [[nodiscard]] virtual std::optional<std::string> guild_json(const std::string& guild_id) const = 0;
};

}  // namespace platformpp::emulator
