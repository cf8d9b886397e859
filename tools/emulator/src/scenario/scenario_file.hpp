// A scenario file (--scenario, testkit Options::scenario): the world a test or a sample starts in, set up
// through the admin API, and a timeline of admin calls on the fake clock. JSON; every error names the line
// of the file it is about, before anything runs. The format, with an example per feature:
// tools/emulator/README.md, "Scenarios".
//
// Sections are sugar for admin calls (applications, users, tokens, friendships) or any admin or platform API
// call ("steps", "timeline"). A step's answer can be named ("as") and later steps refer to it in strings:
// "${alice}" is its id, "${alice.field.sub}" any member of its answer (a string that is only a reference
// takes the member's JSON type).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

// A scenario that cannot be used: "<file>:<line>: <what>".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One call the scenario makes: of the admin API, or of the platform API with a token.
struct ScenarioStep {
  int line = 0;                       // where the step starts in the file
  std::optional<std::int64_t> at_ms;  // a timeline step: fake-clock ms after the setup ended
  std::string method;
  std::string path;     // relative to /_emulator, or to /api/v10 when `api`
  bool api = false;     // the platform API, with `token`: `Authorization: Bearer <token>`
  std::string token;    // may hold references; "Bot <token>" is sent as it is
  std::string body;     // JSON text, may hold references; empty: no body
  std::string bind_as;  // the name its answer is known by afterwards; empty: none
  std::string label;    // "POST /users", for messages
};

struct Scenario {
  std::string file;                    // the name errors give
  std::vector<ScenarioStep> setup;     // in file order, sections in the order the format lists them
  std::vector<ScenarioStep> timeline;  // by `at_ms`, in file order among equal times
};

// The newest format this emulator reads ("scenario": N at the top).
inline constexpr int kScenarioFormat = 1;

// Parses and checks a scenario: JSON, known sections and members, names bound before they are referred to,
// well-formed routes and times. Throws ScenarioError.
Scenario parse_scenario(std::string_view text, const std::string& file_name);

// "250ms", "5s", "2m", "3h", "30d" (an integer and a unit), or a bare integer of milliseconds.
std::optional<std::int64_t> parse_scenario_duration(std::string_view text);

// The references ("${name}" or "${name.path}") in `text`, as their names (the part before the first '.');
// nullopt when one is not closed or not a name.
std::optional<std::vector<std::string>> scenario_references(std::string_view text);

}  // namespace platformpp::emulator
