// The forwarding unit's UDP front end: one socket for all calls, on the emulator's io_context. Feeds every
// datagram to ForwardingUnit::on_datagram and sends what the unit hands back, now or after the delay a UDP
// fault asks for (one timer and one queue for all delayed datagrams, whatever their number). Asio-free
// header: only voice_udp_server.cpp compiles Asio's templates.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "voice/forwarding_unit.hpp"

namespace boost::asio {
class io_context;
}

namespace platformpp::emulator {

class VoiceUdpServer final : public MediaSink {
 public:
  // Binds a UDP socket on `host` (127.0.0.1, ::1 or localhost, which means 127.0.0.1), on a free port.
  // Throws std::runtime_error when it cannot.
  VoiceUdpServer(boost::asio::io_context& io, const std::string& host);
  ~VoiceUdpServer() override;  // close()
  VoiceUdpServer(const VoiceUdpServer&) = delete;
  VoiceUdpServer& operator=(const VoiceUdpServer&) = delete;

  [[nodiscard]] std::uint16_t port() const noexcept;

  // Becomes `unit`'s sink and starts receiving into it.
  void start(ForwardingUnit& unit);
  // Stops receiving, forgets delayed datagrams, closes the socket and detaches from the unit. Idempotent.
  void close();

  void send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data,
                     std::int64_t delay_ms) override;

  struct Counters {
    std::uint64_t received = 0;     // datagrams read from the socket
    std::uint64_t sent = 0;         // datagrams written to the socket
    std::uint64_t send_failed = 0;  // a bad address, or the socket's buffer full (dropped, as UDP does)
  };
  [[nodiscard]] Counters counters() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::emulator
