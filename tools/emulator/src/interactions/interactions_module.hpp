// Application commands (interactions/, the platform's "Application Commands"): global and guild commands of
// each application, created (an upsert by name and type), read, edited, deleted and overwritten in bulk under
// the platform's rules (command_rules.hpp) and counts (100 CHAT_INPUT, 15 USER, 15 MESSAGE per scope, one
// global PRIMARY_ENTRY_POINT). The admin API switches an application's Activities on, which creates the
// default entry point named Launch. Commands are kept in the state file (document kind
// "application_command").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/service_context.hpp"
#include "guild/guild_module.hpp"
#include "interactions/application_command.hpp"

namespace platformpp::emulator {

class InteractionsModule : public FeatureModule {
 public:
  InteractionsModule(ServiceContext& context, GuildModule& guilds);

  // The application's commands in one scope (global when `guild_id` is empty), oldest first.
  [[nodiscard]] std::vector<const ApplicationCommand*> commands_of(
      const std::string& app_id, const std::optional<std::string>& guild_id) const;

 private:
  // ---- routes (command_routes.cpp)
  void register_routes();
  // Who may manage the application's commands: its bot token, or a client-credentials token of it with the
  // scope applications.commands.update. The scope's guild must exist and have the application installed.
  std::optional<HttpResponse> authorize(const RouteContext& context);
  HttpResponse api_list(const RouteContext& context);
  HttpResponse api_create(const RouteContext& context);
  HttpResponse api_overwrite(const RouteContext& context);
  HttpResponse api_get(const RouteContext& context);
  HttpResponse api_edit(const RouteContext& context);
  HttpResponse api_delete(const RouteContext& context);
  HttpResponse admin_activities(const RouteContext& context);

  // ---- the store (interactions_module.cpp)
  ApplicationCommand* find(const std::string& app_id, const std::optional<std::string>& guild_id,
                           std::string_view command_id);
  // The command of the scope with this name and type, if any (names are unique per type and scope).
  ApplicationCommand* find_named(const std::string& app_id, const std::optional<std::string>& guild_id,
                                 int type, std::string_view name, std::string_view except_id = {});
  // Whether adding one more command of `type` stays within the scope's count (`replacing` one of the same
  // type does not count).
  [[nodiscard]] bool within_count(const std::string& app_id, const std::optional<std::string>& guild_id,
                                  int type) const;
  const ApplicationCommand& store(ApplicationCommand command);
  void remove(const std::string& id);
  // Adds the default entry point (Launch, DISCORD_LAUNCH_ACTIVITY) unless the application has one.
  void add_default_entry_point(const Application& app);
  void register_documents();

  GuildModule& guilds_;
  std::map<std::string, ApplicationCommand, std::less<>> commands_;  // by id (ids grow with time)
};

// The command object as the API answers it; `localizations`: with the localization dictionaries.
std::string command_json(const ApplicationCommand& command, bool localizations = true);
// A count limit of `type`: 100, 15, 15 or 1.
std::size_t command_count_max(int type);

}  // namespace platformpp::emulator
