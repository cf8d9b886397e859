#pragma once
// A stand-in for the API session's HTTP transport (no sockets): the tests of the session and of the services
// over it see each request as sent and answer it when they choose, or never (shutdown).

#include "api/api_session.hpp"

#include <platformpp/client_options.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace platformpp::testing {

/// Options for a session with no desktop client and a recognisable API base.
inline ClientOptions StandInOptions() {
  ClientOptions options;
  options.apiBase = "https://api.test/api/v10";
  options.ipcEnabled = false;
  return options;
}

/// Records each request and keeps its handler until the test answers it.
struct ApiStandIn {
  std::vector<net::HttpRequest> requests;
  std::vector<net::HttpClient::Handler> handlers;

  api::ApiSession::Transport Transport() {
    return [this](net::HttpRequest request, net::HttpClient::Handler handler) {
      requests.push_back(std::move(request));
      handlers.push_back(std::move(handler));
    };
  }
  /// Shuts `session` down as the Client does: the HTTP client lets go of what it still holds unanswered (the
  /// handlers kept here), and each operation still pending ends as ClientDestroyed.
  void ShutDown(api::ApiSession& session) {
    session.BeginShutdown();
    handlers.clear();
    session.FinishShutdown();
  }
  /// Answers request `index` (in sending order) with `status` and `body`.
  void Answer(std::size_t index, int status, std::string body, std::string contentType = "application/json") {
    net::HttpResponse response;
    response.status = status;
    response.headers = net::HttpHeaders{{"Content-Type", std::move(contentType)}};
    response.body = std::move(body);
    auto handler = std::move(handlers.at(index));
    handler(std::move(response));
  }
};

/// The value of header `name` in `request`, empty when absent.
inline std::string HeaderOf(const net::HttpRequest& request, const std::string& name) {
  for (const auto& [key, value] : request.headers)
    if (key == name) return value;
  return {};
}

}  // namespace platformpp::testing
