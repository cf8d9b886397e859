// A BackendClient whose API session talks to the HTTP stand-in (api_stand_in.hpp) instead of the network:
// the fixture the tests of BackendClient's routes share.
#pragma once

#include "api_stand_in.hpp"
#include "backend/backend_access.hpp"

#include <platformpp/backend.hpp>

#include <cstdint>
#include <string>

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

}  // namespace platformpp::testing
