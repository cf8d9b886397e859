// How much work a benchmark does. Run by hand (or with `ctest -L bench -V`) each does its full measurement,
// whose ratios docs/performance.md reports. With PLATFORMPP_BENCH_SMOKE=1 in its environment (CTest sets it
// in a tree configured with the PLATFORMPP_BENCH_SMOKE option, as CI's is) each does a few rounds of the same
// work through the same code and keeps every correctness check, since in CI a benchmark only proves that it
// still works (its timings there, on a machine shared with three other builds, would mean nothing).
#pragma once

#include <cstdlib>
#include <string_view>

namespace platformpp::bench {

/// True when PLATFORMPP_BENCH_SMOKE is set to anything but empty or "0": the benchmark runs as a smoke test.
inline bool SmokeRun() {
  const char* value = std::getenv("PLATFORMPP_BENCH_SMOKE");
  return value != nullptr && *value != '\0' && std::string_view(value) != "0";
}

/// `full` for a measurement, `smoke` for a smoke run.
template <class T>
T Sized(T full, T smoke) {
  return SmokeRun() ? smoke : full;
}

}  // namespace platformpp::bench
