#include "backend/interaction_json.hpp"

#include "backend/application_command_json.hpp"
#include "backend/component_json.hpp"
#include "backend/member_json.hpp"
#include "backend/role_json.hpp"
#include "core/utf8.hpp"
#include "premium/premium_json.hpp"

#include <charconv>
#include <climits>
#include <cmath>
#include <exception>
#include <string_view>

namespace platformpp::backend {
namespace {

using Allocator = json::Document::AllocatorType;

// A command's options are nested three deep at most (group > subcommand > parameter); deeper input is not
// followed, so hostile nesting costs no stack.
constexpr int kMaxOptionDepth = 4;
constexpr std::size_t kCustomIdMax = 100;
constexpr std::size_t kModalTitleMax = 45;

std::optional<uint64_t> SnowflakeText(const json::Value& value) {
  if (!value.IsString() || value.GetStringLength() == 0) return std::nullopt;
  const char* begin = value.GetString();
  const char* end = begin + value.GetStringLength();
  uint64_t id = 0;
  auto [ptr, ec] = std::from_chars(begin, end, id);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return id;
}

std::vector<uint64_t> SnowflakeList(const json::Value& object, std::string_view name) {
  std::vector<uint64_t> ids;
  if (const json::Value* items = json::ArrayMember(object, name)) {
    for (const json::Value& item : items->GetArray())
      if (auto id = SnowflakeText(item)) ids.push_back(*id);
  }
  return ids;
}

std::vector<std::string> StringList(const json::Value& object, std::string_view name) {
  std::vector<std::string> list;
  if (const json::Value* items = json::ArrayMember(object, name)) {
    for (const json::Value& item : items->GetArray())
      if (item.IsString()) list.emplace_back(item.GetString(), item.GetStringLength());
  }
  return list;
}

// The member routes' reader: an interaction's member is the same object.
std::optional<GuildMember> ParseMember(const json::Value& value) {
  return ParseGuildMemberValue(value);
}

std::optional<PartialChannel> ParseChannel(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!value.IsObject() || !id) return std::nullopt;
  PartialChannel channel;
  channel.id = *id;
  channel.type = json::GetInt32(value, "type").value_or(0);
  channel.name = json::GetText(value, "name");
  channel.parentId = json::GetSnowflake(value, "parent_id");
  channel.permissions = json::GetSnowflake(value, "permissions");
  channel.appPermissions = json::GetSnowflake(value, "app_permissions");
  channel.rawJson = json::Serialize(value);
  return channel;
}

// Each entry of a resolved map whose key is a snowflake and whose value `parse` reads.
template <class T, class Parse>
void ReadMap(const json::Value& resolved, std::string_view name, std::map<uint64_t, T>& out, Parse parse) {
  const json::Value* map = json::ObjectMember(resolved, name);
  if (!map) return;
  for (const auto& entry : map->GetObject()) {
    auto id = SnowflakeText(entry.name);
    if (!id) continue;
    if (std::optional<T> item = parse(entry.value)) out.emplace(*id, std::move(*item));
  }
}

Resolved ParseResolved(const json::Value& data) {
  Resolved resolved;
  const json::Value* value = json::ObjectMember(data, "resolved");
  if (!value) return resolved;
  ReadMap(*value, "users", resolved.users, ParseUser);
  ReadMap(*value, "members", resolved.members, ParseMember);
  // A resolved role is a whole role object: read as the role calls read it (guild_roles.hpp).
  ReadMap(*value, "roles", resolved.roles, ParseRoleValue);
  ReadMap(*value, "channels", resolved.channels, ParseChannel);
  ReadMap(*value, "messages", resolved.messages, ParseMessage);
  ReadMap(*value, "attachments", resolved.attachments, ParseAttachment);
  return resolved;
}

bool IsIdOption(ApplicationCommandOptionType type) {
  using T = ApplicationCommandOptionType;
  return type == T::User || type == T::Channel || type == T::Role || type == T::Mentionable ||
         type == T::Attachment;
}

std::vector<InteractionOption> ParseOptions(const json::Value& parent, int depth) {
  std::vector<InteractionOption> options;
  const json::Value* items = json::ArrayMember(parent, "options");
  if (!items || depth > kMaxOptionDepth) return options;
  for (const json::Value& item : items->GetArray()) {
    if (!item.IsObject()) continue;
    auto name = json::GetString(item, "name");
    auto type = json::GetInt32(item, "type");
    if (!name || !type) continue;
    InteractionOption option;
    option.name = std::string(*name);
    option.type = static_cast<ApplicationCommandOptionType>(*type);
    option.focused = json::GetBool(item, "focused").value_or(false);
    if (const json::Value* value = json::Member(item, "value")) {
      if (value->IsString()) {
        auto id = IsIdOption(option.type) ? SnowflakeText(*value) : std::nullopt;
        if (id)
          option.idValue = id;
        else
          option.stringValue = std::string(value->GetString(), value->GetStringLength());
      } else if (value->IsBool()) {
        option.boolValue = value->GetBool();
      } else if (value->IsInt64() && option.type != ApplicationCommandOptionType::Number) {
        option.integerValue = value->GetInt64();
      } else if (value->IsNumber()) {
        option.numberValue = value->GetDouble();
      }
    }
    option.options = ParseOptions(item, depth + 1);
    options.push_back(std::move(option));
  }
  return options;
}

const InteractionOption* FindOption(const std::vector<InteractionOption>& options, std::string_view name,
                                    bool focused) {
  for (const InteractionOption& option : options) {
    const bool container = option.type == ApplicationCommandOptionType::SubCommand ||
                           option.type == ApplicationCommandOptionType::SubCommandGroup;
    if (container) {
      if (const InteractionOption* found = FindOption(option.options, name, focused)) return found;
    } else if (focused ? option.focused : option.name == name) {
      return &option;
    }
  }
  return nullptr;
}

CommandInteractionData ParseCommandData(const json::Value& data) {
  CommandInteractionData command;
  command.id = json::GetSnowflake(data, "id").value_or(0);
  command.name = json::GetText(data, "name");
  command.type = static_cast<ApplicationCommandType>(json::GetInt32(data, "type").value_or(1));
  command.guildId = json::GetSnowflake(data, "guild_id");
  command.targetId = json::GetSnowflake(data, "target_id");
  command.options = ParseOptions(data, 1);
  command.resolved = ParseResolved(data);
  return command;
}

ComponentInteractionData ParseComponentData(const json::Value& data) {
  ComponentInteractionData component;
  component.customId = json::GetText(data, "custom_id");
  component.componentType = static_cast<ComponentType>(json::GetInt32(data, "component_type").value_or(0));
  component.values = StringList(data, "values");
  component.resolved = ParseResolved(data);
  return component;
}

// The interactive components of a submitted modal's tree, in tree order: whatever carries a custom id, inside
// Labels (`component`), action rows (`components`) or containers to come.
void Flatten(const json::Value& node, int depth, std::vector<ModalValue>& out) {
  if (!node.IsObject() || depth > kMaxComponentDepth) return;
  if (auto customId = json::GetString(node, "custom_id")) {
    ModalValue item;
    item.id = json::GetInt32(node, "id").value_or(0);
    item.customId = std::string(*customId);
    item.type = static_cast<ComponentType>(json::GetInt32(node, "type").value_or(0));
    if (const json::Value* value = json::Member(node, "value")) {
      if (value->IsString()) {
        item.value = std::string(value->GetString(), value->GetStringLength());
        if (item.type == ComponentType::RadioGroup) item.values.push_back(*item.value);
      } else if (value->IsBool()) {
        item.checked = value->GetBool();
      }
    }
    for (std::string& text : StringList(node, "values"))
      item.values.push_back(std::move(text));
    if (item.type == ComponentType::FileUpload) item.attachmentIds = SnowflakeList(node, "values");
    out.push_back(std::move(item));
  }
  if (const json::Value* child = json::ObjectMember(node, "component")) Flatten(*child, depth + 1, out);
  if (const json::Value* children = json::ArrayMember(node, "components")) {
    for (const json::Value& child : children->GetArray())
      Flatten(child, depth + 1, out);
  }
}

ModalSubmitData ParseModalData(const json::Value& data) {
  ModalSubmitData modal;
  modal.customId = json::GetText(data, "custom_id");
  if (const json::Value* components = json::ArrayMember(data, "components")) {
    for (const json::Value& component : components->GetArray())
      Flatten(component, 1, modal.values);
    modal.components = ParseComponents(*components);
  }
  modal.resolved = ParseResolved(data);
  return modal;
}

std::optional<InteractionMessage> ParseInteractionMessage(const json::Value& value) {
  auto message = ParseMessage(value);
  if (!message) return std::nullopt;
  InteractionMessage result;
  result.id = message->id;
  result.channelId = message->channelId;
  result.flags = message->flags;
  result.components = message->components;
  result.message = std::move(*message);
  return result;
}

json::Value ChoiceValue(const ApplicationCommandOptionChoice& choice, Allocator& a) {
  json::Value item(rapidjson::kObjectType);
  item.AddMember("name", json::StringValue(choice.name, a), a);
  if (!choice.nameLocalizations.empty()) {
    json::Value localizations(rapidjson::kObjectType);
    for (const auto& [locale, text] : choice.nameLocalizations)
      localizations.AddMember(json::StringValue(locale, a), json::StringValue(text, a), a);
    item.AddMember("name_localizations", localizations, a);
  }
  if (const auto* text = std::get_if<std::string>(&choice.value))
    item.AddMember("value", json::StringValue(*text, a), a);
  else if (const auto* integer = std::get_if<int64_t>(&choice.value))
    item.AddMember("value", *integer, a);
  else
    item.AddMember("value", std::get<double>(choice.value), a);
  return item;
}

void Fail(std::vector<FieldError>& errors, const std::string& path, const char* code,
          const std::string& why) {
  errors.push_back(FieldError{path, code, (path.empty() ? std::string() : path + ": ") + why});
}

void Length(std::vector<FieldError>& errors, const std::string& path, const std::string& text,
            std::size_t min, std::size_t max) {
  auto count = core::CountCodePoints(text);
  if (!count) return Fail(errors, path, "BASE_TYPE_BAD_UTF8", "must be valid UTF-8");
  if (*count < min || *count > max)
    Fail(errors, path, "BASE_TYPE_BAD_LENGTH",
         "must be " + std::to_string(min) + " to " + std::to_string(max) + " characters");
}

// `from` with each error's path (and message) under `prefix`.
void AddUnder(std::vector<FieldError>& errors, const std::string& prefix, std::vector<FieldError> from) {
  for (auto& error : from) {
    error.message = prefix + (error.path.empty() ? ": " : ".") + error.message;
    error.path = prefix + (error.path.empty() ? "" : "." + error.path);
    errors.push_back(std::move(error));
  }
}

bool KnownCallback(InteractionCallbackType type) {
  const int value = static_cast<int>(type);
  return value == 1 || (value >= 4 && value <= 10) || value == 12;
}

}  // namespace

