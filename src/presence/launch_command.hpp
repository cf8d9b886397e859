#pragma once
// Client::RegisterLaunchCommand: the desktop client starts the game for a join through the URL scheme
// `discord-<applicationId>://`, which on Linux xdg looks up in a desktop entry of the user's data directory
// and the defaults of mimeapps.list, and on Windows the shell in the user's registry classes.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace platformpp::presence {

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// `$XDG_DATA_HOME/applications/discord-<applicationId>.desktop` (default ~/.local/share) with
/// `Exec=<command> %u` and `MimeType=x-scheme-handler/discord-<applicationId>;`, and that scheme's default in
/// `$XDG_CONFIG_HOME/mimeapps.list` (default ~/.config) [Default Applications], other entries and groups
/// kept. False with `error` set when: the application id is 0, the command is empty or has a line break, no
/// directory can be found (no XDG variable and no HOME), or a file cannot be written. `env` empty: the
/// process environment.
/// Windows instead: the key `HKEY_CURRENT_USER\Software\Classes\discord-<applicationId>` ("URL Protocol")
/// whose `shell\open\command` is `<command> "%1"`; `env` is not used; false when the key cannot be written.
bool RegisterLaunchCommand(uint64_t applicationId, const std::string& command, std::string* error,
                           const EnvLookup& env = {});

/// The command that starts a Steam game: `xdg-open steam://rungameid/<steamAppId>` (Windows:
/// `explorer.exe steam://rungameid/<steamAppId>`, which hands the URL to Steam).
std::string SteamLaunchCommand(uint32_t steamAppId);

}  // namespace platformpp::presence
