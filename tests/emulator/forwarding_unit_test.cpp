// The forwarding unit without sockets: datagrams in through on_datagram, out through a recording sink.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/forwarding_unit.hpp"

namespace forwarding_unit_test {

using namespace platformpp::emulator;
namespace media_wire = platformpp::media_wire;
using platformpp::media_wire::OpenResult;
using platformpp::media_wire::TransportKey;
using platformpp::media_wire::TransportMode;
using platformpp::media_wire::TransportOpener;
using platformpp::media_wire::TransportSealer;
using Bytes = std::vector<std::uint8_t>;

namespace {

constexpr auto kGcm = media_wire::TransportMode::AeadAes256GcmRtpsize;
constexpr auto kXChaCha = media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize;

struct Sent {
  MediaEndpoint to;
  Bytes data;
  std::int64_t delay_ms = 0;
};

class RecordingSink final : public MediaSink {
 public:
  void send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data,
                     std::int64_t delay_ms) override {
    sent.push_back(Sent{to, Bytes(data.begin(), data.end()), delay_ms});
  }
  std::vector<Sent> to(const MediaEndpoint& endpoint) const {
    std::vector<Sent> out;
    for (const auto& datagram : sent)
      if (datagram.to == endpoint) out.push_back(datagram);
    return out;
  }
  std::vector<Sent> sent;
};

media_wire::TransportKey make_key(std::uint8_t seed) {
  media_wire::TransportKey key{};
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<std::uint8_t>(static_cast<std::size_t>(seed) * 31 + i * 7 + 1);
  return key;
}

// An Opus RTP packet: 12-byte header and `payload_size` bytes.
Bytes make_rtp(std::uint32_t ssrc, std::uint16_t sequence, std::size_t payload_size = 100) {
  Bytes rtp(platformpp::media_wire::kRtpFixedHeaderSize + payload_size);
  platformpp::media_wire::WriteRtpHeader(
      sequence, sequence * 960u, ssrc,
      std::span<std::uint8_t, platformpp::media_wire::kRtpFixedHeaderSize>(rtp.data(), 12));
  for (std::size_t i = 12; i < rtp.size(); ++i)
    rtp[i] = static_cast<std::uint8_t>(sequence + i);
  return rtp;
}

// One voice session as a client sees it: its keys, its socket's address, and its own sealer and opener.
struct Client {
  std::string key;
  std::uint32_t ssrc = 0;
  MediaEndpoint endpoint;
  media_wire::TransportMode mode = kXChaCha;
  media_wire::TransportKey transport_key{};
  std::unique_ptr<media_wire::TransportSealer> sealer;  // what it sends to the unit
  std::unique_ptr<media_wire::TransportOpener> opener;  // what it receives from the unit

  Bytes seal(const Bytes& rtp) {
    Bytes out(rtp.size() + platformpp::media_wire::kTransportOverhead);
    out.resize(sealer->Seal(rtp, out));
    REQUIRE(!out.empty());
    return out;
  }
  // The RTP packet inside a datagram the unit sent it; empty if it does not open.
  Bytes open(const Bytes& datagram) {
    Bytes out(datagram.size());
    std::size_t written = 0;
    if (opener->Open(datagram, out, written) != media_wire::OpenResult::Ok) return {};
    out.resize(written);
    return out;
  }
};

struct Fixture {
  ForwardingUnit unit;
  RecordingSink sink;
  int next_port = 40000;

  Fixture() { unit.set_sink(&sink); }

  Client join(const std::string& key, const std::string& lobby, media_wire::TransportMode mode = kXChaCha,
              bool with_media = true) {
    Client client;
    client.key = key;
    client.ssrc = unit.allocate_ssrc();
    client.endpoint = MediaEndpoint{"127.0.0.1", static_cast<std::uint16_t>(next_port++)};
    client.mode = mode;
    client.transport_key = make_key(static_cast<std::uint8_t>(next_port));
    client.sealer = std::make_unique<media_wire::TransportSealer>(mode, client.transport_key);
    client.opener = std::make_unique<media_wire::TransportOpener>(mode, client.transport_key);
    unit.add_session(key, client.ssrc, "user-" + key, lobby);
    if (with_media) unit.set_media(key, client.endpoint, mode, client.transport_key);
    return client;
  }

