#include "core/logger.hpp"

#include "core/callback_queue.hpp"
#include "core/completion.hpp"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <system_error>

#ifdef _WIN32
#include "core/win32.hpp"

#include <windows.h>

#include <fcntl.h>
#include <io.h>
#include <sddl.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace platformpp::core {
namespace {

// `compact` for file names (20261122T101500Z), else ISO 8601 with milliseconds for log lines.
std::string UtcTimestamp(bool compact) {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
#ifdef _WIN32
  gmtime_s(&tm, &seconds);
#else
  gmtime_r(&seconds, &tm);
#endif
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

// The SDK's strings are UTF-8; a path made from a std::string on Windows would be read in the ANSI code page.
std::filesystem::path PathFromUtf8(const std::string& text) {
#ifdef _WIN32
  return std::filesystem::path(win32::Widen(text));
#else
  return std::filesystem::path(text);
#endif
}

uint64_t ProcessId() {
#ifdef _WIN32
  return ::GetCurrentProcessId();
#else
  return static_cast<uint64_t>(::getpid());
#endif
}

// Logs may name users and lobbies: the file is made readable by this user only (umask 077 on POSIX; on
// Windows a protected DACL granting the current user alone, instead of what the directory would pass on).
std::FILE* OpenPrivateAppend(const std::filesystem::path& path) {
#ifdef _WIN32
  std::optional<win32::Sid> user = win32::CurrentUserSid();
  if (!user) return nullptr;
  std::wstring sddl = L"D:P(A;;FA;;;" + win32::Widen(win32::SidToString(*user)) + L")";
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.c_str(), SDDL_REVISION_1, &descriptor,
                                                              nullptr))
    return nullptr;
  SECURITY_ATTRIBUTES attributes{sizeof attributes, descriptor, FALSE};
  HANDLE handle = ::CreateFileW(path.c_str(), FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                &attributes, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  ::LocalFree(descriptor);
  if (handle == INVALID_HANDLE_VALUE) return nullptr;
  int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(handle), _O_APPEND | _O_WRONLY | _O_BINARY);
  if (fd < 0) {
    ::CloseHandle(handle);
    return nullptr;
  }
  std::FILE* file = ::_fdopen(fd, "ab");
  if (!file) ::_close(fd);  // closes the handle too
  return file;
#else
  mode_t old = ::umask(077);
  std::FILE* file = std::fopen(path.c_str(), "a");
  ::umask(old);
  return file;
#endif
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
    std::filesystem::create_directories(PathFromUtf8(dir), ec);
    file_ = OpenPrivateAppend(PathFromUtf8(dir) / ("platformpp-" + UtcTimestamp(true) + "-" +
                                                   std::to_string(ProcessId()) + ".log"));
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
