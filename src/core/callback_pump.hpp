#pragma once
// RunCallbacks and WaitForCallbacks of the game server's endpoints and sessions (backend/): a threadless
// IoContext is pumped on the calling thread (its network work runs there), then the queue delivers what is
// ready. One definition for all of them, so that they pump alike.
#include <chrono>
#include <memory>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class CallbackQueue;
class Logger;

/// Runs the network work that is ready (when `io` is threadless), then delivers what `queue` holds. Never
/// blocks. `io` may be null (nothing to pump). A call while another thread is inside one of these two is
/// refused with an error through `logger` (game_thread.hpp).
void PollAndDrain(IoContext* io, const std::shared_ptr<CallbackQueue>& queue, Logger& logger);
/// Waits until `queue` holds something or `timeout` passes (pumping a threadless `io` meanwhile), then
/// delivers it; true when something was ready (false at once when refused, as PollAndDrain).
bool WaitAndDrain(IoContext* io, const std::shared_ptr<CallbackQueue>& queue, Logger& logger,
                  std::chrono::milliseconds timeout);

}  // namespace platformpp::core
