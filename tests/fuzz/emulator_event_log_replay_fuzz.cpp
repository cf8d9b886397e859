// Record and replay (tools/emulator/src/replay/): any bytes as an event log are replayed against a fresh
// emulator or refused, without an exception or a crash, whatever the lines claim (connections never opened,
// frames of any kind, markers and session ids that pair up wrongly, times that go back, webhook lines with
// nothing to answer); the report agrees with itself.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <rapidjson/document.h>

#include "replay/event_log_replay.hpp"

namespace {

void check(const std::string& text) {
  using namespace platformpp::emulator;
  std::stringstream log(text);
  ReplayOptions options;
  options.max_differences = 3;
  const auto report = replay_event_log(log, options);
  if (report.differences.size() > options.max_differences) __builtin_trap();
  if (report.differences.size() > report.difference_count) __builtin_trap();
  if (report.identical() && (!report.refused.empty() || report.difference_count != 0)) __builtin_trap();
  if (report.refused.empty() && report.recorded_lines == 0) __builtin_trap();
  if (report.text().empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  check(input);  // as it is: most mutations break a line's JSON, which refuses the log
  // Then its lines that are JSON objects, so that a mutation inside one line still replays the rest.
  std::string objects;
  std::istringstream lines(input);
  for (std::string line; std::getline(lines, line);) {
    rapidjson::Document parsed;
    parsed.Parse(line.data(), line.size());
    if (!parsed.HasParseError() && parsed.IsObject()) objects += line + "\n";
  }
  if (objects.size() != input.size() && !objects.empty()) check(objects);
  return 0;
}
