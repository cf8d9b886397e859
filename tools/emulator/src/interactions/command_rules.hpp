// The platform's rules for an application command's body: its type, name (the CHAT_INPUT naming rule),
// description, options (types, nesting, required before optional, choices, ranges, lengths, file types),
// localizations, contexts and entry point handler, and the size of the whole. Each broken rule is recorded at
// its JSON path (under a prefix: a bulk overwrite's index) with the platform's error code, and everything is
// checked before anything is refused, as the platform answers 50035 with every problem at once.
#pragma once

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "interactions/application_command.hpp"

namespace platformpp::emulator {

// Where a command is made, and what its application allows.
struct CommandScope {
  std::optional<std::string> guild_id;  // none: global
  bool embedded = false;                // the application has an activity (kApplicationFlagEmbedded)
};

// Reads a command from a create or bulk body (or an edit merged over the command it changes), recording each
// broken rule in `errors` under `path`. Returns the command (without id, application and version) when
// `errors` holds nothing afterwards (a bulk overwrite reads every item into one FieldErrors).
std::optional<ApplicationCommand> read_command(const rapidjson::Value& body, const CommandScope& scope,
                                               FieldErrors& errors, const std::vector<std::string>& path);

// The command's body as a create would send it again: what an edit is merged over.
std::string command_body_json(const ApplicationCommand& command);
// `default_member_permissions`, `nsfw`, `handler` (an entry point's), and `integration_types` and `contexts`
// (a global command's), as both the body and the API's command object write them.
void write_command_settings(JsonWriter& writer, const ApplicationCommand& command);

// Whether `name` follows the CHAT_INPUT naming rule (command and option names): 1 to 32 letters, digits, '-',
// '_' and '\'', lowercase wherever the letter has a lowercase form.
bool chat_input_name_valid(std::string_view name);

}  // namespace platformpp::emulator
