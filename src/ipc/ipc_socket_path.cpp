#include "ipc/ipc_socket_path.hpp"

#include <cstdlib>

namespace platformpp::ipc {
namespace {

constexpr int kSlots = 10;
#ifndef _WIN32
// Subdirectories of the runtime directory where sandboxed installs of the desktop client put their sockets.
constexpr std::string_view kSandboxDirectories[] = {"snap.discord/", "app/com.discordapp.Discord/"};

#endif

std::string WithoutTrailingSlashes(std::string_view dir) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.remove_suffix(1);
  return std::string(dir);
}

}  // namespace

EnvLookup ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

std::string IpcRuntimeDirectory(std::string_view directoryOverride, const EnvLookup& env) {
  if (!directoryOverride.empty()) return WithoutTrailingSlashes(directoryOverride);
  const EnvLookup& lookup = env ? env : ProcessEnvironment();
  for (const char* variable : {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"}) {
    std::optional<std::string> value = lookup(variable);
    if (value && !value->empty()) return WithoutTrailingSlashes(*value);
  }
  return "/tmp";
}

std::vector<std::string> IpcCandidatePaths(std::string_view name, std::string_view directoryOverride,
                                           const EnvLookup& env) {
#ifdef _WIN32
  // Named pipes live in one system-wide namespace, so there is no directory to choose (nor sandboxes).
  static_cast<void>(directoryOverride);
  static_cast<void>(env);
  std::vector<std::string> pipes;
  pipes.reserve(kSlots);
  for (int n = 0; n < kSlots; ++n)
    pipes.push_back(R"(\\?\pipe\)" + std::string(name) + "-ipc-" + std::to_string(n));
  return pipes;
#else
  std::string dir = IpcRuntimeDirectory(directoryOverride, env);
  if (dir != "/") dir += '/';
  std::vector<std::string> paths;
  paths.reserve(kSlots * (1 + std::size(kSandboxDirectories)));
  for (int n = 0; n < kSlots; ++n)
    paths.push_back(dir + std::string(name) + "-ipc-" + std::to_string(n));
  for (std::string_view sandbox : kSandboxDirectories) {
    for (int n = 0; n < kSlots; ++n)
      paths.push_back(dir + std::string(sandbox) + std::string(name) + "-ipc-" + std::to_string(n));
  }
  return paths;
#endif
}

}  // namespace platformpp::ipc