bool CallbackAllowed(InteractionType type, InteractionCallbackType callback) noexcept {
  using C = InteractionCallbackType;
  switch (type) {
    case InteractionType::Ping:
      return callback == C::Pong;
    case InteractionType::Autocomplete:
      return callback == C::ApplicationCommandAutocompleteResult;
    case InteractionType::ApplicationCommand:
      return callback == C::ChannelMessageWithSource || callback == C::DeferredChannelMessageWithSource ||
             callback == C::Modal || callback == C::PremiumRequired || callback == C::LaunchActivity;
    case InteractionType::MessageComponent:
      return callback != C::Pong && callback != C::ApplicationCommandAutocompleteResult;
    case InteractionType::ModalSubmit:
      return callback != C::Pong && callback != C::ApplicationCommandAutocompleteResult &&
             callback != C::Modal;
  }
  return callback != C::Pong;  // a type this version does not know: the platform decides
}

const InteractionOption* CommandInteractionData::Find(std::string_view name) const noexcept {
  return FindOption(options, name, false);
}

const InteractionOption* CommandInteractionData::Focused() const noexcept {
  return FindOption(options, {}, true);
}

const ModalValue* ModalSubmitData::Find(std::string_view customId) const noexcept {
  for (const ModalValue& value : values)
    if (value.customId == customId) return &value;
  return nullptr;
}

