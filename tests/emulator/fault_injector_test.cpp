#include <doctest/doctest.h>

#include "http/fault_injector.hpp"

namespace fault_injector_test {

using namespace platformpp::emulator;

namespace {
Fault make_fault(const char* route, int count) {
  Fault fault(*RoutePattern::parse(route));
  fault.status = 503;
  fault.count = count;
  return fault;
}
}  // namespace

TEST_CASE("a fault affects exactly `count` matching requests") {
  FaultInjector faults;
  faults.add(make_fault("GET /users/@me", 2));
  CHECK_FALSE(faults.take_match("POST", "/users/@me"));
  CHECK_FALSE(faults.take_match("GET", "/gateway"));
  CHECK(faults.take_match("GET", "/users/@me"));
  CHECK(faults.faults().front().remaining == 1);
  CHECK(faults.take_match("GET", "/users/@me"));
  CHECK_FALSE(faults.take_match("GET", "/users/@me"));  // the third request passes
  CHECK(faults.faults().empty());
}

TEST_CASE("count 1 is the default-like single use and count 0 is unlimited") {
  FaultInjector faults;
  faults.add(make_fault("* /users/*", 1));
  CHECK(faults.take_match("DELETE", "/users/5"));
  CHECK_FALSE(faults.take_match("DELETE", "/users/5"));

  faults.add(make_fault("* /**", 0));
  for (int i = 0; i < 100; ++i)
    CHECK(faults.take_match("GET", "/anything"));
  CHECK(faults.faults().size() == 1);
  faults.clear();
  CHECK_FALSE(faults.take_match("GET", "/anything"));
}

TEST_CASE("faults apply in insertion order and get distinct ids") {
  FaultInjector faults;
  auto first = make_fault("GET /gateway", 1);
  first.status = 500;
  auto second = make_fault("GET /**", 1);
  second.status = 502;
  const auto first_id = faults.add(first);
  const auto second_id = faults.add(second);
  CHECK(first_id != second_id);
  CHECK(faults.take_match("GET", "/gateway")->status == 500);
  CHECK(faults.take_match("GET", "/gateway")->status == 502);
}

}  // namespace fault_injector_test
