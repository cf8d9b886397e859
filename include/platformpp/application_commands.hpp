#pragma once
// Application commands as a game's backend registers them (BackendClient::CreateCommand and friends): slash
// commands (CHAT_INPUT) with their options, user and message context-menu commands, and the activity's entry
// point. The types mirror the platform's command object; CheckApplicationCommand applies the platform's rules
// before anything is sent, so a command the platform would refuse never leaves the process.

#include <platformpp/authorization.hpp>
#include <platformpp/client_result.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace platformpp::backend {

/// Where a command shows up (`type`).
enum class ApplicationCommandType : int32_t {
  ChatInput = 1,          ///< A slash command, typed after `/`.
  User = 2,               ///< In a user's context menu.
  Message = 3,            ///< In a message's context menu.
  PrimaryEntryPoint = 4,  ///< The activity's entry point in the App Launcher: one per application, global.
};

/// What a command option asks for (`type`).
enum class ApplicationCommandOptionType : int32_t {
  SubCommand = 1,       ///< A subcommand; its `options` are its parameters.
  SubCommandGroup = 2,  ///< A group of subcommands; its `options` are subcommands.
  String = 3,           ///< Text.
  Integer = 4,          ///< An integer between -(2^53-1) and 2^53-1.
  Boolean = 5,          ///< True or false.
  User = 6,             ///< A user.
  Channel = 7,          ///< A channel (of `channelTypes`, when set).
  Role = 8,             ///< A role.
  Mentionable = 9,      ///< A user or a role.
  Number = 10,          ///< A number between -2^53 and 2^53.
  Attachment = 11,      ///< A file (of `fileTypes`, when set).
};

/// How the platform runs an entry point command (`handler`).
enum class EntryPointCommandHandlerType : int32_t {
  AppHandler = 1,             ///< The application gets the interaction and answers it.
  DiscordLaunchActivity = 2,  ///< The platform launches the activity and posts a message itself.
};

/// Installation contexts (`integration_types`): platformpp::IntegrationType, as authorization names them.
using platformpp::IntegrationType;

/// Where a command may be used (`contexts`).
enum class InteractionContextType : int32_t {
  Guild = 0,           ///< In servers.
  BotDm = 1,           ///< In the application bot's DM.
  PrivateChannel = 2,  ///< In other DMs and group DMs (user-installed applications).
};

/// Localized texts by locale ("fr", "pt-BR", ...).
using Localizations = std::map<std::string, std::string>;

/// One choice of a String, Integer or Number option. `value` must be of the option's type: a string of at
/// most 100 characters, an integer within ±(2^53-1), or a number.
struct ApplicationCommandOptionChoice {
  /// 1 to 100 characters.
  std::string name;
  /// The name's localizations, each 1 to 100 characters.
  Localizations nameLocalizations;
  /// What the interaction carries when the user picks this choice.
  std::variant<std::string, int64_t, double> value;
};

/// A parameter, subcommand or group of a CHAT_INPUT command.
struct ApplicationCommandOption {
  /// What the option asks for.
  ApplicationCommandOptionType type = ApplicationCommandOptionType::String;
  /// 1 to 32 lowercase letters, digits, '-', '_' and '\'' (the CHAT_INPUT naming rule); unique among its
  /// siblings.
  std::string name;
  /// The name's localizations, under the same rule.
  Localizations nameLocalizations;
  /// 1 to 100 characters.
  std::string description;
  /// The description's localizations, each 1 to 100 characters.
  Localizations descriptionLocalizations;
  /// Whether the user must give it (not for subcommands and groups); required options come first.
  bool required = false;
  /// At most 25, for String, Integer and Number options only.
  std::vector<ApplicationCommandOptionChoice> choices;
  /// A subcommand's parameters, or a group's subcommands (at most 25).
  std::vector<ApplicationCommandOption> options;
  /// Channel options: the channel types offered (none: every type).
  std::vector<int32_t> channelTypes;
  /// Integer and Number options: the smallest value accepted.
  std::optional<double> minValue;
  /// Integer and Number options: the largest value accepted.
  std::optional<double> maxValue;
  /// String options: 0 to 6000.
  std::optional<int32_t> minLength;
  /// String options: 1 to 6000.
  std::optional<int32_t> maxLength;
  /// String, Integer and Number options without choices: the application suggests values as the user types.
  bool autocomplete = false;
  /// Attachment options: at most 10 of "image", "video", "audio" or an extension such as ".pdf".
  std::vector<std::string> fileTypes;
};

/// An application command: what CreateCommand sends, and what the platform answers (with `id`,
/// `applicationId`, `guildId` and `version` filled in).
struct ApplicationCommand {
  /// The command's id (0 for one not created yet).
  uint64_t id = 0;
  /// The application it belongs to.
  uint64_t applicationId = 0;
  /// The guild of a guild command; none for a global one.
  std::optional<uint64_t> guildId;
  /// Where the command shows up.
  ApplicationCommandType type = ApplicationCommandType::ChatInput;
  /// 1 to 32 characters; CHAT_INPUT commands follow the naming rule of ApplicationCommandOption::name, the
  /// other types may use any case and spaces. Unique per type in its scope.
  std::string name;
  /// The name's localizations, under the same rule.
  Localizations nameLocalizations;
  /// 1 to 100 characters for CHAT_INPUT commands (and entry points); empty for context-menu commands.
  std::string description;
  /// The description's localizations, each 1 to 100 characters.
  Localizations descriptionLocalizations;
  /// CHAT_INPUT only: at most 25. Names, descriptions and choices of the whole command are at most 8000
  /// characters together.
  std::vector<ApplicationCommandOption> options;
  /// The permissions a member needs to use it (bits); none: everyone; 0: administrators only.
  std::optional<uint64_t> defaultMemberPermissions;
  /// Age-restricted.
  bool nsfw = false;
  /// Global commands: the installation contexts it is available in (none: the application's).
  std::vector<IntegrationType> integrationTypes;
  /// Global commands: where it may be used (none: everywhere).
  std::optional<std::vector<InteractionContextType>> contexts;
  /// Entry points only: who handles the launch (the application needs Activities for one).
  std::optional<EntryPointCommandHandlerType> handler;
  /// Changes with every substantial change of the command.
  uint64_t version = 0;
};

/// The platform's rules for a command (names, descriptions, options and their nesting, choices, ranges,
/// lengths, file types, the 8000-character size): every broken rule, each at its path (e.g.
/// "options.1.choices.0.name"); empty when the command may be sent. `global`: the command is global (an
/// entry point must be).
std::vector<FieldError> CheckApplicationCommand(const ApplicationCommand& command, bool global);

}  // namespace platformpp::backend
