#pragma once
// Interactions as a game's backend receives and answers them: a player ran one of the application's commands,
// clicked a button or chose in a select of its message, typed in an autocompleted option, or submitted one of
// its modals. The platform POSTs each one to the application's interactions endpoint (InteractionsEndpoint,
// interactions_endpoint.hpp, or ParseInteraction for servers with an HTTP stack of their own); the backend
// answers it once with an InteractionResponse within 3 seconds, and may then edit that response and send
// follow-ups with the interaction's token for 15 minutes (BackendClient).
//
// The model types what a game reads; anything else stays in `rawJson`. ParseInteraction reads every shape the
// platform may send: unknown fields, interaction types and component types are kept, never fatal.

#include <platformpp/application_commands.hpp>
#include <platformpp/client_result.hpp>
#include <platformpp/components.hpp>
#include <platformpp/guild_members.hpp>
#include <platformpp/guild_roles.hpp>
#include <platformpp/message_payload.hpp>
#include <platformpp/premium.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace platformpp::backend {

/// What the interaction is (`type`); a number this version does not know is kept as it came.
enum class InteractionType : int32_t {
  Ping = 1,                ///< The platform's check of the endpoint: answer Pong.
  ApplicationCommand = 2,  ///< A command was run (slash, user or message context menu, entry point).
  MessageComponent = 3,    ///< A button was clicked or a select chosen in one of the application's messages.
  Autocomplete = 4,        ///< The user is typing in an autocompleted option: answer with choices.
  ModalSubmit = 5,         ///< One of the application's modals was submitted.
};

/// A channel as interactions carry it (the channel of the interaction, a resolved channel).
struct PartialChannel {
  /// The channel's id.
  uint64_t id = 0;
  /// The channel type number (0 guild text, 1 DM, ...).
  int32_t type = 0;
  /// The channel's name; empty for DMs.
  std::string name;
  /// The category or parent channel; unset when none.
  std::optional<uint64_t> parentId;
  /// Resolved channels: the invoking member's permissions in it (bits), when sent.
  std::optional<uint64_t> permissions;
  /// Resolved channels: the application's bot's permissions in it (`app_permissions`, bits), sent only when
  /// the bot is in the guild.
  std::optional<uint64_t> appPermissions;
  /// The whole channel object as JSON text.
  std::string rawJson;
};

/// The users, members, roles, channels, messages and files an interaction's options or values name
/// (`resolved`), by id.
struct Resolved {
  /// Users named by a User or Mentionable option or select, or a USER command's target.
  std::map<uint64_t, User> users;
  /// Their member objects in the guild (without `user`).
  std::map<uint64_t, GuildMember> members;
  /// Roles named.
  std::map<uint64_t, Role> roles;
  /// Channels named (partial channels).
  std::map<uint64_t, PartialChannel> channels;
  /// A MESSAGE command's target message.
  std::map<uint64_t, ChannelMessage> messages;
  /// Files uploaded to an Attachment option or a File Upload.
  std::map<uint64_t, Attachment> attachments;
};

/// One option of a command interaction, with its value typed as the wire carries it: exactly one of the
/// value fields is set for a parameter, none for a subcommand or group (their parameters are in `options`).
struct InteractionOption {
  /// The option's name.
  std::string name;
  /// Its type.
  ApplicationCommandOptionType type = ApplicationCommandOptionType::String;
  /// String options; and for an autocomplete's focused option, what the user has typed so far, whatever the
  /// option's type.
  std::optional<std::string> stringValue;
  /// Integer options.
  std::optional<int64_t> integerValue;
  /// Number options.
  std::optional<double> numberValue;
  /// Boolean options.
  std::optional<bool> boolValue;
  /// User, Channel, Role, Mentionable and Attachment options: the id (look it up in Resolved).
  std::optional<uint64_t> idValue;
  /// A subcommand's parameters, or a group's subcommand.
  std::vector<InteractionOption> options;
  /// Autocomplete: the option the user is typing in.
  bool focused = false;
};

/// `data` of an APPLICATION_COMMAND or AUTOCOMPLETE interaction.
struct CommandInteractionData {
  /// The command's id.
  uint64_t id = 0;
  /// The command's name.
  std::string name;
  /// The command's type.
  ApplicationCommandType type = ApplicationCommandType::ChatInput;
  /// The command's guild, for a guild command.
  std::optional<uint64_t> guildId;
  /// USER and MESSAGE commands: the user or message clicked.
  std::optional<uint64_t> targetId;
  /// The parameters (or the subcommand) given.
  std::vector<InteractionOption> options;
  /// The objects options name.
  Resolved resolved;

