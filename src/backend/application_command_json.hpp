#pragma once
// Application commands on the wire (the platform's command object): the body CreateCommand and the bulk
// overwrite send, and the objects the platform answers, read leniently (unknown fields and option types are
// kept out of the way, never fatal; a command without its id or name is refused as malformed).

#include "json/json.hpp"

#include <platformpp/application_commands.hpp>

#include <optional>
#include <string>
#include <vector>

namespace platformpp::backend {

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