const User* Interaction::Invoker() const noexcept {
  if (member && member->user) return &*member->user;
  if (user) return &*user;
  return nullptr;
}

std::optional<Interaction> ParseInteractionValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  auto applicationId = json::GetSnowflake(value, "application_id");
  auto type = json::GetInt32(value, "type");
  auto token = json::GetString(value, "token");
  if (!id || !applicationId || !type || !token || token->empty()) return std::nullopt;
  Interaction interaction;
  interaction.id = *id;
  interaction.applicationId = *applicationId;
  interaction.type = static_cast<InteractionType>(*type);
  interaction.token = std::string(*token);
  interaction.version = json::GetInt32(value, "version").value_or(1);
  interaction.guildId = json::GetSnowflake(value, "guild_id");
  interaction.channelId = json::GetSnowflake(value, "channel_id");
  if (const json::Value* channel = json::Member(value, "channel"))
    interaction.channel = ParseChannel(*channel);
  if (const json::Value* member = json::Member(value, "member")) interaction.member = ParseMember(*member);
  if (const json::Value* user = json::Member(value, "user")) interaction.user = ParseUser(*user);
  interaction.locale = json::GetText(value, "locale");
  interaction.guildLocale = json::GetText(value, "guild_locale");
  interaction.appPermissions = json::GetSnowflake(value, "app_permissions").value_or(0);
  if (const json::Value* entitlements = json::ArrayMember(value, "entitlements")) {
    for (const json::Value& item : entitlements->GetArray())
      if (auto entitlement = premium::ParseEntitlement(item))
        interaction.entitlements.push_back(*entitlement);
  }
  // Keys and values are strings on the wire ("0": a guild install, "1": a user install); a guild install's
  // value is "0" in the bot's DM.
  if (const json::Value* owners = json::ObjectMember(value, "authorizing_integration_owners")) {
    for (const auto& entry : owners->GetObject()) {
      auto key = SnowflakeText(entry.name);
      auto owner = SnowflakeText(entry.value);
      if (key && owner && *key <= static_cast<uint64_t>(INT32_MAX))
        interaction.authorizingIntegrationOwners[static_cast<IntegrationType>(*key)] = *owner;
    }
  }
  if (auto context = json::GetInt32(value, "context"))
    interaction.context = static_cast<InteractionContextType>(*context);
  if (const json::Value* limit = json::Member(value, "attachment_size_limit"); limit && limit->IsUint64())
    interaction.attachmentSizeLimit = limit->GetUint64();
  if (const json::Value* message = json::Member(value, "message"))
    interaction.message = ParseInteractionMessage(*message);
  if (const json::Value* data = json::ObjectMember(value, "data")) {
    switch (interaction.type) {
      case InteractionType::ApplicationCommand:
      case InteractionType::Autocomplete:
        interaction.data = ParseCommandData(*data);
        break;
      case InteractionType::MessageComponent:
        interaction.data = ParseComponentData(*data);
        break;
      case InteractionType::ModalSubmit:
        interaction.data = ParseModalData(*data);
        break;
      case InteractionType::Ping:
        break;
    }
  }
  interaction.rawJson = json::Serialize(value);
  return interaction;
}

