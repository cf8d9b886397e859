#pragma once
// The Asio side of platformpp::IoContext, for the library's network layer only.

#include "core/asio_prelude.hpp"

#include <boost/asio/io_context.hpp>

namespace platformpp {
class IoContext;
}

namespace platformpp::core {

class IoContextAccess {
 public:
  static boost::asio::io_context& Get(IoContext& context) noexcept;
};

}  // namespace platformpp::core
