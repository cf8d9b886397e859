#pragma once
// Log severities and the log callback shape. Secrets (tokens, codes, verifiers, client secrets) are removed
// from every message at every severity before any sink sees it.

#include <cstdint>
#include <functional>
#include <string>

namespace platformpp {

/// How important a log message is, from Verbose (least) to Error; numeric values match the platform's own
/// Social SDK.
///
/// A sink given a minimum severity receives that severity and the ones above it.
enum class LoggingSeverity : int32_t {
  Verbose = 1,  ///< Detail for debugging (e.g. each status change of the realtime connection).
  Info = 2,     ///< Notable events of normal operation.
  Warning = 3,  ///< Something went wrong and was handled (e.g. a connection attempt retried later).
  Error = 4,    ///< An operation or connection failed.
  None = 5,     ///< As a minimum severity: nothing at all (no sink is added, file logging stops).
};

/// A log sink (Client::AddLogCallback, Client::AddVoiceLogCallback): gets each message, secrets removed, and
/// its severity. Runs inside Client::RunCallbacks, like every other callback.
using LogCallback = std::function<void(std::string message, LoggingSeverity severity)>;

/// The enumerator's name ("Warning", ...); "Unknown" for a value outside the enum. A static string.
const char* LoggingSeverityToString(LoggingSeverity severity) noexcept;

}  // namespace platformpp
