// The call's UDP media socket against a local responder thread standing in for the forwarding unit: IP
// discovery (answered, retried when a request is lost, bounded when none is answered), the keepalive counter
// and interval, echoed datagrams, truncated ones skipped.
#include "voice/voice_udp_socket.hpp"
#include "media_wire/ip_discovery.hpp"

#include <doctest/doctest.h>

#include "test_portability.hpp"

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace voice_udp_socket_test {

using namespace platformpp::voice;
namespace media_wire = platformpp::media_wire;
using namespace std::chrono_literals;
using namespace platformpp_test;

namespace {

// Answers IP discovery requests with the sender's address and port (after dropping the first `dropRequests`),
// and echoes everything else, like the forwarding unit does with keepalives.
class Responder {
 public:
  explicit Responder(int dropRequests = 0, uint32_t answerSsrcOffset = 0)
      : dropRequests_(dropRequests), ssrcOffset_(answerSsrcOffset) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(fd_ != kNoSocket);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    socklen_t length = sizeof(address);
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { Run(); });
  }
  ~Responder() {
    stop_ = true;
    thread_.join();
    CloseSocket(fd_);
  }

  uint16_t Port() const { return port_; }
  int Requests() const { return requests_.load(); }
  std::vector<std::vector<uint8_t>> Others() {
    std::lock_guard lock(mutex_);
    return others_;
  }

 private:
  void Run() {
    std::array<uint8_t, 2048> buffer{};
    while (!stop_) {
      PollEntry entry{fd_, POLLIN, 0};
      if (Poll(&entry, 1, 10) <= 0) continue;
      sockaddr_in from{};
      socklen_t length = sizeof(from);
      ssize_t got = ::recvfrom(fd_, Bytes(buffer.data()), static_cast<int>(buffer.size()), 0,
                               reinterpret_cast<sockaddr*>(&from), &length);
      if (got <= 0) continue;
      if (got == static_cast<ssize_t>(media_wire::kIpDiscoverySize) && buffer[1] == 1) {
        int n = ++requests_;
        if (n <= dropRequests_) continue;
        uint32_t ssrc = (uint32_t{buffer[4]} << 24) | (uint32_t{buffer[5]} << 16) |
                        (uint32_t{buffer[6]} << 8) | buffer[7];
        if (ssrcOffset_ != 0) {
          // A stray answer for someone else first, then the right one.
          Answer(ssrc + ssrcOffset_, from);
        }
        Answer(ssrc, from);
        continue;
      }
      {
        std::lock_guard lock(mutex_);
        others_.emplace_back(buffer.begin(), buffer.begin() + got);
      }
      ::sendto(fd_, Bytes(buffer.data()), static_cast<int>(got), 0, reinterpret_cast<sockaddr*>(&from),
               length);
    }
  }

  void Answer(uint32_t ssrc, const sockaddr_in& to) {
    std::array<uint8_t, media_wire::kIpDiscoverySize> answer{};
    answer[1] = 2;
    answer[3] = 70;
    for (int i = 0; i < 4; ++i)
      answer[4 + i] = static_cast<uint8_t>(ssrc >> (24 - 8 * i));
    const char* ip = "127.0.0.1";
    std::memcpy(answer.data() + 8, ip, std::strlen(ip));
    uint16_t port = ntohs(to.sin_port);
    answer[72] = static_cast<uint8_t>(port >> 8);
    answer[73] = static_cast<uint8_t>(port);
    ::sendto(fd_, Bytes(answer.data()), static_cast<int>(answer.size()), 0,
             reinterpret_cast<const sockaddr*>(&to), sizeof(to));
  }

  NativeSocket fd_ = kNoSocket;
  uint16_t port_ = 0;
  int dropRequests_;
  uint32_t ssrcOffset_;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::mutex mutex_;
  std::vector<std::vector<uint8_t>> others_;
  std::thread thread_;
};

uint32_t LittleEndian32(const std::vector<uint8_t>& bytes) {
  return uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16) |
         (uint32_t{bytes[3]} << 24);
}

}  // namespace

TEST_CASE("voice UDP: IP discovery answered with our own address and port") {
  Responder responder;
  VoiceUdpSocket socket;
  std::string error;
  REQUIRE(socket.Connect("127.0.0.1", responder.Port(), &error));
  CHECK(socket.IsOpen());
  CHECK(socket.LocalPort() != 0);
  auto found = socket.DiscoverAddress(0xCAFEBABE, {3, 1000ms}, &error);
  REQUIRE(found);
  CHECK(found->address == "127.0.0.1");
  CHECK(found->port == socket.LocalPort());
  CHECK(responder.Requests() == 1);
}

TEST_CASE("voice UDP: a lost discovery request is sent again") {
  Responder responder(/*dropRequests=*/1);
  VoiceUdpSocket socket;
  REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
  std::string error;
  auto found = socket.DiscoverAddress(7, {3, 100ms}, &error);
  REQUIRE(found);
  CHECK(found->port == socket.LocalPort());
  CHECK(responder.Requests() == 2);
}

