// OAuth2 guild installs (auth/guild_install.hpp): who may add an application to a guild, and its bot joining
// with the permissions the authorization asked for.
#include <string>
#include <utility>
#include <vector>

#include "guild/guild_json.hpp"
#include "guild/guild_module.hpp"
#include "guild/permissions.hpp"

namespace platformpp::emulator {

GuildInstalls::Check GuildModule::may_install(const std::string& guild_id, const std::string& user_id) const {
  const auto* guild = guilds_.find_guild(guild_id);
  if (guild == nullptr) return Check::unknown_guild;
  return (base_permissions(*guild, user_id) & permission::kManageGuild) != 0 ? Check::allowed
                                                                             : Check::not_permitted;
}

std::string GuildModule::install_bot(const Application& app, const std::string& guild_id,
                                     std::uint64_t permissions) {
  auto* guild = guilds_.find_guild_mutable(guild_id);
  if (guild == nullptr) return "{}";  // may_install said allowed in the same turn: cannot happen
  const bool joined = guild->has_member(app.bot_user_id);
  GuildMember member = joined ? *guild->find_member(app.bot_user_id) : GuildMember{};
  member.user_id = app.bot_user_id;
  if (!joined) member.joined_at_ms = clock_.now_ms();
  if (permissions != 0) {
    // The platform's managed role of a bot: named after the application, holding what the install asked for.
    // It is managed (tags.bot_id) and starts just above @everyone, as a new role does.
    GuildRole role;
    role.id = snowflakes_.next_string();
    role.name = app.name;
    role.permissions = permissions;
    role.bot_id = app.bot_user_id;
    for (auto& other : guild->roles) {
      if (other.id != guild->id) ++other.position;
    }
    role.position = 1;
    guild->roles.push_back(role);
    member.roles.push_back(role.id);
  }
  guilds_.set_member(guild_id, member);
  const auto* installed = guilds_.find_guild(guild_id);
  // The bot's live sessions hear of the guild as of any guild they join.
  if (!joined) {
    std::vector<std::pair<std::string, std::string>> creates;  // (session id, d): sent after the scan
    for (const auto* session : gateway_.sessions_of_user(app.bot_user_id)) {
      if ((session->intents & gateway_intent::kGuilds) == 0 || !guild_in_shard(*session, guild_id)) continue;
      creates.emplace_back(session->id, guild_create_json(*installed, *session));
    }
    for (const auto& [session_id, d] : creates)
      gateway_.dispatch(session_id, "GUILD_CREATE", d);
  }
  return admin_guild_json(*installed);
}

std::optional<std::string> GuildModule::guild_json(const std::string& guild_id) const {
  const auto* guild = guilds_.find_guild(guild_id);
  if (guild == nullptr) return std::nullopt;
  return admin_guild_json(*guild);
}

std::size_t GuildModule::guild_count(const std::string& user_id) const {
  return guilds_.guilds_of_user(user_id).size();
}

}  // namespace platformpp::emulator
