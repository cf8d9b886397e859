// An application command as the platform keeps it (developers/interactions/application-commands in the
// platform's API docs; the seed's "Commands and interactions"), and the values and limits its rules use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::emulator {

namespace command_type {
inline constexpr int kChatInput = 1;
inline constexpr int kUser = 2;
inline constexpr int kMessage = 3;
inline constexpr int kPrimaryEntryPoint = 4;  // one global per application
}  // namespace command_type

namespace command_option_type {
inline constexpr int kSubCommand = 1;
inline constexpr int kSubCommandGroup = 2;
inline constexpr int kString = 3;
inline constexpr int kInteger = 4;
inline constexpr int kBoolean = 5;
inline constexpr int kUser = 6;
inline constexpr int kChannel = 7;
inline constexpr int kRole = 8;
inline constexpr int kMentionable = 9;
inline constexpr int kNumber = 10;
inline constexpr int kAttachment = 11;
}  // namespace command_option_type

// How the platform runs an entry point command.
namespace entry_point_handler {
inline constexpr int kAppHandler = 1;             // the application answers the interaction
inline constexpr int kDiscordLaunchActivity = 2;  // the platform launches the activity and posts a message
}  // namespace entry_point_handler

namespace command_limit {
inline constexpr std::size_t kNameMax = 32;
inline constexpr std::size_t kDescriptionMax = 100;
inline constexpr std::size_t kOptionsMax = 25;  // per level
inline constexpr std::size_t kChoicesMax = 25;
inline constexpr std::size_t kChoiceNameMax = 100;
inline constexpr std::size_t kChoiceStringValueMax = 100;
inline constexpr std::int64_t kStringLengthMax = 6000;  // min_length 0..6000, max_length 1..6000
inline constexpr std::size_t kFileTypesMax = 10;
// Names, descriptions and choice names and values of a command, its options and choices together.
inline constexpr std::size_t kTotalCharactersMax = 8000;
// INTEGER options: -2^53+1 .. 2^53-1; NUMBER options: -2^53 .. 2^53.
inline constexpr std::int64_t kSafeInteger = (std::int64_t{1} << 53) - 1;
// Commands of one application per scope (global, or one guild).
inline constexpr std::size_t kChatInputMax = 100;
inline constexpr std::size_t kContextMenuMax = 15;  // USER, and MESSAGE, each (the seed: was 5)
inline constexpr std::size_t kEntryPointMax = 1;    // global only
}  // namespace command_limit

// The installation contexts (integration types) and the interaction contexts.
inline constexpr int kGuildInstall = 0, kUserInstall = 1;
inline constexpr int kContextGuild = 0, kContextBotDm = 1, kContextPrivateChannel = 2;

// The application flag EMBEDDED (1 << 17): the application has an activity (the developer portal's
// Activities switch). Entry point handlers need it.
inline constexpr std::uint64_t kApplicationFlagEmbedded = std::uint64_t{1} << 17;

struct ApplicationCommand {
  std::string id;
  std::string application_id;
  std::optional<std::string> guild_id;  // none: global
  int type = command_type::kChatInput;
  std::string name;
  std::optional<std::string> name_localizations;  // JSON object text, as checked
  std::string description;                        // empty for USER and MESSAGE commands
  std::optional<std::string> description_localizations;
  std::string options = "[]";                             // JSON array text, as checked (CHAT_INPUT only)
  std::optional<std::string> default_member_permissions;  // decimal bits
  bool nsfw = false;
  std::vector<int> integration_types;        // global commands
  std::optional<std::vector<int>> contexts;  // global commands; none: every context
  std::optional<int> handler;                // PRIMARY_ENTRY_POINT
  std::string version;                       // a snowflake, renewed by each change
};

}  // namespace platformpp::emulator
