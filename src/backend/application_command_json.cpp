#include "backend/application_command_json.hpp"

#include "core/utf8.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

constexpr std::size_t kNameMax = 32;
constexpr std::size_t kDescriptionMax = 100;
constexpr std::size_t kOptionsMax = 25;
constexpr int32_t kStringLengthMax = 6000;
constexpr std::size_t kFileTypesMax = 10;
constexpr std::size_t kSizeMax = 8000;

json::Value LocalizationsValue(const Localizations& texts, Allocator& a) {
  json::Value object(rapidjson::kObjectType);
  for (const auto& [locale, text] : texts)
    object.AddMember(json::StringValue(locale, a), json::StringValue(text, a), a);
  return object;
}

Localizations ReadLocalizations(const json::Value& object, std::string_view name) {
  Localizations texts;
  if (const json::Value* value = json::Member(object, name); value && value->IsObject()) {
    for (const auto& entry : value->GetObject()) {
      if (entry.value.IsString())
        texts.emplace(std::string(entry.name.GetString(), entry.name.GetStringLength()),
                      std::string(entry.value.GetString(), entry.value.GetStringLength()));
    }
  }
  return texts;
}

bool IsSubcommand(ApplicationCommandOptionType type) {
  return type == ApplicationCommandOptionType::SubCommand ||
         type == ApplicationCommandOptionType::SubCommandGroup;
}

bool TakesChoices(ApplicationCommandOptionType type) {
  return type == ApplicationCommandOptionType::String || type == ApplicationCommandOptionType::Integer ||
         type == ApplicationCommandOptionType::Number;
}

// name, description and their localizations (each left out when empty: a context-menu command has no
// description).
void AddTexts(json::Value& body, const std::string& name, const Localizations& nameLocalizations,
              const std::string& description, const Localizations& descriptionLocalizations, Allocator& a) {
  body.AddMember("name", json::StringValue(name, a), a);
  if (!nameLocalizations.empty())
    body.AddMember("name_localizations", LocalizationsValue(nameLocalizations, a), a);
  if (!description.empty()) body.AddMember("description", json::StringValue(description, a), a);
  if (!descriptionLocalizations.empty())
    body.AddMember("description_localizations", LocalizationsValue(descriptionLocalizations, a), a);
}

json::Value OptionBody(const ApplicationCommandOption& option, Allocator& a) {
  json::Value body(rapidjson::kObjectType);
  body.AddMember("type", static_cast<int>(option.type), a);
  AddTexts(body, option.name, option.nameLocalizations, option.description, option.descriptionLocalizations,
           a);
  if (option.required) body.AddMember("required", true, a);
  if (!option.choices.empty()) {
    json::Value choices(rapidjson::kArrayType);
    for (const auto& choice : option.choices) {
      json::Value item(rapidjson::kObjectType);
      item.AddMember("name", json::StringValue(choice.name, a), a);
      if (!choice.nameLocalizations.empty())
        item.AddMember("name_localizations", LocalizationsValue(choice.nameLocalizations, a), a);
      if (const auto* text = std::get_if<std::string>(&choice.value)) {
        item.AddMember("value", json::StringValue(*text, a), a);
      } else if (const auto* integer = std::get_if<int64_t>(&choice.value)) {
        item.AddMember("value", *integer, a);
      } else {
        item.AddMember("value", std::get<double>(choice.value), a);
      }
      choices.PushBack(item, a);
    }
    body.AddMember("choices", choices, a);
  }
  if (!option.options.empty()) {
    json::Value options(rapidjson::kArrayType);
    for (const auto& nested : option.options)
      options.PushBack(OptionBody(nested, a), a);
    body.AddMember("options", options, a);
  }
  if (!option.channelTypes.empty()) {
    json::Value types(rapidjson::kArrayType);
    for (int32_t type : option.channelTypes)
      types.PushBack(type, a);
    body.AddMember("channel_types", types, a);
  }
  const bool integer = option.type == ApplicationCommandOptionType::Integer;
  // An integer option's bound goes as a JSON integer when it is one the platform can take (|v| <= 2^53);
  // any other value (a fraction, or a huge one read from a payload) stays a double, which the platform
  // refuses, rather than a conversion to int64_t that is undefined past its range (found by libFuzzer).
  const auto number = [&](double value) {
    constexpr double kLargestExact = 9007199254740992.0;  // 2^53
    if (integer && std::abs(value) <= kLargestExact && value == std::trunc(value))
      return json::Value(static_cast<int64_t>(value));
    return json::Value(value);
  };
  if (option.minValue) body.AddMember("min_value", number(*option.minValue), a);
  if (option.maxValue) body.AddMember("max_value", number(*option.maxValue), a);
  if (option.minLength) body.AddMember("min_length", *option.minLength, a);
  if (option.maxLength) body.AddMember("max_length", *option.maxLength, a);
  if (option.autocomplete) body.AddMember("autocomplete", true, a);
  if (!option.fileTypes.empty()) {
    json::Value types(rapidjson::kArrayType);
    for (const auto& type : option.fileTypes)
      types.PushBack(json::StringValue(type, a), a);
    body.AddMember("file_types", types, a);
  }
  return body;
}

