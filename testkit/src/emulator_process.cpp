// ConnectionInfo and EmulatorProcess: reading the emulator's connection file, and starting and stopping
// the emulator as a child process.
#include <platformpp/io_context.hpp>
#include <platformpp/testkit/emulator.hpp>

#include "admin_json.hpp"
#include "json/json.hpp"
#ifdef _WIN32
#include "core/win32.hpp"
#endif

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>
#include <thread>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#endif

namespace platformpp::testkit {
namespace {

std::string FindBinary(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("PLATFORMPP_EMULATOR"); env && *env) return env;
  return "platformpp-emulator";
}

#ifdef _WIN32
using core::win32::Narrow;
using core::win32::QuoteArgument;
using core::win32::Widen;

// A fresh directory under the temporary directory that only the current user may open (a protected DACL with
// one entry, like the emulator's own data dir): it holds the connection file and the data.
std::string MakePrivateTempDirectory(const std::string& prefix) {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token))
    throw std::runtime_error("OpenProcessToken failed");
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  std::vector<unsigned char> user(size);
  const BOOL read = ::GetTokenInformation(token, TokenUser, user.data(), size, &size);
  ::CloseHandle(token);
  if (!read) throw std::runtime_error("GetTokenInformation failed");
  PSID sid = reinterpret_cast<TOKEN_USER*>(user.data())->User.Sid;
  std::vector<unsigned char> acl(sizeof(ACL) + sizeof(ACCESS_ALLOWED_ACE) - sizeof(DWORD) +
                                 ::GetLengthSid(sid));
  auto* dacl = reinterpret_cast<ACL*>(acl.data());
  SECURITY_DESCRIPTOR descriptor{};
  if (!::InitializeAcl(dacl, static_cast<DWORD>(acl.size()), ACL_REVISION) ||
      !::AddAccessAllowedAceEx(dacl, ACL_REVISION, OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE,
                               FILE_ALL_ACCESS, sid) ||
      !::InitializeSecurityDescriptor(&descriptor, SECURITY_DESCRIPTOR_REVISION) ||
      !::SetSecurityDescriptorDacl(&descriptor, TRUE, dacl, FALSE) ||
      !::SetSecurityDescriptorControl(&descriptor, SE_DACL_PROTECTED, SE_DACL_PROTECTED))
    throw std::runtime_error("cannot build a private security descriptor");
  SECURITY_ATTRIBUTES attributes{sizeof(SECURITY_ATTRIBUTES), &descriptor, FALSE};
  const std::wstring base = std::filesystem::temp_directory_path().wstring();
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    LARGE_INTEGER now{};
    ::QueryPerformanceCounter(&now);
    const std::wstring candidate =
        base + L"\\" + Widen(prefix) + L"-" + std::to_wstring(::GetCurrentProcessId()) + L"-" +
        std::to_wstring(now.QuadPart % 1000000007) + L"-" + std::to_wstring(attempt);
    if (::CreateDirectoryW(candidate.c_str(), &attributes)) return Narrow(candidate);
    if (::GetLastError() != ERROR_ALREADY_EXISTS) break;
  }
  throw std::runtime_error("cannot create a private directory under " + Narrow(base));
}

// Wine (ntdll exports wine_get_version) delivers no console control event to a console-less child.
bool RunningUnderWine() {
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  return ntdll != nullptr && ::GetProcAddress(ntdll, "wine_get_version") != nullptr;
}
#else
// A fresh directory under the temporary directory that only the current user may open: it holds the
// connection file, the data and the IPC socket.
std::string MakePrivateTempDirectory(const std::string& prefix) {
  std::string base = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(base.data()))
    throw std::runtime_error(std::string("mkdtemp failed: ") + std::strerror(errno));
  if (::chmod(base.c_str(), 0700) != 0)
    throw std::runtime_error("chmod " + base + " failed: " + std::strerror(errno));
  return base;
}
#endif

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A child process: args[0] (searched for on PATH when it is a bare name) with its standard output and error
// in `output`, a file created for it.
struct Child {
  int pid = -1;
#ifdef _WIN32
  HANDLE process = nullptr;
#endif
};

