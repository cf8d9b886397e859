// platformpp-emulator: a local stand-in of the platform for SDK tests and offline games.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "core/fake_clock.hpp"
#include "core/private_files.hpp"
#include "core/random_token.hpp"
#include "replay/event_log_replay.hpp"
#include "replay/file_digest.hpp"
#include "scenario/scenario_file.hpp"
#include "server/command_line.hpp"
#include "server/connection_file.hpp"
#include "server/server.hpp"
#include "server/tls_certificates.hpp"
#include "service/emulator_service.hpp"
#include "state/state_file.hpp"
#include "state/state_store.hpp"

using namespace platformpp::emulator;

namespace {

// The given data dir (created private if missing), or a fresh private temporary one.
std::string prepare_data_dir(const EmulatorOptions& options, bool& created_temporary) {
  created_temporary = false;
  if (options.data_dir) return prepare_private_directory(*options.data_dir, "data dir");
  auto dir = make_private_temp_directory("platformpp-emulator-");
  created_temporary = true;
  return dir;
}

// The certificates a state file keeps: a restarted emulator presents the same CA, so clients that trusted
// it (and the ca.pem they read) keep working. Made and kept on first use.
GeneratedCertificates certificates_for(StateFile* state) {
  if (state == nullptr) return generate_certificates();
  auto ca = state->meta("tls_ca_certificate");
  auto certificate = state->meta("tls_server_certificate");
  auto key = state->meta("tls_server_private_key");
  if (ca && certificate && key) return GeneratedCertificates{*ca, *certificate, *key};
  auto generated = generate_certificates();
  StateBatch batch;
  batch.meta["tls_ca_certificate"] = generated.ca_certificate_pem;
  batch.meta["tls_server_certificate"] = generated.server_certificate_pem;
  batch.meta["tls_server_private_key"] = generated.server_private_key_pem;
  state->write(batch);
  return generated;
}

// The admin API's token: a new one at each start, or with --state the one kept in the state file, so that a
// restart (the same emulator's world) keeps the web console's tab and a test's connection working.
std::string admin_token_for(StateFile* state) {
  if (state != nullptr) {
    if (auto kept = state->meta("admin_token")) return *kept;
  }
  auto token = random_token();
  if (state != nullptr) {
    StateBatch batch;
    batch.meta["admin_token"] = token;
    state->write(batch);
  }
  return token;
}

// The web console's files: --ui-dir, else installed beside the binary (<prefix>/share/...), else the
// source tree's (a build-tree binary).
std::string console_directory(const EmulatorOptions& options) {
  if (options.ui_dir) return *options.ui_dir;
  if (auto bin = executable_directory()) {
    auto installed = *bin + "/../share/platformpp-emulator/ui";
    if (path_exists(installed + "/index.html")) return installed;
  }
  return PLATFORMPP_EMULATOR_SOURCE_UI_DIR;
}

// --import: the snapshot replaces what the service holds (an attached state file's data included), all or
// nothing. One it cannot read stops the start as an unusable state file does: exit 5, or 6 when a newer
// emulator wrote it.
void import_snapshot(EmulatorService& service, const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw StateFileError(5, "--import " + path + ": cannot be opened");
  std::ostringstream content;
  content << file.rdbuf();
  const std::string snapshot = content.str();
  try {
    service.state_store().replace_all(StateStore::parse_snapshot(snapshot));
  } catch (const NewerSnapshotError& e) {
    throw StateFileError(6, "--import " + path + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw StateFileError(5, "--import " + path + ": " + e.what());
  }
}

// --scenario: the file read and checked whole (ScenarioError names its line).
Scenario read_scenario(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ScenarioError("--scenario " + path + ": cannot be opened");
  std::ostringstream content;
  content << file.rdbuf();
  return parse_scenario(content.str(), path);
}

// --replay: the log against a fresh emulator in this process; nothing listens.
int replay(const EmulatorOptions& options) {
  std::ifstream log(*options.replay_file, std::ios::binary);
  if (!log) {
    std::fprintf(stderr, "platformpp-emulator: --replay %s: cannot be opened\n",
                 options.replay_file->c_str());
    return 9;
  }
  ReplayOptions replay_options;
  replay_options.scenario_path = options.scenario_file.value_or("");
  replay_options.import_path = options.import_file.value_or("");
  const auto report = replay_event_log(log, replay_options);
  std::fputs(report.text().c_str(), stdout);
  std::fflush(stdout);
  if (!report.refused.empty()) return 9;
  return report.identical() ? 0 : 8;
}

}  // namespace

int main(int argc, char** argv) {
  const auto parsed = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  switch (parsed.action) {
    case ParsedCommandLine::Action::help:
      std::fputs(usage_text().c_str(), stdout);
      return 0;
    case ParsedCommandLine::Action::version:
      std::printf("platformpp-emulator %s\n", kEmulatorVersion);
      return 0;
    case ParsedCommandLine::Action::usage_error:
      std::fprintf(stderr, "platformpp-emulator: %s\n\n%s", parsed.error.c_str(), usage_text().c_str());
      return 2;
    case ParsedCommandLine::Action::refused_host:
      std::fprintf(stderr, "platformpp-emulator: %s\n", parsed.error.c_str());
      return 2;
    case ParsedCommandLine::Action::run:
      break;
  }
  const EmulatorOptions& options = parsed.options;
  if (options.replay_file) return replay(options);
#ifdef SIGPIPE
  std::signal(SIGPIPE, SIG_IGN);  // a peer closing mid-write must not kill the process
#endif

  bool temporary_data_dir = false;
  std::string data_dir;
  std::string ca_file;
  std::string connection_path;
  // The state file first: one that cannot be used stops the emulator before anything listens.
  std::unique_ptr<StateFile> state_file;
  if (options.state_file) {
    try {
      state_file = StateFile::open(*options.state_file, options.state_sync_full);
    } catch (const StateFileError& e) {
      std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
      return e.exit_code();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
      return 1;
    }
  }
  // The scenario file next, for the same reason: its errors name their line before anything listens.
  std::optional<Scenario> scenario;
  if (options.scenario_file) {
    try {
      scenario = read_scenario(*options.scenario_file);
    } catch (const ScenarioError& e) {
      std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
      return 7;
    }
  }
  try {
    data_dir = prepare_data_dir(options, temporary_data_dir);
    connection_path = options.connection_file.value_or(data_dir + "/connection.json");

    std::optional<GeneratedCertificates> certificates;
    if (!options.plain_http) {
      certificates = certificates_for(state_file.get());
      ca_file = data_dir + "/ca.pem";
      write_file_atomically(ca_file, certificates->ca_certificate_pem, 0644);  // public: clients trust it
    }

    const std::string ipc_dir =
        options.ipc_dir ? prepare_private_directory(*options.ipc_dir, "IPC dir") : ipc_directory();

    const std::string admin_token = admin_token_for(state_file.get());
    FakeClock clock(&FakeClock::system_now_ms, options.frozen_clock, options.clock_start_ms);
    ServerSettings settings{options.host, options.port, certificates ? &*certificates : nullptr,
                            std::chrono::milliseconds(options.idle_timeout_ms), std::nullopt};
    if (options.ipc)
      settings.ipc =
          IpcSettings{ipc_dir, options.ipc_name, options.send_queue_limit, options.max_connections};
    settings.io_threads = options.io_threads;
    settings.send_queue_limit = options.send_queue_limit;
    settings.max_connections = options.max_connections;
    if (options.export_on_exit) {
      settings.on_clean_stop = [path = *options.export_on_exit](EmulatorService& service) {
        try {
          write_file_atomically(path, service.state_store().export_json(), 0600);
        } catch (const std::exception& e) {
          throw std::runtime_error("--export-on-exit " + path + ": " + e.what());
        }
      };
    }
    run_server(settings, [&](const BoundAddresses& bound) {
      ConnectionInfo info;
      info.host = options.host;
      info.port = bound.port;
      info.tls = !options.plain_http;
      info.ca_file = ca_file;
      info.ipc_path = bound.ipc_path;
      info.ipc_name = options.ipc_name;
      info.ipc_dir = ipc_dir;
      info.pid = current_process_id();
      info.version = kEmulatorVersion;
      info.admin_token = admin_token;
      auto service = std::make_unique<EmulatorService>(
          clock, ServiceEndpoints{info.gateway_url(), info.api_base(), info.authority()});
      service->set_admin_token(info.admin_token);
      service->set_social_rate_limits_enabled(options.social_rate_limits);
      service->set_console_directory(console_directory(options));
      if (state_file) service->attach_state_file(std::move(state_file));  // loads it (may throw: exit 5)
      if (options.import_file) import_snapshot(*service, *options.import_file);
      if (options.event_log) {
        try {
          service->event_log().open(*options.event_log);
        } catch (const std::exception& e) {
          throw std::runtime_error("--event-log " + *options.event_log + ": " + e.what());
        }
        // What a replay needs to build this emulator again (replay/event_log_replay.hpp).
        EventLogStart start;
        start.version = kEmulatorVersion;
        start.gateway_url = info.gateway_url();
        start.api_base = info.api_base();
        start.authority = info.authority();
        start.voice_udp_port = bound.voice_udp_port;
        start.clock = service->clock().save();
        start.social_rate_limits = options.social_rate_limits;
        if (options.scenario_file) {
          start.scenario_path = *options.scenario_file;
          start.scenario_sha256 = file_sha256_hex(*options.scenario_file);
        }
        if (options.import_file) {
          start.import_path = *options.import_file;
          start.import_sha256 = file_sha256_hex(*options.import_file);
        }
        start.state_loaded = options.state_file.has_value();
        service->event_log().start(start);
      }
      // Its setup's calls go through the service, not the network: the world is ready before the connection
      // file says the emulator is.
      if (scenario) service->play_scenario(std::move(*scenario), info.admin_token);
      service->set_voice_udp_port(bound.voice_udp_port);  // what voice Ready announces
      write_file_atomically(connection_path, connection_file_json(info), 0600);
#ifdef _WIN32
      const char* ipc_scheme = " and pipe:";
#else
      const char* ipc_scheme = " and unix:";
#endif
      const std::string ipc_part = bound.ipc_path.empty() ? std::string() : ipc_scheme + bound.ipc_path;
      std::printf("platformpp-emulator listening on %s://%s%s (connection file: %s)\n",
                  info.tls ? "https" : "http", info.authority().c_str(), ipc_part.c_str(),
                  connection_path.c_str());
      std::fflush(stdout);
      return service;
    });
  } catch (const StateFileError& e) {
    std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
    return e.exit_code();
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
    return 7;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "platformpp-emulator: %s\n", e.what());
    return 1;
  }

  // A temporary data dir is ours alone: leave nothing behind in /tmp.
  if (temporary_data_dir) {
    if (!ca_file.empty()) remove_file(ca_file);
    if (!options.connection_file) remove_file(connection_path);
    remove_empty_directory(data_dir);
  }
  return 0;
}