std::optional<ApplicationCommandOption> ParseOption(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto type = json::GetInt(value, "type");
  auto name = json::GetString(value, "name");
  if (!type || !name) return std::nullopt;
  ApplicationCommandOption option;
  option.type = static_cast<ApplicationCommandOptionType>(*type);  // a future type is kept as its number
  option.name = std::string(*name);
  option.nameLocalizations = ReadLocalizations(value, "name_localizations");
  option.description = std::string(json::GetString(value, "description").value_or(""));
  option.descriptionLocalizations = ReadLocalizations(value, "description_localizations");
  option.required = json::GetBool(value, "required").value_or(false);
  if (const json::Value* choices = json::Member(value, "choices"); choices && choices->IsArray()) {
    for (const auto& item : choices->GetArray()) {
      if (!item.IsObject()) continue;
      ApplicationCommandOptionChoice choice;
      choice.name = std::string(json::GetString(item, "name").value_or(""));
      choice.nameLocalizations = ReadLocalizations(item, "name_localizations");
      const json::Value* v = json::Member(item, "value");
      if (v == nullptr) continue;
      if (v->IsString()) {
        choice.value = std::string(v->GetString(), v->GetStringLength());
      } else if (v->IsInt64()) {
        choice.value = v->GetInt64();
      } else if (v->IsNumber()) {
        choice.value = v->GetDouble();
      } else {
        continue;
      }
      option.choices.push_back(std::move(choice));
    }
  }
  if (const json::Value* options = json::Member(value, "options"); options && options->IsArray()) {
    for (const auto& item : options->GetArray())
      if (auto nested = ParseOption(item)) option.options.push_back(std::move(*nested));
  }
  if (const json::Value* types = json::Member(value, "channel_types"); types && types->IsArray()) {
    for (const auto& item : types->GetArray())
      if (item.IsInt()) option.channelTypes.push_back(item.GetInt());
  }
  option.minValue = json::GetNumber(value, "min_value");
  option.maxValue = json::GetNumber(value, "max_value");
  if (auto length = json::GetInt(value, "min_length")) option.minLength = static_cast<int32_t>(*length);
  if (auto length = json::GetInt(value, "max_length")) option.maxLength = static_cast<int32_t>(*length);
  option.autocomplete = json::GetBool(value, "autocomplete").value_or(false);
  if (const json::Value* types = json::Member(value, "file_types"); types && types->IsArray()) {
    for (const auto& item : types->GetArray())
      if (item.IsString()) option.fileTypes.emplace_back(item.GetString(), item.GetStringLength());
  }
  return option;
}

// ---- the rules

class Checker {
 public:
  explicit Checker(std::vector<FieldError>& errors) : errors_(errors) {}

