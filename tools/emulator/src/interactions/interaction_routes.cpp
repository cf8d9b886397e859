// The admin routes that play a user (docs: tools/emulator/README.md "Interactions"): invoke one of an
// application's commands (with options checked against the command as the platform's client checks them,
// attachments, a target for USER and MESSAGE commands, or a focused option for autocomplete), use a
// component of one of its messages, submit a modal it opened. Each answers once the application has given
// its initial response, or failed to: {interaction: {id, type, token, channel_id}, response, message_id?,
// error?}. Errors: 404 for an unknown application (10002), user (10013), channel (10003), message (10008) or
// command (10063); 403 (50001) where the user cannot act (a channel they cannot see, a command not installed
// or not allowed in this context, or missing its default_member_permissions); 400 (50035) with the
// offending field for options, values and modal fields the platform's client would not send.
#include <rapidjson/document.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/random_token.hpp"
#include "core/user_json.hpp"
#include "guild/guild_json.hpp"
#include "guild/permissions.hpp"
#include "interactions/component_rules.hpp"
#include "interactions/interactions_module.hpp"

namespace platformpp::emulator {

namespace {

using rapidjson::Value;

bool parse_uint64(std::string_view text, std::uint64_t& value) {
  const auto* end = text.data() + text.size();
  return !text.empty() && std::from_chars(text.data(), end, value).ptr == end;
}

// What the options of one invocation resolve to (`data.resolved`), built as they are read.
class Resolved {
 public:
  Resolved() { root_.SetObject(); }
  void add(const char* kind, const std::string& id, const std::string& json) {
    auto& allocator = root_.GetAllocator();
    if (!root_.HasMember(kind))
      root_.AddMember(Value(kind, allocator), Value(rapidjson::kObjectType), allocator);
    auto& map = root_[kind];
    if (map.HasMember(id.c_str())) return;
    rapidjson::Document item(&allocator);
    parse_stored_json(json, item);
    map.AddMember(Value(id.c_str(), allocator), Value(item, allocator), allocator);
  }
  [[nodiscard]] bool empty() const { return root_.MemberCount() == 0; }
  [[nodiscard]] std::string json() const { return json_text(root_); }

 private:
  rapidjson::Document root_;
};

// The option definition named `name` among `definitions` (a command's or a subcommand's options).
const Value* definition_named(const Value& definitions, std::string_view name) {
  if (!definitions.IsArray()) return nullptr;
  for (const auto& definition : definitions.GetArray()) {
    if (definition.IsObject() && definition.HasMember("name") && definition["name"].IsString() &&
        definition["name"].GetString() == name)
      return &definition;
  }
  return nullptr;
}

int int_member(const Value& object, const char* name, int fallback) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsInt() ? it->value.GetInt() : fallback;
}

bool bool_member(const Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

}  // namespace

// Reads the user's options against the command's definitions and writes them as the interaction's
// `data.options`; the resolved objects go to `resolved`. Autocomplete: exactly one option is focused, its
// value the partial text (not checked), and required options may be missing.
class OptionReader {
 public:
  OptionReader(const EmulatorState& state, const InteractionsModule::Place& place, bool autocomplete,
               const Value* attachments, Resolved& resolved, FieldErrors& errors)
      : state_(state),
        place_(place),
        autocomplete_(autocomplete),
        attachments_(attachments),
        resolved_(resolved),
        errors_(errors) {}

