#pragma once
// Where the local desktop client listens (docs/ipc-protocol.md, "Socket"): Unix sockets named <name>-ipc-<n>,
// n = 0..9, in the user's runtime directory, or in a sandbox's subdirectory of it; on Windows, the named
// pipes
// \\?\pipe\<name>-ipc-<n>, n = 0..9 (no directory: the directory option is ignored there). No Asio here.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::ipc {

/// Looks up an environment variable; nullopt when unset. Injectable so tests need not touch the process's
/// environment (which is shared by every thread).
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

/// std::getenv.
EnvLookup ProcessEnvironment();

/// `override` when non-empty, else the first non-empty of $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP, else /tmp;
/// without trailing slashes. An empty `env` means ProcessEnvironment().
std::string IpcRuntimeDirectory(std::string_view directoryOverride, const EnvLookup& env);

/// Windows: `\\?\pipe\<name>-ipc-<n>` for n = 0..9, whatever `directoryOverride` and `env` say.
/// Elsewhere, every path to try, in order: `<dir>/<name>-ipc-<n>` for n = 0..9, then the snap variants
/// `<dir>/snap.discord/<name>-ipc-<n>`, then the flatpak ones
/// `<dir>/app/com.discordapp.Discord/<name>-ipc-<n>`. An unsandboxed client is the common case, so all of its
/// slots come first and the usual connect costs no failed attempt at all; a sandboxed client can only be
/// found in its subdirectory (its sandbox maps the runtime directory there), and snap comes before flatpak
/// only because that is the order known clients use.
std::vector<std::string> IpcCandidatePaths(std::string_view name, std::string_view directoryOverride,
                                           const EnvLookup& env = {});

}  // namespace platformpp::ipc
