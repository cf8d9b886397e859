#include <doctest/doctest.h>

#ifdef _WIN32
#include <aclapi.h>
#include <windows.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/private_files.hpp"
#include "server/connection_file.hpp"
#include "test_support.hpp"

namespace connection_file_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

TEST_CASE("connection file JSON for TLS") {
  ConnectionInfo info{"127.0.0.1", 4567,    true,         "/data/ca.pem", "/run/user/1/platformpp-ipc-0",
                      99,          "0.1.0", "platformpp", "/run/user/1",  "the-admin-token"};
  const auto json = parse(connection_file_json(info));
  CHECK(str(json["api_base"]) == "https://127.0.0.1:4567/api/v10");
  CHECK(str(json["gateway_url"]) == "wss://127.0.0.1:4567");
  CHECK(str(json["admin_base"]) == "https://127.0.0.1:4567/_emulator");
  CHECK(str(json["web_base"]) == "https://127.0.0.1:4567");
  CHECK(str(json["ca_file"]) == "/data/ca.pem");
  CHECK(str(json["ipc_path"]) == "/run/user/1/platformpp-ipc-0");
  CHECK(str(json["ipc_name"]) == "platformpp");
  CHECK(str(json["ipc_dir"]) == "/run/user/1");
  CHECK(json["port"].GetInt() == 4567);
  CHECK(json["pid"].GetInt() == 99);
  CHECK(json["tls"].GetBool());
  CHECK(str(json["version"]) == "0.1.0");
  CHECK(str(json["admin_token"]) == "the-admin-token");
}

TEST_CASE("connection file JSON for plain HTTP on ::1") {
  ConnectionInfo info{"::1", 80, false, "", "", 1, "0.1.0", "x", "/tmp", "token"};
  const auto json = parse(connection_file_json(info));
  CHECK(str(json["api_base"]) == "http://[::1]:80/api/v10");
  CHECK(str(json["gateway_url"]) == "ws://[::1]:80");
  CHECK(str(json["web_base"]) == "http://[::1]:80");
  CHECK(json["ca_file"].IsNull());
  CHECK(json["ipc_path"].IsNull());  // --no-ipc
  CHECK(str(json["ipc_name"]) == "x");
  CHECK_FALSE(json["tls"].GetBool());
}

#ifdef _WIN32
TEST_CASE("on Windows the IPC path is the named pipe \\\\?\\pipe\\<prefix>-ipc-<n>, whatever the directory") {
  const EnvironmentLookup lookup = [](const char*) -> std::optional<std::string> { return "C:\\Temp"; };
  CHECK(ipc_socket_path("platformpp", lookup) == R"(\\?\pipe\platformpp-ipc-0)");
  CHECK(ipc_socket_path("C:\\Temp", "game", 9) == R"(\\?\pipe\game-ipc-9)");
  CHECK(ipc_socket_path("/", "game", 0) == R"(\\?\pipe\game-ipc-0)");
}

// Whether the DACL of `path` lets in the current user and no one else but the system (Windows puts
// LocalSystem in most DACLs; Wine, which keeps no ACLs of its own, reports its fixed one of SYSTEM and the
// owner).
bool only_current_user_allowed(const std::string& path) {
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  const std::wstring wide = std::filesystem::path(path).wstring();
  if (::GetNamedSecurityInfoW(wide.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr,
                              &dacl, nullptr, &descriptor) != ERROR_SUCCESS)
    return false;
  unsigned char user_buffer[256];
  unsigned char system_sid[SECURITY_MAX_SID_SIZE];
  DWORD size = sizeof(system_sid);
  HANDLE token = nullptr;
  bool user_allowed = false;
  bool others_allowed = dacl == nullptr;  // a null DACL lets everyone in
  if (dacl != nullptr && ::CreateWellKnownSid(WinLocalSystemSid, nullptr, system_sid, &size) != 0 &&
      ::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token) != 0) {
    DWORD user_size = 0;
    if (::GetTokenInformation(token, TokenUser, user_buffer, sizeof(user_buffer), &user_size) != 0) {
      PSID user = reinterpret_cast<TOKEN_USER*>(user_buffer)->User.Sid;
      for (DWORD i = 0; i < dacl->AceCount; ++i) {
        void* ace = nullptr;
        if (::GetAce(dacl, i, &ace) == 0) continue;
        auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
        if (allowed->Header.AceType != ACCESS_ALLOWED_ACE_TYPE) continue;
        if (::EqualSid(&allowed->SidStart, user) != 0) {
          user_allowed = true;
        } else if (::EqualSid(&allowed->SidStart, system_sid) == 0) {
          others_allowed = true;
        }
      }
    }
    ::CloseHandle(token);
  }
  ::LocalFree(descriptor);
  return user_allowed && !others_allowed;
}
#else
TEST_CASE("the IPC path uses the first set of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp") {
  std::map<std::string, std::string> env;
  const EnvironmentLookup lookup = [&](const char* name) -> std::optional<std::string> {
    const auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  CHECK(ipc_socket_path("platformpp", lookup) == "/tmp/platformpp-ipc-0");
  env["TEMP"] = "/temp";
  CHECK(ipc_socket_path("platformpp", lookup) == "/temp/platformpp-ipc-0");
  env["TMP"] = "/tmp2";
  env["TMPDIR"] = "/var/tmp/";
  CHECK(ipc_socket_path("game", lookup) == "/var/tmp/game-ipc-0");
  env["XDG_RUNTIME_DIR"] = "/run/user/1000";
  CHECK(ipc_socket_path("platformpp", lookup) == "/run/user/1000/platformpp-ipc-0");
  CHECK(ipc_directory(lookup) == "/run/user/1000");
  CHECK(ipc_socket_path("/run/user/1000", "game", 9) == "/run/user/1000/game-ipc-9");
  CHECK(ipc_socket_path("/", "game", 0) == "/game-ipc-0");
}
#endif

TEST_CASE("files are written atomically with the requested mode") {
  const std::string dir = make_private_temp_directory("emulator-test-");
  const std::string path = dir + "/connection.json";
  write_file_atomically(path, "{\"a\":1}", 0600);
  write_file_atomically(path, "{\"b\":2}", 0600);  // replaces
  {
    std::ifstream in(path);
    std::stringstream content;
    content << in.rdbuf();
    CHECK(content.str() == "{\"b\":2}");
  }
#ifdef _WIN32
  CHECK(only_current_user_allowed(dir));   // the private directory
  CHECK(only_current_user_allowed(path));  // 0600: the current user's alone
#else
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
#endif
  CHECK_THROWS_AS(write_file_atomically(dir + "/missing/x.json", "{}", 0600), std::system_error);
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

}  // namespace connection_file_test