  void read(const Value& definitions, const Value* given, JsonWriter& writer,
            const std::vector<std::string>& path) {
    writer.StartArray();
    std::set<std::string, std::less<>> seen;
    if (given != nullptr && given->IsArray()) {
      for (rapidjson::SizeType i = 0; i < given->Size(); ++i) {
        auto at = path;
        at.push_back(std::to_string(i));
        const auto& option = (*given)[i];
        const auto name_it = option.IsObject() ? option.FindMember("name") : Value::ConstMemberIterator();
        if (!option.IsObject() || name_it == option.MemberEnd() || !name_it->value.IsString()) {
          at.emplace_back("name");
          errors_.add(at, required_field_issue());
          continue;
        }
        const std::string name = name_it->value.GetString();
        const auto* definition = definition_named(definitions, name);
        at.emplace_back("name");
        if (definition == nullptr) {
          errors_.add(at, field_issue("OPTION_UNKNOWN", "The command has no option named " + name));
          continue;
        }
        if (!seen.insert(name).second) {
          errors_.add(at, field_issue("OPTION_DUPLICATE", "The option " + name + " is given twice"));
          continue;
        }
        at.pop_back();
        read_one(*definition, option, writer, at);
      }
    }
    writer.EndArray();
    if (autocomplete_ || !definitions.IsArray()) return;
    for (const auto& definition : definitions.GetArray()) {
      const int type = int_member(definition, "type", 0);
      if (type == command_option_type::kSubCommand || type == command_option_type::kSubCommandGroup) continue;
      if (bool_member(definition, "required") && !seen.contains(definition["name"].GetString())) {
        errors_.add(path, field_issue("OPTION_REQUIRED", std::string("The required option ") +
                                                             definition["name"].GetString() + " is missing"));
      }
    }
  }

  [[nodiscard]] int focused_count() const { return focused_; }

 private:
  void read_one(const Value& definition, const Value& option, JsonWriter& writer,
                const std::vector<std::string>& path) {
    const int type = int_member(definition, "type", 0);
    writer.StartObject();
    writer.Key("name");
    write_string(writer, definition["name"].GetString());
    writer.Key("type");
    writer.Int(type);
    if (type == command_option_type::kSubCommand || type == command_option_type::kSubCommandGroup) {
      const auto sub = definition.FindMember("options");
      const auto given = option.FindMember("options");
      writer.Key("options");
      auto at = path;
      at.emplace_back("options");
      static const Value kNone(rapidjson::kArrayType);
      read(sub != definition.MemberEnd() ? sub->value : kNone,
           given != option.MemberEnd() ? &given->value : nullptr, writer, at);
      writer.EndObject();
      return;
    }
    const auto value_it = option.FindMember("value");
    auto at = path;
    at.emplace_back("value");
    if (value_it == option.MemberEnd()) {
      errors_.add(at, required_field_issue());
      writer.EndObject();
      return;
    }
    const auto& value = value_it->value;
    const bool focused = bool_member(option, "focused");
    if (focused) {
      if (!autocomplete_ || !bool_member(definition, "autocomplete")) {
        errors_.add(path,
                    field_issue("OPTION_NOT_AUTOCOMPLETE", "Only an autocomplete option can be focused"));
      }
      ++focused_;
      writer.Key("value");
      write_raw(writer, json_text(value), value.GetType());
      writer.Key("focused");
      writer.Bool(true);
      writer.EndObject();
      return;
    }
    writer.Key("value");
    check_value(definition, type, value, writer, at);
    writer.EndObject();
  }

