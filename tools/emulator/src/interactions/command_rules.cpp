// The rules of command_rules.hpp. Error codes are the platform's where its public material shows them
// (APPLICATION_COMMAND_INVALID_NAME with STRING_TYPE_REGEX, APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID,
// APPLICATION_COMMAND_OPTIONS_TYPE_INVALID, APPLICATION_COMMAND_TOO_LARGE, the BASE_TYPE_* and NUMBER_TYPE_*
// ones); the rest follow its naming pattern, and their messages say which rule was broken.
#include "interactions/command_rules.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <set>

#include "core/json.hpp"
#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

using Path = std::vector<std::string>;

FieldIssue bad_length(std::size_t min, std::size_t max) {
  return {"BASE_TYPE_BAD_LENGTH",
          "Must be between " + std::to_string(min) + " and " + std::to_string(max) + " in length."};
}

FieldIssue too_many(std::size_t max) {
  return {"BASE_TYPE_MAX_LENGTH", "Must be " + std::to_string(max) + " or fewer in length."};
}

FieldIssue not_one_of(std::initializer_list<int> values) {
  std::string text;
  for (const int value : values)
    text += (text.empty() ? "" : ", ") + std::to_string(value);
  return {"BASE_TYPE_CHOICES", "Value must be one of {" + text + "}."};
}

FieldIssue not_allowed(std::string_view why) {
  return {"APPLICATION_COMMAND_FIELD_NOT_ALLOWED", std::string(why)};
}

FieldIssue not_array() {
  return {"BASE_TYPE_ARRAY", "Must be an array."};
}

FieldIssue not_object() {
  return {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"};
}

// One UTF-8 code point of `text` at `i` (advanced past it). Request bodies are checked UTF-8 already.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto byte = static_cast<unsigned char>(text[i++]);
  if (byte < 0x80) return byte;
  const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
  char32_t point = byte & (0x3F >> extra);
  for (int k = 0; k < extra && i < text.size(); ++k)
    point = (point << 6) | (static_cast<unsigned char>(text[i++]) & 0x3F);
  return point;
}

// Letters that have a lowercase form, in the scripts that need no Unicode database: Latin, Greek and
// Cyrillic capitals. (The platform applies Unicode's whole case mapping; names in the other cased scripts
// pass here as they are.)
bool is_capital(char32_t c) {
  if (c >= U'A' && c <= U'Z') return true;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return true;
  if (c >= 0x100 && c <= 0x17F) return c % 2 == 0 && c != 0x138;  // Latin Extended-A: capital, small, ...
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return true;
  return c >= 0x400 && c <= 0x42F;
}

