// The limit on TCP connections open at once (--max-connections): each accepted connection holds a place until
// the last session that serves it (HTTP, then the WebSocket it may become) is gone; a connection that finds
// no place is closed as it is accepted. A client that opens connections without end then cannot take every
// file descriptor from the others.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

namespace platformpp::emulator {

// One connection's place; given back when destroyed, on whichever thread ends the connection.
class ConnectionPlace {
 public:
  explicit ConnectionPlace(std::shared_ptr<std::atomic<std::size_t>> open) : open_(std::move(open)) {}
  ~ConnectionPlace() { open_->fetch_sub(1, std::memory_order_relaxed); }
  ConnectionPlace(const ConnectionPlace&) = delete;
  ConnectionPlace& operator=(const ConnectionPlace&) = delete;

 private:
  std::shared_ptr<std::atomic<std::size_t>> open_;
};

// Places are taken on the accepting thread and given back on the I/O threads.
class ConnectionPlaces {
 public:
  // `kind` names the connections in the log: "TCP", "IPC".
  ConnectionPlaces(std::size_t limit, std::string kind) : limit_(limit), kind_(std::move(kind)) {}

  // A place, or null when `limit` connections are open: the refusal is logged on stderr (the first, then
  // every 1,000th, so that a flood does not flood the log too). The accepting thread only.
  std::shared_ptr<const ConnectionPlace> take() {
    if (open_->fetch_add(1, std::memory_order_relaxed) >= limit_) {
      open_->fetch_sub(1, std::memory_order_relaxed);
      if (++refused_ % 1000 == 1) {
        const std::string line =
            "platformpp-emulator: " + kind_ + " connection refused: " + std::to_string(limit_) +
            " are open, the limit (--max-connections); " + std::to_string(refused_) + " refused so far\n";
        std::fputs(line.c_str(), stderr);
      }
      return nullptr;
    }
    return std::make_shared<const ConnectionPlace>(open_);
  }

 private:
  std::size_t limit_;
  std::string kind_;
  std::shared_ptr<std::atomic<std::size_t>> open_ = std::make_shared<std::atomic<std::size_t>>(0);
  std::uint64_t refused_ = 0;
};

}  // namespace platformpp::emulator
