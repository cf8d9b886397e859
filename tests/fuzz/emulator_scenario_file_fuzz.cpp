// Scenario files (tools/emulator/src/scenario/): any bytes are refused with a ScenarioError or parsed into
// steps whose lines lie within the file, whose timeline is in time order, and whose references name answers
// bound before them; a parsed scenario then plays against a stand-in for the service without any other
// exception, whatever its answers hold.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scenario/scenario_file.hpp"
#include "scenario/scenario_player.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Scenario scenario;
  try {
    scenario = parse_scenario(input, "fuzz.json");
  } catch (const ScenarioError&) {
    return 0;
  }
  const int lines = 1 + static_cast<int>(std::count(input.begin(), input.end(), '\n'));
  for (const auto* steps : {&scenario.setup, &scenario.timeline}) {
    for (const auto& step : *steps) {
      if (step.line < 1 || step.line > lines) __builtin_trap();
      if (step.path.empty() || step.path[0] != '/') __builtin_trap();
      if ((steps == &scenario.timeline) != step.at_ms.has_value()) __builtin_trap();
    }
  }
  if (!std::is_sorted(scenario.timeline.begin(), scenario.timeline.end(),
                      [](const auto& a, const auto& b) { return *a.at_ms < *b.at_ms; }))
    __builtin_trap();

  // Every call answers with members of each type; a body that is the input itself tries the rest.
  int calls = 0;
  ScenarioPlayer player(std::move(scenario), [&](const std::string&, const std::string& target,
                                                 const std::string&, const std::string&) {
    if (target.empty() || target[0] != '/') __builtin_trap();
    ++calls;
    if (calls % 3 == 0) return ScenarioPlayer::Answer{200, std::string(input)};
    return ScenarioPlayer::Answer{calls % 5 == 0 ? 400 : 200,
                                  R"({"id":"1","n":2,"b":true,"z":null,"o":{"a":[1,"s",{"k":"v"}]}})"};
  });
  try {
    player.run_setup(0);
  } catch (const ScenarioError&) {
    return 0;
  }
  player.tick(INT64_MAX / 2);
  if (!player.timeline_done()) __builtin_trap();
  (void)player.status_json();
  return 0;
}
