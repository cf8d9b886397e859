// The fuzz targets the replay executable holds (tests/fuzz/CMakeLists.txt generates the table from
// fuzz_targets.cpp.in): each target's LLVMFuzzerTestOneInput, renamed platformpp_fuzz_<name> there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace platformpp::fuzz {

/// One target: the name its corpus folder and CTest test carry, and its entry point.
struct FuzzTarget {
  const char* name;
  int (*run)(const std::uint8_t* data, std::size_t size);
};

/// Every target compiled into this executable.
std::span<const FuzzTarget> Targets();

}  // namespace platformpp::fuzz
