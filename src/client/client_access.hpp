#pragma once
// What the C ABI (c_api/) may reach inside a Client beyond the public API: its logger, where the C layer
// reports the exceptions it stops at the boundary (a C caller has no other way to hear of them).

#include "core/logger.hpp"

#include <memory>

namespace platformpp {
class Client;
}

namespace platformpp::client {

class ClientAccess {
 public:
  /// The Client's logger (its log callbacks and log file); null for a moved-from Client.
  static std::shared_ptr<core::Logger> LoggerOf(const Client& client) noexcept;
};

}  // namespace platformpp::client
