// The command store of InteractionsModule, its state documents and the command object.
#include "interactions/interactions_module.hpp"

#include <stdexcept>

#include "core/document_json.hpp"
#include "core/json.hpp"
#include "core/validation.hpp"
#include "interactions/command_rules.hpp"

namespace platformpp::emulator {

namespace {
constexpr std::string_view kCommandDocument = "application_command";
}  // namespace

std::size_t command_count_max(int type) {
  switch (type) {
    case command_type::kChatInput:
      return command_limit::kChatInputMax;
    case command_type::kPrimaryEntryPoint:
      return command_limit::kEntryPointMax;
    default:
      return command_limit::kContextMenuMax;
  }
}

std::string command_json(const ApplicationCommand& command, bool localizations) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, command.id);
    writer.Key("type");
    writer.Int(command.type);
    writer.Key("application_id");
    write_string(writer, command.application_id);
    if (command.guild_id) {
      writer.Key("guild_id");
      write_string(writer, *command.guild_id);
    }
    writer.Key("name");
    write_string(writer, command.name);
    if (localizations) {
      writer.Key("name_localizations");
      if (command.name_localizations) {
        write_raw(writer, *command.name_localizations, rapidjson::kObjectType);
      } else {
        writer.Null();
      }
    }
    writer.Key("description");
    write_string(writer, command.description);
    if (localizations) {
      writer.Key("description_localizations");
      if (command.description_localizations) {
        write_raw(writer, *command.description_localizations, rapidjson::kObjectType);
      } else {
        writer.Null();
      }
    }
    if (command.options != "[]") {  // the platform leaves out an empty list
      writer.Key("options");
      write_raw(writer, command.options, rapidjson::kArrayType);
    }
    write_command_settings(writer, command);
    writer.Key("version");
    write_string(writer, command.version);
    writer.EndObject();
  });
}

InteractionsModule::InteractionsModule(ServiceContext& context, GuildModule& guilds, GatewayModule& gateway,
                                       MessagingModule& messaging, PremiumModule& premium)
    : FeatureModule(context), guilds_(guilds), gateway_(gateway), messaging_(messaging), premium_(premium) {
  register_routes();
  register_interaction_routes();
  register_response_routes();
  register_documents();
  messaging_.set_component_checker(
      [this](const std::string& app_id, const Message& message, FieldErrors& errors) {
        check_message_components(app_id, message, errors);
      });
}

std::vector<const ApplicationCommand*> InteractionsModule::commands_of(
    const std::string& app_id, const std::optional<std::string>& guild_id) const {
  std::vector<const ApplicationCommand*> found;
  for (const auto& [id, command] : commands_) {
    if (command.application_id == app_id && command.guild_id == guild_id) found.push_back(&command);
  }
  return found;
}

ApplicationCommand* InteractionsModule::find(const std::string& app_id,
                                             const std::optional<std::string>& guild_id,
                                             std::string_view command_id) {
  const auto it = commands_.find(command_id);
  if (it == commands_.end() || it->second.application_id != app_id || it->second.guild_id != guild_id)
    return nullptr;
  return &it->second;
}

ApplicationCommand* InteractionsModule::find_named(const std::string& app_id,
                                                   const std::optional<std::string>& guild_id, int type,
                                                   std::string_view name, std::string_view except_id) {
  for (auto& [id, command] : commands_) {
    if (command.application_id == app_id && command.guild_id == guild_id && command.type == type &&
        command.name == name && id != except_id)
      return &command;
  }
  return nullptr;
}

bool InteractionsModule::within_count(const std::string& app_id, const std::optional<std::string>& guild_id,
                                      int type) const {
  std::size_t count = 0;
  for (const auto* command : commands_of(app_id, guild_id))
    count += command->type == type ? 1 : 0;
  return count < command_count_max(type);
}

const ApplicationCommand& InteractionsModule::store(ApplicationCommand command) {
  if (command.id.empty()) command.id = std::to_string(snowflakes_.next());
  command.version = std::to_string(snowflakes_.next());
  changes_.touch(kCommandDocument, command.id);
  auto& stored = commands_[command.id];
  stored = std::move(command);
  return stored;
}

void InteractionsModule::remove(const std::string& id) {
  const auto it = commands_.find(id);
  if (it == commands_.end()) return;
  // Noted first: callers may pass the command's own id, which goes with the erase.
  changes_.touch(kCommandDocument, id);
  commands_.erase(it);
}

void InteractionsModule::add_default_entry_point(const Application& app) {
  for (const auto* command : commands_of(app.id, std::nullopt))
    if (command->type == command_type::kPrimaryEntryPoint) return;
  ApplicationCommand launch;
  launch.application_id = app.id;
  launch.type = command_type::kPrimaryEntryPoint;
  launch.name = "Launch";
  launch.description = "Launch " + app.name;
  if (utf8_length(launch.description) > command_limit::kDescriptionMax) launch.description = "Launch";
  launch.handler = entry_point_handler::kDiscordLaunchActivity;
  launch.integration_types = {kGuildInstall, kUserInstall};
  launch.contexts = std::vector<int>{kContextGuild, kContextBotDm, kContextPrivateChannel};
  store(std::move(launch));
}

void InteractionsModule::register_documents() {
  DocumentKind kind;
  kind.name = std::string(kCommandDocument);
  kind.save = [this](const std::string& id) -> std::optional<std::string> {
    const auto it = commands_.find(id);
    if (it == commands_.end()) return std::nullopt;
    const ApplicationCommand& command = it->second;
    return document::document_json([&](JsonWriter& writer) {
      document::write_member(writer, "application_id", command.application_id);
      document::write_member(writer, "guild_id", command.guild_id);
      document::write_member(writer, "version", command.version);
      writer.Key("command");
      write_raw(writer, command_body_json(command), rapidjson::kObjectType);
    });
  };
  kind.load = [this](const std::string& id, const rapidjson::Value& body) {
    document::check_format(body);
    FieldErrors errors;
    CommandScope scope{document::optional_string(body, "guild_id"), true};
    auto command = read_command(document::object(body, "command"), scope, errors, {});
    if (!command) throw std::invalid_argument("application_command " + id + ": not a valid command");
    command->id = id;
    command->application_id = document::string(body, "application_id");
    command->version = document::string(body, "version");
    commands_[id] = std::move(*command);
  };
  kind.ids = [this] {
    std::vector<std::string> ids;
    for (const auto& [id, command] : commands_)
      ids.push_back(id);
    return ids;
  };
  kind.clear = [this] { commands_.clear(); };
  changes_.register_kind(std::move(kind));
}

}  // namespace platformpp::emulator
