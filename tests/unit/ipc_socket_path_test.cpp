// Where the desktop client's socket is looked for: environment precedence, the override, the sandboxes.
#include "ipc/ipc_socket_path.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>

namespace ipc_socket_path_test {

using namespace platformpp::ipc;

namespace {

EnvLookup FakeEnv(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

#ifdef _WIN32
// Windows: the named pipes \\?\pipe\<name>-ipc-<n>; the directory option and the environment do not matter.
TEST_CASE("ipc socket path: Windows names the 10 pipes \\\\?\\pipe\\<name>-ipc-<n>") {
  auto paths = IpcCandidatePaths("discord", "", FakeEnv({{"XDG_RUNTIME_DIR", "/run/user/1000"}}));
  REQUIRE(paths.size() == 10);
  for (int n = 0; n < 10; ++n)
    CHECK(paths[n] == R"(\\?\pipe\discord-ipc-)" + std::to_string(n));
}

TEST_CASE("ipc socket path: Windows ignores the directory override; the name prefix is used") {
  auto paths = IpcCandidatePaths("emu", "C:\\private", FakeEnv({{"TMP", "C:\\t"}}));
  REQUIRE(paths.size() == 10);
  CHECK(paths.front() == R"(\\?\pipe\emu-ipc-0)");
  CHECK(paths.back() == R"(\\?\pipe\emu-ipc-9)");
  CHECK(IpcCandidatePaths("emu", "") == paths);
}
#else
TEST_CASE("ipc socket path: 30 candidates, plain slots first, then snap, then flatpak") {
  auto paths = IpcCandidatePaths("discord", "", FakeEnv({{"XDG_RUNTIME_DIR", "/run/user/1000"}}));
  REQUIRE(paths.size() == 30);
  for (int n = 0; n < 10; ++n) {
    CHECK(paths[n] == "/run/user/1000/discord-ipc-" + std::to_string(n));
    CHECK(paths[10 + n] == "/run/user/1000/snap.discord/discord-ipc-" + std::to_string(n));
    CHECK(paths[20 + n] == "/run/user/1000/app/com.discordapp.Discord/discord-ipc-" + std::to_string(n));
  }
}

TEST_CASE("ipc socket path: XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, then /tmp; empty values are skipped") {
  auto first = [](std::map<std::string, std::string> env) {
    return IpcCandidatePaths("discord", "", FakeEnv(std::move(env))).front();
  };
  CHECK(first({{"XDG_RUNTIME_DIR", "/x"}, {"TMPDIR", "/a"}, {"TMP", "/b"}, {"TEMP", "/c"}}) ==
        "/x/discord-ipc-0");
  CHECK(first({{"TMPDIR", "/a"}, {"TMP", "/b"}, {"TEMP", "/c"}}) == "/a/discord-ipc-0");
  CHECK(first({{"XDG_RUNTIME_DIR", ""}, {"TMP", "/b"}, {"TEMP", "/c"}}) == "/b/discord-ipc-0");
  CHECK(first({{"TEMP", "/c"}}) == "/c/discord-ipc-0");
  CHECK(first({}) == "/tmp/discord-ipc-0");
  CHECK(first({{"XDG_RUNTIME_DIR", "/run/user/7///"}}) == "/run/user/7/discord-ipc-0");
  CHECK(first({{"TMPDIR", "/"}}) == "/discord-ipc-0");
}

TEST_CASE("ipc socket path: the directory override wins over the environment; the name prefix is used") {
  auto paths = IpcCandidatePaths("emu", "/tmp/private/", FakeEnv({{"XDG_RUNTIME_DIR", "/run/user/1000"}}));
  CHECK(paths.front() == "/tmp/private/emu-ipc-0");
  CHECK(paths[9] == "/tmp/private/emu-ipc-9");
  CHECK(paths[10] == "/tmp/private/snap.discord/emu-ipc-0");
  CHECK(paths.back() == "/tmp/private/app/com.discordapp.Discord/emu-ipc-9");
  CHECK(IpcRuntimeDirectory("/o", FakeEnv({{"TMPDIR", "/a"}})) == "/o");
}

TEST_CASE("ipc socket path: an empty lookup reads the process environment") {
  auto paths = IpcCandidatePaths("discord", "/override");
  CHECK(paths.front() == "/override/discord-ipc-0");
  CHECK_FALSE(IpcRuntimeDirectory("", {}).empty());
}

#endif

}  // namespace ipc_socket_path_test