  void check_value(const Value& definition, int type, const Value& value, JsonWriter& writer,
                   const std::vector<std::string>& at) {
    const auto wrong = [&](const char* what) {
      errors_.add(at, field_issue("OPTION_VALUE_INVALID", std::string("Must be ") + what));
      writer.Null();
    };
    switch (type) {
      case command_option_type::kString: {
        if (!value.IsString()) return wrong("a string");
        const std::size_t length = value.GetStringLength();
        const auto min = definition.HasMember("min_length") ? definition["min_length"].GetInt64() : 0;
        const auto max = definition.HasMember("max_length") ? definition["max_length"].GetInt64()
                                                            : command_limit::kStringLengthMax;
        if (static_cast<std::int64_t>(length) < min || static_cast<std::int64_t>(length) > max) {
          errors_.add(at,
                      field_issue("BASE_TYPE_BAD_LENGTH", "Must be between " + std::to_string(min) + " and " +
                                                              std::to_string(max) + " in length."));
        }
        if (!in_choices(definition, value)) return wrong("one of the option's choices");
        write_string(writer, std::string_view(value.GetString(), length));
        return;
      }
      case command_option_type::kInteger:
      case command_option_type::kNumber: {
        const bool integer = type == command_option_type::kInteger;
        if (integer ? !value.IsInt64() : !value.IsNumber()) return wrong(integer ? "an integer" : "a number");
        const double number = value.GetDouble();
        if ((definition.HasMember("min_value") && number < definition["min_value"].GetDouble()) ||
            (definition.HasMember("max_value") && number > definition["max_value"].GetDouble())) {
          errors_.add(at, field_issue("NUMBER_TYPE_OUT_OF_RANGE", "The value is outside the option's range"));
        }
        if (!in_choices(definition, value)) return wrong("one of the option's choices");
        write_raw(writer, json_text(value), value.GetType());
        return;
      }
      case command_option_type::kBoolean:
        if (!value.IsBool()) return wrong("a boolean");
        writer.Bool(value.GetBool());
        return;
      case command_option_type::kUser:
      case command_option_type::kRole:
      case command_option_type::kMentionable:
      case command_option_type::kChannel: {
        if (!value.IsString()) return wrong("a snowflake");
        const std::string id = value.GetString();
        const bool found =
            (type != command_option_type::kRole && type != command_option_type::kChannel &&
             resolve_user(id)) ||
            ((type == command_option_type::kRole || type == command_option_type::kMentionable) &&
             resolve_role(id)) ||
            (type == command_option_type::kChannel && resolve_channel(definition, id));
        if (!found) return wrong("a user, role or channel the user can pick here");
        write_string(writer, id);
        return;
      }
      case command_option_type::kAttachment: {
        // The value names one of the request's `attachments` by index, as the platform's client uploads
        // them first and sends their ids.
        std::uint64_t index = 0;
        if (!value.IsUint64() || attachments_ == nullptr || !attachments_->IsArray() ||
            (index = value.GetUint64()) >= attachments_->Size()) {
          return wrong("the index of an entry of `attachments`");
        }
        const auto& attachment = (*attachments_)[static_cast<rapidjson::SizeType>(index)];
        const std::string id = attachment_ids_.at(index);
        if (!file_type_allowed(definition, attachment)) return wrong("a file of the option's file types");
        resolved_.add("attachments", id, attachment_json(id, attachment));
        write_string(writer, id);
        return;
      }
      default:
        return wrong("a value of a known option type");
    }
  }

  static bool in_choices(const Value& definition, const Value& value) {
    const auto choices = definition.FindMember("choices");
    if (choices == definition.MemberEnd() || !choices->value.IsArray() || choices->value.Empty()) return true;
    return std::any_of(choices->value.Begin(), choices->value.End(), [&](const Value& choice) {
      return choice.IsObject() && choice.HasMember("value") && choice["value"] == value;
    });
  }

  static bool file_type_allowed(const Value& definition, const Value& attachment) {
    const auto types = definition.FindMember("file_types");
    if (types == definition.MemberEnd() || !types->value.IsArray() || types->value.Empty()) return true;
    const auto filename = attachment.HasMember("filename") && attachment["filename"].IsString()
                              ? std::string(attachment["filename"].GetString())
                              : std::string();
    const auto dot = filename.rfind('.');
    const auto extension = dot == std::string::npos ? std::string() : filename.substr(dot);
    return std::any_of(types->value.Begin(), types->value.End(), [&](const Value& type) {
      if (!type.IsString()) return false;
      std::string_view want = type.GetString();
      if (want.find('/') != std::string_view::npos) {  // a media type, or a family like image/*
        const auto content_type =
            attachment.HasMember("content_type") && attachment["content_type"].IsString()
                ? std::string_view(attachment["content_type"].GetString())
                : std::string_view();
        if (want.size() > 2 && want.substr(want.size() - 2) == "/*")
          return content_type.substr(0, want.size() - 1) == want.substr(0, want.size() - 1);
        return content_type == want;
      }
      if (!want.empty() && want.front() != '.') return extension.size() > 1 && extension.substr(1) == want;
      return extension == want;
    });
  }

  bool resolve_user(const std::string& id) {
    const User* user = state_.find_user(id);
    if (user == nullptr) return false;
    if (place_.guild != nullptr) {
      const auto* member = place_.guild->find_member(id);
      if (member != nullptr) {
        rapidjson::Document object;
        const auto text = guild_member_json(*member, *user);
        parse_stored_json(text, object);
        object.RemoveMember("user");  // resolved members have no user (it is in resolved.users)
        const auto permissions = bits_string(channel_permissions(*place_.guild, *place_.guild_channel, id));
        object.AddMember("permissions", Value(permissions.c_str(), object.GetAllocator()),
                         object.GetAllocator());
        resolved_.add("members", id, json_text(object));
      }
    }
    resolved_.add("users", id, user_json(*user));
    return true;
  }