// ownProcessGroup (Windows): a console process group of its own, so that a Ctrl+Break reaches the child
// alone.
Child Spawn(std::vector<std::string> args, const std::string& output, [[maybe_unused]] bool ownProcessGroup) {
  Child child;
#ifdef _WIN32
  std::wstring commandLine;
  for (const std::string& arg : args)
    commandLine += (commandLine.empty() ? L"" : L" ") + QuoteArgument(arg);
  SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE outputHandle = ::CreateFileW(Widen(output).c_str(), GENERIC_WRITE,
                                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inheritable,
                                      CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (outputHandle == INVALID_HANDLE_VALUE) throw std::runtime_error("cannot create " + output);
  STARTUPINFOW startup{};
  startup.cb = sizeof(startup);
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = ::GetStdHandle(STD_INPUT_HANDLE);
  startup.hStdOutput = outputHandle;
  startup.hStdError = outputHandle;
  PROCESS_INFORMATION created{};
  const BOOL started =
      ::CreateProcessW(nullptr, commandLine.data(), nullptr, nullptr, TRUE,
                       ownProcessGroup ? CREATE_NEW_PROCESS_GROUP : 0, nullptr, nullptr, &startup, &created);
  const DWORD spawnError = ::GetLastError();
  ::CloseHandle(outputHandle);
  if (!started)
    throw std::runtime_error("cannot start " + args[0] + ": Windows error " + std::to_string(spawnError));
  ::CloseHandle(created.hThread);
  child.process = created.hProcess;
  child.pid = static_cast<int>(created.dwProcessId);
#else
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + args[0] + ": " + std::strerror(rc));
  child.pid = pid;
#endif
  return child;
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
  info.adminToken = RequireString(document, "admin_token", path);
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
  const std::string base = MakePrivateTempDirectory("platformpp-emulator");
  process->dataDir_ = base;
  process->connectionFile_ = (std::filesystem::path(base) / "connection.json").string();

  std::vector<std::string> args = {FindBinary(options.binary), "--port",     "0", "--connection-file",
                                   process->connectionFile_,   "--data-dir", base};
  if (options.plainHttp) args.emplace_back("--plain-http");
  if (options.ipc) {
#ifdef _WIN32
    if (options.ipcName == Options{}.ipcName) {
      static std::atomic<unsigned> started{0};
      options.ipcName += "-" + std::to_string(::GetCurrentProcessId()) + "-" + std::to_string(++started);
    }
#endif
    args.insert(args.end(), {"--ipc-dir", base, "--ipc-name", options.ipcName});
  } else {
    args.emplace_back("--no-ipc");
  }
  if (!options.importFile.empty()) args.insert(args.end(), {"--import", options.importFile});
  if (!options.exportOnExit.empty()) args.insert(args.end(), {"--export-on-exit", options.exportOnExit});
  if (!options.eventLog.empty()) args.insert(args.end(), {"--event-log", options.eventLog});
  if (!options.scenario.empty()) args.insert(args.end(), {"--scenario", options.scenario});
  args.insert(args.end(), options.extraArguments.begin(), options.extraArguments.end());
  const std::string log = (std::filesystem::path(base) / "emulator.log").string();
  // A process group of its own, so that Stop's Ctrl+Break reaches the emulator alone.
  const Child child = Spawn(std::move(args), log, true);
  process->pid_ = child.pid;
#ifdef _WIN32
  process->process_ = child.process;
#else
  const pid_t pid = child.pid;
#endif

  auto deadline = std::chrono::steady_clock::now() + options.startTimeout;
  while (!std::filesystem::exists(process->connectionFile_)) {
#ifdef _WIN32
    if (::WaitForSingleObject(process->process_, 0) == WAIT_OBJECT_0) {
      ::CloseHandle(process->process_);
      process->process_ = nullptr;
#else
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
#endif
      process->pid_ = -1;
      throw std::runtime_error("the emulator exited before it was ready: " + ReadWholeFile(log));
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("the emulator did not start in time; it printed: " + ReadWholeFile(log));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // A file that exists may still refuse a read for a moment on Windows (a virus scanner opening it first, or
  // Wine's rename): try again for a second, and if the emulator has gone, say what it printed.
  for (int attempt = 0;; ++attempt) {
    try {
      process->connection_ = ConnectionInfo::Load(process->connectionFile_);
      return process;
    } catch (const std::runtime_error&) {
#ifdef _WIN32
      const bool exited = ::WaitForSingleObject(process->process_, 0) == WAIT_OBJECT_0;
#else
      int status = 0;
      const bool exited = ::waitpid(pid, &status, WNOHANG) == pid;
      if (exited) process->pid_ = -1;
#endif
      if (exited)
        throw std::runtime_error("the emulator exited after writing its connection file: " +
                                 ReadWholeFile(log));
      if (attempt >= 100) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

EmulatorProcess::ReplayResult EmulatorProcess::Replay(const std::string& eventLog,
                                                      const ReplayOptions& options) {
  std::vector<std::string> args = {FindBinary(options.binary), "--replay", eventLog};
  if (!options.scenario.empty()) args.insert(args.end(), {"--scenario", options.scenario});
  if (!options.importFile.empty()) args.insert(args.end(), {"--import", options.importFile});
  const std::string directory = MakePrivateTempDirectory("platformpp-replay");
  const std::string output = (std::filesystem::path(directory) / "replay.txt").string();
  const Child child = Spawn(std::move(args), output, false);
  ReplayResult result;
#ifdef _WIN32
  ::WaitForSingleObject(child.process, INFINITE);
  DWORD code = 0;
  ::GetExitCodeProcess(child.process, &code);
  ::CloseHandle(child.process);
  result.exitCode = static_cast<int>(code);
#else
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
  result.report = ReadWholeFile(output);
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return result;
}

EmulatorProcess::~EmulatorProcess() {
  Stop();
  std::error_code ignored;
  if (!dataDir_.empty()) std::filesystem::remove_all(dataDir_, ignored);
}

int EmulatorProcess::Stop() {
  if (pid_ <= 0) return exitStatus_;
#ifdef _WIN32
  HANDLE process = process_;
  bool killed = false;
  // The emulator's named stop event (tools/emulator/README.md, "Windows"): its SIGTERM. An emulator too old
  // to have one gets Ctrl+Break, which reaches it outside Wine.
  const std::wstring event_name = L"Local\\platformpp-emulator-stop-" + std::to_wstring(pid_);
  if (HANDLE event = ::OpenEventW(EVENT_MODIFY_STATE, FALSE, event_name.c_str())) {
    ::SetEvent(event);
    ::CloseHandle(event);
  } else if (!RunningUnderWine()) {
    ::GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, static_cast<DWORD>(pid_));
  }
  if (::WaitForSingleObject(process, 10000) != WAIT_OBJECT_0) {
    killed = ::TerminateProcess(process, 1) != 0;
    ::WaitForSingleObject(process, INFINITE);
  }
  DWORD code = 0;
  ::GetExitCodeProcess(process, &code);
  ::CloseHandle(process);
  process_ = nullptr;
  pid_ = -1;
  exitStatus_ = killed ? -1 : static_cast<int>(code);
  return exitStatus_;
#else
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
#endif
}

void EmulatorProcess::Kill() {
  if (pid_ <= 0) return;
#ifdef _WIN32
  ::TerminateProcess(process_, 1);
  ::WaitForSingleObject(process_, INFINITE);
  ::CloseHandle(process_);
  process_ = nullptr;
#else
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
#endif
  pid_ = -1;
  exitStatus_ = -1;
}

}  // namespace platformpp::testkit
