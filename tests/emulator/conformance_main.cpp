// The emulator unit tests' main: doctest, with every API answer of every test checked against the platform's
// published OpenAPI document (openapi_conformance.hpp). The run fails on a mismatch or an undocumented route
// that tests/data/openapi/ does not list (known-mismatches.txt: being fixed, issue 16;
// undocumented-routes.txt: with the reason), and on a listed mismatch that no longer occurs (the list must
// shrink as fixes land).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "gateway_dispatch_conformance.hpp"
#include "openapi_conformance.hpp"
#include "service/emulator_service.hpp"

int main(int argc, char** argv) {
  using platformpp::emulator::EmulatorService;
  using platformpp::emulator::test::GatewayDispatchConformance;
  using platformpp::emulator::test::OpenApiConformance;
  const std::string directory = PLATFORMPP_OPENAPI_DIR;
  OpenApiConformance conformance(directory + "/openapi-subset.json");
  conformance.apply_divergences(directory + "/schema-divergences.json");
  const auto known_mismatches = OpenApiConformance::read_list(directory + "/known-mismatches.txt");
  const auto undocumented_routes = OpenApiConformance::read_list(directory + "/undocumented-routes.txt");
  EmulatorService::set_api_observer([&](const platformpp::emulator::ApiExchange& exchange) {
    conformance.check(exchange.method, exchange.route, exchange.response.status, exchange.response.body);
  });
  GatewayDispatchConformance dispatches(PLATFORMPP_GATEWAY_SCHEMAS);
  EmulatorService::set_dispatch_observer(
      [&](std::string_view type, std::string_view d_json) { dispatches.check(type, d_json); });
  doctest::Context context(argc, argv);
  const int result = context.run();
  EmulatorService::set_api_observer(nullptr);
  EmulatorService::set_dispatch_observer(nullptr);
  if (context.shouldExit() || result != 0) return result;

  const auto report = conformance.report();
  int problems = 0;
  // Only a full run can tell that a listed mismatch is gone, or that every route was answered (a filtered run
  // sees a part of the answers).
  const bool full_run = argc == 1;
  std::printf(
      "OpenAPI conformance: %llu answers validated against %zu operations (route, method, status) of the "
      "published document (%zu divergences of the platform from it applied, each with its reason); %zu "
      "operations on the known-mismatch list, %zu undocumented routes listed\n",
      static_cast<unsigned long long>(report.validated), report.operations_validated.size(),
      conformance.divergences_applied(), known_mismatches.size(), undocumented_routes.size());
  // Every route the emulator serves was answered in some test (and so validated), or is listed as
  // undocumented.
  if (full_run) {
    platformpp::emulator::FakeClock clock{[] { return std::int64_t{1'795'000'000'000}; }};
    const EmulatorService service(
        clock, platformpp::emulator::ServiceEndpoints{"wss://127.0.0.1:1", "https://127.0.0.1:1/api/v10",
                                                      "127.0.0.1:1"});
    std::size_t served = 0;
    for (const auto& route : service.api_routes()) {
      ++served;
      if (undocumented_routes.count(route) != 0) continue;
      const bool answered =
          std::any_of(report.operations_validated.begin(), report.operations_validated.end(),
                      [&](const std::string& operation) { return operation.rfind(route + " ", 0) == 0; });
      if (answered) continue;
      std::printf("  a route the emulator serves that no test answered (so never validated): %s\n",
                  route.c_str());
      ++problems;
    }
    std::printf(
        "OpenAPI conformance: %zu routes served, each answered and validated or listed as undocumented\n",
        served);
  }
  for (const auto& operation : report.undocumented) {
    if (undocumented_routes.count(operation) != 0) continue;
    std::printf("  not in the published document, and not listed with a reason: %s\n", operation.c_str());
    ++problems;
  }
  problems += OpenApiConformance::print_mismatches(report, known_mismatches);
  for (const auto& operation : known_mismatches) {
    if (!full_run || report.mismatches.count(operation) != 0) continue;
    std::printf("  fixed, remove it from known-mismatches.txt: %s\n", operation.c_str());
    ++problems;
  }

  // Every dispatch of every test against the shape of its event (tests/data/gateway/dispatch-schemas.json).
  const auto shapes = dispatches.report();
  std::printf(
      "Gateway dispatch conformance: %llu dispatches of %zu events validated (of %zu events described)\n",
      static_cast<unsigned long long>(shapes.validated), shapes.events_validated.size(),
      dispatches.described_events().size());
  for (const auto& event : shapes.without_schema) {
    std::printf("  an event dispatched with no shape in dispatch-schemas.json: %s\n", event.c_str());
    ++problems;
  }
  for (const auto& [event, details] : shapes.mismatches) {
    std::printf("  MISMATCH %s\n", event.c_str());
    for (const auto& detail : details)
      std::printf("    %s\n", detail.c_str());
    ++problems;
  }
  // A full run dispatches every event the file describes; one that no test sent is a gap in the tests.
  if (full_run) {
    for (const auto& event : dispatches.described_events()) {
      if (shapes.events_validated.count(event) != 0) continue;
      std::printf("  described but never dispatched by a test: %s\n", event.c_str());
      ++problems;
    }
  }
  if (problems != 0) std::printf("Conformance: %d problems\n", problems);
  return problems != 0 ? 1 : 0;
}
