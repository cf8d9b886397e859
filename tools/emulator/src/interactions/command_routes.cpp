// The platform's application command routes, global and per guild, and the admin switch of an application's
// Activities. Errors: 401 without a valid token, 404 Unknown Application (10002), Unknown Guild (10004),
// Unknown application command (10063), 403 Missing Access (50001) for another application's token or a guild
// without the application, 400 Invalid Form Body (50035) with every broken rule at its path, 400 Maximum
// number of application commands reached (30032), 400 An application command with that name already exists
// (40041) for an edit onto another command's name.
#include <algorithm>
#include <set>
#include <utility>

#include "core/form_encoding.hpp"
#include "core/json_body.hpp"
#include "interactions/command_rules.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kTooManyCommands = 30032;
constexpr int kNameTaken = 40041;

std::optional<std::string> guild_of(const RouteContext& context) {
  const auto it = context.params.find("guild_id");
  if (it == context.params.end()) return std::nullopt;
  return it->second;
}

HttpResponse too_many_commands(int type) {
  return error_response(
      400, kTooManyCommands,
      "Maximum number of application commands reached (" + std::to_string(command_count_max(type)) + ")");
}

bool has_scope(const AccessGrant& grant, std::string_view scope) {
  return std::find(grant.scopes.begin(), grant.scopes.end(), scope) != grant.scopes.end();
}

}  // namespace

void InteractionsModule::register_routes() {
  for (const std::string base : {"/applications/{application_id}/commands",
                                 "/applications/{application_id}/guilds/{guild_id}/commands"}) {
    api_router_.add("GET", base, bind(&InteractionsModule::api_list));
    api_router_.add("POST", base, bind(&InteractionsModule::api_create));
    api_router_.add("PUT", base, bind(&InteractionsModule::api_overwrite));
    api_router_.add("GET", base + "/{command_id}", bind(&InteractionsModule::api_get));
    api_router_.add("PATCH", base + "/{command_id}", bind(&InteractionsModule::api_edit));
    api_router_.add("DELETE", base + "/{command_id}", bind(&InteractionsModule::api_delete));
  }
  admin_router_.add("POST", "/applications/{app_id}/activities", bind(&InteractionsModule::admin_activities));
}

std::optional<HttpResponse> InteractionsModule::authorize(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto& app_id = context.params.at("application_id");
  const Application* app = state_.find_application(app_id);
  if (app == nullptr) return unknown_application();
  if (principal->application == nullptr || principal->application->id != app_id) return missing_access();
  if (principal->grant != nullptr) {
    // A user's token manages no commands; the application's own client-credentials token does, with the
    // scope for it (reading needs applications.commands.update as well: the platform has no read scope).
    const bool own = principal->grant->user_id == app->bot_user_id;
    if (!own || !has_scope(*principal->grant, "applications.commands.update")) return missing_access();
  }
  if (const auto guild_id = guild_of(context)) {
    const Guild* guild = guilds_.guilds().find_guild(*guild_id);
    if (guild == nullptr) return error_response(404, error_code::kUnknownGuild, "Unknown Guild");
    if (!guild->members.contains(app->bot_user_id)) return missing_access();
  }
  return std::nullopt;
}

