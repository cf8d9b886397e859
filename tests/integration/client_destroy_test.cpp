// Destroying a Client with work in flight: every operation ends exactly once, with ClientDestroyed, inside
// the destructor; nothing is called afterwards.
#include "emulator_fixture.hpp"

#include <platformpp/io_context.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

namespace client_destroy_test {

using namespace platformpp;
using itest::Shared;

TEST_CASE("destroying a Client with 100 requests in flight completes all 100 with ClientDestroyed") {
  auto& emu = Shared();
  itest::FaultScope scope;
  emu.admin->AddFault({.route = "GET /users/@me", .delayMs = 3000, .count = 0});
  int destroyed = 0;
  int other = 0;
  auto destroyingThread = std::this_thread::get_id();
  {
    Client client(emu.Options());
    for (int i = 0; i < 100; ++i) {
      client.FetchCurrentUser(AuthorizationTokenType::Bearer, emu.token.accessToken,
                              [&](const ClientResult& result, uint64_t, const std::string&) {
                                CHECK(std::this_thread::get_id() == destroyingThread);
                                (result.Type() == ErrorType::ClientDestroyed ? destroyed : other)++;
                              });
    }
    // Let the requests reach the emulator and sit in its delay.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    client.RunCallbacks();
    CHECK(destroyed + other == 0);
  }
  CHECK(destroyed == 100);
  CHECK(other == 0);
  // Nothing arrives later.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(destroyed == 100);
}

TEST_CASE("destroy from inside a callback while other requests are in flight") {
  auto& emu = Shared();
  itest::FaultScope scope;
  auto client = std::make_unique<Client>(emu.Options());
  int fast = 0, destroyed = 0;
  emu.admin->AddFault({.route = "GET /users/@me", .delayMs = 2000, .count = 5});
  for (int i = 0; i < 5; ++i) {
    client->FetchCurrentUser(AuthorizationTokenType::Bearer, emu.token.accessToken,
                             [&](const ClientResult& r, uint64_t, const std::string&) {
                               if (r.Type() == ErrorType::ClientDestroyed) ++destroyed;
                             });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  client->FetchCurrentUser(AuthorizationTokenType::Bearer, "",
                           [&](const ClientResult&, uint64_t, const std::string&) {
                             ++fast;
                             client.reset();
                           });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (client && std::chrono::steady_clock::now() < deadline) {
    client->RunCallbacks();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(fast == 1);
  CHECK(destroyed == 5);
}

TEST_CASE("Clients sharing one IoContext work and can be destroyed independently") {
  auto& emu = Shared();
  itest::FaultScope scope;
  auto io = std::make_shared<IoContext>(1);
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 8; ++i) {
    auto options = emu.Options();
    options.ioContext = io;
    clients.push_back(std::make_unique<Client>(options));
  }
  for (auto& client : clients) {
    auto outcome = itest::Fetch(*client, emu.token.accessToken);
    CHECK_MESSAGE(outcome.result.Successful(), outcome.result.ToString());
  }
  clients.erase(clients.begin() + 3);
  auto outcome = itest::Fetch(*clients.back(), emu.token.accessToken);
  CHECK(outcome.result.Successful());
}

}  // namespace client_destroy_test
