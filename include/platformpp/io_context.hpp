#pragma once
// IoContext: a network context that several Clients can share (see the class documentation below).

#include <cstdint>
#include <memory>

namespace platformpp {

namespace core {
class IoContextAccess;
}

/// A network context that several Clients can share (bots, load tests): one set of I/O threads instead of
/// one thread per Client.
///
/// Pass it as ClientOptions::ioContext. Each Client still keeps its own callback queue, drained by its own
/// RunCallbacks. The Clients share their HTTP keep-alive connections: at most 8 per origin for all of them,
/// an idle one reused by whichever Client sends next (an idle TLS connection holds about 90 KiB).
///
/// With 0 threads the context is pumped by its Clients instead: network work runs inside RunCallbacks and
/// WaitForCallbacks, on the calling thread, before any callback of that call. No thread is started, no
/// thread hand-off is paid per request (the lowest latency for bots and tools), and network progress happens
/// only while the game pumps. Callbacks still run only inside RunCallbacks.
class IoContext {
 public:
  /// Starts `threads` network threads (0: pumped by the Clients, see above). They stop and are joined when
  /// the last owner lets go. After each burst of network activity a thread keeps polling for
  /// `spinMicroseconds` before it sleeps: the next request or response of a burst is then served without a
  /// thread wake-up (tens of microseconds on virtual machines). A threadless context's WaitForCallbacks
  /// spins the same way. 0 turns spinning off; the cost is that much CPU time after each burst. A process
  /// allowed only one CPU never spins: there, polling only delays the thread it waits for.
  explicit IoContext(int32_t threads = 1, int32_t spinMicroseconds = kDefaultSpinMicroseconds);
  /// Stops the network threads and joins them.
  ~IoContext();
  IoContext(const IoContext&) = delete;
  IoContext& operator=(const IoContext&) = delete;

  /// The default spin time after a burst of network activity, in microseconds.
  static constexpr int32_t kDefaultSpinMicroseconds = 200;

  /// The number of network threads started (a negative `threads` counts as 0).
  int32_t ThreadCount() const noexcept;
  /// True for a threadless context, pumped by its Clients' RunCallbacks and WaitForCallbacks.
  bool Pumped() const noexcept { return ThreadCount() == 0; }

 private:
  friend class core::IoContextAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp
