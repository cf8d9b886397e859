#pragma once
// The call's UDP media socket (docs/voice-protocol.md "Media"): a raw POSIX non-blocking datagram socket
// connected to the forwarding unit's ip:port from Ready, so the kernel drops datagrams from anyone else. Not
// Asio: the voice thread owns it and polls it with a timeout between its 20 ms ticks. IP discovery (74-byte
// request with our SSRC, retried on loss, bounded by a timeout), the keepalive (8 bytes: a little-endian u32
// counter then 4 zero bytes, every 5 s), Send and Receive. Sending and receiving allocate nothing.
// Not thread-safe: one thread (the voice thread) uses it.

#include "media_wire/ip_discovery.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace platformpp::voice {

inline constexpr std::size_t kKeepaliveSize = 8;
inline constexpr std::chrono::milliseconds kKeepaliveInterval{5000};

struct IpDiscoveryOptions {
  int attempts = 5;                                ///< requests sent at most
  std::chrono::milliseconds attemptTimeout{1000};  ///< wait for an answer before the next request
};

class VoiceUdpSocket {
 public:
  using Clock = std::chrono::steady_clock;

  VoiceUdpSocket() = default;
  ~VoiceUdpSocket();
  VoiceUdpSocket(const VoiceUdpSocket&) = delete;
  VoiceUdpSocket& operator=(const VoiceUdpSocket&) = delete;

  /// Opens a non-blocking UDP socket connected to `ip` (an IPv4 or IPv6 literal, as Ready's `ip`) and `port`.
  /// False (with `error`) when it cannot. Closes any previous socket first.
  bool Connect(const std::string& ip, uint16_t port, std::string* error = nullptr);
  bool IsOpen() const noexcept { return fd_ != kNoSocket; }
  void Close() noexcept;
  /// The local port the socket is bound to (0 when closed).
  uint16_t LocalPort() const noexcept;

  /// IP discovery for `ssrc`: sends a request, waits up to `attemptTimeout` for the answer, and sends again
  /// when none came, up to `attempts` requests. Datagrams that are not the answer are skipped. Blocks the
  /// calling thread (the voice thread, before media flows) for at most attempts * attemptTimeout.
  std::optional<media_wire::DiscoveredAddress> DiscoverAddress(uint32_t ssrc,
                                                               const IpDiscoveryOptions& options = {},
                                                               std::string* error = nullptr);

  /// Sends a keepalive when one is due at `now` (the first at once, then every `interval`). True when sent.
  bool MaybeSendKeepalive(Clock::time_point now, std::chrono::milliseconds interval = kKeepaliveInterval);
  /// Keepalives sent so far (the counter the next one carries).
  uint32_t KeepalivesSent() const noexcept { return keepaliveCounter_; }
  /// 8-byte datagrams received (the forwarding unit echoes keepalives). Receive skips them.
  uint64_t KeepaliveEchoes() const noexcept { return keepaliveEchoes_; }
  Clock::time_point LastKeepaliveEcho() const noexcept { return lastEcho_; }

  enum class SendResult { Sent, WouldBlock, Failed };
  /// One datagram, as is.
  SendResult Send(std::span<const uint8_t> datagram) noexcept;

  enum class ReceiveStatus { Packet, Empty, Failed };
  struct Received {
    ReceiveStatus status = ReceiveStatus::Empty;
    std::size_t size = 0;  ///< bytes written into the buffer (Packet)
  };
  /// The next datagram into `buffer`, without waiting: Empty when none is queued. Datagrams larger than the
  /// buffer (truncated), empty ones and keepalive echoes are skipped. A refused send reported back by the
  /// kernel (ICMP port unreachable) is not a failure: the unit may be restarting.
  Received Receive(std::span<uint8_t> buffer) noexcept;

  /// Waits up to `timeout` (rounded up to milliseconds; zero: just checks) for a datagram. True when one is
  /// ready to read.
  bool Poll(std::chrono::microseconds timeout) noexcept;

 private:
#ifdef _WIN32
  using NativeSocket = std::uintptr_t;  // Winsock's SOCKET
  static constexpr NativeSocket kNoSocket = ~NativeSocket{0};
#else
  using NativeSocket = int;
  static constexpr NativeSocket kNoSocket = -1;
#endif
  NativeSocket fd_ = kNoSocket;
  uint32_t keepaliveCounter_ = 0;
  std::optional<Clock::time_point> nextKeepalive_;
  uint64_t keepaliveEchoes_ = 0;
  Clock::time_point lastEcho_{};
};

}  // namespace platformpp::voice
