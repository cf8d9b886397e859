// A game's bot against the shared emulator (emulator_fixture.hpp): an application of its own and its
// BackendClient with the bot token, and waits that pump the client until a call's one result, REQUIRing
// that it ended exactly once.
#pragma once

#include "emulator_fixture.hpp"

#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

namespace itest {

struct BotBackend {
  platformpp::testkit::EmulatorAdmin::App app;
  std::unique_ptr<platformpp::backend::BackendClient> backend;

  // `configure` (optional) adjusts the options before the client is made (a clock, say).
  explicit BotBackend(const std::string& name,
                      const std::function<void(platformpp::backend::BackendOptions&)>& configure = {}) {
    auto& e = Shared();
    app = e.admin->CreateApp(name);
    platformpp::backend::BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    if (configure) configure(options);
    backend = std::make_unique<platformpp::backend::BackendClient>(options);
  }

  // A call's one result and what it answered.
  template <typename Value>
  struct Outcome {
    platformpp::ClientResult result;
    Value value;
  };

  // Runs `start(callback)` and pumps until its one result.
  template <typename Value, typename Start>
  Outcome<Value> Wait(Start start) {
    int ends = 0;
    Outcome<Value> out;
    start([&](platformpp::ClientResult result, Value value) {
      ++ends;
      out = {std::move(result), std::move(value)};
    });
    Pump(ends);
    return out;
  }

  // The same for a call that answers only its outcome.
  template <typename Start>
  platformpp::ClientResult WaitResult(Start start) {
    int ends = 0;
    platformpp::ClientResult out;
    start([&](platformpp::ClientResult result) {
      ++ends;
      out = std::move(result);
    });
    Pump(ends);
    return out;
  }

 private:
  void Pump(const int& ends) {
    for (int i = 0; i < 4000 && ends == 0; ++i) {
      backend->RunCallbacks();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    REQUIRE(ends == 1);
  }
};

}  // namespace itest
