#pragma once
// Log severities and the log callback shape. Secrets (tokens, codes, verifiers, client secrets) are removed
// from every message at every severity before any sink sees it.

#include <cstdint>
#include <functional>
#include <string>

namespace platformpp {

/// Numeric values match the platform's own Social SDK.
enum class LoggingSeverity : int32_t {
  Verbose = 1,
  Info = 2,
  Warning = 3,
  Error = 4,
  None = 5,
};

/// Runs inside Client::RunCallbacks, like every other callback.
using LogCallback = std::function<void(std::string message, LoggingSeverity severity)>;

const char* LoggingSeverityToString(LoggingSeverity severity) noexcept;

}  // namespace platformpp
