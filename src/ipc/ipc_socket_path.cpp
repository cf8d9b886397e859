#include "ipc/ipc_socket_path.hpp"

#include <cstdlib>

namespace platformpp::ipc {
namespace {

constexpr int kSlots = 10;
// Subdirectories of the runtime directory where sandboxed installs of the desktop client put their sockets.
constexpr std::string_view kSandboxDirectories[] = {"snap.discord/", "app/com.discordapp.Discord/"};

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
}

}  // namespace platformpp::ipc
