#include "voice/voice_udp_socket.hpp"

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>

#else
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace platformpp::voice {
namespace {

#ifdef _WIN32
// Winsock's error codes, under the names the code below uses for POSIX's.
constexpr int kWouldBlock = WSAEWOULDBLOCK;
constexpr int kInterrupted = WSAEINTR;
constexpr int kNoBuffers = WSAENOBUFS;
// A connected UDP socket reports an ICMP port unreachable for an earlier datagram as a reset.
constexpr int kRefused = WSAECONNRESET;
int LastError() {
  return ::WSAGetLastError();
}
#else
constexpr int kWouldBlock = EWOULDBLOCK;
constexpr int kInterrupted = EINTR;
constexpr int kNoBuffers = ENOBUFS;
constexpr int kRefused = ECONNREFUSED;
int LastError() {
  return errno;
}
#endif

std::string Errno(const char* what) {
#ifdef _WIN32
  return std::string(what) + ": Winsock error " + std::to_string(LastError());
#else
  return std::string(what) + ": " + std::strerror(errno);
#endif
}

// Errors after which the socket is still fine: nothing queued, interrupted, or the peer's port was closed for
// an earlier datagram (reported asynchronously on connected UDP sockets).
bool Transient(int error) {
  return error == EAGAIN || error == kWouldBlock || error == kInterrupted || error == kRefused;
}

#ifdef _WIN32
// Winsock must be started before its first call; each successful Connect holds one reference (WSAStartup
// counts them), given back by Close.
bool StartWinsock() {
  WSADATA data;
  return ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
}
#endif

}  // namespace

VoiceUdpSocket::~VoiceUdpSocket() {
  Close();
}

void VoiceUdpSocket::Close() noexcept {
  if (fd_ == kNoSocket) return;
#ifdef _WIN32
  ::closesocket(fd_);
  ::WSACleanup();
#else
  ::close(fd_);
#endif
  fd_ = kNoSocket;
}

bool VoiceUdpSocket::Connect(const std::string& ip, uint16_t port, std::string* error) {
  Close();
  keepaliveCounter_ = 0;
  nextKeepalive_.reset();
  keepaliveEchoes_ = 0;
  sockaddr_storage address{};
  socklen_t length = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&address);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&address);
  if (::inet_pton(AF_INET, ip.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    length = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, ip.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    length = sizeof(sockaddr_in6);
  } else {
    if (error) *error = "not an IP address: " + ip;
    return false;
  }
  if (port == 0) {
    if (error) *error = "UDP port 0";
    return false;
  }
#ifdef _WIN32
  if (!StartWinsock()) {
    if (error) *error = "WSAStartup failed";
    return false;
  }
  // Not inherited by child processes (WSA_FLAG_NO_HANDLE_INHERIT, as SOCK_CLOEXEC below).
  SOCKET fd =
      ::WSASocketW(address.ss_family, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
  u_long nonBlocking = 1;
  if (fd == INVALID_SOCKET || ::ioctlsocket(fd, FIONBIO, &nonBlocking) != 0) {
    if (error) *error = Errno("socket");
    if (fd != INVALID_SOCKET) ::closesocket(fd);
    ::WSACleanup();
    return false;
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    if (error) *error = Errno("connect");
    ::closesocket(fd);
    ::WSACleanup();
    return false;
  }
#else
  int fd = ::socket(address.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    if (error) *error = Errno("socket");
    return false;
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    if (error) *error = Errno("connect");
    ::close(fd);
    return false;
  }
#endif
  fd_ = fd;
  return true;
}

uint16_t VoiceUdpSocket::LocalPort() const noexcept {
  if (fd_ == kNoSocket) return 0;
  sockaddr_storage local{};
  socklen_t length = sizeof(local);
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &length) != 0) return 0;
  if (local.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&local)->sin_port);
  if (local.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&local)->sin6_port);
  return 0;
}

