#include "core/private_files.hpp"

#ifdef _WIN32
#include <windows.h>

#include "core/win32_security.hpp"
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#endif

#include <cerrno>
#include <system_error>
#include <vector>

namespace platformpp::emulator {

#ifdef _WIN32

namespace {

[[noreturn]] void throw_described_last_error(const std::string& what) {
  throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(),
                          what + " (" + win32_error_message(::GetLastError()) + ")");
}

}  // namespace

std::string absolute_path(const std::string& path) {
  const std::wstring wide = widen(path);
  const DWORD size = ::GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (size == 0) throw_described_last_error("cannot resolve " + path);
  std::wstring full(size, L'\0');
  const DWORD length = ::GetFullPathNameW(wide.c_str(), size, full.data(), nullptr);
  if (length == 0 || length >= size) throw_described_last_error("cannot resolve " + path);
  full.resize(length);
  if (::GetFileAttributesW(full.c_str()) == INVALID_FILE_ATTRIBUTES)
    throw_described_last_error("cannot resolve " + path);
  return narrow(full);
}

std::string prepare_private_directory(const std::string& dir, const char* what) {
  UserOnlySecurity security;
  if (::CreateDirectoryW(widen(dir).c_str(), security.attributes()) == 0 &&
      ::GetLastError() != ERROR_ALREADY_EXISTS) {
    throw_described_last_error(std::string("cannot create ") + what + " " + dir);
  }
  return absolute_path(dir);
}

std::string make_private_temp_directory(const std::string& prefix) {
  wchar_t temp[MAX_PATH + 1];
  const DWORD length = ::GetTempPathW(MAX_PATH + 1, temp);
  if (length == 0 || length > MAX_PATH) throw_described_last_error("cannot find the temporary directory");
  std::string base = narrow(std::wstring_view(temp, length));
  while (!base.empty() && (base.back() == '\\' || base.back() == '/'))
    base.pop_back();
  UserOnlySecurity security;
  // Unpredictable names, created exclusively: CreateDirectoryW fails on an existing one (another user's
  // planted directory is never used).
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string candidate = base + "\\" + prefix;
    LARGE_INTEGER now{};
    ::QueryPerformanceCounter(&now);
    auto seed = static_cast<unsigned long long>(now.QuadPart) ^
                (static_cast<unsigned long long>(::GetCurrentProcessId()) << 32U) ^
                static_cast<unsigned long long>(attempt) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 6; ++i) {
      candidate += kAlphabet[seed % 36];
      seed /= 36;
    }
    if (::CreateDirectoryW(widen(candidate).c_str(), security.attributes()) != 0)
      return absolute_path(candidate);
    if (::GetLastError() != ERROR_ALREADY_EXISTS)
      throw_described_last_error("cannot create a data dir under " + base);
  }
  throw std::system_error(EEXIST, std::generic_category(), "cannot create a data dir under " + base);
}

bool create_private_file(const std::string& path) {
  UserOnlySecurity security;
  HANDLE file = ::CreateFileW(widen(path).c_str(), GENERIC_WRITE, 0, security.attributes(), CREATE_NEW,
                              FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) return false;
  ::CloseHandle(file);
  return true;
}

std::optional<std::string> executable_directory() {
  std::wstring self(MAX_PATH, L'\0');
  for (;;) {
    const DWORD length = ::GetModuleFileNameW(nullptr, self.data(), static_cast<DWORD>(self.size()));
    if (length == 0) return std::nullopt;
    if (length < self.size()) {
      self.resize(length);
      break;
    }
    self.resize(self.size() * 2);
  }
  const auto slash = self.find_last_of(L"\\/");
  if (slash == std::wstring::npos) return std::nullopt;
  self.resize(slash);
  return narrow(self);
}

bool path_exists(const std::string& path) {
  return ::GetFileAttributesW(widen(path).c_str()) != INVALID_FILE_ATTRIBUTES;
}

void remove_file(const std::string& path) noexcept {
  ::DeleteFileW(widen(path).c_str());
}

void remove_empty_directory(const std::string& path) noexcept {
  ::RemoveDirectoryW(widen(path).c_str());
}

long current_process_id() {
  return static_cast<long>(::GetCurrentProcessId());
}

#else  // POSIX

std::string absolute_path(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "cannot resolve " + path);
  }
  return resolved;
}

std::string prepare_private_directory(const std::string& dir, const char* what) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    throw std::system_error(errno, std::generic_category(), std::string("cannot create ") + what + " " + dir);
  }
  return absolute_path(dir);
}

std::string make_private_temp_directory(const std::string& prefix) {
  const char* tmpdir = std::getenv("TMPDIR");  // NOLINT(concurrency-mt-unsafe): read at startup only
  std::string base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  while (base.size() > 1 && base.back() == '/')
    base.pop_back();
  std::string pattern = base + "/" + prefix + "XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (::mkdtemp(buffer.data()) == nullptr) {  // mode 0700
    throw std::system_error(errno, std::generic_category(), "cannot create a data dir under " + base);
  }
  return absolute_path(buffer.data());
}

bool create_private_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

std::optional<std::string> executable_directory() {
  char self[PATH_MAX];
  const auto length = ::readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) return std::nullopt;
  std::string bin(self, static_cast<std::size_t>(length));
  bin.resize(bin.rfind('/'));
  return bin;
}

bool path_exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

void remove_file(const std::string& path) noexcept {
  ::unlink(path.c_str());
}

void remove_empty_directory(const std::string& path) noexcept {
  ::rmdir(path.c_str());
}

long current_process_id() {
  return static_cast<long>(::getpid());
}

#endif

}  // namespace platformpp::emulator