TEST_CASE("voice UDP: discovery gives up after its attempts, and skips answers for another SSRC") {
  SUBCASE("as many lost requests as attempts: no address") {
    Responder responder(/*dropRequests=*/2);
    VoiceUdpSocket socket;
    REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
    std::string error;
    auto start = std::chrono::steady_clock::now();
    CHECK_FALSE(socket.DiscoverAddress(7, {2, 100ms}, &error));
    CHECK(std::chrono::steady_clock::now() - start >= 200ms);
    CHECK(responder.Requests() == 2);
    CHECK(error.find("2 requests") != std::string::npos);
  }
  SUBCASE("one attempt more is enough") {
    Responder responder(/*dropRequests=*/2);
    VoiceUdpSocket socket;
    REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
    CHECK(socket.DiscoverAddress(7, {3, 100ms}));
    CHECK(responder.Requests() == 3);
  }
  SUBCASE("a stray answer first") {
    Responder responder(0, /*answerSsrcOffset=*/1);
    VoiceUdpSocket socket;
    REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
    auto found = socket.DiscoverAddress(7, {1, 1000ms});
    REQUIRE(found);
    CHECK(found->port == socket.LocalPort());
  }
}

TEST_CASE(
    "voice UDP: keepalives carry a little-endian counter, every interval, and their echoes are counted") {
  Responder responder;
  VoiceUdpSocket socket;
  REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(socket.MaybeSendKeepalive(t0));  // the first at once
  CHECK(socket.KeepalivesSent() == 1);
  CHECK_FALSE(socket.MaybeSendKeepalive(t0 + 4999ms));
  CHECK(socket.MaybeSendKeepalive(t0 + 5000ms));
  CHECK_FALSE(socket.MaybeSendKeepalive(t0 + 9999ms));
  CHECK(socket.MaybeSendKeepalive(t0 + 10000ms));
  CHECK(socket.KeepalivesSent() == 3);
  // The echoes are skipped by Receive but counted.
  std::array<uint8_t, 1500> buffer{};
  auto deadline = std::chrono::steady_clock::now() + 2s;
  while (socket.KeepaliveEchoes() < 3 && std::chrono::steady_clock::now() < deadline) {
    if (socket.Poll(100ms)) CHECK(socket.Receive(buffer).status == VoiceUdpSocket::ReceiveStatus::Empty);
  }
  CHECK(socket.KeepaliveEchoes() == 3);
  auto seen = responder.Others();
  REQUIRE(seen.size() == 3);
  for (uint32_t i = 0; i < 3; ++i) {
    REQUIRE(seen[i].size() == kKeepaliveSize);
    CHECK(LittleEndian32(seen[i]) == i);
    CHECK(seen[i][4] == 0);
    CHECK(seen[i][7] == 0);
  }
}

TEST_CASE("voice UDP: send and receive datagrams; truncated ones skipped; poll times out when idle") {
  Responder responder;
  VoiceUdpSocket socket;
  REQUIRE(socket.Connect("127.0.0.1", responder.Port()));
  std::array<uint8_t, 1500> buffer{};
  CHECK_FALSE(socket.Poll(20ms));
  CHECK(socket.Receive(buffer).status == VoiceUdpSocket::ReceiveStatus::Empty);

  std::vector<uint8_t> packet(60);
  for (std::size_t i = 0; i < packet.size(); ++i)
    packet[i] = static_cast<uint8_t>(i);
  REQUIRE(socket.Send(packet) == VoiceUdpSocket::SendResult::Sent);
  REQUIRE(socket.Poll(1000ms));
  VoiceUdpSocket::Received got = socket.Receive(buffer);
  REQUIRE(got.status == VoiceUdpSocket::ReceiveStatus::Packet);
  CHECK(got.size == packet.size());
  CHECK(std::equal(packet.begin(), packet.end(), buffer.begin()));

  // Into a buffer one byte too small: skipped. Exactly big enough: received.
  REQUIRE(socket.Send(packet) == VoiceUdpSocket::SendResult::Sent);
  REQUIRE(socket.Poll(1000ms));
  CHECK(socket.Receive(std::span<uint8_t>(buffer.data(), packet.size() - 1)).status ==
        VoiceUdpSocket::ReceiveStatus::Empty);
  REQUIRE(socket.Send(packet) == VoiceUdpSocket::SendResult::Sent);
  REQUIRE(socket.Poll(1000ms));
  got = socket.Receive(std::span<uint8_t>(buffer.data(), packet.size()));
  CHECK(got.status == VoiceUdpSocket::ReceiveStatus::Packet);
  CHECK(got.size == packet.size());
}

TEST_CASE("voice UDP: bad addresses are refused; a closed socket sends and receives nothing") {
  VoiceUdpSocket socket;
  std::string error;
  CHECK_FALSE(socket.Connect("not-an-ip", 5000, &error));
  CHECK(error.find("not an IP") != std::string::npos);
  CHECK_FALSE(socket.Connect("127.0.0.1", 0, &error));
  CHECK_FALSE(socket.IsOpen());
  const std::array<uint8_t, 4> bytes{};
  CHECK(socket.Send(bytes) == VoiceUdpSocket::SendResult::Failed);
  std::array<uint8_t, 16> buffer{};
  CHECK(socket.Receive(buffer).status == VoiceUdpSocket::ReceiveStatus::Failed);
  CHECK_FALSE(socket.MaybeSendKeepalive(std::chrono::steady_clock::now()));
  CHECK_FALSE(socket.DiscoverAddress(1, {1, 10ms}));
  // IPv6 loopback literals are accepted where the host has IPv6.
  if (socket.Connect("::1", 5000)) CHECK(socket.IsOpen());
}

}  // namespace voice_udp_socket_test
