#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "server/connection_file.hpp"
#include "test_support.hpp"

namespace connection_file_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

TEST_CASE("connection file JSON for TLS") {
  ConnectionInfo info{"127.0.0.1", 4567,    true,         "/data/ca.pem", "/run/user/1/platformpp-ipc-0",
                      99,          "0.1.0", "platformpp", "/run/user/1"};
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
}

TEST_CASE("connection file JSON for plain HTTP on ::1") {
  ConnectionInfo info{"::1", 80, false, "", "", 1, "0.1.0", "x", "/tmp"};
  const auto json = parse(connection_file_json(info));
  CHECK(str(json["api_base"]) == "http://[::1]:80/api/v10");
  CHECK(str(json["gateway_url"]) == "ws://[::1]:80");
  CHECK(str(json["web_base"]) == "http://[::1]:80");
  CHECK(json["ca_file"].IsNull());
  CHECK(json["ipc_path"].IsNull());  // --no-ipc
  CHECK(str(json["ipc_name"]) == "x");
  CHECK_FALSE(json["tls"].GetBool());
}

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

TEST_CASE("files are written atomically with the requested mode") {
  char dir_template[] = "/tmp/emulator-test-XXXXXX";
  REQUIRE(::mkdtemp(dir_template) != nullptr);
  const std::string path = std::string(dir_template) + "/connection.json";
  write_file_atomically(path, "{\"a\":1}", 0600);
  write_file_atomically(path, "{\"b\":2}", 0600);  // replaces
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  CHECK(content.str() == "{\"b\":2}");
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  CHECK_THROWS_AS(write_file_atomically(std::string(dir_template) + "/missing/x.json", "{}", 0600),
                  std::system_error);
  ::unlink(path.c_str());
  ::rmdir(dir_template);
}

}  // namespace connection_file_test
