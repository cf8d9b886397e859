#pragma once
// Application commands on the wire (the platform's command object): the body CreateCommand and the bulk
// overwrite send, and the objects the platform answers, read leniently (unknown fields and option types are
// kept out of the way, never fatal; a command without its id or name is refused as malformed).

#include "json/json.hpp"

#include <platformpp/application_commands.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

/// Limits a command's choices share with the choices an autocomplete answer sends (interaction_json).
inline constexpr std::size_t kChoicesMax = 25;
inline constexpr std::size_t kChoiceTextMax = 100;
/// The largest integer a JSON number carries exactly (2^53 - 1): the range of an INTEGER option's values.
inline constexpr double kSafeInteger = 9007199254740991.0;

/// The command as a create, edit or bulk item sends it: every field the caller can set, none of the ones the
/// platform assigns (id, application, guild, version).
json::Value CommandBody(const ApplicationCommand& command, json::Document::AllocatorType& allocator);
std::string CommandBodyJson(const ApplicationCommand& command);
/// A list of commands as the bulk overwrite sends it.
std::string CommandListJson(const std::vector<ApplicationCommand>& commands);

/// A command object; nullopt without a valid `id` or a `name`.
std::optional<ApplicationCommand> ParseCommand(const json::Value& value);
/// A list of command objects; nullopt when it is not a list or an item is not a command.
std::optional<std::vector<ApplicationCommand>> ParseCommands(const json::Value& value);

}  // namespace platformpp::backend
