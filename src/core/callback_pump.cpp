#include "core/callback_pump.hpp"

#include "core/callback_queue.hpp"
#include "core/io_context_access.hpp"

#include <platformpp/io_context.hpp>

namespace platformpp::core {

void PollAndDrain(IoContext* io, CallbackQueue& queue) {
  if (io != nullptr && io->Pumped()) IoContextAccess::Get(*io).poll();
  queue.Drain();
}

bool WaitAndDrain(IoContext* io, CallbackQueue& queue, std::chrono::milliseconds timeout) {
  bool ready = false;
  if (io != nullptr && io->Pumped()) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto& context = IoContextAccess::Get(*io);
    while (!(ready = queue.HasPending()) && std::chrono::steady_clock::now() < deadline)
      context.run_one_until(deadline);
  } else {
    ready = queue.Wait(timeout);
  }
  queue.Drain();
  return ready;
}

}  // namespace platformpp::core
