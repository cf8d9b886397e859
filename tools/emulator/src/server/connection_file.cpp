#include "server/connection_file.hpp"

#ifdef _WIN32
#include <windows.h>

#include <atomic>

#include "core/win32_security.hpp"
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "core/json.hpp"

namespace platformpp::emulator {

std::string ConnectionInfo::authority() const {
  const std::string shown_host = host == "::1" ? "[::1]" : host;
  return shown_host + ":" + std::to_string(port);
}

std::string ConnectionInfo::api_base() const {
  return (tls ? "https://" : "http://") + authority() + "/api/v10";
}
std::string ConnectionInfo::gateway_url() const {
  return (tls ? "wss://" : "ws://") + authority();
}
std::string ConnectionInfo::admin_base() const {
  return (tls ? "https://" : "http://") + authority() + "/_emulator";
}

std::string ConnectionInfo::web_base() const {
  return (tls ? "https://" : "http://") + authority();
}

std::string connection_file_json(const ConnectionInfo& info) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("api_base");
    write_string(writer, info.api_base());
    writer.Key("gateway_url");
    write_string(writer, info.gateway_url());
    writer.Key("admin_base");
    write_string(writer, info.admin_base());
    writer.Key("web_base");
    write_string(writer, info.web_base());
    writer.Key("admin_token");
    write_string(writer, info.admin_token);
    writer.Key("ca_file");
    if (info.tls) {
      write_string(writer, info.ca_file);
    } else {
      writer.Null();
    }
    writer.Key("ipc_path");
    if (info.ipc_path.empty()) {
      writer.Null();
    } else {
      write_string(writer, info.ipc_path);
    }
    writer.Key("ipc_name");
    write_string(writer, info.ipc_name);
    writer.Key("ipc_dir");
    write_string(writer, info.ipc_dir);
    writer.Key("port");
    writer.Uint(info.port);
    writer.Key("pid");
    writer.Int64(info.pid);
    writer.Key("tls");
    writer.Bool(info.tls);
    writer.Key("version");
    write_string(writer, info.version);
    writer.EndObject();
  });
}

std::optional<std::string> process_environment(const char* name) {
  const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read at startup only
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::string ipc_directory(const EnvironmentLookup& env) {
  std::string dir = "/tmp";
  for (const char* name : {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}) {
    if (auto value = env(name)) {
      dir = std::move(*value);
      break;
    }
  }
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  return dir;
}

std::string ipc_socket_path(const std::string& dir, const std::string& prefix, int index) {
#ifdef _WIN32
  (void)dir;  // the pipe namespace has no directories
  return R"(\\?\pipe\)" + prefix + "-ipc-" + std::to_string(index);
#else
  return (dir == "/" ? std::string() : dir) + "/" + prefix + "-ipc-" + std::to_string(index);
#endif
}

std::string ipc_socket_path(const std::string& prefix, const EnvironmentLookup& env) {
  return ipc_socket_path(ipc_directory(env), prefix, 0);
}

#ifdef _WIN32

void write_file_atomically(const std::string& path, const std::string& content, unsigned mode) {
  // No group or other bits asked: the current user's alone (a protected DACL); else the directory's inherited
  // permissions, as for any new file.
  std::optional<UserOnlySecurity> private_security;
  if ((mode & 077U) == 0) private_security.emplace();
  auto error = [&](const std::string& what) {
    const DWORD code = ::GetLastError();
    return std::system_error(static_cast<int>(code), std::system_category(),
                             what + " " + path + " (" + win32_error_message(code) + ")");
  };
  static std::atomic<unsigned> counter{0};
  std::wstring temp_path;
  HANDLE file = INVALID_HANDLE_VALUE;
  for (int attempt = 0; file == INVALID_HANDLE_VALUE; ++attempt) {
    temp_path =
        widen(path + ".tmp" + std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(counter++));
    file = ::CreateFileW(temp_path.c_str(), GENERIC_WRITE, 0,
                         private_security ? private_security->attributes() : nullptr, CREATE_NEW,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE && (::GetLastError() != ERROR_FILE_EXISTS || attempt > 100))
      throw error("cannot create a file beside");
  }
  auto fail = [&](const char* what) {
    auto failure = error(what);
    ::CloseHandle(file);
    ::DeleteFileW(temp_path.c_str());
    throw failure;
  };
  std::size_t written = 0;
  while (written < content.size()) {
    DWORD n = 0;
    const auto chunk = static_cast<DWORD>(std::min<std::size_t>(content.size() - written, 1U << 30U));
    if (::WriteFile(file, content.data() + written, chunk, &n, nullptr) == 0) fail("cannot write");
    written += n;
  }
  if (::FlushFileBuffers(file) == 0) fail("cannot flush");
  ::CloseHandle(file);
  if (::MoveFileExW(temp_path.c_str(), widen(path).c_str(),
                    MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) == 0) {
    auto failure = error("cannot rename into");
    ::DeleteFileW(temp_path.c_str());
    throw failure;
  }
}

#else

void write_file_atomically(const std::string& path, const std::string& content, unsigned mode) {
  std::string temp_template = path + ".tmpXXXXXX";
  std::vector<char> temp_path(temp_template.begin(), temp_template.end());
  temp_path.push_back('\0');
  const int fd = ::mkstemp(temp_path.data());
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot create a file beside " + path);
  auto fail = [&](const char* what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp_path.data());
    throw std::system_error(error, std::generic_category(), std::string(what) + " " + path);
  };
  if (::fchmod(fd, static_cast<mode_t>(mode)) != 0) fail("cannot set the mode of");
  std::size_t written = 0;
  while (written < content.size()) {
    const auto n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail("cannot flush");
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp_path.data());
    throw std::system_error(error, std::generic_category(), "cannot close " + path);
  }
  if (::rename(temp_path.data(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp_path.data());
    throw std::system_error(error, std::generic_category(), "cannot rename into " + path);
  }
}

#endif

}  // namespace platformpp::emulator