  void send(Client& from, const Bytes& datagram) { unit.on_datagram(from.endpoint, datagram); }
  void speak(Client& from, std::uint16_t sequence) { send(from, from.seal(make_rtp(from.ssrc, sequence))); }

  ForwardingStats stats(const Client& client) const {
    const auto stats = unit.stats(client.key);
    REQUIRE(stats);
    return *stats;
  }
};

std::uint32_t nonce_of(const Bytes& datagram) {
  const auto* p = datagram.data() + datagram.size() - 4;
  return (static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
         (static_cast<std::uint32_t>(p[2]) << 8) | p[3];
}

std::uint16_t sequence_of(const Bytes& rtp) {
  return static_cast<std::uint16_t>((rtp[2] << 8) | rtp[3]);
}

}  // namespace

TEST_CASE("IP discovery is answered with the address and port the datagram came from") {
  Fixture f;
  // Before Select Protocol: discovery is how the client learns what to select.
  auto a = f.join("a", "L1", kXChaCha, /*with_media=*/false);
  const auto request = platformpp::media_wire::IpDiscoveryRequest(a.ssrc);

  f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234}, request);
  REQUIRE(f.sink.sent.size() == 1);
  CHECK(f.sink.sent[0].to == MediaEndpoint{"127.0.0.1", 51234});
  CHECK(f.sink.sent[0].delay_ms == 0);
  CHECK(f.sink.sent[0].data.size() == platformpp::media_wire::kIpDiscoverySize);
  auto answer = platformpp::media_wire::ParseIpDiscoveryResponse(f.sink.sent[0].data, a.ssrc);
  REQUIRE(answer);
  CHECK(answer->address == "127.0.0.1");
  CHECK(answer->port == 51234);

  f.unit.on_datagram(MediaEndpoint{"::1", 7}, request);
  REQUIRE(f.sink.sent.size() == 2);
  answer = platformpp::media_wire::ParseIpDiscoveryResponse(f.sink.sent[1].data, a.ssrc);
  REQUIRE(answer);
  CHECK(answer->address == "::1");
  CHECK(answer->port == 7);

  SUBCASE("not for an SSRC no session has") {
    f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234},
                       platformpp::media_wire::IpDiscoveryRequest(a.ssrc + 1));
    CHECK(f.sink.sent.size() == 2);
  }
  SUBCASE("not for a request of another type or length") {
    auto wrong_type = request;
    wrong_type[1] = 2;
    f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234}, wrong_type);
    auto wrong_length = request;
    wrong_length[3] = 69;
    f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234}, wrong_length);
    Bytes short_request(request.begin(), request.end() - 1);
    f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234}, short_request);
    CHECK(f.sink.sent.size() == 2);
  }
  SUBCASE("not for a removed session") {
    f.unit.remove_session("a");
    f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 51234}, request);
    CHECK(f.sink.sent.size() == 2);
  }
}

TEST_CASE("an 8-byte keepalive is echoed to its sender; 7 or 9 bytes are not keepalives") {
  Fixture f;
  const Bytes keepalive{1, 2, 3, 4, 0, 0, 0, 0};
  f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 50001}, keepalive);
  REQUIRE(f.sink.sent.size() == 1);
  CHECK(f.sink.sent[0].to == MediaEndpoint{"127.0.0.1", 50001});
  CHECK(f.sink.sent[0].data == keepalive);
  f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 50001}, Bytes(7, 1));
  f.unit.on_datagram(MediaEndpoint{"127.0.0.1", 50001}, Bytes(9, 1));
  CHECK(f.sink.sent.size() == 1);
}

