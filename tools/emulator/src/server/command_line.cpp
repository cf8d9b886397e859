#include "server/command_line.hpp"

#include "core/fake_clock.hpp"

#include <charconv>

namespace platformpp::emulator {

bool is_loopback_host(const std::string& host) {
  return host == "127.0.0.1" || host == "::1" || host == "[::1]" || host == "localhost";
}

std::string usage_text() {
  return "usage: platformpp-emulator [--host 127.0.0.1|::1|localhost] [--port N] [--connection-file PATH]\n"
         "                           [--data-dir DIR] [--plain-http] [--ipc-name PREFIX] [--ipc-dir DIR]\n"
         "                           [--no-ipc] [--frozen-clock] [--clock-start TIME] [--idle-timeout-ms N]\n"
         "                           [--no-social-rate-limits] [--state FILE [--state-sync normal|full]]\n"
         "                           [--ui-dir DIR] [--io-threads N] [--send-queue-limit BYTES]\n"
         "                           [--max-connections N] [--import FILE] [--export-on-exit FILE]\n"
         "                           [--event-log FILE] [--scenario FILE]\n"
         "                           [--help] [--version]\n"
         "       platformpp-emulator --replay LOG [--scenario FILE] [--import FILE]\n"
         "\n"
         "A local stand-in for the platform's HTTP API and admin API, on loopback only.\n"
         "  --host H             loopback address to listen on (default 127.0.0.1)\n"
         "  --port N             port to listen on, 0 = any free port (default 0)\n"
         "  --connection-file F  where to write the connection JSON (default <data-dir>/connection.json)\n"
         "  --data-dir D         directory for ca.pem and the connection file (default: a fresh private temp "
         "dir)\n"
         "  --plain-http         serve http:// and ws:// instead of TLS\n"
         "  --ipc-name P         IPC socket name prefix: listens on <dir>/P-ipc-<0..9> (default platformpp)\n"
         "  --ipc-dir D          directory of the IPC socket (default: $XDG_RUNTIME_DIR, $TMPDIR, $TMP,\n"
         "                       $TEMP, else /tmp)\n"
         "  --no-ipc             do not serve the desktop-client stand-in on IPC\n"
         "  --frozen-clock       start with the fake clock frozen\n"
         "  --clock-start TIME   start the fake clock at TIME (RFC 3339, e.g. 2026-11-15T23:59:00Z)\n"
         "  --idle-timeout-ms N  close keep-alive connections idle for N ms (default 60000)\n"
         "  --send-queue-limit B cut a WebSocket or IPC connection whose peer leaves more than B bytes\n"
         "                       unread in the emulator's queue for it (default 16777216, at least 4096)\n"
         "  --max-connections N  TCP connections (HTTP, WebSocket) open at once, 1-1000000 (default 4096);\n"
         "                       one more is closed as it is accepted, with a line on stderr\n"
         "  --no-social-rate-limits\n"
         "                       turn off the Social SDK development rate limits (lobbies, messages)\n"
         "  --state F            keep the platform data in the SQLite file F (created if missing), so that "
         "a\n"
         "                       restart serves the same accounts, tokens, ids and history (default: "
         "memory)\n"
         "  --state-sync M       normal: what was answered survives a killed emulator (default); full: also\n"
         "                       a power loss, at the cost of waiting for the disk on every change\n"
         "  --import F           start from the snapshot in F (as GET /_emulator/state/export writes it);\n"
         "                       with --state it replaces what the file held\n"
         "  --export-on-exit F   at a clean stop (SIGINT, SIGTERM), write the whole state to F as a\n"
         "                       snapshot (mode 0600: it holds tokens and keys)\n"
         "  --event-log F        write every HTTP exchange, Gateway, voice and IPC frame, connection and\n"
         "                       webhook POST to F, one JSON object a line, secrets redacted (mode 0600)\n"
         "  --scenario F         set up the world scenario file F describes (after --state and --import),\n"
         "                       then play its timeline on the fake clock (tools/emulator/README.md)\n"
         "  --replay LOG         replay the client side of the event log LOG against a fresh emulator in\n"
         "                       this process and compare what it writes with LOG, then exit; --scenario\n"
         "                       and --import say where the run's files are now, if they moved\n"
         "  --io-threads N       threads that run the connections' TLS and sockets, 0-64 (default 2); the\n"
         "                       platform's state has a thread of its own. 0: that one thread does it all\n"
         "  --ui-dir D           the web console's files, served at /_emulator/ui (default: the installed\n"
         "                       share/platformpp-emulator/ui, or the source tree's tools/emulator/ui)\n"
         "\n"
         "Exit codes: 0 stopped by SIGINT/SIGTERM, 1 could not start or failed, 2 bad arguments, 5 the "
         "state\n"
         "file\n"
         "or the --import file is not one, is another program's or is damaged, 6 a newer emulator wrote "
         "it,\n"
         "7 the --scenario file cannot be used (the message names its line), 8 the replay differs from\n"
         "the log, 9 the log cannot be replayed.\n";
}

namespace {

// An unsigned decimal integer within [low, high], the whole of `text`.
std::optional<unsigned> bounded_integer(const std::string& text, unsigned low, unsigned high) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < low || value > high) return std::nullopt;
  return value;
}

}  // namespace