std::optional<media_wire::DiscoveredAddress> VoiceUdpSocket::DiscoverAddress(
    uint32_t ssrc, const IpDiscoveryOptions& options, std::string* error) {
  if (fd_ == kNoSocket) {
    if (error) *error = "the socket is not open";
    return std::nullopt;
  }
  const std::array<uint8_t, media_wire::kIpDiscoverySize> request = media_wire::IpDiscoveryRequest(ssrc);
  std::array<uint8_t, media_wire::kIpDiscoverySize + 1>
      buffer{};  // one more: a longer datagram is not an answer
  for (int attempt = 0; attempt < options.attempts; ++attempt) {
    if (Send(request) == SendResult::Failed) {
      if (error) *error = Errno("IP discovery send");
      return std::nullopt;
    }
    const Clock::time_point deadline = Clock::now() + options.attemptTimeout;
    for (;;) {
      Clock::time_point now = Clock::now();
      if (now >= deadline) break;
      if (!Poll(std::chrono::duration_cast<std::chrono::microseconds>(deadline - now))) continue;
      ssize_t got = ::recv(fd_, reinterpret_cast<char*>(buffer.data()), static_cast<int>(buffer.size()), 0);
      if (got < 0) {
#ifdef _WIN32
        if (LastError() == WSAEMSGSIZE) continue;  // longer than an answer: not one
#endif
        if (Transient(LastError())) continue;
        if (error) *error = Errno("IP discovery receive");
        return std::nullopt;
      }
      auto answer = media_wire::ParseIpDiscoveryResponse(
          std::span<const uint8_t>(buffer.data(), static_cast<std::size_t>(got)), ssrc);
      if (answer) return answer;
      // Anything else (a late keepalive echo, a stray packet) is skipped.
    }
  }
  if (error) {
    *error = "no IP discovery answer after " + std::to_string(options.attempts) + " requests of " +
             std::to_string(options.attemptTimeout.count()) + " ms";
  }
  return std::nullopt;
}

bool VoiceUdpSocket::MaybeSendKeepalive(Clock::time_point now, std::chrono::milliseconds interval) {
  if (fd_ == kNoSocket) return false;
  if (nextKeepalive_ && now < *nextKeepalive_) return false;
  std::array<uint8_t, kKeepaliveSize> packet{};
  for (std::size_t i = 0; i < 4; ++i)
    packet[i] = static_cast<uint8_t>(keepaliveCounter_ >> (8 * i));
  // Due again one interval from now even when the send failed: a full buffer clears by then.
  nextKeepalive_ = now + interval;
  if (Send(packet) != SendResult::Sent) return false;
  ++keepaliveCounter_;
  return true;
}

VoiceUdpSocket::SendResult VoiceUdpSocket::Send(std::span<const uint8_t> datagram) noexcept {
  if (fd_ == kNoSocket) return SendResult::Failed;
  for (;;) {
#ifdef _WIN32
    ssize_t sent =
        ::send(fd_, reinterpret_cast<const char*>(datagram.data()), static_cast<int>(datagram.size()), 0);
#else
    ssize_t sent = ::send(fd_, datagram.data(), datagram.size(), MSG_NOSIGNAL);
#endif
    if (sent >= 0) return SendResult::Sent;
    const int code = LastError();
    if (code == kInterrupted) continue;
    if (code == EAGAIN || code == kWouldBlock || code == kNoBuffers) return SendResult::WouldBlock;
    // The unit's port was unreachable for an earlier datagram; this one may well arrive.
    if (code == kRefused) return SendResult::WouldBlock;
    return SendResult::Failed;
  }
}

VoiceUdpSocket::Received VoiceUdpSocket::Receive(std::span<uint8_t> buffer) noexcept {
  Received result;
  if (fd_ == kNoSocket) {
    result.status = ReceiveStatus::Failed;
    return result;
  }
  for (;;) {
#ifdef _WIN32
    // Winsock reports a datagram larger than the buffer as WSAEMSGSIZE (its rest is discarded): skipped.
    ssize_t got = ::recv(fd_, reinterpret_cast<char*>(buffer.data()), static_cast<int>(buffer.size()), 0);
    if (got < 0 && LastError() == WSAEMSGSIZE) continue;
#else
    // MSG_TRUNC: the datagram's real size, so a truncated one is recognised and skipped.
    ssize_t got = ::recv(fd_, buffer.data(), buffer.size(), MSG_TRUNC);
#endif
    if (got < 0) {
      const int code = LastError();
      if (code == kInterrupted || code == kRefused) continue;
      result.status = Transient(code) ? ReceiveStatus::Empty : ReceiveStatus::Failed;
      return result;
    }
    const auto size = static_cast<std::size_t>(got);
    if (size == 0 || size > buffer.size()) continue;
    if (size == kKeepaliveSize) {
      ++keepaliveEchoes_;
      lastEcho_ = Clock::now();
      continue;
    }
    result.status = ReceiveStatus::Packet;
    result.size = size;
    return result;
  }
}

bool VoiceUdpSocket::Poll(std::chrono::microseconds timeout) noexcept {
  if (fd_ == kNoSocket) return false;
  if (timeout.count() < 0) timeout = std::chrono::microseconds(0);
  const auto ms = (timeout.count() + 999) / 1000;
#ifdef _WIN32
  WSAPOLLFD entry{fd_, POLLIN, 0};
  int ready = ::WSAPoll(&entry, 1, static_cast<int>(std::min<int64_t>(ms, 60'000)));
#else
  pollfd entry{fd_, POLLIN, 0};
  int ready = ::poll(&entry, 1, static_cast<int>(std::min<int64_t>(ms, 60'000)));
#endif
  return ready > 0 && (entry.revents & (POLLIN | POLLERR)) != 0;
}

}  // namespace platformpp::voice