  void Fail(const std::string& path, const char* code, const std::string& message) {
    errors_.push_back(FieldError{path, code, path + ": " + message});
  }
  // `text` of min..max characters.
  void Length(const std::string& path, const std::string& text, std::size_t min, std::size_t max) {
    auto count = core::CountCodePoints(text);
    if (!count) return Fail(path, "BASE_TYPE_BAD_UTF8", "must be valid UTF-8");
    if (*count < min || *count > max)
      Fail(path, "BASE_TYPE_BAD_LENGTH",
           "must be " + std::to_string(min) + " to " + std::to_string(max) + " characters");
  }
  void ChatInputName(const std::string& path, const std::string& name) {
    if (!ChatInputNameValid(name))
      Fail(path, "APPLICATION_COMMAND_INVALID_NAME",
           "1 to 32 lowercase letters, digits, '-', '_' or '\\'' (the CHAT_INPUT naming rule)");
  }
  void Localized(const std::string& path, const Localizations& texts, std::size_t max, bool chatInputName) {
    for (const auto& [locale, text] : texts) {
      Length(path + "." + locale, text, 1, max);
      if (chatInputName) ChatInputName(path + "." + locale, text);
    }
  }
  // The longest of a field and its localizations, for the size rule.
  static std::size_t Longest(const std::string& text, const Localizations& texts) {
    std::size_t longest = core::CountCodePoints(text).value_or(text.size());
    for (const auto& [locale, localized] : texts)
      longest = std::max(longest, core::CountCodePoints(localized).value_or(localized.size()));
    return longest;
  }

