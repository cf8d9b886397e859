#include "core/logger.hpp"

#include "core/callback_queue.hpp"
#include "core/completion.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace platformpp::core {
namespace {

// `compact` for file names (20261122T101500Z), else ISO 8601 with milliseconds for log lines.
std::string UtcTimestamp(bool compact) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::size_t n = compact ? std::strftime(buffer, sizeof buffer, "%Y%m%dT%H%M%SZ", &tm)
                          : std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out(buffer, n);
  if (!compact) {
    char ms[8];
    std::snprintf(ms, sizeof ms, ".%03dZ", static_cast<int>(millis));
    out += ms;
  }
  return out;
}

}  // namespace

Logger::Logger(std::shared_ptr<CallbackQueue> queue) : queue_(std::move(queue)) {}

Logger::~Logger() {
  if (file_) std::fclose(file_);
}

void Logger::AddCallback(LogCallback callback, LoggingSeverity minSeverity) {
  if (!callback || minSeverity == LoggingSeverity::None) return;
  std::lock_guard lock(mutex_);
  sinks_.push_back({std::make_shared<LogCallback>(std::move(callback)), minSeverity});
  UpdateMinEnabled();
}

bool Logger::SetLogDir(const std::string& dir, LoggingSeverity minSeverity) {
  std::lock_guard lock(mutex_);
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  fileMin_ = LoggingSeverity::None;
  if (!dir.empty() && minSeverity != LoggingSeverity::None) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string path = (std::filesystem::path(dir) /
                        ("platformpp-" + UtcTimestamp(true) + "-" + std::to_string(::getpid()) + ".log"))
                           .string();
    // Logs may name users and lobbies: keep them private to the user.
    mode_t old = ::umask(077);
    file_ = std::fopen(path.c_str(), "a");
    ::umask(old);
    if (file_) fileMin_ = minSeverity;
  }
  UpdateMinEnabled();
  return dir.empty() || minSeverity == LoggingSeverity::None || file_ != nullptr;
}

void Logger::UpdateMinEnabled() {
  int min = static_cast<int>(file_ ? fileMin_ : LoggingSeverity::None);
  for (const Sink& sink : sinks_)
    min = std::min(min, static_cast<int>(sink.minSeverity));
  minEnabled_.store(min, std::memory_order_relaxed);
}

void Logger::Log(LoggingSeverity severity, std::string_view message) {
  if (!Enabled(severity)) return;
  std::string clean = redactor_.Redact(message);
  std::lock_guard lock(mutex_);
  if (file_ && severity >= fileMin_) {
    std::string line = UtcTimestamp(false) + " [" + LoggingSeverityToString(severity) + "] " + clean + "\n";
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fflush(file_);
  }
  for (const Sink& sink : sinks_) {
    if (severity < sink.minSeverity) continue;
    PostEvent(*queue_, [callback = sink.callback, clean, severity] { (*callback)(clean, severity); });
  }
}

}  // namespace platformpp::core

namespace platformpp {

const char* LoggingSeverityToString(LoggingSeverity severity) noexcept {
  switch (severity) {
    case LoggingSeverity::Verbose:
      return "Verbose";
    case LoggingSeverity::Info:
      return "Info";
    case LoggingSeverity::Warning:
      return "Warning";
    case LoggingSeverity::Error:
      return "Error";
    case LoggingSeverity::None:
      return "None";
  }
  return "Unknown";
}

}  // namespace platformpp