std::optional<Interaction> ParseInteraction(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseInteractionValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document: not an interaction this process can hold
  }
}

InteractionResponse InteractionResponse::Pong() {
  return InteractionResponse{};
}

InteractionResponse InteractionResponse::Message(MessagePayload message) {
  InteractionResponse response;
  response.type = InteractionCallbackType::ChannelMessageWithSource;
  response.message = std::move(message);
  return response;
}

InteractionResponse InteractionResponse::Deferred(bool ephemeral) {
  InteractionResponse response;
  response.type = InteractionCallbackType::DeferredChannelMessageWithSource;
  if (ephemeral) {
    response.message = MessagePayload{};
    response.message->flags = message_flags::Ephemeral;
  }
  return response;
}

InteractionResponse InteractionResponse::DeferredUpdate() {
  InteractionResponse response;
  response.type = InteractionCallbackType::DeferredUpdateMessage;
  return response;
}

InteractionResponse InteractionResponse::Update(MessagePayload message) {
  InteractionResponse response;
  response.type = InteractionCallbackType::UpdateMessage;
  response.message = std::move(message);
  return response;
}

InteractionResponse InteractionResponse::Modal(std::string customId, std::string title,
                                               std::vector<Component> components) {
  InteractionResponse response;
  response.type = InteractionCallbackType::Modal;
  response.customId = std::move(customId);
  response.title = std::move(title);
  response.components = std::move(components);
  return response;
}