  void Options(const std::string& path, const std::vector<ApplicationCommandOption>& options,
               std::optional<ApplicationCommandOptionType> parent) {
    if (options.size() > kOptionsMax) Fail(path, "BASE_TYPE_MAX_LENGTH", "at most 25 options");
    std::set<std::string> names;
    bool optionalSeen = false;
    std::size_t subcommands = 0;
    for (std::size_t i = 0; i < options.size(); ++i) {
      const auto& option = options[i];
      const std::string at = path + "." + std::to_string(i);
      const int type = static_cast<int>(option.type);
      if (type < 1 || type > 11) {
        Fail(at + ".type", "BASE_TYPE_CHOICES", "not an option type");
        continue;
      }
      Length(at + ".name", option.name, 1, kNameMax);
      ChatInputName(at + ".name", option.name);
      if (!names.insert(option.name).second)
        Fail(at + ".name", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", "must be unique");
      Localized(at + ".name_localizations", option.nameLocalizations, kNameMax, true);
      Length(at + ".description", option.description, 1, kDescriptionMax);
      Localized(at + ".description_localizations", option.descriptionLocalizations, kDescriptionMax, false);
      size += Longest(option.name, option.nameLocalizations) +
              Longest(option.description, option.descriptionLocalizations);
      const bool sub = IsSubcommand(option.type);
      subcommands += sub ? 1 : 0;
      if ((option.type == ApplicationCommandOptionType::SubCommandGroup && parent) ||
          (option.type == ApplicationCommandOptionType::SubCommand &&
           parent == ApplicationCommandOptionType::SubCommand) ||
          (!sub && parent == ApplicationCommandOptionType::SubCommandGroup)) {
        Fail(at + ".type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
             "this option type cannot be nested here");
      }
      if (sub && option.required)
        Fail(at + ".required", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED", "subcommands cannot be required");
      if (!sub) {
        if (option.required && optionalSeen)
          Fail(at, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
               "required options must come before optional ones");
        optionalSeen = optionalSeen || !option.required;
      }
      Choices(at, option);
      Values(at, option);
      if (!option.options.empty()) {
        if (!sub) {
          Fail(at + ".options", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
               "only subcommands and groups have options");
        } else {
          Options(at + ".options", option.options, option.type);
        }
      }
    }
    if (subcommands != 0 && subcommands != options.size())
      Fail(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
           "subcommands and groups cannot be mixed with other options");
  }

  std::size_t size = 0;

 private:
  static bool ChatInputNameValid(const std::string& name);

  void Choices(const std::string& at, const ApplicationCommandOption& option) {
    if (option.choices.empty()) return;
    if (!TakesChoices(option.type))
      return Fail(at + ".choices", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
                  "only String, Integer and Number options have choices");
    if (option.choices.size() > kChoicesMax)
      Fail(at + ".choices", "BASE_TYPE_MAX_LENGTH", "at most 25 choices");
    if (option.autocomplete)
      Fail(at + ".autocomplete", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
           "autocomplete cannot be set with choices");
    for (std::size_t c = 0; c < option.choices.size(); ++c) {
      const auto& choice = option.choices[c];
      const std::string path = at + ".choices." + std::to_string(c);
      Length(path + ".name", choice.name, 1, kChoiceTextMax);
      Localized(path + ".name_localizations", choice.nameLocalizations, kChoiceTextMax, false);
      size += Longest(choice.name, choice.nameLocalizations);
      const bool fits = std::visit(
          [&](const auto& value) {
            using V = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<V, std::string>) {
              if (option.type != ApplicationCommandOptionType::String) return false;
              Length(path + ".value", value, 1, kChoiceTextMax);
              size += core::CountCodePoints(value).value_or(value.size());
              return true;
            } else if constexpr (std::is_same_v<V, int64_t>) {
              return option.type != ApplicationCommandOptionType::String &&
                     std::fabs(static_cast<double>(value)) <= kSafeInteger;
            } else {
              return option.type == ApplicationCommandOptionType::Number && std::isfinite(value);
            }
          },
          choice.value);
      if (!fits) Fail(path + ".value", "NUMBER_TYPE_COERCE", "not a value of the option's type");
    }
  }

  void Values(const std::string& at, const ApplicationCommandOption& option) {
    const bool numeric = option.type == ApplicationCommandOptionType::Integer ||
                         option.type == ApplicationCommandOptionType::Number;
    const double limit = kSafeInteger + (option.type == ApplicationCommandOptionType::Number ? 1 : 0);
    for (const auto& [name, value] :
         {std::pair{".min_value", option.minValue}, std::pair{".max_value", option.maxValue}}) {
      if (!value) continue;
      if (!numeric) {
        Fail(at + name, "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
             "only Integer and Number options have a range");
      } else if (!std::isfinite(*value) || std::fabs(*value) > limit ||
                 (option.type == ApplicationCommandOptionType::Integer && std::trunc(*value) != *value)) {
        Fail(at + name, "NUMBER_TYPE_MAX", "outside the option type's range");
      }
    }
    if (numeric && option.minValue && option.maxValue && *option.minValue > *option.maxValue)
      Fail(at + ".min_value", "NUMBER_TYPE_MAX", "must not be greater than max_value");
    const bool text = option.type == ApplicationCommandOptionType::String;
    if (option.minLength && (!text || *option.minLength < 0 || *option.minLength > kStringLengthMax))
      Fail(at + ".min_length", text ? "NUMBER_TYPE_MIN" : "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
           "0 to 6000, String options only");
    if (option.maxLength && (!text || *option.maxLength < 1 || *option.maxLength > kStringLengthMax))
      Fail(at + ".max_length", text ? "NUMBER_TYPE_MIN" : "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
           "1 to 6000, String options only");
    if (text && option.minLength && option.maxLength && *option.minLength > *option.maxLength)
      Fail(at + ".min_length", "NUMBER_TYPE_MAX", "must not be greater than max_length");
    if (option.autocomplete && !TakesChoices(option.type))
      Fail(at + ".autocomplete", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
           "only String, Integer and Number options autocomplete");
    if (!option.channelTypes.empty() && option.type != ApplicationCommandOptionType::Channel)
      Fail(at + ".channel_types", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED", "Channel options only");
    if (!option.fileTypes.empty()) {
      if (option.type != ApplicationCommandOptionType::Attachment)
        return Fail(at + ".file_types", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED", "Attachment options only");
      if (option.fileTypes.size() > kFileTypesMax)
        Fail(at + ".file_types", "BASE_TYPE_MAX_LENGTH", "at most 10 file types");
      for (std::size_t f = 0; f < option.fileTypes.size(); ++f) {
        const std::string& type = option.fileTypes[f];
        const bool category = type == "image" || type == "video" || type == "audio";
        const bool extension =
            type.size() > 1 && type[0] == '.' && std::all_of(type.begin() + 1, type.end(), [](char ch) {
              return std::isalnum(static_cast<unsigned char>(ch)) != 0;
            });
        if (!category && !extension)
          Fail(at + ".file_types." + std::to_string(f), "BASE_TYPE_CHOICES",
               "image, video, audio or an extension such as .pdf");
      }
    }
  }

  std::vector<FieldError>& errors_;
};

// The CHAT_INPUT naming rule without a Unicode database: ASCII lowercase letters, digits, '-', '_', '\'', and
// any code point beyond ASCII that is not a Latin, Greek or Cyrillic capital nor a symbol, space or
// punctuation mark of the common blocks (the platform applies Unicode's categories and case mapping).
bool Checker::ChatInputNameValid(const std::string& name) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < name.size();) {
    const auto byte = static_cast<unsigned char>(name[i]);
    char32_t c = byte;
    int extra = byte < 0x80 ? 0 : byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : 1;
    if (extra > 0) c = byte & (0x3F >> extra);
    ++i;
    for (int k = 0; k < extra && i < name.size(); ++k, ++i)
      c = (c << 6) | (static_cast<unsigned char>(name[i]) & 0x3F);
    ++count;
    if (c == U'-' || c == U'_' || c == U'\'' || (c >= U'a' && c <= U'z') || (c >= U'0' && c <= U'9'))
      continue;
    if (c < 0x80) return false;
    const bool capital = (c >= 0xC0 && c <= 0xDE && c != 0xD7) ||
                         (c >= 0x100 && c <= 0x17F && c % 2 == 0 && c != 0x138) ||
                         (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x400 && c <= 0x42F);
    const bool symbol =
        (c <= 0xBF && c != 0xAA && c != 0xB2 && c != 0xB3 && c != 0xB5 && c != 0xB9 && c != 0xBA) ||
        c == 0xD7 || c == 0xF7 || (c >= 0x2000 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x303F) ||
        (c >= 0xFE00 && c <= 0xFE6F) || (c >= 0xFF00 && c <= 0xFF0F) || c == 0xFEFF ||
        (c >= 0x1F000 && c <= 0x1FAFF) || (c >= 0xE000 && c <= 0xF8FF);
    if (capital || symbol) return false;
  }
  return count >= 1 && count <= kNameMax;
}

}  // namespace