// Not a letter or digit: ASCII other than [A-Za-z0-9], the Latin-1 symbols, the punctuation, symbol and
// space blocks, the CJK symbols, private use. Other code points count as letters, digits or marks.
bool is_symbol_or_space(char32_t c) {
  if (c < 0x80) return !((c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9'));
  if (c <= 0xBF) return c != 0xAA && c != 0xB2 && c != 0xB3 && c != 0xB5 && c != 0xB9 && c != 0xBA;
  if (c == 0xD7 || c == 0xF7) return true;
  if (c >= 0x2000 && c <= 0x2BFF) return true;
  if (c >= 0x3000 && c <= 0x303F) return true;
  if (c >= 0xFE10 && c <= 0xFE6F) return true;
  if (c >= 0xFF00 && c <= 0xFF0F) return true;
  if (c >= 0xFE00 && c <= 0xFE0F) return true;    // variation selectors
  if (c >= 0x1F000 && c <= 0x1FAFF) return true;  // emoji and pictographs
  return c == 0xFEFF || (c >= 0xE000 && c <= 0xF8FF);
}

std::size_t characters(const rapidjson::Value& string) {
  return utf8_length({string.GetString(), string.GetStringLength()});
}

// An object's members at a JSON path, recording what is wrong with each.
class Reader {
 public:
  Reader(const rapidjson::Value& object, FieldErrors& errors, Path path)
      : object_(object), errors_(errors), path_(std::move(path)) {}

  // A reader of a member object or array element.
  [[nodiscard]] Reader child(const rapidjson::Value& object, std::initializer_list<std::string> keys) const {
    Path path = path_;
    path.insert(path.end(), keys.begin(), keys.end());
    return {object, errors_, std::move(path)};
  }
  [[nodiscard]] const rapidjson::Value& object() const { return object_; }
  // The member, or null when absent or JSON null.
  [[nodiscard]] const rapidjson::Value* get(const char* name) const {
    const auto it = object_.FindMember(name);
    return it == object_.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
  }
  [[nodiscard]] bool said(const char* name) const { return get(name) != nullptr; }
  void issue(std::initializer_list<std::string> keys, FieldIssue issue) {
    Path path = path_;
    path.insert(path.end(), keys.begin(), keys.end());
    errors_.add(path, std::move(issue));
  }
  void issue(const char* name, FieldIssue what) { issue({std::string(name)}, std::move(what)); }

  std::optional<std::string> string(const char* name, bool required) {
    const auto* value = get(name);
    if (value == nullptr) {
      if (required) issue(name, required_field_issue());
      return std::nullopt;
    }
    if (!value->IsString()) {
      issue(name, {"BASE_TYPE_STRING", "Must be a string."});
      return std::nullopt;
    }
    return std::string(value->GetString(), value->GetStringLength());
  }
  // A string of `min` to `max` characters.
  std::optional<std::string> text(const char* name, bool required, std::size_t min, std::size_t max) {
    auto value = string(name, required);
    if (!value) return std::nullopt;
    const auto length = utf8_length(*value);
    if (length < min || length > max) {
      issue(name, bad_length(min, max));
      return std::nullopt;
    }
    return value;
  }
  std::optional<std::int64_t> integer(const char* name, bool required) {
    const auto* value = get(name);
    if (value == nullptr) {
      if (required) issue(name, required_field_issue());
      return std::nullopt;
    }
    if (!value->IsInt64()) {
      issue(name, {"NUMBER_TYPE_COERCE", "Value is not int."});
      return std::nullopt;
    }
    return value->GetInt64();
  }
  std::optional<bool> boolean(const char* name) {
    const auto* value = get(name);
    if (value == nullptr) return std::nullopt;
    if (!value->IsBool()) {
      issue(name, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
      return std::nullopt;
    }
    return value->GetBool();
  }
  // An array member (empty when absent), or null after recording that it is not one.
  const rapidjson::Value* array(const char* name) {
    const auto* value = get(name);
    if (value != nullptr && !value->IsArray()) {
      issue(name, not_array());
      return nullptr;
    }
    return value;
  }

 private:
  const rapidjson::Value& object_;
  FieldErrors& errors_;
  Path path_;
};

// The characters the size rule counts: each counted field's value or its longest localization.
struct SizeBudget {
  std::size_t used = 0;
  void add(const rapidjson::Value& object, const char* field, const char* localizations = nullptr) {
    std::size_t longest = 0;
    if (const auto it = object.FindMember(field); it != object.MemberEnd() && it->value.IsString())
      longest = characters(it->value);
    if (localizations != nullptr) {
      if (const auto it = object.FindMember(localizations);
          it != object.MemberEnd() && it->value.IsObject()) {
        for (const auto& entry : it->value.GetObject())
          if (entry.value.IsString()) longest = std::max(longest, characters(entry.value));
      }
    }
    used += longest;
  }
};

void check_chat_input_name(Reader& reader, const char* field, const std::string& name) {
  if (chat_input_name_valid(name)) return;
  reader.issue(field, {"STRING_TYPE_REGEX", "String value did not match validation regex."});
  reader.issue(field, {"APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"});
}

// `{locale: text}`, each text under the field's own rule. Returns the checked object as JSON text.
std::optional<std::string> check_localizations(Reader& reader, const char* name, std::size_t min,
                                               std::size_t max, bool chat_input_name) {
  const auto* value = reader.get(name);
  if (value == nullptr) return std::nullopt;
  if (!value->IsObject()) {
    reader.issue(name, not_object());
    return std::nullopt;
  }
  for (const auto& entry : value->GetObject()) {
    const std::string locale(entry.name.GetString(), entry.name.GetStringLength());
    if (!entry.value.IsString()) {
      reader.issue({name, locale}, {"BASE_TYPE_STRING", "Must be a string."});
    } else if (characters(entry.value) < min || characters(entry.value) > max) {
      reader.issue({name, locale}, bad_length(min, max));
    } else if (chat_input_name &&
               !chat_input_name_valid({entry.value.GetString(), entry.value.GetStringLength()})) {
      reader.issue({name, locale}, {"APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"});
    }
  }
  return json_text(*value);
}

bool is_subcommand(std::int64_t type) {
  return type == command_option_type::kSubCommand || type == command_option_type::kSubCommandGroup;
}

bool takes_choices(std::int64_t type) {
  return type == command_option_type::kString || type == command_option_type::kInteger ||
         type == command_option_type::kNumber;
}

// A choice's value: a string of at most 100 characters for STRING options, an integer in the safe range for
// INTEGER ones, a number for NUMBER ones.
void check_choice(Reader& choice, std::int64_t type, SizeBudget& size) {
  choice.text("name", true, 1, command_limit::kChoiceNameMax);
  check_localizations(choice, "name_localizations", 1, command_limit::kChoiceNameMax, false);
  size.add(choice.object(), "name", "name_localizations");
  const auto* value = choice.get("value");
  if (value == nullptr) {
    choice.issue("value", required_field_issue());
  } else if (type == command_option_type::kString) {
    if (!value->IsString()) {
      choice.issue("value", {"BASE_TYPE_STRING", "Must be a string."});
    } else if (characters(*value) > command_limit::kChoiceStringValueMax) {
      choice.issue("value", bad_length(1, command_limit::kChoiceStringValueMax));
    } else {
      size.add(choice.object(), "value");
    }
  } else if (type == command_option_type::kInteger) {
    if (!value->IsInt64() || std::llabs(value->GetInt64()) > command_limit::kSafeInteger)
      choice.issue("value", {"NUMBER_TYPE_COERCE", "Value is not int."});
  } else if (!value->IsNumber()) {
    choice.issue("value", {"NUMBER_TYPE_COERCE", "Value is not a number."});
  }
}

// min_value and max_value of INTEGER and NUMBER options, in the type's range, min <= max.
void check_range(Reader& option, std::int64_t type) {
  const double limit =
      static_cast<double>(command_limit::kSafeInteger) + (type == command_option_type::kNumber);
  std::optional<double> bounds[2];
  const char* names[2] = {"min_value", "max_value"};
  for (int i = 0; i < 2; ++i) {
    const auto* value = option.get(names[i]);
    if (value == nullptr) continue;
    if (type != command_option_type::kInteger && type != command_option_type::kNumber) {
      option.issue(names[i], not_allowed("Only for INTEGER and NUMBER options."));
    } else if (type == command_option_type::kInteger ? !value->IsInt64() : !value->IsNumber()) {
      option.issue(names[i], {"NUMBER_TYPE_COERCE", "Value is not a number."});
    } else if (std::fabs(value->GetDouble()) > limit) {
      option.issue(names[i], {"NUMBER_TYPE_MAX", "Value is outside the option type's range."});
    } else {
      bounds[i] = value->GetDouble();
    }
  }
  if (bounds[0] && bounds[1] && *bounds[0] > *bounds[1])
    option.issue("min_value", {"NUMBER_TYPE_MAX", "min_value must not be greater than max_value."});
}

// min_length 0..6000 and max_length 1..6000 of STRING options.
void check_lengths(Reader& option, std::int64_t type) {
  std::optional<std::int64_t> lengths[2];
  const char* names[2] = {"min_length", "max_length"};
  const std::int64_t lowest[2] = {0, 1};
  for (int i = 0; i < 2; ++i) {
    if (!option.said(names[i])) continue;
    if (type != command_option_type::kString) {
      option.issue(names[i], not_allowed("Only for STRING options."));
      continue;
    }
    const auto value = option.integer(names[i], false);
    if (!value) continue;
    if (*value < lowest[i] || *value > command_limit::kStringLengthMax) {
      option.issue(names[i], {*value < lowest[i] ? "NUMBER_TYPE_MIN" : "NUMBER_TYPE_MAX",
                              "Must be between " + std::to_string(lowest[i]) + " and " +
                                  std::to_string(command_limit::kStringLengthMax) + "."});
    } else {
      lengths[i] = value;
    }
  }
  if (lengths[0] && lengths[1] && *lengths[0] > *lengths[1])
    option.issue("min_length", {"NUMBER_TYPE_MAX", "min_length must not be greater than max_length."});
}

// file_types of ATTACHMENT options: at most 10 of "image", "video", "audio" or a dot-prefixed extension.
void check_file_types(Reader& option, std::int64_t type) {
  const auto* list = option.array("file_types");
  if (list == nullptr) return;
  if (type != command_option_type::kAttachment) {
    option.issue("file_types", not_allowed("Only for ATTACHMENT options."));
    return;
  }
  if (list->Size() > command_limit::kFileTypesMax)
    option.issue("file_types", too_many(command_limit::kFileTypesMax));
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    const auto& item = (*list)[i];
    const std::string_view text =
        item.IsString() ? std::string_view(item.GetString(), item.GetStringLength()) : "";
    const bool category = text == "image" || text == "video" || text == "audio";
    const bool extension =
        text.size() > 1 && text[0] == '.' && std::all_of(text.begin() + 1, text.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) != 0;
        });
    if (!category && !extension) {
      option.issue({"file_types", std::to_string(i)},
                   {"BASE_TYPE_CHOICES", "Must be image, video, audio or a file extension such as .pdf."});
    }
  }
}