  /// The parameter named `name`, looked for below the subcommand and group too; null when not given.
  const InteractionOption* Find(std::string_view name) const noexcept;
  /// The option being typed in (autocomplete); null when none.
  const InteractionOption* Focused() const noexcept;
};

/// `data` of a MESSAGE_COMPONENT interaction.
struct ComponentInteractionData {
  /// The clicked or chosen component's custom id.
  std::string customId;
  /// Its type.
  ComponentType componentType = ComponentType::Button;
  /// Selects: the values chosen (option values, or ids as text for user, role, mentionable and channel
  /// selects).
  std::vector<std::string> values;
  /// User, role, mentionable and channel selects: the objects chosen.
  Resolved resolved;
};

/// One interactive component of a submitted modal, with what the user entered, wherever it sits in the
/// modal's tree (inside a Label, or a deprecated action row).
struct ModalValue {
  /// The component's `id` (the platform numbers every component); 0 when absent.
  int32_t id = 0;
  /// The component's custom id.
  std::string customId;
  /// Its type (TextInput, StringSelect, the other selects, FileUpload, RadioGroup, CheckboxGroup, Checkbox,
  /// or a type this version does not know).
  ComponentType type = ComponentType::TextInput;
  /// Text Input: the text entered.
  std::optional<std::string> value;
  /// Selects and Checkbox Group: the values chosen; Radio Group: the value chosen (none or one); File Upload:
  /// the uploaded files' ids as text (see `attachmentIds`).
  std::vector<std::string> values;
  /// Checkbox: checked or not.
  std::optional<bool> checked;
  /// File Upload: the uploaded files' ids (in Resolved::attachments).
  std::vector<uint64_t> attachmentIds;
};

/// `data` of a MODAL_SUBMIT interaction.
struct ModalSubmitData {
  /// The modal's custom id.
  std::string customId;
  /// Every interactive component of the modal, flattened in tree order.
  std::vector<ModalValue> values;
  /// The submitted component tree as sent.
  std::vector<Component> components;
  /// The uploaded files and the selects' objects.
  Resolved resolved;

  /// The component with custom id `customId`; null when the modal had none.
  const ModalValue* Find(std::string_view customId) const noexcept;
};

/// The message a component was on (MESSAGE_COMPONENT interactions).
struct InteractionMessage {
  /// The message's id.
  uint64_t id = 0;
  /// Its channel.
  uint64_t channelId = 0;
  /// message_flags bits.
  uint64_t flags = 0;
  /// Its components.
  std::vector<Component> components;
  /// The whole message, read as ChannelMessage.
  ChannelMessage message;
};

/// An interaction, as the platform sends it to the interactions endpoint.
struct Interaction {
  /// The interaction's id.
  uint64_t id = 0;
  /// The application it is for.
  uint64_t applicationId = 0;
  /// What it is.
  InteractionType type = InteractionType::Ping;
  /// What answers it: valid 15 minutes (3 seconds for the initial response). A secret: never logged.
  std::string token;
  /// Always 1.
  int32_t version = 1;
  /// The guild it happened in; unset in DMs.
  std::optional<uint64_t> guildId;
  /// The channel it happened in.
  std::optional<uint64_t> channelId;
  /// That channel (partial).
  std::optional<PartialChannel> channel;
  /// In a guild: the invoking member (with its user, roles and permissions).
  std::optional<GuildMember> member;
  /// In a DM: the invoking user.
  std::optional<User> user;
  /// The invoking user's language (not in PING).
  std::string locale;
  /// The guild's preferred language; empty outside guilds.
  std::string guildLocale;
  /// What the application may do in the channel (bits); always sent.
  uint64_t appPermissions = 0;
  /// The invoking user's (and guild's) entitlements to the application's SKUs.
  std::vector<Entitlement> entitlements;
  /// For each installation the interaction is authorized through: the guild's id (GuildInstall; 0 for an
  /// interaction in the bot's DM) or the user's id (UserInstall).
  std::map<IntegrationType, uint64_t> authorizingIntegrationOwners;
  /// Where it happened; unset when the platform leaves it out.
  std::optional<InteractionContextType> context;
  /// The largest file the application may upload in its answers, in bytes; unset when absent.
  std::optional<uint64_t> attachmentSizeLimit;
  /// MESSAGE_COMPONENT (and MODAL_SUBMIT from a component): the message.
  std::optional<InteractionMessage> message;
  /// The interaction's data, typed by `type` (monostate for PING and types this version does not know).
  std::variant<std::monostate, CommandInteractionData, ComponentInteractionData, ModalSubmitData> data;
  /// The whole interaction as JSON text.
  std::string rawJson;

