#pragma once
// Exponential backoff with full jitter: the n-th delay is uniform in [base * 2^n / 2, base * 2^n], capped, so
// that many clients that failed together do not retry together.

#include "core/random.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>

namespace platformpp::net {

class Backoff {
 public:
  /// `random` is borrowed: one generator per client, seeded once (seeding per request is expensive).
  Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds maximum, core::Random& random)
      : initial_(initial), maximum_(maximum), random_(random) {}

  std::chrono::milliseconds Next() {
    int64_t ceiling = initial_.count() << std::min(attempt_, 20);
    ceiling = std::min<int64_t>(ceiling, maximum_.count());
    ++attempt_;
    std::uniform_int_distribution<int64_t> pick(ceiling / 2, ceiling);
    return std::chrono::milliseconds(pick(random_));
  }
  void Reset() noexcept { attempt_ = 0; }
  int Attempts() const noexcept { return attempt_; }

 private:
  std::chrono::milliseconds initial_;
  std::chrono::milliseconds maximum_;
  int attempt_ = 0;
  core::Random& random_;
};

}  // namespace platformpp::net
