#pragma once
// The Asio side of platformpp::IoContext, for the library's network layer only.

#include "core/asio_prelude.hpp"

#include <boost/asio/io_context.hpp>

#include <future>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class IoContextAccess {
 public:
  static boost::asio::io_context& Get(IoContext& context) noexcept;

  /// Waits until `done` is ready. A threadless context has nobody else to run the work that makes it ready,
  /// so the waiting thread runs it. Must not be called on a network thread.
  static void WaitFor(IoContext& context, std::future<void>& done);
};

}  // namespace platformpp::core