TEST_CASE("a sealed packet reaches every other session of the call, re-sealed with each one's key") {
  struct Modes {
    media_wire::TransportMode a, b, c;
  };
  for (const auto& modes : {Modes{kXChaCha, kXChaCha, kXChaCha}, Modes{kGcm, kGcm, kGcm},
                            Modes{kGcm, kXChaCha, kGcm}, Modes{kXChaCha, kGcm, kXChaCha}}) {
    CAPTURE(static_cast<int>(modes.a));
    CAPTURE(static_cast<int>(modes.b));
    Fixture f;
    auto a = f.join("a", "L1", modes.a);
    auto b = f.join("b", "L1", modes.b);
    auto c = f.join("c", "L1", modes.c);
    a.sealer->SetNextNonce(1000);  // the unit's nonces to B and C are its own, from 0
    for (std::uint16_t seq = 1; seq <= 3; ++seq) {
      const auto rtp = make_rtp(a.ssrc, seq);
      f.send(a, a.seal(rtp));
      for (Client* receiver : {&b, &c}) {
        const auto got = f.sink.to(receiver->endpoint);
        REQUIRE(got.size() == seq);
        CHECK(got.back().delay_ms == 0);
        CHECK(nonce_of(got.back().data) == seq - 1u);
        CHECK(receiver->open(got.back().data) == rtp);  // header (SSRC, sequence, timestamp) and payload
      }
    }
    CHECK(f.sink.to(a.endpoint).empty());  // never back to the speaker
    CHECK(f.stats(a).packets_received == 3);
    CHECK(f.stats(a).packets_forwarded == 0);
    CHECK(f.stats(b).packets_forwarded == 3);
    CHECK(f.stats(c).packets_forwarded == 3);
    CHECK(f.stats(b).packets_received == 0);
    CHECK(f.stats(a).packets_rejected == 0);
    CHECK(f.sink.sent.size() == 6);
  }
}

TEST_CASE("CSRCs and a header extension pass through unchanged") {
  Fixture f;
  auto a = f.join("a", "L1", kGcm);
  auto b = f.join("b", "L1", kXChaCha);
  // One CSRC, the X bit, a one-word extension (its body is encrypted), then the payload.
  Bytes rtp = make_rtp(a.ssrc, 9, 0);
  rtp[0] = 0x80 | 0x10 | 0x01;
  const Bytes tail{0, 0, 0, 42, 0xBE, 0xDE, 0, 1, 0x10, 0xAA, 0, 0, 0xF8, 0xFF, 0xFE};
  rtp.insert(rtp.end(), tail.begin(), tail.end());
  f.send(a, a.seal(rtp));
  const auto got = f.sink.to(b.endpoint);
  REQUIRE(got.size() == 1);
  CHECK(b.open(got[0].data) == rtp);
}

TEST_CASE("the unit tells DAVE frames (0xFAFA at the end) from Opus in clear and silence, holding no key") {
  Fixture f;
  auto a = f.join("a", "L1", kGcm);
  auto b = f.join("b", "L1", kXChaCha);
  const auto send_payload = [&](std::uint16_t seq, const Bytes& payload, bool extension) {
    Bytes rtp = make_rtp(a.ssrc, seq, 0);
    if (extension) {
      rtp[0] |= 0x10;
      const Bytes ext{0xBE, 0xDE, 0, 1, 0x10, 0xAA, 0, 0};
      rtp.insert(rtp.end(), ext.begin(), ext.end());
    }
    rtp.insert(rtp.end(), payload.begin(), payload.end());
    f.send(a, a.seal(rtp));
  };
  send_payload(1, {0xFC, 1, 2, 3}, false);                              // Opus (TOC 0xFC) in clear
  send_payload(2, {9, 9, 9, 9, 9, 9, 9, 9, 1, 11, 0xFA, 0xFA}, false);  // a DAVE frame
  send_payload(3, {9, 9, 9, 9, 9, 9, 9, 9, 1, 11, 0xFA, 0xFA}, true);   // behind a header extension
  send_payload(4, {0xF8, 0xFF, 0xFE}, false);                           // silence: neither
  send_payload(5, {0xFA}, false);                                       // one byte of marker: clear
  CHECK(f.stats(a).payloads_e2ee == 2);
  CHECK(f.stats(a).payloads_clear == 2);
  CHECK(f.stats(b).packets_forwarded == 5);  // relayed all the same
}

TEST_CASE("a self-deafened session receives nothing until it undeafens, and still speaks") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  f.unit.set_deaf("b", true);
  f.speak(a, 1);
  CHECK(f.sink.to(b.endpoint).empty());
  CHECK(f.stats(b).packets_forwarded == 0);
  f.speak(b, 1);  // deaf is not mute
  CHECK(f.sink.to(a.endpoint).size() == 1);
  f.unit.set_deaf("b", false);
  f.speak(a, 2);
  const auto got = f.sink.to(b.endpoint);
  REQUIRE(got.size() == 1);
  CHECK(sequence_of(b.open(got[0].data)) == 2);
}