  /// The user who triggered it: the member's user in a guild, `user` elsewhere; null for PING.
  const User* Invoker() const noexcept;
  /// `data` of a command or autocomplete interaction; null otherwise.
  const CommandInteractionData* Command() const noexcept {
    return std::get_if<CommandInteractionData>(&data);
  }
  /// `data` of a component interaction; null otherwise.
  const ComponentInteractionData* ComponentData() const noexcept {
    return std::get_if<ComponentInteractionData>(&data);
  }
  /// `data` of a modal submission; null otherwise.
  const ModalSubmitData* Modal() const noexcept { return std::get_if<ModalSubmitData>(&data); }
};

/// Reads an interaction; nullopt when `json` is not an interaction object (no valid `id`, `application_id`,
/// `type` or `token`). Never throws; fields of the wrong type are left at their defaults.
std::optional<Interaction> ParseInteraction(std::string_view json);

/// How an interaction is answered (`type` of the response).
enum class InteractionCallbackType : int32_t {
  Pong = 1,                              ///< Answers a PING.
  ChannelMessageWithSource = 4,          ///< Answers with a message.
  DeferredChannelMessageWithSource = 5,  ///< "Thinking..."; the message comes later, by an edit.
  DeferredUpdateMessage = 6,  ///< Components: acknowledged; the component's message may be edited later.
  UpdateMessage = 7,          ///< Components: edits the component's message.
  ApplicationCommandAutocompleteResult = 8,  ///< Autocomplete: the suggested choices.
  Modal = 9,                                 ///< Opens a modal (not in answer to a MODAL_SUBMIT).
  /// Deprecated by the platform: premium buttons (Component::PremiumButton) replace it. Still accepted.
  PremiumRequired = 10,
  /// Launches the application's activity (APPLICATION_COMMAND, MESSAGE_COMPONENT and MODAL_SUBMIT only).
  LaunchActivity = 12,
};

/// The answer to an interaction. Build it with the static makers; CheckInteractionResponse applies the
/// platform's rules (and the endpoint and BackendClient apply it before sending).
struct InteractionResponse {
  /// How the interaction is answered.
  InteractionCallbackType type = InteractionCallbackType::Pong;
  /// ChannelMessageWithSource and UpdateMessage: the message; DeferredChannelMessageWithSource: its flags
  /// (Ephemeral) only.
  std::optional<MessagePayload> message;
  /// Modal: 1 to 100 characters.
  std::string customId;
  /// Modal: 1 to 45 characters.
  std::string title;
  /// Modal: 1 to 5 top-level components (checked with CheckComponents on ComponentSurface::Modal).
  std::vector<Component> components;
  /// Autocomplete: at most 25 choices.
  std::vector<ApplicationCommandOptionChoice> choices;

  /// Answers a PING.
  static InteractionResponse Pong();
  /// Answers with a message.
  static InteractionResponse Message(MessagePayload message);
  /// "Thinking...": the message comes later (BackendClient::EditOriginalResponse); `ephemeral` makes it
  /// visible to the invoking user only.
  static InteractionResponse Deferred(bool ephemeral = false);
  /// Components: acknowledges now; the component's message may be edited later.
  static InteractionResponse DeferredUpdate();
  /// Components: edits the component's message.
  static InteractionResponse Update(MessagePayload message);
  /// Opens a modal.
  static InteractionResponse Modal(std::string customId, std::string title,
                                   std::vector<Component> components);
  /// Autocomplete: the suggested choices.
  static InteractionResponse Autocomplete(std::vector<ApplicationCommandOptionChoice> choices);
  /// Launches the application's activity.
  static InteractionResponse LaunchActivity();
};

/// Every rule the response breaks, at its path ("data.embeds.0.title", "type"); empty when it may be sent.
/// `answering`: the type of the interaction it answers, when known (which callback types that type accepts:
/// Pong only for PING, the autocomplete result only for AUTOCOMPLETE, LaunchActivity only for
/// APPLICATION_COMMAND, MESSAGE_COMPONENT and MODAL_SUBMIT, ...). `maxFileBytes`: each file's size limit,
/// when known (the interaction's `attachmentSizeLimit`, else kDefaultAttachmentSizeLimit).
std::vector<FieldError> CheckInteractionResponse(const InteractionResponse& response,
                                                 std::optional<InteractionType> answering = std::nullopt,
                                                 std::optional<uint64_t> maxFileBytes = std::nullopt);

}  // namespace platformpp::backend
