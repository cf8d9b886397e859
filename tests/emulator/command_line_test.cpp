#include <doctest/doctest.h>

#include "server/command_line.hpp"

namespace command_line_test {

using namespace platformpp::emulator;
using Action = ParsedCommandLine::Action;

TEST_CASE("defaults") {
  const auto parsed = parse_command_line({});
  CHECK(parsed.action == Action::run);
  CHECK(parsed.options.host == "127.0.0.1");
  CHECK(parsed.options.port == 0);
  CHECK_FALSE(parsed.options.plain_http);
  CHECK(parsed.options.ipc_name == "platformpp");
  CHECK_FALSE(parsed.options.ipc_dir);
  CHECK(parsed.options.ipc);
  CHECK_FALSE(parsed.options.connection_file);
  CHECK(parsed.options.io_threads == 2);
  CHECK(parsed.options.send_queue_limit == 16U * 1024 * 1024);
}

TEST_CASE("--max-connections takes 1 to 1,000,000") {
  CHECK(parse_command_line({}).options.max_connections == 4096);
  CHECK(parse_command_line({"--max-connections", "1"}).options.max_connections == 1);
  CHECK(parse_command_line({"--max-connections=1000000"}).options.max_connections == 1000000);
  for (const char* bad : {"0", "1000001", "-1", "x", ""}) {
    const auto parsed = parse_command_line({"--max-connections", bad});
    CHECK(parsed.action == ParsedCommandLine::Action::usage_error);
  }
}

TEST_CASE("--send-queue-limit takes 4096 bytes to 1 GiB") {
  CHECK(parse_command_line({"--send-queue-limit", "4096"}).options.send_queue_limit == 4096);
  CHECK(parse_command_line({"--send-queue-limit=1073741824"}).options.send_queue_limit == 1073741824U);
  for (const char* bad : {"4095", "1073741825", "-1", "lots", ""}) {
    const auto parsed = parse_command_line({"--send-queue-limit", bad});
    CHECK(parsed.action == Action::usage_error);
  }
}

TEST_CASE("--io-threads takes 0 to 64") {
  CHECK(parse_command_line({"--io-threads", "0"}).options.io_threads == 0);
  CHECK(parse_command_line({"--io-threads=64"}).options.io_threads == 64);
  for (const char* bad : {"65", "-1", "two", ""}) {
    const auto parsed = parse_command_line({"--io-threads", bad});
    CHECK(parsed.action == Action::usage_error);
  }
}

TEST_CASE("every flag, in both spellings") {
  const auto parsed = parse_command_line(
      {"--host", "::1", "--port=8443", "--connection-file", "/tmp/c.json", "--data-dir=/tmp/d",
       "--plain-http", "--ipc-name", "game", "--frozen-clock", "--ipc-dir=/run/x", "--no-ipc", "--import",
       "/tmp/world.json", "--export-on-exit=/tmp/left.json", "--event-log", "/tmp/events.jsonl"});
  REQUIRE(parsed.action == Action::run);
  CHECK(parsed.options.host == "::1");
  CHECK(parsed.options.port == 8443);
  CHECK(parsed.options.connection_file == "/tmp/c.json");
  CHECK(parsed.options.data_dir == "/tmp/d");
  CHECK(parsed.options.plain_http);
  CHECK(parsed.options.ipc_name == "game");
  CHECK(parsed.options.frozen_clock);
  CHECK(parsed.options.ipc_dir == "/run/x");
  CHECK_FALSE(parsed.options.ipc);
  CHECK(parsed.options.import_file == "/tmp/world.json");
  CHECK(parsed.options.export_on_exit == "/tmp/left.json");
  CHECK(parsed.options.event_log == "/tmp/events.jsonl");
  CHECK_FALSE(parse_command_line({}).options.event_log.has_value());
}

TEST_CASE("help, version and usage errors") {
  CHECK(parse_command_line({"--help"}).action == Action::help);
  CHECK(parse_command_line({"--version"}).action == Action::version);
  CHECK(parse_command_line({"--bogus"}).action == Action::usage_error);
  CHECK(parse_command_line({"--port"}).action == Action::usage_error);
  CHECK(parse_command_line({"--port", "65536"}).action == Action::usage_error);
  CHECK(parse_command_line({"--port", "65535"}).action == Action::run);
  CHECK(parse_command_line({"--port", "12x"}).action == Action::usage_error);
  CHECK(parse_command_line({"--plain-http=yes"}).action == Action::usage_error);
  CHECK(parse_command_line({"--no-ipc=1"}).action == Action::usage_error);
  CHECK(parse_command_line({"--ipc-dir"}).action == Action::usage_error);
  CHECK(parse_command_line({"--ipc-name", "a/b"}).action == Action::usage_error);
  CHECK(parse_command_line({"--import"}).action == Action::usage_error);
  CHECK(parse_command_line({"--export-on-exit"}).action == Action::usage_error);
  CHECK(parse_command_line({"--event-log"}).action == Action::usage_error);
  CHECK(parse_command_line({"--event-log="}).action == Action::usage_error);
}

TEST_CASE("only loopback hosts are accepted") {
  CHECK(parse_command_line({"--host", "localhost"}).action == Action::run);
  CHECK(parse_command_line({"--host", "[::1]"}).options.host == "::1");
  const auto refused = parse_command_line({"--host", "0.0.0.0"});
  CHECK(refused.action == Action::refused_host);
  CHECK(refused.error.find("0.0.0.0") != std::string::npos);
  CHECK(parse_command_line({"--host", "192.168.1.2"}).action == Action::refused_host);
}

TEST_CASE("--clock-start takes an RFC 3339 time") {
  const auto parsed = parse_command_line({"--clock-start", "2026-11-15T23:59:00Z"});
  REQUIRE(parsed.action == Action::run);
  REQUIRE(parsed.options.clock_start_ms.has_value());
  CHECK(*parsed.options.clock_start_ms == 1'794'787'140'000);
  CHECK_FALSE(parse_command_line({}).options.clock_start_ms.has_value());
  CHECK(parse_command_line({"--clock-start=2026-11-16T01:00:00+01:00"}).options.clock_start_ms ==
        1'794'787'200'000);
  CHECK(parse_command_line({"--clock-start", "yesterday"}).action == Action::usage_error);
  CHECK(parse_command_line({"--clock-start"}).action == Action::usage_error);
}

}  // namespace command_line_test