  bool resolve_role(const std::string& id) {
    if (place_.guild == nullptr) return false;
    const auto* role = place_.guild->find_role(id);
    if (role == nullptr) return false;
    resolved_.add("roles", id, role_json(*role));
    return true;
  }

  bool resolve_channel(const Value& definition, const std::string& id) {
    if (place_.guild == nullptr) return false;
    const auto it = place_.guild->channels.find(id);
    if (it == place_.guild->channels.end()) return false;
    const auto& channel = it->second;
    const auto types = definition.FindMember("channel_types");
    if (types != definition.MemberEnd() && types->value.IsArray() && !types->value.Empty() &&
        std::none_of(types->value.Begin(), types->value.End(),
                     [&](const Value& t) { return t.IsInt() && t.GetInt() == channel.type; })) {
      return false;
    }
    rapidjson::Document object;
    object.SetObject();
    auto& a = object.GetAllocator();
    object.AddMember("id", Value(channel.id.c_str(), a), a);
    object.AddMember("name", Value(channel.name.c_str(), a), a);
    object.AddMember("type", channel.type, a);
    object.AddMember("guild_id", Value(place_.guild->id.c_str(), a), a);
    if (channel.parent_id) object.AddMember("parent_id", Value(channel.parent_id->c_str(), a), a);
    object.AddMember("flags", channel.flags, a);
    // The seed: a resolved channel carries permissions only when the bot is in the guild.
    if (bot_in_guild_) {
      const auto bits = bits_string(channel_permissions(*place_.guild, channel, *bot_user_id_));
      object.AddMember("permissions", Value(bits.c_str(), a), a);
    }
    resolved_.add("channels", id, json_text(object));
    return true;
  }

  std::string attachment_json(const std::string& id, const Value& attachment) const {
    return to_json([&](JsonWriter& writer) {
      writer.StartObject();
      writer.Key("id");
      write_string(writer, id);
      for (const char* key : {"filename", "content_type", "description"}) {
        if (attachment.HasMember(key) && attachment[key].IsString()) {
          writer.Key(key);
          write_string(writer, attachment[key].GetString());
        }
      }
      writer.Key("size");
      writer.Int64(
          attachment.HasMember("size") && attachment["size"].IsInt64() ? attachment["size"].GetInt64() : 0);
      const auto url = "https://" + cdn_host_ + "/ephemeral-attachments/" + id + "/" +
                       (attachment.HasMember("filename") ? attachment["filename"].GetString() : "file");
      writer.Key("url");
      write_string(writer, url);
      writer.Key("proxy_url");
      write_string(writer, url);
      writer.Key("ephemeral");
      writer.Bool(true);
      writer.EndObject();
    });
  }

 public:
  // Set by the caller before read(): what resolve_channel and the attachments need.
  bool bot_in_guild_ = false;
  const std::string* bot_user_id_ = nullptr;
  std::string cdn_host_;
  std::vector<std::string> attachment_ids_;

