// Faults injected through the admin API into matching API requests: delays, error statuses (including 429s),
// raw bodies, truncated responses, dropped connections and lost responses (handled, then dropped).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/route_pattern.hpp"

namespace platformpp::emulator {

struct Fault {
  explicit Fault(RoutePattern matched_route) : route(std::move(matched_route)) {}

  std::string id;
  RoutePattern route;  // path relative to the API base, e.g. "GET /users/@me"
  std::optional<int> status;
  std::optional<double> retry_after_s;  // for 429s
  bool global = false;                  // for 429s
  std::int64_t delay_ms = 0;
  bool drop = false;
  // Handle the request (its effects and dispatches happen), then close without answering: a lost response.
  bool drop_after = false;
  bool truncate = false;
  std::optional<std::string> body;
  std::optional<std::string> content_type;
  int count = 1;      // how many matching requests it affects; 0 = unlimited
  int remaining = 1;  // uses left when count > 0
};

class FaultInjector {
 public:
  // Stores the fault and returns its id (assigned here).
  std::string add(Fault fault);
  // The first fault (in insertion order) matching the request, consuming one use; exhausted faults are
  // removed.
  std::optional<Fault> take_match(std::string_view method, std::string_view path);
  void clear() { faults_.clear(); }
  [[nodiscard]] const std::vector<Fault>& faults() const noexcept { return faults_; }

 private:
  std::vector<Fault> faults_;
  std::uint64_t next_id_ = 1;
};

}  // namespace platformpp::emulator
