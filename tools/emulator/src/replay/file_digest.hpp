// A file's SHA-256, which the event log's first line keeps for the scenario and snapshot a run started from,
// so that a replay can tell it was given the same files.
#pragma once

#include <string>

namespace platformpp::emulator {

// Lower-case hex of the SHA-256 of the file's bytes; empty when it cannot be read.
[[nodiscard]] std::string file_sha256_hex(const std::string& path);

}  // namespace platformpp::emulator