// One level of options: `parent` is 0 for the command's own, else the option type that holds them.
void check_options(Reader& owner, const rapidjson::Value& options, std::int64_t parent, SizeBudget& size) {
  if (options.Size() > command_limit::kOptionsMax)
    owner.issue("options", too_many(command_limit::kOptionsMax));
  std::set<std::string> names;
  bool optional_seen = false;
  std::size_t subcommands = 0;
  for (rapidjson::SizeType i = 0; i < options.Size(); ++i) {
    const auto& item = options[i];
    const std::string index = std::to_string(i);
    if (!item.IsObject()) {
      owner.issue({"options", index}, not_object());
      continue;
    }
    Reader option = owner.child(item, {"options", index});
    const auto type = option.integer("type", true);
    if (type && (*type < command_option_type::kSubCommand || *type > command_option_type::kAttachment)) {
      option.issue("type", not_one_of({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
      continue;
    }
    if (auto name = option.text("name", true, 1, command_limit::kNameMax)) {
      check_chat_input_name(option, "name", *name);
      if (!names.insert(*name).second)
        option.issue("name", {"APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "Option names must be unique."});
    }
    check_localizations(option, "name_localizations", 1, command_limit::kNameMax, true);
    option.text("description", true, 1, command_limit::kDescriptionMax);
    check_localizations(option, "description_localizations", 1, command_limit::kDescriptionMax, false);
    size.add(item, "name", "name_localizations");
    size.add(item, "description", "description_localizations");
    if (!type) continue;
    if (is_subcommand(*type)) ++subcommands;
    // Where each type may be: groups only at the top, subcommands at the top or in a group, values in a
    // subcommand or at the top of a command without subcommands.
    if ((*type == command_option_type::kSubCommandGroup && parent != 0) ||
        (*type == command_option_type::kSubCommand && parent == command_option_type::kSubCommand) ||
        (!is_subcommand(*type) && parent == command_option_type::kSubCommandGroup)) {
      option.issue("type",
                   {"APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "This option type cannot be nested here."});
    }
    const bool required = option.boolean("required").value_or(false);
    if (is_subcommand(*type) && option.said("required"))
      option.issue("required", not_allowed("Subcommands and groups cannot be required."));
    if (!is_subcommand(*type)) {
      if (required && optional_seen) {
        owner.issue({"options", index}, {"APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                         "Required options must be placed before non-required options"});
      }
      optional_seen = optional_seen || !required;
    }
    if (const auto* choices = option.array("choices")) {
      if (!takes_choices(*type)) {
        option.issue("choices", not_allowed("Choices are for STRING, INTEGER and NUMBER options only."));
      } else {
        if (choices->Size() > command_limit::kChoicesMax)
          option.issue("choices", too_many(command_limit::kChoicesMax));
        for (rapidjson::SizeType c = 0; c < choices->Size(); ++c) {
          if (!(*choices)[c].IsObject()) {
            option.issue({"choices", std::to_string(c)}, not_object());
            continue;
          }
          Reader choice = option.child((*choices)[c], {"choices", std::to_string(c)});
          check_choice(choice, *type, size);
        }
      }
    }
    if (const auto autocomplete = option.boolean("autocomplete"); autocomplete && *autocomplete) {
      if (!takes_choices(*type)) {
        option.issue("autocomplete",
                     not_allowed("Autocomplete is for STRING, INTEGER and NUMBER options only."));
      } else if (const auto* choices = option.get("choices");
                 choices != nullptr && choices->IsArray() && choices->Size() > 0) {
        option.issue("autocomplete", not_allowed("Autocomplete cannot be set with choices."));
      }
    }
    if (const auto* channel_types = option.array("channel_types")) {
      if (*type != command_option_type::kChannel) {
        option.issue("channel_types", not_allowed("Only for CHANNEL options."));
      } else {
        for (rapidjson::SizeType c = 0; c < channel_types->Size(); ++c)
          if (!(*channel_types)[c].IsInt())
            option.issue({"channel_types", std::to_string(c)}, {"NUMBER_TYPE_COERCE", "Value is not int."});
      }
    }
    check_range(option, *type);
    check_lengths(option, *type);
    check_file_types(option, *type);
    if (const auto* nested = option.array("options")) {
      if (!is_subcommand(*type)) {
        option.issue("options", not_allowed("Only subcommands and groups have options."));
      } else {
        check_options(option, *nested, *type, size);
      }
    }
  }
  if (subcommands != 0 && subcommands != options.Size()) {
    owner.issue("options", {"APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                            "Sub-command and sub-command group option types are mutually exclusive to all "
                            "other types"});
  }
}

// A list of small integers each one of `allowed`, without repeats.
std::optional<std::vector<int>> read_context_list(Reader& reader, const char* name,
                                                  std::initializer_list<int> allowed) {
  const auto* list = reader.array(name);
  if (list == nullptr) return std::nullopt;
  std::vector<int> values;
  bool ok = true;
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    const auto& item = (*list)[i];
    if (!item.IsInt() || std::find(allowed.begin(), allowed.end(), item.GetInt()) == allowed.end()) {
      reader.issue({name, std::to_string(i)}, not_one_of(allowed));
      ok = false;
    } else if (std::find(values.begin(), values.end(), item.GetInt()) == values.end()) {
      values.push_back(item.GetInt());
    }
  }
  if (!ok) return std::nullopt;
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

bool chat_input_name_valid(std::string_view name) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < name.size();) {
    const char32_t c = next_code_point(name, i);
    ++count;
    if (c == U'-' || c == U'_' || c == U'\'') continue;
    if (is_capital(c) || is_symbol_or_space(c)) return false;
  }
  return count >= 1 && count <= command_limit::kNameMax;
}

std::optional<ApplicationCommand> read_command(const rapidjson::Value& body, const CommandScope& scope,
                                               FieldErrors& errors, const std::vector<std::string>& path) {
  if (!body.IsObject()) {
    errors.add(path.empty() ? Path{"_root"} : path, not_object());
    return std::nullopt;
  }
  const bool before = errors.empty();
  Reader reader(body, errors, path);
  ApplicationCommand command;
  command.guild_id = scope.guild_id;
  const auto type = reader.integer("type", false).value_or(command_type::kChatInput);
  if (type < command_type::kChatInput || type > command_type::kPrimaryEntryPoint) {
    reader.issue("type", not_one_of({1, 2, 3, 4}));
    return std::nullopt;
  }
  command.type = static_cast<int>(type);
  const bool chat_input = command.type == command_type::kChatInput;
  const bool entry_point = command.type == command_type::kPrimaryEntryPoint;
  if (entry_point && scope.guild_id)
    reader.issue("type",
                 {"APPLICATION_COMMAND_ENTRY_POINT_GLOBAL_ONLY", "Entry point commands can only be global."});

  if (auto name = reader.text("name", true, 1, command_limit::kNameMax)) {
    if (chat_input) check_chat_input_name(reader, "name", *name);
    command.name = std::move(*name);
  }
  command.name_localizations =
      check_localizations(reader, "name_localizations", 1, command_limit::kNameMax, chat_input);
  // Context menu commands have no description: what one sends is dropped, as the platform keeps "" for them.
  const bool described = chat_input || entry_point;
  if (described) {
    if (auto description = reader.text("description", chat_input, 1, command_limit::kDescriptionMax))
      command.description = std::move(*description);
    command.description_localizations =
        check_localizations(reader, "description_localizations", 1, command_limit::kDescriptionMax, false);
  }

  SizeBudget size;
  size.add(body, "name", "name_localizations");
  if (described) size.add(body, "description", "description_localizations");
  if (const auto* options = reader.array("options")) {
    if (!chat_input) {
      reader.issue("options", not_allowed("Only CHAT_INPUT commands have options."));
    } else {
      check_options(reader, *options, 0, size);
      command.options = json_text(*options);
    }
  }
  if (chat_input && size.used > command_limit::kTotalCharactersMax) {
    reader.issue("_root", {"APPLICATION_COMMAND_TOO_LARGE",
                           "Command exceeds maximum size (" +
                               std::to_string(command_limit::kTotalCharactersMax) + ")"});
  }

  if (const auto permissions = reader.string("default_member_permissions", false)) {
    if (!decimal_bits(*permissions)) {
      reader.issue("default_member_permissions",
                   {"BASE_TYPE_INVALID", "Must be permission bits: a decimal string."});
    } else {
      command.default_member_permissions = permissions;
    }
  }
  command.nsfw = reader.boolean("nsfw").value_or(false);
  // Installation and interaction contexts are for global commands; a guild command's are ignored.
  auto integration_types = read_context_list(reader, "integration_types", {kGuildInstall, kUserInstall});
  auto contexts =
      read_context_list(reader, "contexts", {kContextGuild, kContextBotDm, kContextPrivateChannel});
  if (!scope.guild_id) {
    command.integration_types = integration_types.value_or(std::vector<int>{kGuildInstall, kUserInstall});
    command.contexts = std::move(contexts);
  }

  if (const auto handler = reader.integer("handler", false)) {
    if (!entry_point) {
      reader.issue("handler", not_allowed("Only PRIMARY_ENTRY_POINT commands have a handler."));
    } else if (*handler != entry_point_handler::kAppHandler &&
               *handler != entry_point_handler::kDiscordLaunchActivity) {
      reader.issue("handler", not_one_of({1, 2}));
    } else if (!scope.embedded) {
      reader.issue("handler",
                   not_allowed("A handler needs an application with Activities enabled (EMBEDDED)."));
    } else {
      command.handler = static_cast<int>(*handler);
    }
  } else if (entry_point) {
    command.handler = entry_point_handler::kAppHandler;
  }
  if (!before || !errors.empty()) return std::nullopt;
  return command;
}

void write_command_settings(JsonWriter& writer, const ApplicationCommand& command) {
  writer.Key("default_member_permissions");
  write_optional_string(writer, command.default_member_permissions);
  writer.Key("nsfw");
  writer.Bool(command.nsfw);
  if (command.handler) {
    writer.Key("handler");
    writer.Int(*command.handler);
  }
  if (command.guild_id) return;
  const auto write_ints = [&](const std::vector<int>& values) {
    writer.StartArray();
    for (const int value : values)
      writer.Int(value);
    writer.EndArray();
  };
  writer.Key("integration_types");
  write_ints(command.integration_types);
  writer.Key("contexts");
  if (command.contexts) {
    write_ints(*command.contexts);
  } else {
    writer.Null();
  }
}

std::string command_body_json(const ApplicationCommand& command) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.Int(command.type);
    writer.Key("name");
    write_string(writer, command.name);
    if (command.name_localizations) {
      writer.Key("name_localizations");
      write_raw(writer, *command.name_localizations, rapidjson::kObjectType);
    }
    if (!command.description.empty()) {  // context menus have none, an entry point may have none
      writer.Key("description");
      write_string(writer, command.description);
    }
    if (command.description_localizations) {
      writer.Key("description_localizations");
      write_raw(writer, *command.description_localizations, rapidjson::kObjectType);
    }
    if (command.type == command_type::kChatInput) {
      writer.Key("options");
      write_raw(writer, command.options, rapidjson::kArrayType);
    }
    write_command_settings(writer, command);
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
