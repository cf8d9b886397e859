// What the WebSocket and IPC sessions say when they cut a peer that stopped reading (--send-queue-limit).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace platformpp::emulator {

// One line on stderr: `peer` ("a WebSocket peer (127.0.0.1)", "an IPC peer") left `queued` bytes unread,
// over `limit`.
inline void log_unread_cut(std::string_view peer, std::size_t queued, std::size_t limit) {
  const std::string line = "platformpp-emulator: " + std::string(peer) +
                           " stopped reading: " + std::to_string(queued) +
                           " bytes queued for it, over the limit of " + std::to_string(limit) +
                           " (--send-queue-limit); connection cut\n";
  std::fputs(line.c_str(), stderr);
}

}  // namespace platformpp::emulator
