// VoiceUdpServer over real loopback sockets: IP discovery and forwarding through the unit, delayed sends in
// due order, and close.
#include "server/asio_prelude.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include "loopback_udp_socket.hpp"
#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/forwarding_unit.hpp"
#include "voice/voice_udp_server.hpp"

// Counts the C++ allocations made on this thread while `g_counting` is set (this binary only).
namespace {
std::atomic<long> g_allocations{0};
thread_local bool g_counting = false;

void* counted_allocation(std::size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) {
  return counted_allocation(size);
}
void* operator new[](std::size_t size) {
  return counted_allocation(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

using namespace platformpp::emulator;
namespace media_wire = platformpp::media_wire;
using Bytes = std::vector<std::uint8_t>;
using Clock = std::chrono::steady_clock;

namespace {

// A client's UDP socket on 127.0.0.1.
class ClientSocket : public test::LoopbackUdpSocket {
 public:
  [[nodiscard]] MediaEndpoint endpoint() const { return {"127.0.0.1", port()}; }
};

// Runs the loop until `socket` has a datagram or `timeout` passes.
std::optional<Bytes> receive(boost::asio::io_context& io, ClientSocket& socket,
                             std::chrono::milliseconds timeout = std::chrono::milliseconds(2000)) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    io.restart();
    io.run_for(std::chrono::milliseconds(5));
    if (auto datagram = socket.try_receive()) return datagram;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("IP discovery and forwarding over real UDP sockets") {
  boost::asio::io_context io(1);
  ForwardingUnit unit;
  VoiceUdpServer server(io, "127.0.0.1");
  REQUIRE(server.port() != 0);
  server.start(unit);

  ClientSocket a, b;
  const auto ssrc_a = unit.allocate_ssrc();
  unit.add_session("a", ssrc_a, "1", "L");
  unit.add_session("b", unit.allocate_ssrc(), "2", "L");

  a.send_to(server.port(), platformpp::media_wire::IpDiscoveryRequest(ssrc_a));
  const auto answer = receive(io, a);
  REQUIRE(answer);
  const auto discovered = platformpp::media_wire::ParseIpDiscoveryResponse(*answer, ssrc_a);
  REQUIRE(discovered);
  CHECK(discovered->address == "127.0.0.1");
  CHECK(discovered->port == a.port());

  platformpp::media_wire::TransportKey key_a{}, key_b{};
  key_a.fill(1);
  key_b.fill(2);
  unit.set_media("a", a.endpoint(), platformpp::media_wire::TransportMode::AeadAes256GcmRtpsize, key_a);
  unit.set_media("b", b.endpoint(), platformpp::media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize,
                 key_b);
  platformpp::media_wire::TransportSealer sealer(platformpp::media_wire::TransportMode::AeadAes256GcmRtpsize,
                                                 key_a);
  Bytes rtp(112, 0x5A);
  platformpp::media_wire::WriteRtpHeader(7, 6720, ssrc_a, std::span<std::uint8_t, 12>(rtp.data(), 12));
  Bytes sealed(rtp.size() + platformpp::media_wire::kTransportOverhead);
  REQUIRE(sealer.Seal(rtp, sealed) == sealed.size());
  a.send_to(server.port(), sealed);

  const auto forwarded = receive(io, b);
  REQUIRE(forwarded);
  platformpp::media_wire::TransportOpener opener(
      platformpp::media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, key_b);
  Bytes opened(forwarded->size());
  std::size_t written = 0;
  REQUIRE(opener.Open(*forwarded, opened, written) == platformpp::media_wire::OpenResult::Ok);
  opened.resize(written);
  CHECK(opened == rtp);
  CHECK_FALSE(receive(io, a, std::chrono::milliseconds(50)));  // not back to the speaker
  CHECK(unit.stats("a")->packets_received == 1);
  CHECK(unit.stats("b")->packets_forwarded == 1);
  CHECK(server.counters().received == 2);
  CHECK(server.counters().sent == 2);

  // Closed: nothing is read or sent any more, and the unit no longer points at the server.
  const auto port = server.port();
  server.close();
  CHECK(server.port() == 0);
  a.send_to(port, sealed);
  CHECK_FALSE(receive(io, b, std::chrono::milliseconds(50)));
  unit.on_datagram(a.endpoint(), Bytes(8, 1));  // no sink: ignored
}

// A flood the service thread cannot keep up with waits in the socket's receive queue. That queue is bounded:
// what does not fit is dropped, so that an IP discovery request sent after the backlog waits behind a
// fraction of a second of traffic, not seconds (the 100-player soak's calls failed their 5 s discovery for
// minutes).
TEST_CASE("a flood while the service thread is busy: the backlog is bounded, a later discovery is answered") {
  boost::asio::io_context io(1);
  ForwardingUnit unit;
  VoiceUdpServer server(io, "127.0.0.1");
  server.start(unit);
  ClientSocket flooder, caller;
  const auto ssrc = unit.allocate_ssrc();
  unit.add_session("caller", ssrc, "1", "L");

  // 20,000 media-sized datagrams of an unknown sender while the loop does not run (the thread is busy).
  constexpr int kFlood = 20000;
  Bytes media(120, 0x42);
  platformpp::media_wire::WriteRtpHeader(1, 0, 0xDEAD, std::span<std::uint8_t, 12>(media.data(), 12));
  for (int i = 0; i < kFlood; ++i)
    flooder.send_to(server.port(), media);
  // What the queue held is what the loop then finds.
  for (int idle = 0; idle < 20;) {
    io.restart();
    idle = io.poll() == 0 ? idle + 1 : 0;
  }
  const auto backlog = server.counters().received;
  MESSAGE("datagrams queued of " << kFlood << ": " << backlog);
  CHECK(backlog > 0);
  CHECK(backlog < 2500);  // the 4 MiB queue asked for before held about 10,000 of these

  caller.send_to(server.port(), platformpp::media_wire::IpDiscoveryRequest(ssrc));
  const auto answer = receive(io, caller, std::chrono::milliseconds(500));
  REQUIRE(answer);
  CHECK(platformpp::media_wire::ParseIpDiscoveryResponse(*answer, ssrc));
}

TEST_CASE("delayed datagrams leave in due order, not before their delay; equal delays keep their order") {
  boost::asio::io_context io(1);
  VoiceUdpServer server(io, "127.0.0.1");
  ClientSocket client;
  const auto start = Clock::now();
  server.send_datagram(client.endpoint(), Bytes{3}, 120);
  server.send_datagram(client.endpoint(), Bytes{2}, 60);
  server.send_datagram(client.endpoint(), Bytes{4}, 120);
  server.send_datagram(client.endpoint(), Bytes{1}, 0);
  server.send_datagram(MediaEndpoint{"not an address", 1}, Bytes{9}, 0);
  CHECK(server.counters().send_failed == 1);

  std::vector<std::pair<std::uint8_t, std::chrono::milliseconds>> arrivals;
  while (arrivals.size() < 4 && Clock::now() - start < std::chrono::seconds(3)) {
    const auto datagram = receive(io, client, std::chrono::milliseconds(500));
    if (!datagram) continue;
    REQUIRE(datagram->size() == 1);
    arrivals.emplace_back((*datagram)[0],
                          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start));
  }
  REQUIRE(arrivals.size() == 4);
  CHECK(arrivals[0].first == 1);
  CHECK(arrivals[1].first == 2);
  CHECK(arrivals[2].first == 3);
  CHECK(arrivals[3].first == 4);
  CHECK(arrivals[1].second >= std::chrono::milliseconds(60));
  CHECK(arrivals[2].second >= std::chrono::milliseconds(120));
  CHECK(server.counters().sent == 4);

  // Closing forgets what is still queued.
  server.send_datagram(client.endpoint(), Bytes{5}, 30);
  server.close();
  CHECK_FALSE(receive(io, client, std::chrono::milliseconds(100)));
}

namespace {

class NullSink final : public MediaSink {
 public:
  void send_datagram(const MediaEndpoint&, std::span<const std::uint8_t>, std::int64_t) override { ++count; }
  long count = 0;
};

struct Speaker {
  std::uint32_t ssrc = 0;
  platformpp::media_wire::TransportKey key{};
  std::unique_ptr<platformpp::media_wire::TransportSealer> sealer;

  // `count` sealed packets, made before any counting starts.
  std::vector<Bytes> packets(int count, std::uint16_t first) {
    std::vector<Bytes> out;
    for (int i = 0; i < count; ++i) {
      Bytes rtp(112, 0x33);
      platformpp::media_wire::WriteRtpHeader(static_cast<std::uint16_t>(first + i), 0, ssrc,
                                             std::span<std::uint8_t, 12>(rtp.data(), 12));
      Bytes sealed(rtp.size() + platformpp::media_wire::kTransportOverhead);
      REQUIRE(sealer->Seal(rtp, sealed) == sealed.size());
      out.push_back(std::move(sealed));
    }
    return out;
  }
};

}  // namespace

TEST_CASE("steady-state forwarding allocates nothing: the unit alone, then behind its UDP socket") {
  using platformpp::media_wire::TransportMode;
  ForwardingUnit unit;
  Speaker speaker;
  speaker.ssrc = unit.allocate_ssrc();
  speaker.key.fill(7);
  speaker.sealer = std::make_unique<platformpp::media_wire::TransportSealer>(
      media_wire::TransportMode::AeadAes256GcmRtpsize, speaker.key);
  ClientSocket a, b, c;
  unit.add_session("a", speaker.ssrc, "1", "L");
  unit.set_media("a", a.endpoint(), media_wire::TransportMode::AeadAes256GcmRtpsize, speaker.key);
  platformpp::media_wire::TransportKey other{};
  other.fill(8);
  unit.add_session("b", unit.allocate_ssrc(), "2", "L");
  unit.set_media("b", b.endpoint(), media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, other);
  unit.add_session("c", unit.allocate_ssrc(), "3", "L");
  unit.set_media("c", c.endpoint(), media_wire::TransportMode::AeadAes256GcmRtpsize, other);
  UdpFaults faults;
  faults.loss_percent = 5;
  faults.reorder_percent = 20;
  faults.jitter_ms = 3;

  SUBCASE("socket-free") {
    NullSink sink;
    unit.set_sink(&sink);
    unit.set_faults(faults);
    auto warm_up = speaker.packets(50, 0);
    auto counted = speaker.packets(500, 50);
    for (const auto& packet : warm_up)
      unit.on_datagram(a.endpoint(), packet);
    const Bytes keepalive(8, 1);
    const auto discovery = platformpp::media_wire::IpDiscoveryRequest(speaker.ssrc);
    g_allocations = 0;
    g_counting = true;
    for (const auto& packet : counted) {
      unit.on_datagram(a.endpoint(), packet);
      unit.on_datagram(a.endpoint(), keepalive);
      unit.on_datagram(a.endpoint(), discovery);
    }
    g_counting = false;
    CHECK(g_allocations.load() == 0);
    CHECK(unit.stats("a")->packets_received == 550);
    CHECK(sink.count > 1000);
  }

  SUBCASE("through VoiceUdpServer") {
    boost::asio::io_context io(1);
    VoiceUdpServer server(io, "127.0.0.1");
    server.start(unit);
    unit.set_faults(faults);
    // Runs ready handlers (counting allocations), then empties the receivers' sockets (not counted).
    auto pump_once = [&] {
      io.restart();
      g_counting = true;
      io.poll();
      g_counting = false;
      while (b.try_receive() || c.try_receive()) {
      }
    };
    auto pump_for = [&](std::chrono::milliseconds duration) {
      const auto until = Clock::now() + duration;
      while (Clock::now() < until)
        pump_once();
    };
    // Sends each packet and runs the loop until the unit has taken it and its delayed copies are out (a
    // paced speaker, so the warm-up meets as many datagrams in flight as the counted part).
    auto speak = [&](const std::vector<Bytes>& packets) {
      for (const auto& packet : packets) {
        const auto before = unit.stats("a")->packets_received;
        a.send_to(server.port(), packet);
        const auto deadline = Clock::now() + std::chrono::seconds(2);
        while (unit.stats("a")->packets_received == before && Clock::now() < deadline)
          pump_once();
        pump_for(std::chrono::milliseconds(faults.jitter_ms + 2));
      }
    };
    const auto warm_up = speaker.packets(50, 0);
    const auto counted = speaker.packets(200, 50);
    speak(warm_up);
    g_allocations = 0;
    speak(counted);
    CHECK(g_allocations.load() == 0);
    CHECK(unit.stats("a")->packets_received == 250);
    CHECK(server.counters().sent > 400);
  }
}
