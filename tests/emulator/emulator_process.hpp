// Runs the real platformpp-emulator binary for the socket-level tests: a private temporary directory holds
// its data dir, connection file, IPC socket and output; the process is SIGKILLed if a test leaves it running.
// On Windows the process is created with CreateProcessW in a process group of its own: SIGINT and SIGTERM
// become the emulator's named stop event (server/stop_event.hpp), SIGKILL TerminateProcess.
#pragma once

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#ifdef _WIN32
#include <sys/types.h>  // pid_t
#include <windows.h>

#include <csignal>

#include "core/win32_security.hpp"
#include "server/stop_event.hpp"
#ifndef SIGKILL
#define SIGKILL 9  // Windows has none: EmulatorProcess::wait_exit(SIGKILL) is TerminateProcess
#endif
#else
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.hpp"
#include "core/private_files.hpp"

namespace platformpp::emulator::test {

// Set by main() from argv[1].
inline std::string g_emulator_path;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

#ifdef _WIN32
// Wine (ntdll exports wine_get_version) delivers no console control event to a child without a console, so a
// clean stop by Ctrl+Break cannot be tested there.
inline bool running_under_wine() {
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll != nullptr && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
}
#endif

inline std::string make_temp_dir() {
  return make_private_temp_directory("emulator-smoke-");
}

// A child emulator process; SIGKILLed on destruction if a test left it running. Its IPC socket lives in its
// private directory (`--ipc-dir`, unless `extra_args` name another) so parallel runs never meet.
class EmulatorProcess {
 public:
  explicit EmulatorProcess(std::vector<std::string> extra_args, bool expect_start = true,
                           std::string dir = make_temp_dir())
      : dir_(std::move(dir)) {
    connection_file_ = dir_ + "/connection.json";
    std::vector<std::string> args = {g_emulator_path,     "--port",         "0",
                                     "--connection-file", connection_file_, "--data-dir",
                                     dir_ + "/data",      "--ipc-dir",      dir_};
    for (auto& arg : extra_args)
      args.push_back(std::move(arg));
#ifdef _WIN32
    // One command line, each argument quoted as the C runtime's parser reads it back.
    std::wstring command_line;
    for (const auto& arg : args) {
      std::wstring quoted = L"\"";
      std::size_t backslashes = 0;
      for (const wchar_t c : widen(arg)) {
        if (c == L'\\') {
          ++backslashes;
          continue;
        }
        quoted.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        quoted += c;
      }
      quoted.append(backslashes * 2, L'\\');
      command_line += (command_line.empty() ? L"" : L" ") + quoted + L"\"";
    }
    SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    auto output = [&](const std::string& path) {
      return ::CreateFileW(widen(path).c_str(), GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inheritable,
                           CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    };
    HANDLE out = output(dir_ + "/stdout.txt");
    HANDLE err = output(dir_ + "/stderr.txt");
    REQUIRE(out != INVALID_HANDLE_VALUE);
    REQUIRE(err != INVALID_HANDLE_VALUE);
    STARTUPINFOW startup{};
    startup.cb = sizeof(startup);
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = ::GetStdHandle(STD_INPUT_HANDLE);
    startup.hStdOutput = out;
    startup.hStdError = err;
    PROCESS_INFORMATION created{};
    const BOOL started =
        ::CreateProcessW(widen(g_emulator_path).c_str(), command_line.data(), nullptr, nullptr, TRUE,
                         CREATE_NEW_PROCESS_GROUP, nullptr, nullptr, &startup, &created);
    const DWORD spawn_error = ::GetLastError();
    ::CloseHandle(out);
    ::CloseHandle(err);
    REQUIRE_MESSAGE(started != 0, "CreateProcessW: " << win32_error_message(spawn_error));
    ::CloseHandle(created.hThread);
    process_ = created.hProcess;
    pid_ = static_cast<pid_t>(created.dwProcessId);
#else
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (auto& arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const std::string out = dir_ + "/stdout.txt";
    const std::string err = dir_ + "/stderr.txt";
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    REQUIRE(posix_spawn(&pid_, g_emulator_path.c_str(), &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
#endif
    if (!expect_start) return;

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!path_exists(connection_file_)) {
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                      "no connection file; stderr: " << stderr_text());
      REQUIRE_MESSAGE(running(), "emulator exited early: " << stderr_text());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // A file just renamed into place may refuse a read for a moment on Windows (and under Wine): try again
    // for a second while the emulator runs.
    for (int attempt = 0;; ++attempt) {
      connection_json_ = read_file(connection_file_);
      if (platformpp::emulator::parse_json(connection_json_, connection_)) break;
      REQUIRE_MESSAGE(attempt < 100, "unreadable connection file: '" << connection_json_ << "'");
      REQUIRE_MESSAGE(running(), "emulator exited after writing its connection file: " << stderr_text());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    port_ = static_cast<unsigned short>(connection_["port"].GetUint());
  }

  ~EmulatorProcess() {
#ifdef _WIN32
    if (process_ != nullptr) {
      ::TerminateProcess(process_, 1);
      // Bounded: a process that does not end (seen once under Wine) must not hold the test until CTest's
      // time limit, which would show nothing of what went before.
      if (::WaitForSingleObject(process_, 20000) != WAIT_OBJECT_0)
        std::fprintf(stderr, "emulator process %ld did not end 20 s after TerminateProcess\n",
                     static_cast<long>(pid_));
      ::CloseHandle(process_);
    }
#else
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
#endif
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // SIGKILL (TerminateProcess) without waiting, from any thread, as a crash would end it; wait_exit then
  // returns -1.
  void kill_now() {
#ifdef _WIN32
    killed_ = ::TerminateProcess(process_, 1) != 0;
#else
    ::kill(pid_, SIGKILL);
#endif
  }

  // Waits for the process to exit (after sending `signal` if non-zero); the exit code, or -1 on a
  // signal/timeout.
  int wait_exit(int signal_number = 0) {
#ifdef _WIN32
    bool killed = killed_.load();
    if (signal_number == SIGKILL) {
      killed = ::TerminateProcess(process_, 1) != 0;
    } else if (signal_number != 0) {
      // SIGINT and SIGTERM: the emulator's named stop event (Ctrl+Break reaches no child under Wine).
      if (HANDLE event = ::OpenEventW(EVENT_MODIFY_STATE, FALSE,
                                      stop_event_name(static_cast<unsigned long>(pid_)).c_str())) {
        ::SetEvent(event);
        ::CloseHandle(event);
      } else {
        ::GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, static_cast<DWORD>(pid_));
      }
    }
    if (::WaitForSingleObject(process_, 20000) != WAIT_OBJECT_0) return -1;
    DWORD code = 0;
    ::GetExitCodeProcess(process_, &code);
    ::CloseHandle(process_);
    process_ = nullptr;
    pid_ = -1;
    return killed ? -1 : static_cast<int>(code);
#else
    if (signal_number != 0) ::kill(pid_, signal_number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
  }

  [[nodiscard]] const std::string& dir() const {
    return dir_;
  }
  [[nodiscard]] pid_t pid() const {
    return pid_;
  }
  [[nodiscard]] const rapidjson::Document& connection() const {
    return connection_;
  }
  [[nodiscard]] unsigned short port() const {
    return port_;
  }
  [[nodiscard]] std::string ca_file() const {
    return connection_["ca_file"].GetString();
  }
  // "Bearer <admin_token>": what every admin request carries.
  [[nodiscard]] std::string admin_authorization() const {
    return std::string("Bearer ") + connection_["admin_token"].GetString();
  }
  [[nodiscard]] const std::string& connection_file() const {
    return connection_file_;
  }
  [[nodiscard]] std::string stdout_text() const {
    return read_file(dir_ + "/stdout.txt");
  }
  // The startup line is printed after the connection file appears, so a reader that saw the file waits for
  // the whole line (up to its newline) before looking at it.
  [[nodiscard]] std::string stdout_first_line() const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    auto text = stdout_text();
    while (text.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      text = stdout_text();
    }
    return text.substr(0, text.find('\n'));
  }
  [[nodiscard]] std::string stderr_text() const {
    return read_file(dir_ + "/stderr.txt");
  }

 private:
  // Whether the process has not exited yet.
  [[nodiscard]] bool running() const {
#ifdef _WIN32
    return ::WaitForSingleObject(process_, 0) == WAIT_TIMEOUT;
#else
    int status = 0;
    return ::waitpid(pid_, &status, WNOHANG) == 0;
#endif
  }

  std::string dir_;
  std::string connection_file_;
  std::string connection_json_;
  rapidjson::Document connection_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
#ifdef _WIN32
  std::atomic<bool> killed_{false};  // by kill_now (on another thread)
  HANDLE process_ = nullptr;
#endif
};

// Stops `emulator` with `signal_number` (SIGTERM or SIGINT; on Windows its stop event) and checks the clean
// exit (code 0).
inline void check_clean_exit(EmulatorProcess& emulator, int signal_number) {
  CHECK(emulator.wait_exit(signal_number) == 0);
}

}  // namespace platformpp::emulator::test
