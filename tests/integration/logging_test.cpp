// A full request cycle logged at Verbose: none of the secrets may appear, in callbacks or in the log file.
#include "emulator_fixture.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace logging_test {

using namespace platformpp;
using itest::Shared;

TEST_CASE("no secret reaches any log sink at Verbose") {
  auto& emu = Shared();
  itest::FaultScope scope;
  const std::string code = "authcode-7f3a9c1b2d4e";
  const std::string verifier = "verifier-Zx9_8y7-w6v5.u4t3~s2r1q0p-abcdefghijklmnop";
  const std::string idToken = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  // A response that carries every kind of secret, as token endpoints do, through the same HTTP path.
  std::string body =
      R"({"id": ")" + std::to_string(emu.user.id) + R"(", "username": "itest_player", "access_token": ")" +
      emu.token.accessToken + R"(", "refresh_token": ")" + emu.token.refreshToken + R"(", "id_token": ")" +
      idToken + R"(", "client_secret": ")" + emu.app.clientSecret + R"(", "code": ")" + code +
      R"(", "code_verifier": ")" + verifier + R"(", "note": "bot )" + emu.app.botToken + R"("})";
  emu.admin->AddFault({.route = "GET /users/@me", .body = body, .contentType = "application/json"});

  auto dir = std::filesystem::temp_directory_path() / ("platformpp-itest-logs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::string captured;
  {
    Client client(emu.Options());
    client.AddLogCallback([&](const std::string& m, LoggingSeverity) { captured += m + "\n"; },
                          LoggingSeverity::Verbose);
    REQUIRE(client.SetLogDir(dir.string(), LoggingSeverity::Verbose));
    auto first = itest::Fetch(client, emu.token.accessToken);
    CHECK_MESSAGE(first.result.Successful(), first.result.ToString());
    // And a bot-token request, failing with the platform's 401 body.
    auto second = itest::Fetch(client, "Bot " + emu.app.botToken, AuthorizationTokenType::User);
    CHECK(second.done);
    client.RunCallbacks();
  }
  std::string file;
  for (auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    file += text.str();
  }
  std::filesystem::remove_all(dir);

  REQUIRE(captured.find("HTTP -> GET") != std::string::npos);  // the cycle really was logged
  REQUIRE(captured.find("HTTP <- 200") != std::string::npos);
  REQUIRE(file.find("HTTP -> GET") != std::string::npos);
  for (const std::string& secret : {emu.token.accessToken, emu.token.refreshToken, emu.app.clientSecret,
                                    emu.app.botToken, code, verifier, idToken}) {
    CAPTURE(secret);
    CHECK(captured.find(secret) == std::string::npos);
    CHECK(file.find(secret) == std::string::npos);
  }
}

}  // namespace logging_test