TEST_CASE("sessions hear only their own lobby's call") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  auto d = f.join("d", "L2");
  auto e = f.join("e", "L2");
  f.speak(a, 1);
  CHECK(f.sink.to(b.endpoint).size() == 1);
  CHECK(f.sink.to(d.endpoint).empty());
  CHECK(f.sink.to(e.endpoint).empty());
  f.speak(d, 1);
  CHECK(f.sink.to(e.endpoint).size() == 1);
  CHECK(f.sink.to(a.endpoint).empty());
  CHECK(f.sink.to(b.endpoint).size() == 1);
}

TEST_CASE("nothing is sent to a session before set_media, nor taken from it") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1", kXChaCha, /*with_media=*/false);
  f.speak(a, 1);
  CHECK(f.sink.sent.empty());
  CHECK(f.stats(a).packets_received == 1);
  f.speak(b, 1);  // its media address is not known yet: not its packet
  CHECK(f.sink.sent.empty());
  CHECK(f.stats(b).packets_received == 0);
  f.unit.set_media("b", b.endpoint, b.mode, b.transport_key);
  f.speak(a, 2);
  CHECK(f.sink.to(b.endpoint).size() == 1);
}

TEST_CASE("one flipped bit anywhere in a sealed packet: rejected and counted, never forwarded") {
  for (const auto mode : {kXChaCha, kGcm}) {
    CAPTURE(static_cast<int>(mode));
    Fixture f;
    auto a = f.join("a", "L1", mode);
    auto b = f.join("b", "L1", mode);
    const auto sealed = a.seal(make_rtp(a.ssrc, 1, 40));
    std::uint64_t attributable = 0;
    for (std::size_t byte = 0; byte < sealed.size(); ++byte) {
      for (int bit = 0; bit < 8; ++bit) {
        auto tampered = sealed;
        tampered[byte] ^= static_cast<std::uint8_t>(1u << bit);
        f.send(a, tampered);
        // A flipped SSRC names no session, and a flipped version is not RTP: dropped without a culprit.
        const bool ssrc_bit = byte >= 8 && byte < 12;
        const bool version_bit = byte == 0 && bit >= 6;
        if (!ssrc_bit && !version_bit) ++attributable;
      }
    }
    CHECK(f.sink.sent.empty());
    CHECK(f.stats(a).packets_rejected == attributable);
    CHECK(f.stats(a).packets_received == 0);
    f.send(a, sealed);  // the genuine packet still passes: rejects do not move the replay window
    CHECK(f.sink.to(b.endpoint).size() == 1);
  }
}

TEST_CASE("a replayed packet is rejected and counted; a reordered one within the window passes") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  const auto first = a.seal(make_rtp(a.ssrc, 1));
  const auto second = a.seal(make_rtp(a.ssrc, 2));
  f.send(a, second);
  f.send(a, first);
  CHECK(f.sink.to(b.endpoint).size() == 2);
  f.send(a, first);
  f.send(a, second);
  CHECK(f.sink.to(b.endpoint).size() == 2);
  CHECK(f.stats(a).packets_rejected == 2);
  CHECK(f.stats(a).packets_received == 2);
}

TEST_CASE("an unknown SSRC or a session's SSRC from another address is dropped") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  SUBCASE("unknown SSRC") {
    // Sealed with A's key, but naming an SSRC no session has.
    f.send(a, a.seal(make_rtp(a.ssrc ^ 0x5A5A5A5Au, 1)));
  }
  SUBCASE("another port") {
    f.unit.on_datagram(MediaEndpoint{a.endpoint.address, static_cast<std::uint16_t>(a.endpoint.port + 1)},
                       a.seal(make_rtp(a.ssrc, 1)));
  }
  SUBCASE("another address") {
    f.unit.on_datagram(MediaEndpoint{"127.0.0.2", a.endpoint.port}, a.seal(make_rtp(a.ssrc, 1)));
  }
  SUBCASE("a removed session") {
    f.unit.remove_session("a");
    CHECK_FALSE(f.unit.stats("a"));
    f.send(a, a.seal(make_rtp(a.ssrc, 1)));
  }
  CHECK(f.sink.sent.empty());
  if (f.unit.stats("a")) CHECK(f.stats(a).packets_rejected == 0);  // not this session's packet
  CHECK(f.stats(b).packets_forwarded == 0);
}

