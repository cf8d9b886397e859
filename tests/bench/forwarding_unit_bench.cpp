// The emulator's forwarding unit under a full lobby call: 25 participants all speaking (50 packets/s each,
// 100-byte Opus payloads, sealed; modes alternate AES-256-GCM / XChaCha20-Poly1305) over real loopback UDP
// sockets into a ForwardingUnit behind its VoiceUdpServer, on one thread running an Asio io_context. Each
// packet is opened once and sealed again for the 24 others. Baseline, in the same run: the same datagrams
// relayed to the same 24 receivers by a plain recv/sendto loop without crypto. Prints the CPU time of each
// relaying thread as a share of one core (target for the unit: < 25 %), then their ratio last; and the unit
// again with end-to-end encrypted (DAVE) frames of the same size; then the unit alone, without sockets, plain
// and DAVE frames in interleaved rounds, whose ratio shows that DAVE leaves the unit's cost unchanged (it has
// no key and no DAVE path; target 1 +- 0.05). Fails only
// when the work fails (packets not delivered, or not authentic), never on timing.
#include "server/asio_prelude.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/forwarding_unit.hpp"
#include "voice/voice_udp_server.hpp"

#include "bench_mode.hpp"

using namespace platformpp::emulator;
namespace media_wire = platformpp::media_wire;
using platformpp::media_wire::TransportKey;
using platformpp::media_wire::TransportMode;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kParticipants = 25;
constexpr int kPacketsPerSecond = 50;
constexpr std::size_t kPayloadSize = 100;
const auto kRunTime =
    platformpp::bench::Sized<std::chrono::milliseconds>(std::chrono::seconds(5), std::chrono::seconds(1));
const int kTicks = static_cast<int>(kRunTime / std::chrono::milliseconds(1000 / kPacketsPerSecond));

int udp_socket(std::uint16_t& port) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0)
    throw std::runtime_error("bind");
  // Room for a scheduling hiccup of the reading thread (root may exceed rmem_max).
  const int size = 4 * 1024 * 1024;
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) != 0)
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  port = ntohs(address.sin_port);
  return fd;
}

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  return address;
}

