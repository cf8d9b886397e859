// A test's own UDP socket on 127.0.0.1 (an ephemeral port), standing in for a client's media socket: plain
// synchronous Asio, so the same code runs on Linux and Windows.
#pragma once

#include "server/asio_prelude.hpp"

#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <thread>
#include <vector>

namespace platformpp::emulator::test {

class LoopbackUdpSocket {
 public:
  using Bytes = std::vector<std::uint8_t>;

  LoopbackUdpSocket()
      : socket_(io_, boost::asio::ip::udp::endpoint(boost::asio::ip::address_v4::loopback(), 0)) {
    socket_.non_blocking(true);
    port_ = socket_.local_endpoint().port();
  }
  LoopbackUdpSocket(const LoopbackUdpSocket&) = delete;
  LoopbackUdpSocket& operator=(const LoopbackUdpSocket&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }

  void send_to(std::uint16_t port, std::span<const std::uint8_t> data) {
    boost::system::error_code error;
    const auto sent = socket_.send_to(
        boost::asio::buffer(data.data(), data.size()),
        boost::asio::ip::udp::endpoint(boost::asio::ip::address_v4::loopback(), port), 0, error);
    REQUIRE_MESSAGE(!error, error.message());
    REQUIRE(sent == data.size());
  }

  // A datagram already waiting, if any.
  std::optional<Bytes> try_receive() {
    Bytes buffer(2048);
    boost::system::error_code error;
    const auto got = socket_.receive(boost::asio::buffer(buffer), 0, error);
    if (error) return std::nullopt;
    buffer.resize(got);
    return buffer;
  }

  // The next datagram within `timeout_ms`.
  std::optional<Bytes> receive(int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (auto datagram = try_receive()) return datagram;
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

 private:
  boost::asio::io_context io_;
  boost::asio::ip::udp::socket socket_;
  std::uint16_t port_ = 0;
};

}  // namespace platformpp::emulator::test
