#pragma once
// Windows: whether a named pipe the SDK opened is served by this user. Pipe names are one namespace for the
// whole machine, so another user's process can create \\?\pipe\discord-ipc-0 first; a command (AUTHENTICATE
// carries a token) must reach only this user's desktop client. No Asio here.
#ifdef _WIN32

#include "core/win32.hpp"

#include <optional>
#include <string>

namespace platformpp::ipc {

/// The user a pipe's server runs as: the token user of the process at the other end
/// (GetNamedPipeServerProcessId), or, where that process's token cannot be read, the pipe object's owner
/// (GetSecurityInfo). nullopt when neither can be found. `pipe` is the client end's HANDLE.
std::optional<core::win32::Sid> PipeServerUser(void* pipe);

/// Nullopt when `server` (from PipeServerUser) is `expected`; otherwise why the pipe is not trusted, naming
/// the server's user ("served by S-1-5-18" or "served by an unknown user").
std::optional<std::string> PipeOwnerMismatch(const std::optional<core::win32::Sid>& server,
                                             const core::win32::Sid& expected);

}  // namespace platformpp::ipc

#endif  // _WIN32
