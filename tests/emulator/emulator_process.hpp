// Runs the real platformpp-emulator binary for the socket-level tests: a private temporary directory holds
// its data dir, connection file, IPC socket and output; the process is SIGKILLed if a test leaves it running.
#pragma once

#include <doctest/doctest.h>
#include <fcntl.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/json.hpp"

namespace platformpp::emulator::test {

// Set by main() from argv[1].
inline std::string g_emulator_path;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

inline std::string make_temp_dir() {
  char dir_template[] = "/tmp/emulator-smoke-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  return dir_template;
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
    if (!expect_start) return;

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (::access(connection_file_.c_str(), F_OK) != 0) {
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                      "no connection file; stderr: " << stderr_text());
      int status = 0;
      REQUIRE_MESSAGE(::waitpid(pid_, &status, WNOHANG) == 0, "emulator exited early: " << stderr_text());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    connection_json_ = read_file(connection_file_);
    REQUIRE(platformpp::emulator::parse_json(connection_json_, connection_));
    port_ = static_cast<unsigned short>(connection_["port"].GetUint());
  }

  ~EmulatorProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // Waits for the process to exit (after sending `signal` if non-zero); the exit code, or -1 on a
  // signal/timeout.
  int wait_exit(int signal_number = 0) {
    if (signal_number != 0) ::kill(pid_, signal_number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  [[nodiscard]] const std::string& dir() const { return dir_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] const rapidjson::Document& connection() const { return connection_; }
  [[nodiscard]] unsigned short port() const { return port_; }
  [[nodiscard]] std::string ca_file() const { return connection_["ca_file"].GetString(); }
  [[nodiscard]] const std::string& connection_file() const { return connection_file_; }
  [[nodiscard]] std::string stdout_text() const { return read_file(dir_ + "/stdout.txt"); }
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
  [[nodiscard]] std::string stderr_text() const { return read_file(dir_ + "/stderr.txt"); }

 private:
  std::string dir_;
  std::string connection_file_;
  std::string connection_json_;
  rapidjson::Document connection_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace platformpp::emulator::test
