// ConnectionInfo and EmulatorProcess: reading the emulator's connection file, and starting and stopping
// the emulator as a child process.
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

namespace platformpp::testkit {
namespace {

std::string FindBinary(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("PLATFORMPP_EMULATOR"); env && *env) return env;
  return "platformpp-emulator";
}

}  // namespace

using detail::ParseOrThrow;
using detail::RequireString;

ConnectionInfo ConnectionInfo::Load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read connection file " + path);
  std::stringstream text;
  text << in.rdbuf();
  json::Document document = ParseOrThrow(text.str(), path);
  ConnectionInfo info;
  info.apiBase = RequireString(document, "api_base", path);
  info.gatewayUrl = RequireString(document, "gateway_url", path);
  info.adminBase = RequireString(document, "admin_base", path);
  info.webBase = json::GetString(document, "web_base").value_or("");
  info.caFile = json::GetString(document, "ca_file").value_or("");
  info.ipcPath = json::GetString(document, "ipc_path").value_or("");
  info.ipcName = json::GetString(document, "ipc_name").value_or("");
  info.ipcDirectory = json::GetString(document, "ipc_dir").value_or("");
  info.port = static_cast<int>(json::GetInt(document, "port").value_or(0));
  info.tls = info.apiBase.rfind("https://", 0) == 0;
  if (info.tls && info.caFile.empty()) throw std::runtime_error(path + ": TLS without a ca_file");
  return info;
}

ClientOptions ConnectionInfo::ClientOptionsFor() const {
  ClientOptions options;
  options.apiBase = apiBase;
  options.caFile = caFile;
  if (!webBase.empty()) options.webBase = webBase;
  if (!ipcName.empty()) options.ipcName = ipcName;
  if (!ipcDirectory.empty()) options.ipcDirectory = ipcDirectory;
  return options;
}

std::unique_ptr<EmulatorProcess> EmulatorProcess::Start(Options options) {
  std::unique_ptr<EmulatorProcess> process(new EmulatorProcess());
  std::string base = (std::filesystem::temp_directory_path() / "platformpp-emulator-XXXXXX").string();
  if (!::mkdtemp(base.data()))
    throw std::runtime_error(std::string("mkdtemp failed: ") + std::strerror(errno));
  process->dataDir_ = base;
  process->connectionFile_ = base + "/connection.json";
  // Private: it holds the IPC socket, which must be reachable by this user only.
  if (::chmod(base.c_str(), 0700) != 0)
    throw std::runtime_error("chmod " + base + " failed: " + std::strerror(errno));

  std::string binary = FindBinary(options.binary);
  std::vector<std::string> args = {binary,       "--port", "0", "--connection-file", process->connectionFile_,
                                   "--data-dir", base};
  if (options.plainHttp) args.emplace_back("--plain-http");
  if (options.ipc) {
    args.insert(args.end(), {"--ipc-dir", base, "--ipc-name", options.ipcName});
  } else {
    args.emplace_back("--no-ipc");
  }
  args.insert(args.end(), options.extraArguments.begin(), options.extraArguments.end());
  std::vector<char*> argv;
  argv.reserve(args.size());
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  std::string log = base + "/emulator.log";
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  int rc = ::posix_spawnp(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + binary + ": " + std::strerror(rc));
  process->pid_ = pid;

  auto deadline = std::chrono::steady_clock::now() + options.startTimeout;
  while (!std::filesystem::exists(process->connectionFile_)) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      process->pid_ = -1;
      std::ifstream in(log);
      std::stringstream text;
      text << in.rdbuf();
      throw std::runtime_error("the emulator exited before it was ready: " + text.str());
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("the emulator did not start in time");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  process->connection_ = ConnectionInfo::Load(process->connectionFile_);
  return process;
}

EmulatorProcess::~EmulatorProcess() {
  Stop();
  std::error_code ignored;
  if (!dataDir_.empty()) std::filesystem::remove_all(dataDir_, ignored);
}

int EmulatorProcess::Stop() {
  if (pid_ <= 0) return exitStatus_;
  ::kill(pid_, SIGTERM);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid_ = -1;
  exitStatus_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return exitStatus_;
}

}  // namespace platformpp::testkit
