// Checks the emulator's Gateway dispatches against pinned shapes of the platform's gateway types
// (tests/data/gateway/dispatch-schemas.json: generated from discord-api-types where it describes an event,
// written from docs/social-protocol.md for the Social SDK's own events; tools/update-gateway-schemas).
// Installed as the EmulatorService's dispatch observer by the emulator unit tests' main, so every dispatch of
// every test is checked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator::test {

class GatewayDispatchConformance {
 public:
  explicit GatewayDispatchConformance(const std::string& schemas_path);
  ~GatewayDispatchConformance();

  void check(std::string_view type, std::string_view d_json);

  struct Report {
    std::uint64_t validated = 0;
    std::map<std::string, std::uint64_t> events_validated;       // event name -> dispatches checked
    std::set<std::string> without_schema;                        // events the file does not describe
    std::map<std::string, std::vector<std::string>> mismatches;  // by event: what failed (first few)
  };
  [[nodiscard]] Report report() const;
  [[nodiscard]] std::set<std::string> described_events() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  mutable std::mutex mutex_;
};

}  // namespace platformpp::emulator::test