std::vector<FieldError> CheckApplicationCommand(const ApplicationCommand& command, bool global) {
  std::vector<FieldError> errors;
  Checker check(errors);
  const int type = static_cast<int>(command.type);
  if (type < 1 || type > 4) {
    check.Fail("type", "BASE_TYPE_CHOICES", "must be ChatInput, User, Message or PrimaryEntryPoint");
    return errors;
  }
  const bool chatInput = command.type == ApplicationCommandType::ChatInput;
  const bool entryPoint = command.type == ApplicationCommandType::PrimaryEntryPoint;
  if (entryPoint && !global)
    check.Fail("type", "APPLICATION_COMMAND_ENTRY_POINT_GLOBAL_ONLY", "entry points are global only");
  check.Length("name", command.name, 1, kNameMax);
  if (chatInput) check.ChatInputName("name", command.name);
  check.Localized("name_localizations", command.nameLocalizations, kNameMax, chatInput);
  if (chatInput || entryPoint) {
    if (chatInput || !command.description.empty())
      check.Length("description", command.description, 1, kDescriptionMax);
    check.Localized("description_localizations", command.descriptionLocalizations, kDescriptionMax, false);
  } else if (!command.description.empty() || !command.descriptionLocalizations.empty()) {
    check.Fail("description", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
               "context-menu commands have no description");
  }
  if (!command.options.empty()) {
    if (!chatInput) {
      check.Fail("options", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED", "only ChatInput commands have options");
    } else {
      check.Options("options", command.options, std::nullopt);
    }
  }
  if (chatInput) {
    check.size += Checker::Longest(command.name, command.nameLocalizations) +
                  Checker::Longest(command.description, command.descriptionLocalizations);
    if (check.size > kSizeMax)
      check.Fail(
          "", "APPLICATION_COMMAND_TOO_LARGE",
          "names, descriptions and choices exceed 8000 characters (" + std::to_string(check.size) + ")");
  }
  if (command.handler && !entryPoint)
    check.Fail("handler", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED", "only entry points have a handler");
  if (command.handler && static_cast<int>(*command.handler) != 1 && static_cast<int>(*command.handler) != 2)
    check.Fail("handler", "BASE_TYPE_CHOICES", "must be AppHandler or DiscordLaunchActivity");
  return errors;
}

json::Value CommandBody(const ApplicationCommand& command, Allocator& a) {
  json::Value body(rapidjson::kObjectType);
  body.AddMember("type", static_cast<int>(command.type), a);
  AddTexts(body, command.name, command.nameLocalizations, command.description,
           command.descriptionLocalizations, a);
  if (command.type == ApplicationCommandType::ChatInput) {
    json::Value options(rapidjson::kArrayType);
    for (const auto& option : command.options)
      options.PushBack(OptionBody(option, a), a);
    body.AddMember("options", options, a);
  }
  if (command.defaultMemberPermissions) {
    body.AddMember("default_member_permissions",
                   json::StringValue(std::to_string(*command.defaultMemberPermissions), a), a);
  } else {
    body.AddMember("default_member_permissions", json::Value(rapidjson::kNullType), a);
  }
  body.AddMember("nsfw", command.nsfw, a);
  if (!command.integrationTypes.empty()) {
    json::Value types(rapidjson::kArrayType);
    for (auto type : command.integrationTypes)
      types.PushBack(static_cast<int>(type), a);
    body.AddMember("integration_types", types, a);
  }
  if (command.contexts) {
    json::Value contexts(rapidjson::kArrayType);
    for (auto context : *command.contexts)
      contexts.PushBack(static_cast<int>(context), a);
    body.AddMember("contexts", contexts, a);
  }
  if (command.handler) body.AddMember("handler", static_cast<int>(*command.handler), a);
  return body;
}

std::string CommandBodyJson(const ApplicationCommand& command) {
  json::Document document;
  json::Value body = CommandBody(command, document.GetAllocator());
  return json::Serialize(body);
}

std::string CommandListJson(const std::vector<ApplicationCommand>& commands) {
  json::Document document;
  document.SetArray();
  for (const auto& command : commands)
    document.PushBack(CommandBody(command, document.GetAllocator()), document.GetAllocator());
  return json::Serialize(document);
}

std::optional<ApplicationCommand> ParseCommand(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  auto name = json::GetString(value, "name");
  if (!id || *id == 0 || !name) return std::nullopt;
  ApplicationCommand command;
  command.id = *id;
  command.applicationId = json::GetSnowflake(value, "application_id").value_or(0);
  command.guildId = json::GetSnowflake(value, "guild_id");
  command.type = static_cast<ApplicationCommandType>(json::GetInt(value, "type").value_or(1));
  command.name = std::string(*name);
  command.nameLocalizations = ReadLocalizations(value, "name_localizations");
  command.description = std::string(json::GetString(value, "description").value_or(""));
  command.descriptionLocalizations = ReadLocalizations(value, "description_localizations");
  if (const json::Value* options = json::Member(value, "options"); options && options->IsArray()) {
    for (const auto& item : options->GetArray())
      if (auto option = ParseOption(item)) command.options.push_back(std::move(*option));
  }
  command.defaultMemberPermissions = json::GetSnowflake(value, "default_member_permissions");  // decimal bits
  command.nsfw = json::GetBool(value, "nsfw").value_or(false);
  if (const json::Value* types = json::Member(value, "integration_types"); types && types->IsArray()) {
    for (const auto& item : types->GetArray())
      if (item.IsInt()) command.integrationTypes.push_back(static_cast<IntegrationType>(item.GetInt()));
  }
  if (const json::Value* contexts = json::Member(value, "contexts"); contexts && contexts->IsArray()) {
    command.contexts.emplace();
    for (const auto& item : contexts->GetArray())
      if (item.IsInt()) command.contexts->push_back(static_cast<InteractionContextType>(item.GetInt()));
  }
  if (auto handler = json::GetInt(value, "handler"))
    command.handler = static_cast<EntryPointCommandHandlerType>(*handler);
  command.version = json::GetSnowflake(value, "version").value_or(0);
  return command;
}

std::optional<std::vector<ApplicationCommand>> ParseCommands(const json::Value& value) {
  if (!value.IsArray()) return std::nullopt;
  std::vector<ApplicationCommand> commands;
  for (const auto& item : value.GetArray()) {
    auto command = ParseCommand(item);
    if (!command) return std::nullopt;
    commands.push_back(std::move(*command));
  }
  return commands;
}

}  // namespace platformpp::backend
