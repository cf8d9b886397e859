// The Gateway session's decisions with a fake clock and seeded jitter: heartbeats, zombies, close codes,
// backoff, duplicate dispatches.
#include "gateway/session_policy.hpp"

#include "core/random.hpp"

#include <doctest/doctest.h>

#include <concepts>
#include <random>
#include <set>

namespace gateway_session_policy_test {

using namespace platformpp::gateway;
using namespace std::chrono_literals;

TEST_CASE("core::Random: a uniform random bit generator of 8 bytes, as random as the backoff needs") {
  static_assert(std::uniform_random_bit_generator<platformpp::core::Random>);
  static_assert(sizeof(platformpp::core::Random) == 8);  // a std::mt19937_64 is 2.5 KiB; a Client had three
  platformpp::core::Random random(1);
  std::uniform_int_distribution<int> pick(0, 9);
  int counts[10] = {};
  for (int i = 0; i < 10000; ++i)
    ++counts[pick(random)];
  for (int count : counts) {
    CHECK(count > 850);
    CHECK(count < 1150);
  }
  platformpp::core::Random a(7), b(7), c(8);
  CHECK(a() == b());
  CHECK(a() != c());
}

TEST_CASE("heartbeat: the first after interval * jitter, then every interval") {
  const SteadyClock::time_point t0{};  // the fake clock: a time point we move by hand
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> pick(0.0, 1.0);
  for (int i = 0; i < 100; ++i) {
    double jitter = pick(random);
    HeartbeatPolicy policy;
    policy.Start(45000ms, t0, jitter);
    CHECK(policy.NextBeat() >= t0);
    CHECK(policy.NextBeat() < t0 + 45000ms);
    CHECK(policy.NextBeat() == t0 + std::chrono::duration_cast<SteadyClock::duration>(45000ms * jitter));
  }
  HeartbeatPolicy policy;
  policy.Start(1000ms, t0, 0.25);
  CHECK(policy.NextBeat() == t0 + 250ms);
  auto now = policy.NextBeat();
  CHECK(policy.OnDue(now) == HeartbeatPolicy::Beat::Send);
  CHECK(policy.AwaitingAck());
  CHECK(policy.NextBeat() == now + 1000ms);
  policy.OnAck();
  now = policy.NextBeat();
  CHECK(policy.OnDue(now) == HeartbeatPolicy::Beat::Send);
  CHECK(policy.NextBeat() == t0 + 2250ms);
  // Out-of-range jitter is treated as 0: beat at once.
  policy.Start(1000ms, t0, 1.0);
  CHECK(policy.NextBeat() == t0);
  policy.Start(1000ms, t0, -0.5);
  CHECK(policy.NextBeat() == t0);
}

TEST_CASE("heartbeat: no ACK between two beats is a zombie") {
  const SteadyClock::time_point t0{};
  HeartbeatPolicy policy;
  policy.Start(1000ms, t0, 0.0);
  CHECK(policy.OnDue(t0) == HeartbeatPolicy::Beat::Send);
  // The ACK never comes.
  CHECK(policy.OnDue(t0 + 1000ms) == HeartbeatPolicy::Beat::Zombie);
  CHECK(!policy.Running());

  // A late ACK just before the next beat is still in time.
  policy.Start(1000ms, t0, 0.0);
  CHECK(policy.OnDue(t0) == HeartbeatPolicy::Beat::Send);
  policy.OnAck();
  CHECK(policy.OnDue(t0 + 1000ms) == HeartbeatPolicy::Beat::Send);

  // A server-requested beat (op 1) also wants its ACK.
  policy.Start(1000ms, t0, 0.5);
  policy.OnImmediateBeat();
  CHECK(policy.OnDue(t0 + 500ms) == HeartbeatPolicy::Beat::Zombie);
}

TEST_CASE("close codes: 4004 and 4010-4014 stop, 4007 and 4009 identify, the rest resume") {
  CHECK(DecideOnClose(4004) == NextStep::Stop);
  for (int code = 4010; code <= 4014; ++code)
    CHECK(DecideOnClose(code) == NextStep::Stop);
  CHECK(DecideOnClose(4007) == NextStep::Identify);
  CHECK(DecideOnClose(4009) == NextStep::Identify);
  for (int code : {4000, 4001, 4002, 4003, 4005, 4006, 4008, 4009 + 6, 4015, 1000, 1001, 1006, 1011})
    CHECK(DecideOnClose(code) == NextStep::Resume);
  CHECK(DecideOnClose(std::nullopt) == NextStep::Resume);  // a drop without a close frame
  CHECK(DecideOnInvalidSession(true) == NextStep::Resume);
  CHECK(DecideOnInvalidSession(false) == NextStep::Identify);
  CHECK(DecideOnReconnectRequest() == NextStep::Resume);
  CHECK(kResumableCloseCode != 1000);
  CHECK(kResumableCloseCode != 1001);
}

TEST_CASE("reconnect backoff: jittered, doubling, capped at 60 s") {
  platformpp::core::Random random(42);
  ReconnectBackoff backoff(kDefaultBackoffInitial, kDefaultBackoffMaximum, random);
  std::chrono::milliseconds ceiling = kDefaultBackoffInitial;
  std::set<int64_t> seen;
  for (int attempt = 0; attempt < 30; ++attempt) {
    auto delay = backoff.Next();
    CHECK(delay >= ceiling / 2);
    CHECK(delay <= ceiling);
    CHECK(delay <= 60s);
    CHECK(delay >= 500ms);
    seen.insert(delay.count());
    ceiling = std::min<std::chrono::milliseconds>(ceiling * 2, kDefaultBackoffMaximum);
  }
  CHECK(seen.size() > 10);  // jittered, not a fixed ladder
  backoff.Reset();
  CHECK(backoff.Next() <= 1s);
}

TEST_CASE("sequence tracker: each s once, resume replays dropped, identify starts over") {
  SequenceTracker tracker;
  CHECK(!tracker.Last());
  CHECK(tracker.Accept(1));
  CHECK(tracker.Accept(2));
  CHECK(tracker.Accept(std::nullopt));  // no s: always delivered
  CHECK(tracker.Last() == 2);
  CHECK(!tracker.Accept(2));  // a replay after a resume
  CHECK(!tracker.Accept(1));
  CHECK(tracker.Accept(5));  // gaps are fine
  CHECK(tracker.Last() == 5);
  tracker.Reset();
  CHECK(tracker.Accept(1));
}

}  // namespace gateway_session_policy_test
