// The integration tests' main: doctest, with every request the SDK sends to the platform API in every test
// checked against the request bodies of the platform's published OpenAPI document (openapi_conformance.hpp).
// The run fails on a mismatch, or a request to a route the document lacks, that tests/data/openapi/ does not
// list (known-mismatches.txt, "request METHOD route"; undocumented-routes.txt, with the reason).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "net/http_client.hpp"
#include "openapi_conformance.hpp"

int main(int argc, char** argv) {
  using platformpp::emulator::test::OpenApiConformance;
  using platformpp::net::HttpClient;
  using platformpp::net::HttpRequest;
  const std::string directory = PLATFORMPP_OPENAPI_DIR;
  OpenApiConformance conformance(directory + "/openapi-subset.json");
  conformance.apply_divergences(directory + "/schema-divergences.json");
  const auto known_mismatches = OpenApiConformance::read_list(directory + "/known-mismatches.txt");
  const auto undocumented_routes = OpenApiConformance::read_list(directory + "/undocumented-routes.txt");
  HttpClient::SetRequestObserver([&](const HttpRequest& request) {
    conformance.check_request(request.method, request.url, request.body.empty() ? "" : request.contentType,
                              request.body);
  });
  doctest::Context context(argc, argv);
  const int result = context.run();
  HttpClient::SetRequestObserver(nullptr);
  if (context.shouldExit() || result != 0) return result;

  const auto report = conformance.report();
  int problems = 0;
  std::printf(
      "OpenAPI conformance of the SDK's requests: %llu API requests, %llu on documented routes checked "
      "against the request bodies of %zu operations\n",
      static_cast<unsigned long long>(report.requests_seen),
      static_cast<unsigned long long>(report.requests_validated), report.operations_validated.size());
  for (const auto& request : report.undocumented_requests) {
    // Entries read "METHOD /route/{param}  # reason"; a request names a concrete path.
    const auto space = request.find(' ');
    bool listed = false;
    for (const auto& entry : undocumented_routes) {
      const auto entry_space = entry.find(' ');
      listed = listed ||
               (entry.substr(0, entry_space) == request.substr(0, space) &&
                OpenApiConformance::path_matches(entry.substr(entry_space + 1), request.substr(space + 1)));
    }
    if (listed) continue;
    std::printf("  a request to a route the published document lacks, not listed with a reason: %s\n",
                request.c_str());
    ++problems;
  }
  problems += OpenApiConformance::print_mismatches(report, known_mismatches);
  if (problems != 0) std::printf("OpenAPI conformance of the SDK's requests: %d problems\n", problems);
  return problems != 0 ? 1 : 0;
}