TEST_CASE("RTCP and runts are dropped") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  for (std::uint8_t type = 72; type <= 76; ++type) {
    auto rtp = make_rtp(a.ssrc, 1);
    rtp[1] = type;
    f.send(a, rtp);  // the sealer refuses RTCP: as it is, and with room for a tag and nonce
    rtp.resize(rtp.size() + platformpp::media_wire::kTransportOverhead);
    f.send(a, rtp);
    rtp[1] = static_cast<std::uint8_t>(type | 0x80);  // the marker bit is masked
    f.send(a, rtp);
  }
  // A runt: shorter than the RTP header.
  f.send(a, Bytes{0x80, 0x78, 0, 1, 0, 0, 0, 0, 0, 0, 0});
  CHECK(f.sink.sent.empty());
  CHECK(f.stats(a).packets_rejected == 0);
  // A header, but too short for a tag and a nonce: that session's malformed packet.
  const auto sealed = a.seal(make_rtp(a.ssrc, 1, 0));
  CHECK(sealed.size() == 12 + 20);
  f.send(a, Bytes(sealed.begin(), sealed.end() - 1));
  CHECK(f.stats(a).packets_rejected == 1);
  // One byte more (an empty payload, tag and nonce) is a packet.
  f.send(a, sealed);
  CHECK(f.sink.to(b.endpoint).size() == 1);
  CHECK(f.stats(a).packets_rejected == 1);
}

TEST_CASE("the same key again keeps the nonce counter; a new key starts a new one") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  f.speak(a, 1);
  f.speak(a, 2);
  // A new media address with the same key: the unit must not reuse a nonce under that key.
  b.endpoint.port = 45000;
  f.unit.set_media("b", b.endpoint, b.mode, b.transport_key);
  f.speak(a, 3);
  auto got = f.sink.to(b.endpoint);
  REQUIRE(got.size() == 1);
  CHECK(nonce_of(got[0].data) == 2);
  // A new key: a fresh sealer.
  b.transport_key = make_key(99);
  b.opener = std::make_unique<media_wire::TransportOpener>(kGcm, b.transport_key);
  f.unit.set_media("b", b.endpoint, kGcm, b.transport_key);
  f.speak(a, 4);
  got = f.sink.to(b.endpoint);
  REQUIRE(got.size() == 2);
  CHECK(nonce_of(got[1].data) == 0);
  CHECK(sequence_of(b.open(got[1].data)) == 4);
}

TEST_CASE("SSRCs are never 0 and unique; a duplicate is refused") {
  ForwardingUnit unit;
  std::set<std::uint32_t> seen;
  for (int i = 0; i < 10000; ++i) {
    const auto ssrc = unit.allocate_ssrc();
    CHECK(ssrc != 0);
    CHECK(seen.insert(ssrc).second);
  }
  const auto ssrc = unit.allocate_ssrc();
  unit.add_session("a", ssrc, "u1", "L1");
  CHECK_THROWS_AS(unit.add_session("b", ssrc, "u2", "L1"), std::invalid_argument);
  CHECK_THROWS_AS(unit.add_session("c", 0, "u3", "L1"), std::invalid_argument);
  // The same key again replaces the session (its SSRC is free to take back).
  CHECK_NOTHROW(unit.add_session("a", ssrc, "u1", "L2"));
}

namespace {

// A sends `count` packets to B alone under `faults`; the sequence numbers B receives, in arrival order.
struct FaultRun {
  std::vector<std::uint16_t> sequences;
  std::vector<std::int64_t> delays;
};

FaultRun run_with_faults(const UdpFaults& faults, int count) {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  f.unit.set_faults(faults);
  for (int i = 0; i < count; ++i)
    f.speak(a, static_cast<std::uint16_t>(i));
  FaultRun run;
  for (const auto& datagram : f.sink.to(b.endpoint)) {
    const auto rtp = b.open(datagram.data);
    REQUIRE(!rtp.empty());
    run.sequences.push_back(sequence_of(rtp));
    run.delays.push_back(datagram.delay_ms);
  }
  return run;
}

}  // namespace