double thread_cpu_seconds(std::thread& thread) {
  clockid_t clock{};
  if (pthread_getcpuclockid(thread.native_handle(), &clock) != 0) return 0;
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

struct Participant {
  int fd = -1;
  std::uint16_t port = 0;
  std::uint32_t ssrc = 0;
  media_wire::TransportMode mode = media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize;
  media_wire::TransportKey key{};
  std::vector<std::vector<std::uint8_t>> datagrams;  // one sealed packet per tick
};

struct Received {
  std::uint64_t datagrams = 0;
  std::uint64_t authentic = 0;  // opened with the receiver's key, and from another participant's SSRC
};

// Each tick (20 ms), every participant sends its next datagram to `port`.
void speak(std::vector<Participant>& participants, std::uint16_t port) {
  const auto to = loopback(port);
  auto next = Clock::now();
  for (int tick = 0; tick < kTicks; ++tick) {
    for (auto& p : participants) {
      const auto& datagram = p.datagrams[static_cast<std::size_t>(tick)];
      ::sendto(p.fd, datagram.data(), datagram.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof(to));
    }
    next += std::chrono::milliseconds(1000 / kPacketsPerSecond);
    std::this_thread::sleep_until(next);
  }
}

// Reads every participant's socket until `stop`; opens what it reads when `verify`.
std::vector<Received> receive(std::vector<Participant>& participants, const std::atomic<bool>& stop,
                              bool verify) {
  std::vector<Received> received(participants.size());
  std::vector<std::unique_ptr<platformpp::media_wire::TransportOpener>> openers;
  openers.reserve(participants.size());
  for (const auto& p : participants)
    openers.push_back(std::make_unique<platformpp::media_wire::TransportOpener>(p.mode, p.key));
  std::vector<pollfd> fds;
  fds.reserve(participants.size());
  for (const auto& p : participants)
    fds.push_back(pollfd{p.fd, POLLIN, 0});
  std::vector<std::uint8_t> buffer(2048), opened(2048);
  while (!stop.load()) {
    if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
    for (std::size_t i = 0; i < participants.size(); ++i) {
      if ((fds[i].revents & POLLIN) == 0) continue;
      for (;;) {
        const auto n = ::recv(participants[i].fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n <= 0) break;
        ++received[i].datagrams;
        if (!verify) continue;
        std::size_t written = 0;
        const auto packet = std::span<const std::uint8_t>(buffer.data(), static_cast<std::size_t>(n));
        if (openers[i]->Open(packet, opened, written) != platformpp::media_wire::OpenResult::Ok) continue;
        const auto header = platformpp::media_wire::ParseRtpHeader(std::span(opened.data(), written));
        if (header && header->ssrc != participants[i].ssrc &&
            written == platformpp::media_wire::kRtpFixedHeaderSize + kPayloadSize)
          ++received[i].authentic;
      }
    }
  }
  return received;
}

struct Phase {
  double cpu_percent = 0;
  std::uint64_t delivered = 0;
  std::uint64_t authentic = 0;
};

// Runs `relay` on its own thread while the participants speak; its thread's CPU over the wall time.
template <class Relay, class Stop>
Phase run_phase(std::vector<Participant>& participants, std::uint16_t port, bool verify, Relay relay,
                Stop stop) {
  std::atomic<bool> stop_receiving{false};
  std::vector<Received> received;
  std::thread receiver([&] { received = receive(participants, stop_receiving, verify); });
  std::thread relay_thread(relay);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // both threads settled
  const double cpu_start = thread_cpu_seconds(relay_thread);
  const auto wall_start = Clock::now();
  speak(participants, port);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last tick relayed
  const double cpu = thread_cpu_seconds(relay_thread) - cpu_start;
  const double wall = std::chrono::duration<double>(Clock::now() - wall_start).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  stop();
  relay_thread.join();
  stop_receiving = true;
  receiver.join();
  Phase phase;
  phase.cpu_percent = 100.0 * cpu / wall;
  for (const auto& r : received) {
    phase.delivered += r.datagrams;
    phase.authentic += r.authentic;
  }
  return phase;
}

// The unit alone, without sockets (a sink that drops what it is given), so that the kernel's UDP work does
// not hide a few percent: each round feeds `datagrams` (sealed from nonce 0) to fresh sessions, timed on this
// thread's CPU clock. Returns the seconds of each round.
struct DiscardSink final : MediaSink {
  void send_datagram(const MediaEndpoint&, std::span<const std::uint8_t>, std::int64_t) override { ++sent; }
  std::uint64_t sent = 0;
};

double socketless_round(const std::vector<Participant>& participants, int round, const char* tag) {
  ForwardingUnit unit;
  DiscardSink sink;
  unit.set_sink(&sink);
  std::vector<std::uint32_t> ssrcs;
  for (std::size_t i = 0; i < participants.size(); ++i) {
    const auto& p = participants[i];
    const auto key = std::string(tag) + std::to_string(round) + "-" + std::to_string(i);
    unit.add_session(key, p.ssrc, std::to_string(1000 + i), "lobby");
    unit.set_media(key, MediaEndpoint{"127.0.0.1", p.port}, p.mode, p.key);
  }
  timespec start{}, end{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  for (int tick = 0; tick < kTicks; ++tick) {
    for (const auto& p : participants)
      unit.on_datagram(MediaEndpoint{"127.0.0.1", p.port}, p.datagrams[static_cast<std::size_t>(tick)]);
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
  if (sink.sent != static_cast<std::uint64_t>(kTicks) * participants.size() * (participants.size() - 1))
    return -1;
  return static_cast<double>(end.tv_sec - start.tv_sec) +
         static_cast<double>(end.tv_nsec - start.tv_nsec) / 1e9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main() {
  std::vector<Participant> participants(kParticipants);
  ForwardingUnit unit;
  for (int i = 0; i < kParticipants; ++i) {
    auto& p = participants[static_cast<std::size_t>(i)];
    p.fd = udp_socket(p.port);
    p.ssrc = unit.allocate_ssrc();
    p.mode = i % 2 == 0 ? media_wire::TransportMode::AeadAes256GcmRtpsize
                        : media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize;
    for (std::size_t b = 0; b < p.key.size(); ++b)
      p.key[b] = static_cast<std::uint8_t>(static_cast<std::size_t>(i) * 37 + b * 11 + 5);
  }
  // Each participant's datagrams for the run: Opus-like payloads, or (dave) the same size ending with the
  // DAVE frame marker, which is all the unit can tell of an end-to-end encrypted frame.
  const auto seal_all = [&](bool dave) {
    for (auto& p : participants) {
      p.datagrams.clear();
      platformpp::media_wire::TransportSealer sealer(p.mode, p.key);
      for (int tick = 0; tick < kTicks; ++tick) {
        std::vector<std::uint8_t> rtp(platformpp::media_wire::kRtpFixedHeaderSize + kPayloadSize,
                                      static_cast<std::uint8_t>(tick));
        if (dave) rtp[rtp.size() - 2] = rtp[rtp.size() - 1] = 0xFA;
        platformpp::media_wire::WriteRtpHeader(
            static_cast<std::uint16_t>(tick),
            static_cast<std::uint32_t>(tick) * platformpp::media_wire::kOpusFrameTimestampStep, p.ssrc,
            std::span<std::uint8_t, 12>(rtp.data(), 12));
        std::vector<std::uint8_t> sealed(rtp.size() + platformpp::media_wire::kTransportOverhead);
        if (sealer.Seal(rtp, sealed) != sealed.size()) return false;
        p.datagrams.push_back(std::move(sealed));
      }
    }
    return true;
  };
  if (!seal_all(false)) {
    std::printf("error: sealing failed\n");
    return 1;
  }
  const std::uint64_t expected = static_cast<std::uint64_t>(kTicks) * kParticipants * (kParticipants - 1);

  // Baseline: recv, then sendto each of the 24 others, the bytes unchanged.
  std::uint16_t relay_port = 0;
  const int relay_fd = udp_socket(relay_port);
  std::atomic<bool> relay_stop{false};
  const auto bare = run_phase(
      participants, relay_port, false,
      [&] {
        std::vector<sockaddr_in> addresses;
        addresses.reserve(participants.size());
        for (const auto& p : participants)
          addresses.push_back(loopback(p.port));
        std::vector<std::uint8_t> buffer(2048);
        pollfd fd{relay_fd, POLLIN, 0};
        while (!relay_stop.load()) {
          if (::poll(&fd, 1, 20) <= 0) continue;
          for (;;) {
            sockaddr_in from{};
            socklen_t length = sizeof(from);
            const auto n = ::recvfrom(relay_fd, buffer.data(), buffer.size(), MSG_DONTWAIT,
                                      reinterpret_cast<sockaddr*>(&from), &length);
            if (n <= 0) break;
            for (const auto& to : addresses) {
              if (to.sin_port == from.sin_port) continue;
              ::sendto(relay_fd, buffer.data(), static_cast<std::size_t>(n), 0,
                       reinterpret_cast<const sockaddr*>(&to), sizeof(to));
            }
          }
        }
      },
      [&] { relay_stop = true; });
  ::close(relay_fd);

  // The forwarding unit behind its UDP front end, on one io_context thread.
  boost::asio::io_context io(1);
  VoiceUdpServer server(io, "127.0.0.1");
  server.start(unit);
  for (int i = 0; i < kParticipants; ++i) {
    const auto& p = participants[static_cast<std::size_t>(i)];
    const auto key = "session-" + std::to_string(i);
    unit.add_session(key, p.ssrc, std::to_string(1000 + i), "lobby");
    unit.set_media(key, MediaEndpoint{"127.0.0.1", p.port}, p.mode, p.key);
  }
  auto guard = boost::asio::make_work_guard(io);
  const auto forwarded = run_phase(
      participants, server.port(), true, [&] { io.run(); }, [&] { io.stop(); });

  std::uint64_t received = 0, rejected = 0, clear = 0;
  for (int i = 0; i < kParticipants; ++i) {
    const auto stats = unit.stats("session-" + std::to_string(i));
    received += stats->packets_received;
    rejected += stats->packets_rejected;
    clear += stats->payloads_clear;
    unit.remove_session("session-" + std::to_string(i));
  }

  // The same call with end-to-end encrypted frames: new sessions (new SSRCs, fresh nonces), same keys.
  for (int i = 0; i < kParticipants; ++i) {
    auto& p = participants[static_cast<std::size_t>(i)];
    p.ssrc = unit.allocate_ssrc();
    const auto key = "dave-" + std::to_string(i);
    unit.add_session(key, p.ssrc, std::to_string(1000 + i), "lobby");
    unit.set_media(key, MediaEndpoint{"127.0.0.1", p.port}, p.mode, p.key);
  }
  if (!seal_all(true)) {
    std::printf("error: sealing failed\n");
    return 1;
  }
  io.restart();
  const auto forwarded_dave = run_phase(
      participants, server.port(), true, [&] { io.run(); }, [&] { io.stop(); });
  server.close();
  std::uint64_t e2ee = 0;
  for (int i = 0; i < kParticipants; ++i) {
    const auto stats = unit.stats("dave-" + std::to_string(i));
    rejected += stats->packets_rejected;
    e2ee += stats->payloads_e2ee;
  }
  for (auto& p : participants)
    ::close(p.fd);

  std::printf("forwarding unit: %d participants in one call, %d packets/s each, %zu-byte payloads, %.1f s\n",
              kParticipants, kPacketsPerSecond, kPayloadSize,
              std::chrono::duration<double>(kRunTime).count());
  std::printf(
      "bare relay (recv/sendto, no crypto): %llu of %llu datagrams delivered, cpu %.1f %% of one core\n",
      static_cast<unsigned long long>(bare.delivered), static_cast<unsigned long long>(expected),
      bare.cpu_percent);
  std::printf(
      "forwarding unit (open, 24 seals, Asio): %llu of %llu delivered (%llu authentic), %llu in, %llu "
      "rejected, "
      "cpu %.1f %% of one core (target < 25 %%)\n",
      static_cast<unsigned long long>(forwarded.delivered), static_cast<unsigned long long>(expected),
      static_cast<unsigned long long>(forwarded.authentic), static_cast<unsigned long long>(received),
      static_cast<unsigned long long>(rejected), forwarded.cpu_percent);

  std::printf(
      "forwarding unit, DAVE frames: %llu of %llu delivered (%llu authentic), %llu seen as end-to-end "
      "encrypted, cpu %.1f %% of one core\n",
      static_cast<unsigned long long>(forwarded_dave.delivered), static_cast<unsigned long long>(expected),
      static_cast<unsigned long long>(forwarded_dave.authentic), static_cast<unsigned long long>(e2ee),
      forwarded_dave.cpu_percent);

  // Loopback loses nothing unless a reader stalls for long on a busy machine: 95 % is "the work was done".
  if (rejected != 0 || forwarded.authentic != forwarded.delivered ||
      forwarded_dave.authentic != forwarded_dave.delivered || forwarded.delivered * 100 < expected * 95 ||
      forwarded_dave.delivered * 100 < expected * 95 || bare.delivered * 100 < expected * 95 ||
      clear * 100 < received * 95 || e2ee == 0) {
    std::printf("error: datagrams lost or not authentic\n");
    return 1;
  }
  std::printf("ratio (unit cpu / bare relay cpu): %.2fx\n",
              bare.cpu_percent > 0 ? forwarded.cpu_percent / bare.cpu_percent : 0.0);
  std::printf(
      "ratio over sockets (unit cpu with DAVE frames / with plain frames): %.3fx (one run of each: noisy)\n",
      forwarded.cpu_percent > 0 ? forwarded_dave.cpu_percent / forwarded.cpu_percent : 0.0);

  // The unit's own CPU for plain and DAVE frames, rounds interleaved on one thread, median of each.
  std::vector<std::vector<std::uint8_t>> plain_datagrams[kParticipants], dave_datagrams[kParticipants];
  if (!seal_all(false)) return 1;
  for (int i = 0; i < kParticipants; ++i)
    plain_datagrams[i] = participants[static_cast<std::size_t>(i)].datagrams;
  if (!seal_all(true)) return 1;
  for (int i = 0; i < kParticipants; ++i)
    dave_datagrams[i] = participants[static_cast<std::size_t>(i)].datagrams;
  std::vector<double> plain_rounds, dave_rounds;
  for (int round = 0; round < 9; ++round) {
    for (const bool dave : {false, true}) {
      for (int i = 0; i < kParticipants; ++i)
        participants[static_cast<std::size_t>(i)].datagrams = dave ? dave_datagrams[i] : plain_datagrams[i];
      const double seconds = socketless_round(participants, round, dave ? "d" : "p");
      if (seconds < 0) {
        std::printf("error: the unit did not relay every datagram\n");
        return 1;
      }
      (dave ? dave_rounds : plain_rounds).push_back(seconds);
    }
  }
  const double plain_s = median(plain_rounds), dave_s = median(dave_rounds);
  const double packets = static_cast<double>(kTicks) * kParticipants;
  std::printf(
      "forwarding unit alone (no sockets): plain frames %.2f us, DAVE frames %.2f us per packet in (24 seals "
      "each), median of 9 interleaved rounds\n",
      1e6 * plain_s / packets, 1e6 * dave_s / packets);
  std::printf("ratio (unit cpu with DAVE frames / with plain frames): %.3fx (target 1 +- 0.05)\n",
              dave_s / plain_s);
  return 0;
}
