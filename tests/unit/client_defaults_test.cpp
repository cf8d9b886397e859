// What a Client and a BackendClient reach when nothing is configured: the platform's own hosts,
// IPC names and switches, never the emulator's (a game shipped with defaults must talk to the platform). The
// C ABI's empty defaults map to these (tests/c_api/c_api_test.c).
#include <platformpp/backend.hpp>
#include <platformpp/client.hpp>

#include "ipc/ipc_socket_path.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>

namespace client_defaults_test {

using namespace platformpp;

TEST_CASE("defaults: ClientOptions and BackendOptions address the platform itself") {
  const ClientOptions options;
  CHECK(options.apiBase == "https://discord.com/api/v10");
  CHECK(options.webBase == "https://discord.com");
  CHECK(options.caFile.empty());
  CHECK(options.useSystemCertificates);
  CHECK(options.ipcName == "discord");
  CHECK(options.ipcDirectory.empty());
  CHECK(options.ipcEnabled);
  CHECK_FALSE(options.channelObfuscationOptIn);  // the platform's testing switch
  CHECK(options.ioContext == nullptr);
  CHECK(options.authorizeTimeout == std::chrono::minutes(5));

  const backend::BackendOptions backendOptions;
  CHECK(backendOptions.apiBase == "https://discord.com/api/v10");
  CHECK(backendOptions.caFile.empty());
  CHECK(backendOptions.useSystemCertificates);
}

TEST_CASE("defaults: the desktop client's sockets are the platform's discord-ipc-0..9") {
  const ipc::EnvLookup env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "XDG_RUNTIME_DIR") return std::string("/run/user/1000");
    return std::nullopt;
  };
  const auto paths = ipc::IpcCandidatePaths(ClientOptions{}.ipcName, ClientOptions{}.ipcDirectory, env);
  REQUIRE(paths.size() >= 10);
#ifdef _WIN32
  CHECK(paths.front() == R"(\\?\pipe\discord-ipc-0)");
  CHECK(paths[9] == R"(\\?\pipe\discord-ipc-9)");
#else
  CHECK(paths.front() == "/run/user/1000/discord-ipc-0");
  CHECK(paths[9] == "/run/user/1000/discord-ipc-9");
#endif
}

/// The URL a browser authorization of application 1234 opens (through the Client's URL opener), after
/// which it is aborted: the operation must end once, as Aborted.
std::string OpenedAuthorizePage(Client& client) {
  client.SetApplicationId(1234);
  std::string opened;
  client.SetUrlOpener([&](const std::string& url) {
    opened = url;
    return true;
  });
  AuthorizationArgs args;
  args.SetClientId(1234);
  args.SetScopes(Client::GetDefaultCommunicationScopes());
  std::optional<ClientResult> ended;
  client.Authorize(
      args, [&](const ClientResult& result, const std::string&, const std::string&) { ended = result; });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (opened.empty() && std::chrono::steady_clock::now() < deadline) {
    client.WaitForCallbacks(100);
    client.RunCallbacks();
  }
  client.AbortAuthorize();
  while (!ended && std::chrono::steady_clock::now() < deadline) {
    client.WaitForCallbacks(100);
    client.RunCallbacks();
  }
  REQUIRE(ended);
  CHECK(ended->Type() == ErrorType::Aborted);
  return opened;
}

TEST_CASE("defaults: a default Client's browser authorization opens the platform's authorize page") {
  ClientOptions options;
  options.ipcEnabled = false;  // straight to the browser flow; nothing else changed
  Client client(options);
  const std::string opened = OpenedAuthorizePage(client);
  CHECK(opened.rfind("https://discord.com/oauth2/authorize?", 0) == 0);
  CHECK(opened.find("client_id=1234") != std::string::npos);
}

TEST_CASE("defaults: Client(apiBase, webBase) opens the authorize page of its web base") {
  // The platform SDK's constructor shape; no desktop client here, so Authorize goes on to the browser flow.
  Client client("https://api.test/api/v10", "https://web.test");
  const std::string opened = OpenedAuthorizePage(client);
  CHECK(opened.rfind("https://web.test/oauth2/authorize?", 0) == 0);
  CHECK(opened.find("client_id=1234") != std::string::npos);
}

}  // namespace client_defaults_test
