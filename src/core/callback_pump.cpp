#include "core/callback_pump.hpp"

#include "core/callback_queue.hpp"
#include "core/game_thread.hpp"
#include "core/io_context_access.hpp"

#include <platformpp/io_context.hpp>

namespace platformpp::core {

void PollAndDrain(IoContext* io, const std::shared_ptr<CallbackQueue>& queue, Logger& logger) {
  GameThreadClaim claim(*queue, logger, "RunCallbacks");
  if (claim.Refused()) return;
  if (io != nullptr && io->Pumped()) IoContextAccess::Get(*io).poll();
  if (!queue->HasPending()) return;
  claim.KeepAlive(queue);  // a callback may destroy the owner, and its reference to the queue with it
  queue->Drain();
}

bool WaitAndDrain(IoContext* io, const std::shared_ptr<CallbackQueue>& queue, Logger& logger,
                  std::chrono::milliseconds timeout) {
  GameThreadClaim claim(*queue, logger, "WaitForCallbacks");
  if (claim.Refused()) return false;
  claim.KeepAlive(queue);
  bool ready = false;
  if (io != nullptr && io->Pumped()) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto& context = IoContextAccess::Get(*io);
    while (!(ready = queue->HasPending()) && std::chrono::steady_clock::now() < deadline)
      context.run_one_until(deadline);
  } else {
    ready = queue->Wait(timeout);
  }
  queue->Drain();
  return ready;
}

}  // namespace platformpp::core
