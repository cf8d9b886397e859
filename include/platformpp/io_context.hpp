#pragma once
// A network context that several Clients can share (bots, load tests): one set of I/O threads instead of one
// thread per Client. Each Client still keeps its own callback queue, drained by its own RunCallbacks.

#include <cstdint>
#include <memory>

namespace platformpp {

namespace core {
class IoContextAccess;
}

class IoContext {
 public:
  /// Starts `threads` network threads (at least 1). They stop and are joined when the last owner lets go.
  explicit IoContext(int32_t threads = 1);
  ~IoContext();
  IoContext(const IoContext&) = delete;
  IoContext& operator=(const IoContext&) = delete;

  int32_t ThreadCount() const noexcept;

 private:
  friend class core::IoContextAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp
