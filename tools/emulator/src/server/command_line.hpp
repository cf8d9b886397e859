// platformpp-emulator's command line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp::emulator {

struct EmulatorOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;  // 0 = any free port
  std::optional<std::string> connection_file;
  std::optional<std::string> data_dir;
  bool plain_http = false;
  std::string ipc_name = "platformpp";
  std::optional<std::string> ipc_dir;     // default: $XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP, else /tmp
  bool ipc = true;                        // --no-ipc turns the desktop-client stand-in off
  std::uint32_t idle_timeout_ms = 60000;  // idle keep-alive connections are closed after this
  std::uint32_t send_queue_limit = 16U * 1024 * 1024;  // bytes unread by a WebSocket peer before it is cut
  std::uint32_t max_connections = 4096;  // TCP connections open at once; more are closed at accept
  unsigned io_threads = 2;  // --io-threads: threads for the connections' TLS and sockets (0: the main one)
  bool frozen_clock = false;
  bool social_rate_limits = true;  // --no-social-rate-limits turns the Social SDK development limits off
  std::optional<std::int64_t> clock_start_ms;  // --clock-start: the fake clock's first reading
  std::optional<std::string> state_file;       // --state: keep the platform data in this SQLite file
  bool state_sync_full = false;                // --state-sync full: every commit waits for the disk
  std::optional<std::string> ui_dir;           // --ui-dir: the web console's files
  std::optional<std::string> import_file;      // --import: start from this snapshot (GET /state/export)
  std::optional<std::string> export_on_exit;   // --export-on-exit: write a snapshot here at a clean stop
  std::optional<std::string> event_log;        // --event-log: write what crossed the emulator's edge here
  std::optional<std::string> scenario_file;    // --scenario: set this world up, then play its timeline
  std::optional<std::string> replay_file;      // --replay: replay this event log, compare, and exit
};

struct ParsedCommandLine {
  enum class Action { run, help, version, usage_error, refused_host };
  Action action = Action::run;
  EmulatorOptions options;
  std::string error;  // for usage_error and refused_host
};

// `args` excludes the program name. Accepts "--flag value" and "--flag=value".
ParsedCommandLine parse_command_line(const std::vector<std::string>& args);
std::string usage_text();
bool is_loopback_host(const std::string& host);

}  // namespace platformpp::emulator