InteractionResponse InteractionResponse::Autocomplete(std::vector<ApplicationCommandOptionChoice> choices) {
  InteractionResponse response;
  response.type = InteractionCallbackType::ApplicationCommandAutocompleteResult;
  response.choices = std::move(choices);
  return response;
}

InteractionResponse InteractionResponse::LaunchActivity() {
  InteractionResponse response;
  response.type = InteractionCallbackType::LaunchActivity;
  return response;
}

std::vector<FieldError> CheckInteractionResponse(const InteractionResponse& response,
                                                 std::optional<InteractionType> answering,
                                                 std::optional<uint64_t> maxFileBytes) {
  using C = InteractionCallbackType;
  std::vector<FieldError> errors;
  if (!KnownCallback(response.type)) {
    Fail(errors, "type", "BASE_TYPE_CHOICES", "not an interaction callback type");
    return errors;
  }
  if (answering && !CallbackAllowed(*answering, response.type)) {
    Fail(errors, "type", "INTERACTION_CALLBACK_TYPE_INVALID",
         "callback type " + std::to_string(static_cast<int>(response.type)) +
             " does not answer an interaction of type " + std::to_string(static_cast<int>(*answering)));
  }
  const bool messageType = response.type == C::ChannelMessageWithSource || response.type == C::UpdateMessage;
  if (messageType) {
    if (!response.message) {
      if (response.type == C::ChannelMessageWithSource)
        Fail(errors, "data", "BASE_TYPE_REQUIRED", "a message response needs its message");
    } else {
      const auto use =
          response.type == C::UpdateMessage ? MessagePayloadUse::Edit : MessagePayloadUse::Create;
      AddUnder(errors, "data", CheckMessagePayload(*response.message, use, true, maxFileBytes));
    }
  } else if (response.type == C::DeferredChannelMessageWithSource) {
    if (response.message) {
      const MessagePayload& message = *response.message;
      if ((message.flags.value_or(0) & ~message_flags::Ephemeral) != 0)
        Fail(errors, "data.flags", "MESSAGE_FLAGS_INVALID",
             "a deferred response may set EPHEMERAL only (send IS_COMPONENTS_V2 with the edit of @original)");
      if (message.content || message.embeds || message.components || !message.files.empty() ||
          message.allowedMentions || message.tts || message.keptAttachments)
        Fail(errors, "data", "INTERACTION_CALLBACK_DATA_INVALID",
             "a deferred response carries flags only; the message comes with the edit of @original");
    }
  } else if (response.message) {
    Fail(errors, "data", "INTERACTION_CALLBACK_DATA_INVALID", "this callback type carries no message");
  }
  if (response.type == C::Modal) {
    Length(errors, "data.custom_id", response.customId, 1, kCustomIdMax);
    Length(errors, "data.title", response.title, 1, kModalTitleMax);
    // (CheckComponents names its paths from "components".)
    AddUnder(errors, "data", CheckComponents(response.components, ComponentSurface::Modal));
  } else if (!response.components.empty() || !response.customId.empty() || !response.title.empty()) {
    Fail(errors, "data", "INTERACTION_CALLBACK_DATA_INVALID",
         "custom_id, title and components are a modal's (set the message's components instead)");
  }
  if (response.type == C::ApplicationCommandAutocompleteResult) {
    if (response.choices.size() > kChoicesMax)
      Fail(errors, "data.choices", "BASE_TYPE_MAX_LENGTH", "at most 25 choices");
    for (std::size_t i = 0; i < response.choices.size(); ++i) {
      const auto& choice = response.choices[i];
      const std::string path = "data.choices." + std::to_string(i);
      Length(errors, path + ".name", choice.name, 1, kChoiceTextMax);
      for (const auto& [locale, text] : choice.nameLocalizations)
        Length(errors, path + ".name_localizations." + locale, text, 1, kChoiceTextMax);
      if (const auto* text = std::get_if<std::string>(&choice.value)) {
        Length(errors, path + ".value", *text, 0, kChoiceTextMax);
      } else if (const auto* integer = std::get_if<int64_t>(&choice.value)) {
        if (std::fabs(static_cast<double>(*integer)) > kSafeInteger)
          Fail(errors, path + ".value", "NUMBER_TYPE_MAX", "outside ±(2^53-1)");
      } else if (!std::isfinite(std::get<double>(choice.value))) {
        Fail(errors, path + ".value", "NUMBER_TYPE_COERCE", "must be a finite number");
      }
    }
  } else if (!response.choices.empty()) {
    Fail(errors, "data.choices", "INTERACTION_CALLBACK_DATA_INVALID",
         "only an autocomplete result has choices");
  }
  return errors;
}

