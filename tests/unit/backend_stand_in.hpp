// A BackendClient whose API session talks to the HTTP stand-in (api_stand_in.hpp) instead of the network:
// the fixture the tests of BackendClient's routes share.
#pragma once

#include <doctest/doctest.h>

#include "api_stand_in.hpp"
#include "backend/backend_access.hpp"

#include <platformpp/backend.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace platformpp::testing {

struct BackendOnStandIn {
  ApiStandIn standIn;
  backend::BackendClient backend;

  explicit BackendOnStandIn(const std::string& botToken = "bot-secret", uint64_t applicationId = 2002)
      : backend([&] {
          backend::BackendOptions options;
          options.apiBase = "https://api.test/api/v10";
          options.botToken = botToken;
          options.applicationId = applicationId;
          return options;
        }()) {
    backend::BackendAccess::SessionOf(backend)->SetTransportForTesting(standIn.Transport());
  }
  ~BackendOnStandIn() { standIn.ShutDown(*backend::BackendAccess::SessionOf(backend)); }
  BackendOnStandIn(const BackendOnStandIn&) = delete;
  BackendOnStandIn& operator=(const BackendOnStandIn&) = delete;
};

// Runs `call` (a BackendClient call answering into `results`) and its callbacks: true when it sent a request
// (its checks let it through), else REQUIREs that it ended in one ValidationError.
template <class Call>
bool SentOrRefused(ApiStandIn& standIn, backend::BackendClient& backend, std::vector<ClientResult>& results,
                   Call call) {
  const std::size_t before = standIn.requests.size();
  results.clear();
  call();
  backend.RunCallbacks();
  if (standIn.requests.size() > before) return true;
  REQUIRE(results.size() == 1);
  CHECK(results[0].Type() == ErrorType::ValidationError);
  return false;
}

// The field paths the last of `results` names as broken (none when it has no field errors).
inline std::vector<std::string> BrokenPathsOf(const std::vector<ClientResult>& results) {
  std::vector<std::string> paths;
  if (!results.empty())
    for (const auto& error : results.back().FieldErrors())
      paths.push_back(error.path);
  return paths;
}

}  // namespace platformpp::testing