ParsedCommandLine parse_command_line(const std::vector<std::string>& args) {
  ParsedCommandLine result;
  auto fail = [&](std::string message) {
    result.action = ParsedCommandLine::Action::usage_error;
    result.error = std::move(message);
    return result;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> inline_value;
    if (const auto eq = flag.find('='); flag.starts_with("--") && eq != std::string::npos) {
      inline_value = flag.substr(eq + 1);
      flag.resize(eq);
    }
    auto take_value = [&]() -> std::optional<std::string> {
      if (inline_value) return inline_value;
      if (i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    const bool is_switch = flag == "--help" || flag == "-h" || flag == "--version" ||
                           flag == "--plain-http" || flag == "--frozen-clock" || flag == "--no-ipc" ||
                           flag == "--no-social-rate-limits";
    if (is_switch && inline_value) return fail(flag + " takes no value");

    if (flag == "--help" || flag == "-h") {
      result.action = ParsedCommandLine::Action::help;
      return result;
    } else if (flag == "--version") {
      result.action = ParsedCommandLine::Action::version;
      return result;
    } else if (flag == "--plain-http") {
      result.options.plain_http = true;
    } else if (flag == "--frozen-clock") {
      result.options.frozen_clock = true;
    } else if (flag == "--no-ipc") {
      result.options.ipc = false;
    } else if (flag == "--no-social-rate-limits") {
      result.options.social_rate_limits = false;
    } else if (flag == "--host" || flag == "--port" || flag == "--connection-file" || flag == "--data-dir" ||
               flag == "--ipc-name" || flag == "--ipc-dir" || flag == "--idle-timeout-ms" ||
               flag == "--io-threads" || flag == "--clock-start" || flag == "--state" ||
               flag == "--state-sync" || flag == "--ui-dir" || flag == "--send-queue-limit" ||
               flag == "--max-connections" || flag == "--import" || flag == "--export-on-exit" ||
               flag == "--event-log" || flag == "--scenario" || flag == "--replay") {
      auto value = take_value();
      if (!value || value->empty()) return fail(flag + " needs a value");
      if (flag == "--host") {
        result.options.host = *value;
      } else if (flag == "--port") {
        const auto port = bounded_integer(*value, 0, 65535);
        if (!port) return fail("--port must be an integer 0-65535");
        result.options.port = static_cast<std::uint16_t>(*port);
      } else if (flag == "--idle-timeout-ms") {
        const auto ms = bounded_integer(*value, 1, 3600000);
        if (!ms) return fail("--idle-timeout-ms must be an integer 1-3600000");
        result.options.idle_timeout_ms = *ms;
      } else if (flag == "--send-queue-limit") {
        const auto bytes = bounded_integer(*value, 4096, 1U << 30);
        if (!bytes) return fail("--send-queue-limit must be an integer 4096-1073741824");
        result.options.send_queue_limit = *bytes;
      } else if (flag == "--max-connections") {
        const auto connections = bounded_integer(*value, 1, 1000000);
        if (!connections) return fail("--max-connections must be an integer 1-1000000");
        result.options.max_connections = *connections;
      } else if (flag == "--io-threads") {
        const auto threads = bounded_integer(*value, 0, 64);
        if (!threads) return fail("--io-threads must be an integer 0-64");
        result.options.io_threads = *threads;
      } else if (flag == "--clock-start") {
        const auto start = parse_rfc3339(*value);
        if (!start) return fail("--clock-start must be an RFC 3339 time, e.g. 2026-11-15T23:59:00Z");
        result.options.clock_start_ms = *start;
      } else if (flag == "--state") {
        result.options.state_file = *value;
      } else if (flag == "--state-sync") {
        if (*value != "normal" && *value != "full") return fail("--state-sync must be normal or full");
        result.options.state_sync_full = *value == "full";
      } else if (flag == "--ui-dir") {
        result.options.ui_dir = *value;
      } else if (flag == "--import") {
        result.options.import_file = *value;
      } else if (flag == "--export-on-exit") {
        result.options.export_on_exit = *value;
      } else if (flag == "--event-log") {
        result.options.event_log = *value;
      } else if (flag == "--scenario") {
        result.options.scenario_file = *value;
      } else if (flag == "--replay") {
        result.options.replay_file = *value;
      } else if (flag == "--connection-file") {
        result.options.connection_file = *value;
      } else if (flag == "--data-dir") {
        result.options.data_dir = *value;
      } else if (flag == "--ipc-dir") {
        result.options.ipc_dir = *value;
      } else {
        if (value->find('/') != std::string::npos) return fail("--ipc-name must not contain '/'");
        result.options.ipc_name = *value;
      }
    } else {
      return fail("unknown argument: " + args[i]);
    }
  }
  if (!is_loopback_host(result.options.host)) {
    result.action = ParsedCommandLine::Action::refused_host;
    result.error = "refusing to listen on non-loopback host '" + result.options.host +
                   "': the emulator serves 127.0.0.1, ::1 or localhost only";
  }
  if (result.options.host == "[::1]") result.options.host = "::1";
  return result;
}

}  // namespace platformpp::emulator
