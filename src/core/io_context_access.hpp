#pragma once
// The Asio side of platformpp::IoContext, for the library's network layer only.

#include "core/asio_prelude.hpp"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <future>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class IoContextAccess {
 public:
  static boost::asio::io_context& Get(IoContext& context) noexcept;

  /// How long a thread running this context keeps polling after work before it sleeps.
  static std::chrono::microseconds Spin(IoContext& context) noexcept;

  /// Waits until `done` is ready. A threadless context has nobody else to run the work that makes it ready,
  /// so the waiting thread runs it. Must not be called on a network thread. noexcept: a handler that throws
  /// ends the process here as it would on a network thread (handlers stop user code's exceptions themselves).
  static void WaitFor(IoContext& context, std::future<void>& done) noexcept;
};

}  // namespace platformpp::core
