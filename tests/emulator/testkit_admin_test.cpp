// EmulatorAdmin's request timeout: a test that starves the emulator on purpose (the fault soak's long mode)
// gives its admin calls longer than the 10 s default, and a short one fails as soon as it is due.
#include <doctest/doctest.h>
#include <platformpp/testkit/emulator.hpp>

#include <chrono>
#include <stdexcept>
#include <string>

using platformpp::testkit::EmulatorAdmin;
using platformpp::testkit::EmulatorProcess;

extern std::string g_testkit_emulator_binary;  // testkit_ipc_test.cpp

TEST_CASE(
    "testkit: EmulatorAdmin::SetRequestTimeout: a request fails once it is due; a slow answer within it "
    "arrives") {
  EmulatorProcess::Options options;
  options.binary = g_testkit_emulator_binary;
  options.ipc = false;
  auto process = EmulatorProcess::Start(options);
  EmulatorAdmin admin(process->Connection());
  // Two answers of an API route held back 1.5 s each: the fault injector holds any route, the admin API's
  // own excepted, so the clients below call the API base.
  EmulatorAdmin::Fault slow;
  slow.route = "GET /users/@me";
  slow.delayMs = 1500;
  slow.count = 2;
  admin.AddFault(slow);
  auto api = process->Connection();
  api.adminBase = api.apiBase;

  using Clock = std::chrono::steady_clock;
  EmulatorAdmin hasty(api);
  hasty.SetRequestTimeout(std::chrono::milliseconds(300));
  auto started = Clock::now();
  CHECK_THROWS_AS(hasty.Request("GET", "/users/@me"), std::runtime_error);
  const auto gaveUpAfter = Clock::now() - started;
  CHECK(gaveUpAfter >= std::chrono::milliseconds(250));
  CHECK(gaveUpAfter < std::chrono::milliseconds(1400));  // not the delay's end: the timeout's

  EmulatorAdmin patient(api);
  patient.SetRequestTimeout(std::chrono::seconds(5));
  started = Clock::now();
  const auto answer = patient.Request("GET", "/users/@me");
  CHECK(Clock::now() - started >= std::chrono::milliseconds(1400));
  CHECK(answer.status == 401);  // the admin token is no user's: answered, after the delay
}