HttpResponse InteractionsModule::api_list(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto fields = FormFields::parse(query_of(context.request));
  const bool localizations = fields && fields->get("with_localizations").value_or("false") == "true";
  const auto commands = commands_of(context.params.at("application_id"), guild_of(context));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (const auto* command : commands)
                                write_raw(writer, command_json(*command, localizations),
                                          rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

HttpResponse InteractionsModule::api_get(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto* command =
      find(context.params.at("application_id"), guild_of(context), context.params.at("command_id"));
  if (command == nullptr)
    return error_response(404, error_code::kUnknownCommand, "Unknown application command");
  return HttpResponse::json(200, command_json(*command));
}

HttpResponse InteractionsModule::api_create(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto& app_id = context.params.at("application_id");
  const auto guild_id = guild_of(context);
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  const Application* app = state_.find_application(app_id);
  auto command = read_command(body, {guild_id, (app->flags() & kApplicationFlagEmbedded) != 0}, errors, {});
  if (!command) return invalid_form_body(errors);
  command->application_id = app_id;
  // An upsert: the scope's command of the same name and type is replaced, keeping its id.
  if (const auto* existing = find_named(app_id, guild_id, command->type, command->name)) {
    command->id = existing->id;
    return HttpResponse::json(200, command_json(store(std::move(*command))));
  }
  if (!within_count(app_id, guild_id, command->type)) return too_many_commands(command->type);
  return HttpResponse::json(201, command_json(store(std::move(*command))));
}

HttpResponse InteractionsModule::api_edit(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto& app_id = context.params.at("application_id");
  const auto guild_id = guild_of(context);
  auto* existing = find(app_id, guild_id, context.params.at("command_id"));
  if (existing == nullptr)
    return error_response(404, error_code::kUnknownCommand, "Unknown application command");
  rapidjson::Document edit;
  if (auto error = read_json_object(context.request, edit)) return std::move(*error);
  // The fields sent replace the command's; the result must hold every rule a new command does.
  rapidjson::Document merged;
  if (!parse_json(command_body_json(*existing), merged)) return status_error(500);
  for (auto& member : edit.GetObject()) {
    rapidjson::Value key(member.name, merged.GetAllocator());
    rapidjson::Value value(member.value, merged.GetAllocator());
    if (auto it = merged.FindMember(key); it != merged.MemberEnd()) {
      it->value = std::move(value);
    } else {
      merged.AddMember(key, value, merged.GetAllocator());
    }
  }
  FieldErrors errors;
  const Application* app = state_.find_application(app_id);
  auto command = read_command(merged, {guild_id, (app->flags() & kApplicationFlagEmbedded) != 0}, errors, {});
  if (!command) return invalid_form_body(errors);
  if (find_named(app_id, guild_id, command->type, command->name, existing->id) != nullptr)
    return error_response(400, kNameTaken, "An application command with that name already exists");
  if (command->type != existing->type && !within_count(app_id, guild_id, command->type))
    return too_many_commands(command->type);
  command->id = existing->id;
  command->application_id = app_id;
  return HttpResponse::json(200, command_json(store(std::move(*command))));
}

HttpResponse InteractionsModule::api_delete(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto* command =
      find(context.params.at("application_id"), guild_of(context), context.params.at("command_id"));
  if (command == nullptr)
    return error_response(404, error_code::kUnknownCommand, "Unknown application command");
  remove(command->id);
  return HttpResponse::empty(204);
}

HttpResponse InteractionsModule::api_overwrite(const RouteContext& context) {
  if (auto refused = authorize(context)) return std::move(*refused);
  const auto& app_id = context.params.at("application_id");
  const auto guild_id = guild_of(context);
  rapidjson::Document body;
  if (!has_json_content_type(context.request)) return status_error(415);
  if (!parse_json(context.request.body, body))
    return error_response(400, error_code::kInvalidJson, "Invalid JSON");
  FieldErrors errors;
  if (!body.IsArray()) {
    errors.add({"_root"}, {"BASE_TYPE_ARRAY", "Must be an array."});
    return invalid_form_body(errors);
  }
  const Application* app = state_.find_application(app_id);
  const CommandScope scope{guild_id, (app->flags() & kApplicationFlagEmbedded) != 0};
  std::vector<ApplicationCommand> commands;
  std::set<std::pair<int, std::string>> names;
  std::map<int, std::size_t> counts;
  for (rapidjson::SizeType i = 0; i < body.Size(); ++i) {
    auto command = read_command(body[i], scope, errors, {std::to_string(i)});
    if (!command) continue;
    if (!names.emplace(command->type, command->name).second) {
      errors.add({std::to_string(i), "name"}, {"APPLICATION_COMMANDS_DUPLICATE_NAME",
                                               "Application command names must be unique per type."});
      continue;
    }
    ++counts[command->type];
    // An item names the command it keeps by id, else by name and type; the others are new.
    const ApplicationCommand* kept = nullptr;
    if (body[i].IsObject()) {
      if (const auto it = body[i].FindMember("id"); it != body[i].MemberEnd() && it->value.IsString())
        kept = find(app_id, guild_id, std::string_view(it->value.GetString(), it->value.GetStringLength()));
    }
    if (kept == nullptr) kept = find_named(app_id, guild_id, command->type, command->name);
    if (kept != nullptr) command->id = kept->id;
    command->application_id = app_id;
    commands.push_back(std::move(*command));
  }
  if (!errors.empty()) return invalid_form_body(errors);
  for (const auto& [type, count] : counts)
    if (count > command_count_max(type)) return too_many_commands(type);
  std::set<std::string> kept_ids;
  for (const auto& command : commands)
    if (!command.id.empty()) kept_ids.insert(command.id);
  for (const auto* command : commands_of(app_id, guild_id))
    if (!kept_ids.contains(command->id)) remove(command->id);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartArray();
                              for (auto& command : commands)
                                write_raw(writer, command_json(store(std::move(command))),
                                          rapidjson::kObjectType);
                              writer.EndArray();
                            }));
}

// {enabled}: the developer portal's Activities switch. On: the EMBEDDED flag, and the default entry point
// named Launch (DISCORD_LAUNCH_ACTIVITY) unless the application has an entry point. Off: the flag only (the
// platform keeps the commands). Answers {flags_new, entry_point}.
HttpResponse InteractionsModule::admin_activities(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto enabled = fields.boolean("enabled", true);
  if (!errors.empty()) return invalid_form_body(errors);
  if (*enabled) {
    app->extra_flags |= kApplicationFlagEmbedded;
    add_default_entry_point(*app);
  } else {
    app->extra_flags &= ~kApplicationFlagEmbedded;
  }
  const ApplicationCommand* entry_point = nullptr;
  for (const auto* command : commands_of(app->id, std::nullopt))
    if (command->type == command_type::kPrimaryEntryPoint) entry_point = command;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("flags_new");
                              write_string(writer, std::to_string(app->flags()));
                              writer.Key("entry_point");
                              if (entry_point != nullptr) {
                                write_raw(writer, command_json(*entry_point), rapidjson::kObjectType);
                              } else {
                                writer.Null();
                              }
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
