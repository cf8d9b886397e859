// RunCallbacks draining 1,000,000 queued completions, against a plain loop over std::function calls doing the
// same work, measured in the same process. Prints the ratio last (target: <= 3x).
#include "core/callback_queue.hpp"
#include "core/completion.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "bench_mode.hpp"

using platformpp::ClientResult;
using platformpp::core::CallbackQueue;
using platformpp::core::Completion;
using Clock = std::chrono::steady_clock;

namespace {

const int kCompletions = platformpp::bench::Sized(1'000'000, 50'000);
const int kRounds = platformpp::bench::Sized(7, 1);

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main() {
  volatile uint64_t sink = 0;
  uint64_t counter = 0;
  auto work = [&counter](const ClientResult& result) { counter += result.Successful() ? 1 : 2; };

  std::vector<double> baseline, sdk;
  for (int round = 0; round < kRounds; ++round) {
    {
      std::vector<std::function<void(ClientResult)>> calls(kCompletions, work);
      auto start = Clock::now();
      for (auto& call : calls)
        call(ClientResult{});
      baseline.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    {
      auto queue = std::make_shared<CallbackQueue>();
      for (int i = 0; i < kCompletions; ++i)
        Completion<>(queue, work)({});
      auto start = Clock::now();
      queue->Drain();
      sdk.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      queue->Shutdown();
    }
  }
  sink = counter;
  if (counter != static_cast<uint64_t>(2 * kRounds) * kCompletions) {
    std::printf("error: %llu callbacks ran, expected %llu\n", static_cast<unsigned long long>(counter),
                static_cast<unsigned long long>(2ull * kRounds * kCompletions));
    return 1;
  }
  double b = Median(baseline), s = Median(sdk);
  std::printf("plain std::function loop: %.2f ms per 1M calls (median of %d)\n", b, kRounds);
  std::printf("RunCallbacks drain:       %.2f ms per 1M completions (median of %d)\n", s, kRounds);
  std::printf("ratio: %.2fx (target <= 3x)\n", s / b);
  (void)sink;
  return 0;
}
