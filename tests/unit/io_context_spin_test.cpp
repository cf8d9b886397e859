// A network thread, or the caller pumping a threadless context, polls for a while after work before it
// sleeps, so that the next step of a request needs no wake-up. That only pays when something else can run
// meanwhile: on a single CPU the peer it waits for needs that very CPU, so the spin is off there.
#include <platformpp/io_context.hpp>

#include "core/io_context_access.hpp"

#include <doctest/doctest.h>

#include "test_portability.hpp"

#ifndef _WIN32
#include <sched.h>
#endif

namespace io_context_spin_test {

using platformpp::IoContext;
using platformpp::core::IoContextAccess;

#ifdef _WIN32
TEST_CASE("an IoContext spins after work only when the process may run on more than one CPU") {
  HANDLE process = ::GetCurrentProcess();
  DWORD_PTR original = 0;
  DWORD_PTR system = 0;
  REQUIRE(::GetProcessAffinityMask(process, &original, &system));
  REQUIRE(original != 0);
  const DWORD_PTR one = original & (~original + 1);  // the lowest CPU allowed
  REQUIRE(::SetProcessAffinityMask(process, one));
  {
    IoContext threadless(0, 200);
    CHECK(IoContextAccess::Spin(threadless).count() == 0);
    IoContext threaded(1, 200);
    CHECK(IoContextAccess::Spin(threaded).count() == 0);
  }
  REQUIRE(::SetProcessAffinityMask(process, original));
  if ((original & (original - 1)) != 0) {
    IoContext spinning(0, 200);
    CHECK(IoContextAccess::Spin(spinning).count() == 200);
    IoContext quiet(0, 0);
    CHECK(IoContextAccess::Spin(quiet).count() == 0);
  } else {
    MESSAGE("one CPU only: the case with spinning is not checked here");
  }
}
#else
TEST_CASE("an IoContext spins after work only when the process may run on more than one CPU") {
  cpu_set_t original;
  CPU_ZERO(&original);
  REQUIRE(sched_getaffinity(0, sizeof original, &original) == 0);
  int first = 0;
  while (first < CPU_SETSIZE && !CPU_ISSET(first, &original))
    ++first;
  REQUIRE(first < CPU_SETSIZE);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
  {
    IoContext threadless(0, 200);
    CHECK(IoContextAccess::Spin(threadless).count() == 0);
    IoContext threaded(1, 200);
    CHECK(IoContextAccess::Spin(threaded).count() == 0);
  }
  REQUIRE(sched_setaffinity(0, sizeof original, &original) == 0);
  if (CPU_COUNT(&original) > 1) {
    IoContext spinning(0, 200);
    CHECK(IoContextAccess::Spin(spinning).count() == 200);
    IoContext quiet(0, 0);
    CHECK(IoContextAccess::Spin(quiet).count() == 0);
  } else {
    MESSAGE("one CPU only: the case with spinning is not checked here");
  }
}
#endif

}  // namespace io_context_spin_test