 private:
  const EmulatorState& state_;
  const InteractionsModule::Place& place_;
  bool autocomplete_;
  const Value* attachments_;
  Resolved& resolved_;
  FieldErrors& errors_;
  int focused_ = 0;
};

void InteractionsModule::register_interaction_routes() {
  admin_router_.add("POST", "/applications/{app_id}/interactions/commands",
                    bind(&InteractionsModule::admin_invoke_command));
  admin_router_.add("POST", "/applications/{app_id}/interactions/components",
                    bind(&InteractionsModule::admin_use_component));
  admin_router_.add("POST", "/applications/{app_id}/interactions/{interaction_id}/modal-submit",
                    bind(&InteractionsModule::admin_submit_modal));
  admin_router_.add("GET", "/applications/{app_id}/interactions/{interaction_id}",
                    bind(&InteractionsModule::admin_get_interaction));
  admin_router_.add("PUT", "/applications/{app_id}/interactions-endpoint",
                    bind(&InteractionsModule::admin_put_interactions_endpoint));
}

Interaction InteractionsModule::new_interaction(const Application& app, const User& user, const Place& place,
                                                int type, const std::string& locale) {
  Interaction interaction;
  interaction.id = snowflakes_.next_string();
  interaction.app_id = app.id;
  interaction.token = "aW50ZXJhY3Rpb246" + random_token(48);
  interaction.type = type;
  interaction.user_id = user.id;
  interaction.channel_id = place.channel_id;
  if (place.guild != nullptr) interaction.guild_id = place.guild->id;
  interaction.context = place.context;
  interaction.locale = locale;
  interaction.guild_installed = place.guild_installed;
  interaction.user_installed = place.user_installed;
  interaction.created_ms = clock_.now_ms();
  return interaction;
}

HttpResponse InteractionsModule::admin_invoke_command(const RouteContext& context) {
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto channel_id = fields.string("channel_id", false).value_or("");
  const auto command_id = fields.string("command_id", false);
  const auto name = fields.string("name", false);
  const auto type = fields.integer("type", false, command_type::kChatInput, command_type::kPrimaryEntryPoint);
  const auto target_id = fields.string("target_id", false);
  const auto locale = fields.string("locale", false).value_or("en-US");
  const bool autocomplete = fields.boolean("autocomplete", false).value_or(false);
  const auto* options = fields.value("options", false);
  const auto* attachments = fields.value("attachments", false);
  if (!command_id && !name) fields.add_issue("command_id", required_field_issue());
  if (options != nullptr && !options->IsArray())
    fields.add_issue("options", field_issue("BASE_TYPE_ARRAY", "Must be an array"));
  if (attachments != nullptr && !attachments->IsArray())
    fields.add_issue("attachments", field_issue("BASE_TYPE_ARRAY", "Must be an array"));
  if (!errors.empty()) return invalid_form_body(errors);
  const User* user = state_.find_user(*user_id);
  if (user == nullptr) return unknown_user();
  auto placed = place_of(*app, *user, channel_id);
  if (auto* refused = std::get_if<HttpResponse>(&placed)) return std::move(*refused);
  const auto& place = std::get<Place>(placed);

  // The command: the guild's own first, then the global one.
  const ApplicationCommand* command = nullptr;
  for (const auto& scope : {place.guild != nullptr ? std::optional(place.guild->id) : std::nullopt,
                            std::optional<std::string>()}) {
    if (command != nullptr) break;
    for (const auto* candidate : commands_of(app->id, scope)) {
      if (command_id
              ? candidate->id == *command_id
              : candidate->name == *name && candidate->type == type.value_or(command_type::kChatInput)) {
        command = candidate;
        break;
      }
    }
  }
  if (command == nullptr)
    return error_response(404, error_code::kUnknownCommand, "Unknown application command");

  // Where the command may be used, and by which installs (authorizing_integration_owners).
  Place allowed = place;
  if (command->guild_id) {
    allowed.user_installed = false;
    if (place.guild == nullptr || *command->guild_id != place.guild->id) allowed.guild_installed = false;
  } else {
    const auto& types = command->integration_types;
    const auto supports = [&](int t) {
      return types.empty() || std::find(types.begin(), types.end(), t) != types.end();  // default: both
    };
    if (command->contexts && std::find(command->contexts->begin(), command->contexts->end(), place.context) ==
                                 command->contexts->end()) {
      return error_response(403, error_code::kMissingAccess, "The command cannot be used in this context");
    }
    allowed.guild_installed = place.guild_installed && supports(kGuildInstall);
    allowed.user_installed = place.user_installed && supports(kUserInstall);
  }
  if (!allowed.guild_installed && !allowed.user_installed) {
    return error_response(403, error_code::kMissingAccess,
                          "The application is not installed where the user is");
  }
  if (command->default_member_permissions && place.guild != nullptr) {
    std::uint64_t needed = 0;
    parse_uint64(*command->default_member_permissions, needed);
    if ((channel_permissions(*place.guild, *place.guild_channel, user->id) & needed) != needed) {
      return error_response(403, error_code::kMissingAccess, "The user lacks the command's permissions");
    }
  }
  if (autocomplete && command->type != command_type::kChatInput) {
    fields.add_issue("autocomplete",
                     field_issue("COMMAND_NOT_CHAT_INPUT", "Only CHAT_INPUT commands autocomplete"));
  }

  auto interaction = new_interaction(
      *app, *user, allowed,
      autocomplete ? interaction_type::kAutocomplete : interaction_type::kApplicationCommand, locale);
  interaction.command_type = command->type;

  // The entry point the platform handles itself: it launches the activity and posts a message; the
  // application hears nothing.
  if (command->type == command_type::kPrimaryEntryPoint &&
      command->handler.value_or(entry_point_handler::kDiscordLaunchActivity) ==
          entry_point_handler::kDiscordLaunchActivity) {
    interaction.activity_instance_id = "i-" + snowflakes_.next_string();
    interaction.response_type = callback_type::kLaunchActivity;
    interaction.response_json = R"({"type":12})";
    const auto id = interaction.id;
    interaction_of_token_[interaction.token] = id;
    auto& kept = interactions_.insert_or_assign(id, std::move(interaction)).first->second;
    Message message;
    message.id = snowflakes_.next_string();
    message.channel_id = kept.channel_id;
    message.guild_id = kept.guild_id;
    message.author_id = app->bot_user_id;
    message.application_id = app->id;
    message.webhook_id = app->id;
    message.type = message_type::kChatInputCommand;
    message.content = "";
    message.timestamp_ms = clock_.now_ms();
    message.interaction_metadata = interaction_metadata_json(kept, std::nullopt);
    kept.original_message_id = message.id;
    messaging_.post_app_message(std::move(message));
    kept.waiter = std::make_shared<DeferredResponse>();
    auto waiter = kept.waiter;
    report(kept, std::nullopt);
    return HttpResponse::later(std::move(waiter));
  }

  // The data: options (and resolved objects), or the target of a USER or MESSAGE command.
  Resolved resolved;
  OptionReader reader(state_, place, autocomplete, attachments, resolved, errors);
  reader.bot_in_guild_ = place.guild != nullptr && place.guild->has_member(app->bot_user_id);
  reader.bot_user_id_ = &app->bot_user_id;
  reader.cdn_host_ = endpoints_.cdn_host;
  if (attachments != nullptr) {
    for (rapidjson::SizeType i = 0; i < attachments->Size(); ++i) {
      reader.attachment_ids_.push_back(snowflakes_.next_string());
      const auto& a = (*attachments)[i];
      const auto size =
          a.IsObject() && a.HasMember("size") && a["size"].IsInt64() ? a["size"].GetInt64() : -1;
      if (!a.IsObject() || !a.HasMember("filename") || !a["filename"].IsString() || size < 0) {
        errors.add({"attachments", std::to_string(i)},
                   field_issue("ATTACHMENT_INVALID", "Needs a filename and a size in bytes"));
      } else if (size > attachment_size_limit(*user)) {
        errors.add({"attachments", std::to_string(i), "size"},
                   field_issue("ATTACHMENT_TOO_LARGE", "Larger than the user's upload limit here"));
      }
    }
  }
  std::string options_json;
  if (command->type == command_type::kChatInput) {
    rapidjson::Document definitions;
    parse_stored_json(command->options, definitions);
    options_json =
        to_json([&](JsonWriter& writer) { reader.read(definitions, options, writer, {"options"}); });
    if (autocomplete && reader.focused_count() != 1) {
      fields.add_issue("options", field_issue("OPTION_FOCUS", "Exactly one option must be focused"));
    }
  } else if (options != nullptr && !options->Empty()) {
    fields.add_issue("options",
                     field_issue("COMMAND_HAS_NO_OPTIONS", "Only CHAT_INPUT commands take options"));
  }
  if (command->type == command_type::kUser || command->type == command_type::kMessage) {
    if (!target_id) {
      fields.add_issue("target_id", required_field_issue());
    } else if (command->type == command_type::kUser) {
      if (state_.find_user(*target_id) == nullptr) return unknown_user();
      interaction.target_user_id = *target_id;
      // The target resolves like a USER option.
      rapidjson::Document def;
      parse_stored_json(R"([{"name":"target","type":6}])", def);
      rapidjson::Document given;
      const auto given_text = R"([{"name":"target","value":")" + *target_id + R"("}])";
      parse_stored_json(given_text, given);
      (void)to_json([&](JsonWriter& writer) { reader.read(def, &given, writer, {"target_id"}); });
    } else {
      const auto* target = messaging_.find_channel_message(place.channel_id, *target_id);
      if (target == nullptr || (target->ephemeral_for && *target->ephemeral_for != user->id)) {
        return unknown_message();
      }
      interaction.target_message_id = *target_id;
      resolved.add("messages", *target_id, messaging_.api_message_json(*target));
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);

  const auto data = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, command->id);
    writer.Key("name");
    write_string(writer, command->name);
    writer.Key("type");
    writer.Int(command->type);
    if (command->guild_id) {
      writer.Key("guild_id");
      write_string(writer, *command->guild_id);
    }
    if (!options_json.empty() && options_json != "[]") {
      writer.Key("options");
      write_raw(writer, options_json, rapidjson::kArrayType);
    }
    if (!resolved.empty()) {
      writer.Key("resolved");
      write_raw(writer, resolved.json(), rapidjson::kObjectType);
    }
    if (target_id) {
      writer.Key("target_id");
      write_string(writer, *target_id);
    }
    writer.EndObject();
  });
  auto payload = payload_json(interaction, allowed, data, std::nullopt);
  return deliver(std::move(interaction), std::move(payload));
}

