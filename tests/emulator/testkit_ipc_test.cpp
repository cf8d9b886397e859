// platformpp::testkit against the real binary (path in argv[1]): the private IPC socket it sets up, the
// ClientOptions it hands the SDK, and its typed IPC admin calls.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#ifndef _WIN32
#include <sys/stat.h>
#endif
#include <platformpp/testkit/emulator.hpp>

#include <string>

#include "ipc_test_client.hpp"

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

// The binary, for the other translation units of this test (testkit_gateway_test.cpp).
std::string g_testkit_emulator_binary;

namespace {

std::string g_binary;

[[maybe_unused]] std::string directory_of(const std::string& path) {
  return path.substr(0, path.rfind('/'));
}

}  // namespace

TEST_CASE("testkit: a private IPC socket, ClientOptions that find it, and the IPC admin calls") {
  EmulatorProcess::Options options;
  options.binary = g_binary;
  options.plainHttp = true;
  auto process = EmulatorProcess::Start(options);
  const auto& connection = process->Connection();
#ifdef _WIN32
  // Pipe names are global: the default name has a suffix of this process and start, so that two tests'
  // emulators never share one. A named pipe (its DACL is checked by emulator_ipc_test); no directory applies.
  CHECK(connection.ipcName.rfind("platformpp-test-", 0) == 0);
  CHECK(connection.ipcPath.rfind(R"(\\?\pipe\)" + connection.ipcName + "-ipc-", 0) == 0);
  auto second = EmulatorProcess::Start(options);
  CHECK(second->Connection().ipcName != connection.ipcName);
#else
  CHECK(connection.ipcName == "platformpp-test");
  CHECK(connection.ipcPath == connection.ipcDirectory + "/platformpp-test-ipc-0");
  CHECK(directory_of(process->ConnectionFile()) == connection.ipcDirectory);  // the data dir
  struct stat info {};
  REQUIRE(::stat(connection.ipcDirectory.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
  REQUIRE(::lstat(connection.ipcPath.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
#endif

  const auto client_options = connection.ClientOptionsFor();
  CHECK(client_options.ipcName == connection.ipcName);
  CHECK(client_options.ipcDirectory == connection.ipcDirectory);
  CHECK(client_options.ipcEnabled);

  EmulatorAdmin admin(connection);
  const auto app = admin.CreateApp("Testkit Game");
  admin.CreateUser("testkit.player");
  auto status = admin.IpcStatus();
  CHECK(status.listening);
  CHECK(status.path == connection.ipcPath);
  CHECK(status.ConnectionCount() == 0);
  CHECK(status.handshakes == 0);

  IpcClient ipc(connection.ipcPath);
  REQUIRE(ipc.connected());
  ipc.handshake(std::to_string(app.id));
  const auto subscribed =
      ipc.command(R"({"cmd":"SUBSCRIBE","evt":"AUTHORIZE_REQUEST","args":{},"nonce":"1"})");
  REQUIRE(subscribed["evt"].IsNull());
  ipc.command(R"({"cmd":"SET_ACTIVITY","nonce":"2","args":{"pid":7,"activity":{"type":0,"state":"Lobby"}}})");
  status = admin.IpcStatus();
  REQUIRE(status.ConnectionCount() == 1);
  CHECK(status.handshakes == 1);
  CHECK(status.connections[0].clientId == app.id);
  REQUIRE(status.connections[0].subscriptions.size() == 1);
  CHECK(status.connections[0].subscriptions[0] == "AUTHORIZE_REQUEST");
  // The server names the application of the activity (and the activity itself, after the application, with an
  // id and its creation time).
  const std::string stamped = R"({"type":0,"state":"Lobby","application_id":")" + std::to_string(app.id) +
                              R"(","name":"Testkit Game","id":")";
  CHECK(status.connections[0].activityJson.rfind(stamped, 0) == 0);
  CHECK(status.connections[0].activityJson.find(R"(","created_at":)") == stamped.size() + 16);

  CHECK(admin.RaiseAuthorizeRequest(app.id) == 1);
  CHECK(admin.RaiseAuthorizeRequest(std::nullopt) == 1);
  CHECK(std::string(ipc.receive_json()["evt"].GetString()) == "AUTHORIZE_REQUEST");
  CHECK(std::string(ipc.receive_json()["evt"].GetString()) == "AUTHORIZE_REQUEST");

  CHECK(admin.RaiseActivityJoin("join-secret") == 0);  // not subscribed yet
  REQUIRE(ipc.command(R"({"cmd":"SUBSCRIBE","evt":"ACTIVITY_JOIN","args":{},"nonce":"3"})")["evt"].IsNull());
  CHECK(admin.RaiseActivityJoin("join-secret", app.id + 1) == 0);  // another application
  CHECK(admin.RaiseActivityJoin("join-secret") == 1);
  const auto join = ipc.receive_json();
  CHECK(std::string(join["evt"].GetString()) == "ACTIVITY_JOIN");
  CHECK(std::string(join["data"]["secret"].GetString()) == "join-secret");

  admin.CloseIpc(4003, "Token revoked");
  const auto close = ipc.receive_json(IpcOpcode::close);
  CHECK(close["code"].GetInt() == 4003);
  CHECK(ipc.closed_by_server());
  CHECK(admin.IpcStatus().listening);

  admin.DropIpc();
  admin.DropIpc();
  CHECK_FALSE(admin.IpcStatus().listening);
  CHECK_FALSE(IpcClient(connection.ipcPath).connected());
  admin.RestoreIpc();
  admin.RestoreIpc();
  CHECK(admin.IpcStatus().listening);
  IpcClient again(connection.ipcPath);
  REQUIRE(again.connected());
  again.handshake(std::to_string(app.id));
  CHECK(admin.IpcStatus().handshakes == 2);
  CHECK(process->Stop() == 0);
}

TEST_CASE("testkit: Options::ipc = false runs without IPC") {
  EmulatorProcess::Options options;
  options.binary = g_binary;
  options.plainHttp = true;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  CHECK(process->Connection().ipcPath.empty());
  EmulatorAdmin admin(process->Connection());
  CHECK_FALSE(admin.IpcStatus().listening);
  CHECK_THROWS_AS(admin.RestoreIpc(), std::runtime_error);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: emulator_testkit_test <path to platformpp-emulator> [doctest options]\n");
    return 2;
  }
  g_binary = argv[1];
  g_testkit_emulator_binary = argv[1];
  doctest::Context context;
  context.applyCommandLine(argc - 1, argv + 1);
  return context.run();
}