TEST_CASE("loss drops about its percentage, and the same seed drops the same packets") {
  UdpFaults faults;
  faults.loss_percent = 10;
  faults.seed = 42;
  const auto run = run_with_faults(faults, 2000);
  const auto lost = 2000 - static_cast<int>(run.sequences.size());
  CHECK(lost >= 140);  // 10 % of 2000 is 200; 4 standard deviations is about 54
  CHECK(lost <= 260);
  CHECK(run_with_faults(faults, 2000).sequences == run.sequences);
  faults.seed = 43;
  const auto other = run_with_faults(faults, 2000);
  CHECK(other.sequences != run.sequences);

  faults.loss_percent = 0;
  CHECK(run_with_faults(faults, 200).sequences.size() == 200);
  faults.loss_percent = 100;
  CHECK(run_with_faults(faults, 200).sequences.empty());
}

TEST_CASE("loss decisions do not depend on the other faults' settings") {
  UdpFaults faults;
  faults.loss_percent = 30;
  faults.seed = 7;
  auto plain = run_with_faults(faults, 500).sequences;
  faults.jitter_ms = 50;
  auto jittered = run_with_faults(faults, 500).sequences;
  std::sort(plain.begin(), plain.end());
  std::sort(jittered.begin(), jittered.end());
  CHECK(plain == jittered);
}

TEST_CASE("reorder holds a packet back until the next one to the same receiver") {
  UdpFaults faults;
  faults.reorder_percent = 100;
  CHECK(run_with_faults(faults, 6).sequences == std::vector<std::uint16_t>{1, 0, 3, 2, 5, 4});

  faults.reorder_percent = 20;
  faults.seed = 5;
  const auto run = run_with_faults(faults, 1000);
  int swapped = 0;
  for (std::size_t i = 1; i < run.sequences.size(); ++i)
    if (run.sequences[i] < run.sequences[i - 1]) ++swapped;
  CHECK(swapped > 100);  // about 20 % of 1000 held back (fewer: a held packet is followed, not held)
  CHECK(swapped < 300);
  // Every packet but perhaps a last held one arrives, and each once.
  std::set<std::uint16_t> distinct(run.sequences.begin(), run.sequences.end());
  CHECK(distinct.size() == run.sequences.size());
  CHECK(run.sequences.size() >= 999);
}

TEST_CASE("clearing the faults releases a held packet and forwards normally again") {
  Fixture f;
  auto a = f.join("a", "L1");
  auto b = f.join("b", "L1");
  UdpFaults faults;
  faults.reorder_percent = 100;
  f.unit.set_faults(faults);
  f.speak(a, 1);
  CHECK(f.sink.sent.empty());
  f.unit.clear_faults();
  REQUIRE(f.sink.to(b.endpoint).size() == 1);
  faults = UdpFaults{};
  faults.loss_percent = 100;
  f.unit.set_faults(faults);
  f.speak(a, 2);
  CHECK(f.sink.to(b.endpoint).size() == 1);
  CHECK(f.stats(b).packets_forwarded == 2);  // sealed for it (the network lost one)
  f.unit.clear_faults();
  f.speak(a, 3);
  const auto got = f.sink.to(b.endpoint);
  REQUIRE(got.size() == 2);
  CHECK(sequence_of(b.open(got[1].data)) == 3);
}

TEST_CASE("jitter delays each packet by 0 to jitter_ms") {
  UdpFaults faults;
  faults.jitter_ms = 40;
  faults.seed = 9;
  const auto run = run_with_faults(faults, 1000);
  REQUIRE(run.delays.size() == 1000);
  const auto [low, high] = std::minmax_element(run.delays.begin(), run.delays.end());
  CHECK(*low >= 0);
  CHECK(*high <= 40);
  CHECK(*low <= 2);  // uniform over 41 values: both ends are reached in 1000 draws
  CHECK(*high >= 38);
  faults.jitter_ms = 0;
  for (const auto delay : run_with_faults(faults, 100).delays)
    CHECK(delay == 0);
}

TEST_CASE("faults spare IP discovery answers and keepalive echoes") {
  Fixture f;
  auto a = f.join("a", "L1");
  UdpFaults faults;
  faults.loss_percent = 100;
  faults.jitter_ms = 100;
  f.unit.set_faults(faults);
  f.unit.on_datagram(a.endpoint, platformpp::media_wire::IpDiscoveryRequest(a.ssrc));
  f.unit.on_datagram(a.endpoint, Bytes(8, 3));
  REQUIRE(f.sink.sent.size() == 2);
  CHECK(f.sink.sent[0].delay_ms == 0);
  CHECK(f.sink.sent[1].delay_ms == 0);
}

}  // namespace forwarding_unit_test
