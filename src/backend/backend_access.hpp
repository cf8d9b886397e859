#pragma once
// What the C ABI (c_api/) may reach inside a BackendClient, a WebhookEvents, an InteractionsEndpoint or an
// InteractionsGateway beyond the public API: their logger, where the C layer reports the exceptions it stops
// at the boundary (as client::ClientAccess does for a Client).

#include "core/logger.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace platformpp::api {
class ApiSession;
}

namespace platformpp::backend {

class BackendClient;
class InteractionsEndpoint;
class InteractionsGateway;
class WebhookEvents;

class BackendAccess {
 public:
  /// The BackendClient's logger (its log callbacks); null for a moved-from BackendClient.
  static std::shared_ptr<core::Logger> LoggerOf(const BackendClient& backend) noexcept;
  /// The endpoint's logger (its log callbacks).
  static std::shared_ptr<core::Logger> LoggerOf(const WebhookEvents& events) noexcept;
  /// The interactions endpoint's logger (its log callbacks).
  static std::shared_ptr<core::Logger> LoggerOf(const InteractionsEndpoint& endpoint) noexcept;
  /// The Gateway session's logger (its log callbacks).
  static std::shared_ptr<core::Logger> LoggerOf(const InteractionsGateway& gateway) noexcept;
  /// The BackendClient's API session (tests give it a stand-in transport); null for a moved-from one.
  static api::ApiSession* SessionOf(BackendClient& backend) noexcept;
  /// The bot token the BackendClient was made with (the bot's Gateway session identifies with it).
  static std::string BotTokenOf(const BackendClient& backend);

  // The application emoji calls (issue 36).

  /// BackendOptions::applicationId of the BackendClient (the application emoji routes name it); 0 for a
  /// moved-from one.
  static uint64_t ApplicationIdOf(const BackendClient& backend) noexcept;
};

}  // namespace platformpp::backend
