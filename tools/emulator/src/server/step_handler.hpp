// The one completion handler type of a session's asynchronous operations, shared by the server's sessions
// (HTTP, WebSocket, IPC): which step completed, with the session kept alive until then. Each distinct handler
// type instantiates Asio's and Beast's composed operations again, so every operation of a session completes
// into this one. Include after server/asio_prelude.hpp, in the server's Asio translation units only.
#pragma once

#include <boost/system/error_code.hpp>
#include <cstddef>
#include <memory>

namespace platformpp::emulator {

template <class Session, class Step>
struct StepHandler {
  std::shared_ptr<Session> self;
  Step step;
  void operator()(boost::system::error_code ec) const { self->on(step, ec, 0); }
  void operator()(boost::system::error_code ec, std::size_t n) const { self->on(step, ec, n); }
};

}  // namespace platformpp::emulator
