#pragma once
// Per-Client logging: user callbacks (delivered inside RunCallbacks) and an optional log file. Every message
// passes the SecretRedactor first, whatever its severity and sink.

#include "core/redaction.hpp"

#include <platformpp/logging.hpp>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::core {

class CallbackQueue;

class Logger {
 public:
  explicit Logger(std::shared_ptr<CallbackQueue> queue);
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  void AddCallback(LogCallback callback, LoggingSeverity minSeverity);
  /// Opens `<dir>/platformpp-<UTC time>-<pid>.log`; an empty dir closes the file. False when it cannot be
  /// opened.
  bool SetLogDir(const std::string& dir, LoggingSeverity minSeverity);

  /// Cheap check so callers skip formatting messages nobody will see.
  bool Enabled(LoggingSeverity severity) const noexcept {
    return severity != LoggingSeverity::None &&
           static_cast<int>(severity) >= minEnabled_.load(std::memory_order_relaxed);
  }
  void Log(LoggingSeverity severity, std::string_view message);

  void Verbose(std::string_view message) { Log(LoggingSeverity::Verbose, message); }
  void Info(std::string_view message) { Log(LoggingSeverity::Info, message); }
  void Warning(std::string_view message) { Log(LoggingSeverity::Warning, message); }
  void Error(std::string_view message) { Log(LoggingSeverity::Error, message); }

  SecretRedactor& Secrets() noexcept { return redactor_; }

 private:
  struct Sink {
    std::shared_ptr<LogCallback> callback;
    LoggingSeverity minSeverity;
  };
  void UpdateMinEnabled();  // mutex_ held

  std::shared_ptr<CallbackQueue> queue_;
  SecretRedactor redactor_;
  std::mutex mutex_;
  std::vector<Sink> sinks_;
  std::FILE* file_ = nullptr;
  LoggingSeverity fileMin_ = LoggingSeverity::None;
  std::atomic<int> minEnabled_{static_cast<int>(LoggingSeverity::None)};
};

}  // namespace platformpp::core
