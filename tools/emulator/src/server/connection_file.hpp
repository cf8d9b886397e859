// The connection file tests and samples read to find a running emulator, plus the IPC path convention.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace platformpp::emulator {

struct ConnectionInfo {
  std::string host;  // as given on the command line: 127.0.0.1, ::1 or localhost
  std::uint16_t port = 0;
  bool tls = true;
  std::string ca_file;   // absolute path; meaningful only with TLS
  std::string ipc_path;  // the bound IPC socket; empty (null in the file) with --no-ipc
  long pid = 0;
  std::string version;
  std::string ipc_name;     // the socket name prefix (--ipc-name)
  std::string ipc_dir;      // the directory searched for <ipc_name>-ipc-<n>
  std::string admin_token;  // what every admin request carries (Authorization: Bearer); the file is 0600

  [[nodiscard]] std::string authority() const;  // "127.0.0.1:PORT" or "[::1]:PORT"
  [[nodiscard]] std::string api_base() const;
  [[nodiscard]] std::string gateway_url() const;
  [[nodiscard]] std::string admin_base() const;
  [[nodiscard]] std::string web_base() const;  // the web root: /oauth2/authorize lives there
};

std::string connection_file_json(const ConnectionInfo& info);

// Per the IPC convention: first set of $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP, else /tmp.
using EnvironmentLookup = std::function<std::optional<std::string>(const char*)>;
std::optional<std::string> process_environment(const char* name);
std::string ipc_directory(const EnvironmentLookup& env = &process_environment);
// "<dir>/<prefix>-ipc-<index>" (index 0..9). On Windows the named pipe "\\?\pipe\<prefix>-ipc-<index>": `dir`
// is ignored there (the pipe namespace has no directories).
std::string ipc_socket_path(const std::string& dir, const std::string& prefix, int index);
// The convention's first candidate: "<ipc_directory()>/<prefix>-ipc-0".
std::string ipc_socket_path(const std::string& prefix, const EnvironmentLookup& env = &process_environment);

// Writes `content` to a temporary file beside `path`, sets `mode`, then renames it over `path`, so readers
// never see a partial file. On Windows a mode without group and other bits gives the file a DACL for the
// current user alone, any other mode the directory's inherited permissions. Throws std::system_error.
void write_file_atomically(const std::string& path, const std::string& content, unsigned mode);

}  // namespace platformpp::emulator
