// RegisterLaunchCommand on Linux: the desktop entry and mimeapps.list, in temporary XDG directories. On
// Windows: the URL protocol key of the user's registry classes.
#include "presence/launch_command.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include "test_portability.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace launch_command_test {
#ifndef _WIN32

namespace fs = std::filesystem;
using platformpp::presence::EnvLookup;
using platformpp::presence::RegisterLaunchCommand;

namespace {

struct TempXdg {
  fs::path root;
  std::map<std::string, std::string> vars;
  TempXdg() {
    root = fs::temp_directory_path() / ("platformpp-launch-" + std::to_string(platformpp_test::ProcessId()) +
                                        "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::remove_all(root);
    fs::create_directories(root);
    vars["XDG_DATA_HOME"] = (root / "data").string();
    vars["XDG_CONFIG_HOME"] = (root / "config").string();
    vars["HOME"] = (root / "home").string();
  }
  ~TempXdg() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  EnvLookup Env() const {
    return [vars = vars](const std::string& name) -> std::optional<std::string> {
      auto it = vars.find(name);
      if (it == vars.end()) return std::nullopt;
      return it->second;
    };
  }
};

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("launch command: desktop entry with the URL scheme, and the mimeapps default") {
  TempXdg xdg;
  std::string error;
  REQUIRE_MESSAGE(RegisterLaunchCommand(1234, "/opt/game/run --join", &error, xdg.Env()), error);
  std::string desktop = Read(xdg.root / "data" / "applications" / "discord-1234.desktop");
  CHECK(desktop.rfind("[Desktop Entry]\n", 0) == 0);
  CHECK(desktop.find("\nType=Application\n") != std::string::npos);
  CHECK(desktop.find("\nExec=/opt/game/run --join %u\n") != std::string::npos);
  CHECK(desktop.find("\nMimeType=x-scheme-handler/discord-1234;\n") != std::string::npos);
  std::string mimeapps = Read(xdg.root / "config" / "mimeapps.list");
  CHECK(mimeapps == "[Default Applications]\nx-scheme-handler/discord-1234=discord-1234.desktop\n");
  // Nothing left behind in HOME when the XDG variables are set.
  CHECK_FALSE(fs::exists(xdg.root / "home"));
}

TEST_CASE("launch command: other mimeapps entries and groups are kept, ours replaced in place") {
  TempXdg xdg;
  const std::string before =
      "# mine\n"
      "[Added Associations]\n"
      "text/plain=gedit.desktop;\n"
      "\n"
      "[Default Applications]\n"
      "text/html=firefox.desktop\n"
      "x-scheme-handler/discord-77=old.desktop\n"
      "image/png=eog.desktop\n"
      "\n"
      "[Removed Associations]\n"
      "x-scheme-handler/discord-77=other.desktop\n";
  Write(xdg.root / "config" / "mimeapps.list", before);
  std::string error;
  REQUIRE_MESSAGE(RegisterLaunchCommand(77, "game", &error, xdg.Env()), error);
  std::string after = Read(xdg.root / "config" / "mimeapps.list");
  std::string expected = before;
  expected.replace(expected.find("x-scheme-handler/discord-77=old.desktop"),
                   std::string("x-scheme-handler/discord-77=old.desktop").size(),
                   "x-scheme-handler/discord-77=discord-77.desktop");
  CHECK(after == expected);

  // A second application goes at the end of [Default Applications], before the blank line and next group.
  REQUIRE_MESSAGE(RegisterLaunchCommand(88, "game2", &error, xdg.Env()), error);
  after = Read(xdg.root / "config" / "mimeapps.list");
  CHECK(after.find("image/png=eog.desktop\nx-scheme-handler/discord-88=discord-88.desktop\n\n[Removed "
                   "Associations]") != std::string::npos);
  CHECK(after.find("x-scheme-handler/discord-77=discord-77.desktop") != std::string::npos);
  CHECK(after.find("text/plain=gedit.desktop;") != std::string::npos);
  // Registering again does not duplicate the entry.
  REQUIRE(RegisterLaunchCommand(88, "game3", &error, xdg.Env()));
  std::string again = Read(xdg.root / "config" / "mimeapps.list");
  CHECK(again == after);
  CHECK(Read(xdg.root / "data" / "applications" / "discord-88.desktop").find("\nExec=game3 %u\n") !=
        std::string::npos);
}

TEST_CASE("launch command: a mimeapps.list without the group gets one appended") {
  TempXdg xdg;
  Write(xdg.root / "config" / "mimeapps.list", "[Added Associations]\ntext/plain=gedit.desktop;\n");
  std::string error;
  REQUIRE(RegisterLaunchCommand(5, "game", &error, xdg.Env()));
  CHECK(Read(xdg.root / "config" / "mimeapps.list") ==
        "[Added Associations]\ntext/plain=gedit.desktop;\n\n[Default Applications]\n"
        "x-scheme-handler/discord-5=discord-5.desktop\n");
}

TEST_CASE("launch command: defaults under HOME when the XDG variables are unset or relative") {
  TempXdg xdg;
  xdg.vars.erase("XDG_DATA_HOME");
  xdg.vars["XDG_CONFIG_HOME"] = "relative/config";  // ignored, as the XDG spec says
  std::string error;
  REQUIRE_MESSAGE(RegisterLaunchCommand(9, "game", &error, xdg.Env()), error);
  CHECK(fs::exists(xdg.root / "home" / ".local" / "share" / "applications" / "discord-9.desktop"));
  CHECK(fs::exists(xdg.root / "home" / ".config" / "mimeapps.list"));
}

TEST_CASE("launch command: the Exec value escapes '%' and '\\'") {
  TempXdg xdg;
  std::string error;
  REQUIRE(RegisterLaunchCommand(3, "run 100% C:\\game", &error, xdg.Env()));
  CHECK(Read(xdg.root / "data" / "applications" / "discord-3.desktop")
            .find("\nExec=run 100%% C:\\\\game %u\n") != std::string::npos);
}

TEST_CASE("launch command: errors return false") {
  TempXdg xdg;
  std::string error;
  CHECK_FALSE(RegisterLaunchCommand(0, "game", &error, xdg.Env()));
  CHECK_FALSE(error.empty());
  CHECK_FALSE(RegisterLaunchCommand(1, "", &error, xdg.Env()));
  CHECK_FALSE(RegisterLaunchCommand(1, "   ", &error, xdg.Env()));
  CHECK_FALSE(RegisterLaunchCommand(1, "game\nX-Evil=1", &error, xdg.Env()));
  CHECK_FALSE(fs::exists(xdg.root / "data"));  // nothing written for a refused call

  TempXdg none;
  none.vars.clear();
  CHECK_FALSE(RegisterLaunchCommand(1, "game", &error, none.Env()));

  // A data directory that is a file: cannot be written.
  TempXdg blocked;
  Write(blocked.root / "data", "not a directory");
  CHECK_FALSE(RegisterLaunchCommand(1, "game", &error, blocked.Env()));
  CHECK(error.find("data") != std::string::npos);
}

TEST_CASE("launch command: Steam") {
  CHECK(platformpp::presence::SteamLaunchCommand(570) == "xdg-open steam://rungameid/570");
}

TEST_CASE("launch command: Client::RegisterLaunchSteamApplication writes to the process's XDG directories") {
  TempXdg xdg;
  auto previous = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  auto oldData = previous("XDG_DATA_HOME");
  auto oldConfig = previous("XDG_CONFIG_HOME");
  platformpp_test::SetEnv("XDG_DATA_HOME", xdg.vars["XDG_DATA_HOME"].c_str());
  platformpp_test::SetEnv("XDG_CONFIG_HOME", xdg.vars["XDG_CONFIG_HOME"].c_str());
  bool registered, refused;
  {
    platformpp::Client client;
    registered = client.RegisterLaunchSteamApplication(4242, 570);
    refused = client.RegisterLaunchCommand(4242, "");
  }
  for (auto& [name, value] : {std::pair{"XDG_DATA_HOME", oldData}, std::pair{"XDG_CONFIG_HOME", oldConfig}}) {
    if (value) {
      platformpp_test::SetEnv(name, value->c_str());
    } else {
      platformpp_test::UnsetEnv(name);
    }
  }
  CHECK(registered);
  CHECK_FALSE(refused);
  CHECK(Read(xdg.root / "data" / "applications" / "discord-4242.desktop")
            .find("\nExec=xdg-open steam://rungameid/570 %u\n") != std::string::npos);
  CHECK(Read(xdg.root / "config" / "mimeapps.list")
            .find("x-scheme-handler/discord-4242=discord-4242.desktop") != std::string::npos);
}

#else  // _WIN32

namespace {

// The default value of HKEY_CURRENT_USER\<path> (or its `name` value); nullopt when absent.
std::optional<std::wstring> ReadValue(const std::wstring& path, const wchar_t* name = nullptr) {
  wchar_t buffer[1024];
  DWORD size = sizeof buffer;
  if (::RegGetValueW(HKEY_CURRENT_USER, path.c_str(), name, RRF_RT_REG_SZ, nullptr, buffer, &size) !=
      ERROR_SUCCESS)
    return std::nullopt;
  return std::wstring(buffer);
}

// Removes the test's scheme key before and after.
struct SchemeKey {
  explicit SchemeKey(uint64_t id) : path(L"Software\\Classes\\discord-" + std::to_wstring(id)) {
    ::RegDeleteTreeW(HKEY_CURRENT_USER, path.c_str());
  }
  ~SchemeKey() { ::RegDeleteTreeW(HKEY_CURRENT_USER, path.c_str()); }
  std::wstring path;
};

}  // namespace

TEST_CASE("launch command: Windows registers discord-<id>:// in the user's classes") {
  SchemeKey key(987654321);
  std::string error;
  REQUIRE_MESSAGE(
      platformpp::presence::RegisterLaunchCommand(987654321, R"(C:\Games\My Game\run.exe --join)", &error),
      error);
  CHECK(ReadValue(key.path) == std::optional<std::wstring>(L"URL:Run game 987654321 protocol"));
  CHECK(ReadValue(key.path, L"URL Protocol") == std::optional<std::wstring>(L""));
  CHECK(ReadValue(key.path + L"\\shell\\open\\command") ==
        std::optional<std::wstring>(LR"(C:\Games\My Game\run.exe --join "%1")"));
  // Again: the command is replaced.
  REQUIRE(platformpp::presence::RegisterLaunchCommand(987654321, "game2", &error));
  CHECK(ReadValue(key.path + L"\\shell\\open\\command") == std::optional<std::wstring>(LR"(game2 "%1")"));
}

TEST_CASE("launch command: Windows refuses a zero id, an empty command and a line break") {
  std::string error;
  CHECK_FALSE(platformpp::presence::RegisterLaunchCommand(0, "game", &error));
  CHECK(error.find("0") != std::string::npos);
  CHECK_FALSE(platformpp::presence::RegisterLaunchCommand(5, "  ", &error));
  CHECK(error.find("empty") != std::string::npos);
  CHECK_FALSE(platformpp::presence::RegisterLaunchCommand(5, "a\nb", &error));
  CHECK(error.find("one line") != std::string::npos);
}

TEST_CASE("launch command: Steam on Windows, through Client::RegisterLaunchSteamApplication") {
  CHECK(platformpp::presence::SteamLaunchCommand(570) == "explorer.exe steam://rungameid/570");
  SchemeKey key(4242);
  bool registered = false;
  {
    platformpp::Client client;
    registered = client.RegisterLaunchSteamApplication(4242, 570);
  }
  CHECK(registered);
  CHECK(ReadValue(key.path + L"\\shell\\open\\command") ==
        std::optional<std::wstring>(LR"(explorer.exe steam://rungameid/570 "%1")"));
}

#endif  // _WIN32
}  // namespace launch_command_test
