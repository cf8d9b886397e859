// Plays a scenario (scenario_file.hpp): its setup at once, each timeline step when the fake clock reaches
// it (a clock jump runs every step it passes, in order). Socket-free: it makes its calls through a function
// the service gives it, the same routes and checks as over HTTP; it keeps each named answer for later steps'
// references and for GET /_emulator/scenario.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "scenario/scenario_file.hpp"

namespace platformpp::emulator {

class ScenarioPlayer {
 public:
  struct Answer {
    int status = 0;
    std::string body;
  };
  // One call: method, target below the admin API ("/_emulator/...", which the service sends with the admin
  // token) or the platform API ("/api/v10/..."), the Authorization header's value for the platform API
  // (empty: none) and the JSON body (empty: none).
  using Call = std::function<Answer(const std::string& method, const std::string& target,
                                    const std::string& authorization, const std::string& body)>;

  ScenarioPlayer(Scenario scenario, Call call);

  // Runs the setup's steps in order; the timeline counts from `now_ms` (the fake clock). Throws ScenarioError
  // naming the line of the first step that failed (an answer of 400 or more, or a reference its answers
  // cannot resolve).
  void run_setup(std::int64_t now_ms);
  // Runs the timeline's steps due at `now_ms`. One that fails is reported (stderr, status_json) and the
  // timeline goes on: the world it runs in is the test's, which may have changed it.
  void tick(std::int64_t now_ms);
  // The scenario's file, names and the answers bound to them, and the timeline's steps with their times
  // and outcomes (GET /_emulator/scenario).
  [[nodiscard]] std::string status_json() const;
  [[nodiscard]] bool timeline_done() const noexcept { return next_ >= scenario_.timeline.size(); }
  // What a reference ("alice", "alice_token.access_token") names now, as JSON text; throws
  // std::invalid_argument saying what is missing. The testkit's ScenarioValue asks through the admin API.
  [[nodiscard]] std::string resolve_reference(const std::string& reference) const;

 private:
  struct Outcome {
    bool ran = false;
    int status = 0;
    std::int64_t ran_at_ms = 0;
    std::string error;  // why it failed; empty when it did not
  };
  // Runs one step: its references resolved, its answer bound. Returns why it failed, or an empty string.
  std::string run(const ScenarioStep& step, int& status);
  // `text` with each reference replaced by the text of what it names; throws std::invalid_argument.
  std::string substitute(const std::string& text) const;
  // A JSON body's strings resolved: one that is a single reference takes the JSON value it names.
  void resolve(rapidjson::Value& value, rapidjson::Document::AllocatorType& allocator) const;
  [[nodiscard]] const rapidjson::Value& lookup(const std::string& reference) const;

  Scenario scenario_;
  Call call_;
  std::map<std::string, rapidjson::Document> answers_;
  std::int64_t started_ms_ = 0;
  bool started_ = false;
  std::size_t next_ = 0;
  std::vector<Outcome> outcomes_;  // one per timeline step
};

}  // namespace platformpp::emulator
