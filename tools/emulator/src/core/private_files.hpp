// The file system calls of the emulator's process: directories and files only the current user may read
// (POSIX modes 0700 and 0600; on Windows a DACL granting the current user alone, core/win32_security.hpp),
// and the few others the server needs, on POSIX and Windows. Paths are UTF-8.
#pragma once

#include <optional>
#include <string>

namespace platformpp::emulator {

// The absolute form of an existing path. Throws std::system_error.
std::string absolute_path(const std::string& path);

// `dir` created private if missing (an existing one is used as it is), as an absolute path. `what` names it
// in the error. Throws std::system_error.
std::string prepare_private_directory(const std::string& dir, const char* what);

// A fresh private directory "<temp>/<prefix>XXXXXX" under $TMPDIR or /tmp (Windows: GetTempPathW), as an
// absolute path. Throws std::system_error.
std::string make_private_temp_directory(const std::string& prefix);

// Creates an empty private file at `path` when nothing is there; false when something is (or it cannot be
// created: the caller's own open reports why).
bool create_private_file(const std::string& path);

// The directory of the running executable, when the system says.
std::optional<std::string> executable_directory();

// Whether `path` names an existing file or directory.
bool path_exists(const std::string& path);

// Best-effort removals (a temporary data dir's leftovers): errors are ignored.
void remove_file(const std::string& path) noexcept;
void remove_empty_directory(const std::string& path) noexcept;

// This process's id, as the connection file shows it.
long current_process_id();

}  // namespace platformpp::emulator
