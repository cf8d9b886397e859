#pragma once
// RunCallbacks and WaitForCallbacks of the game server's endpoints and sessions (backend/): a threadless
// IoContext is pumped on the calling thread (its network work runs there), then the queue delivers what is
// ready. One definition for all of them, so that they pump alike.
#include <chrono>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class CallbackQueue;

/// Runs the network work that is ready (when `io` is threadless), then delivers what `queue` holds. Never
/// blocks. `io` may be null (nothing to pump).
void PollAndDrain(IoContext* io, CallbackQueue& queue);
/// Waits until `queue` holds something or `timeout` passes (pumping a threadless `io` meanwhile), then
/// delivers it; true when something was ready.
bool WaitAndDrain(IoContext* io, CallbackQueue& queue, std::chrono::milliseconds timeout);

}  // namespace platformpp::core