// {user_id, channel_id, message_id, custom_id, values?}: a button click (no values) or a select's choice.
HttpResponse InteractionsModule::admin_use_component(const RouteContext& context) {
  const Application* app = state_.find_application(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto user_id = fields.string("user_id", true);
  const auto channel_id = fields.string("channel_id", true);
  const auto message_id = fields.string("message_id", true);
  const auto custom_id = fields.string("custom_id", true);
  const auto locale = fields.string("locale", false).value_or("en-US");
  const auto* values = fields.value("values", false);
  if (!errors.empty()) return invalid_form_body(errors);
  const User* user = state_.find_user(*user_id);
  if (user == nullptr) return unknown_user();
  auto placed = place_of(*app, *user, *channel_id);
  if (auto* refused = std::get_if<HttpResponse>(&placed)) return std::move(*refused);
  const auto& place = std::get<Place>(placed);
  const auto* message = messaging_.find_channel_message(place.channel_id, *message_id);
  if (message == nullptr || message->application_id != app->id ||
      (message->ephemeral_for && *message->ephemeral_for != user->id)) {
    return unknown_message();
  }
  rapidjson::Document components;
  parse_stored_json(message->components, components);
  const auto* component = find_component(components, *custom_id);
  if (component == nullptr) {
    fields.add_issue("custom_id",
                     field_issue("COMPONENT_UNKNOWN", "The message has no component with this custom_id"));
    return invalid_form_body(errors);
  }
  const int type = int_member(*component, "type", 0);
  if (bool_member(*component, "disabled")) {
    fields.add_issue("custom_id", field_issue("COMPONENT_DISABLED", "The component is disabled"));
  }
  Resolved resolved;
  std::vector<std::string> chosen;
  const bool select = type == 3 || (type >= 5 && type <= 8);
  if (!select && values != nullptr) {
    fields.add_issue("values", field_issue("COMPONENT_NOT_SELECT", "Only a select is given values"));
  }
  if (select) {
    if (values == nullptr || !values->IsArray()) {
      fields.add_issue("values", required_field_issue());
    } else {
      const int min = int_member(*component, "min_values", 1);
      const int max = int_member(*component, "max_values", 1);
      if (static_cast<int>(values->Size()) < min || static_cast<int>(values->Size()) > max) {
        fields.add_issue(
            "values", field_issue("BASE_TYPE_BAD_LENGTH", "Must be between " + std::to_string(min) + " and " +
                                                              std::to_string(max) + " in length."));
      }
      OptionReader reader(state_, place, false, nullptr, resolved, errors);
      reader.bot_in_guild_ = place.guild != nullptr && place.guild->has_member(app->bot_user_id);
      reader.bot_user_id_ = &app->bot_user_id;
      for (rapidjson::SizeType i = 0; i < values->Size(); ++i) {
        const auto& value = (*values)[i];
        if (!value.IsString()) {
          errors.add({"values", std::to_string(i)}, field_issue("BASE_TYPE_STRING", "Must be a string"));
          continue;
        }
        chosen.emplace_back(value.GetString());
        if (type == 3) {
          const auto options = component->FindMember("options");
          const bool known = options != component->MemberEnd() && options->value.IsArray() &&
                             std::any_of(options->value.Begin(), options->value.End(), [&](const Value& o) {
                               return o.IsObject() && o.HasMember("value") && o["value"] == value;
                             });
          if (!known)
            errors.add({"values", std::to_string(i)}, field_issue("SELECT_VALUE_UNKNOWN", "Not an option"));
        } else {
          // The auto-populated selects pick users, roles, both, or channels; resolve as the options do.
          const int option_type = type == 5   ? command_option_type::kUser
                                  : type == 6 ? command_option_type::kRole
                                  : type == 7 ? command_option_type::kMentionable
                                              : command_option_type::kChannel;
          rapidjson::Document def;
          def.SetArray();
          rapidjson::Value entry(rapidjson::kObjectType);
          entry.AddMember("name", "value", def.GetAllocator());
          entry.AddMember("type", option_type, def.GetAllocator());
          if (component->HasMember("channel_types")) {
            entry.AddMember("channel_types", Value((*component)["channel_types"], def.GetAllocator()),
                            def.GetAllocator());
          }
          def.PushBack(entry, def.GetAllocator());
          rapidjson::Document given;
          given.SetArray();
          rapidjson::Value item(rapidjson::kObjectType);
          item.AddMember("name", "value", given.GetAllocator());
          item.AddMember("value", Value(value, given.GetAllocator()), given.GetAllocator());
          given.PushBack(item, given.GetAllocator());
          (void)to_json([&](JsonWriter& writer) {
            reader.read(def, &given, writer, {"values", std::to_string(i)});
          });
        }
      }
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  auto interaction = new_interaction(*app, *user, place, interaction_type::kMessageComponent, locale);
  interaction.source_message_id = message->id;
  // A message component interaction is authorized by the installs the message's interaction had.
  if (message->interaction_metadata) {
    rapidjson::Document metadata;
    parse_stored_json(*message->interaction_metadata, metadata);
    if (metadata.IsObject() && metadata.HasMember("authorizing_integration_owners")) {
      const auto& owners = metadata["authorizing_integration_owners"];
      interaction.guild_installed = owners.HasMember("0");
      interaction.user_installed = owners.HasMember("1");
    }
  }
  const auto data = to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("custom_id");
    write_string(writer, *custom_id);
    writer.Key("component_type");
    writer.Int(type);
    if (const auto id = component->FindMember("id"); id != component->MemberEnd() && id->value.IsInt()) {
      writer.Key("id");
      writer.Int(id->value.GetInt());
    }
    if (select) {
      writer.Key("values");
      writer.StartArray();
      for (const auto& value : chosen)
        write_string(writer, value);
      writer.EndArray();
      if (!resolved.empty()) {
        writer.Key("resolved");
        write_raw(writer, resolved.json(), rapidjson::kObjectType);
      }
    }
    writer.EndObject();
  });
  Place effective = place;
  effective.guild_installed = interaction.guild_installed;
  effective.user_installed = interaction.user_installed;
  auto payload = payload_json(interaction, effective, data, messaging_.api_message_json(*message));
  return deliver(std::move(interaction), std::move(payload));
}

HttpResponse InteractionsModule::admin_get_interaction(const RouteContext& context) {
  const auto it = interactions_.find(context.params.at("interaction_id"));
  if (it == interactions_.end() || it->second.app_id != context.params.at("app_id")) {
    return error_response(404, 10062, "Unknown interaction");
  }
  const auto& interaction = it->second;
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("id");
                              write_string(writer, interaction.id);
                              writer.Key("type");
                              writer.Int(interaction.type);
                              writer.Key("token");
                              write_string(writer, interaction.token);
                              writer.Key("response");
                              if (interaction.response_json) {
                                write_raw(writer, *interaction.response_json, rapidjson::kObjectType);
                              } else {
                                writer.Null();
                              }
                              writer.Key("original_message_id");
                              write_optional_string(writer, interaction.original_message_id);
                              writer.Key("followup_ids");
                              writer.StartArray();
                              for (const auto& id : interaction.followup_ids)
                                write_string(writer, id);
                              writer.EndArray();
                              writer.Key("failed");
                              writer.Bool(interaction.expired_unanswered);
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