EncodedBody InteractionResponseBody(const InteractionResponse& response) {
  using C = InteractionCallbackType;
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  body.AddMember("type", static_cast<int>(response.type), a);
  const std::vector<FileUpload>* files = nullptr;
  switch (response.type) {
    case C::ChannelMessageWithSource:
    case C::UpdateMessage:
    case C::DeferredChannelMessageWithSource:
      if (response.message) {
        body.AddMember("data", MessagePayloadValue(*response.message, a), a);
        files = &response.message->files;
      }
      break;
    case C::Modal: {
      json::Value data(rapidjson::kObjectType);
      data.AddMember("custom_id", json::StringValue(response.customId, a), a);
      data.AddMember("title", json::StringValue(response.title, a), a);
      data.AddMember("components", ComponentsValue(response.components, a), a);
      body.AddMember("data", data, a);
      break;
    }
    case C::ApplicationCommandAutocompleteResult: {
      json::Value data(rapidjson::kObjectType);
      json::Value choices(rapidjson::kArrayType);
      for (const auto& choice : response.choices)
        choices.PushBack(ChoiceValue(choice, a), a);
      data.AddMember("choices", choices, a);
      body.AddMember("data", data, a);
      break;
    }
    default:
      break;
  }
  static const std::vector<FileUpload> kNone;
  return EncodeBody(json::Serialize(body), files ? *files : kNone);
}

}  // namespace platformpp::backend
