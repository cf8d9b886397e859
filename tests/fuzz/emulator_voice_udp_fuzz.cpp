// UDP datagrams into the emulator's forwarding unit (the media relay of lobby calls), as the UDP front end
// hands them over. A call "L" has three sessions: a and b with media (one per transport mode) and c, deaf;
// d is alone in another call "M". The input is a sequence of records `u8 how | u8 length | length bytes`:
// `how` & 3 picks the sender's address (a's, b's, d's, or a stranger's), `how` & 4 seals the bytes as a's
// RTP packet with a's key (header from the bytes, so that the fuzzer gets past authentication into the
// relay), `how` & 8 makes them an IP discovery request for the SSRC in their first 4 bytes, `how` & 16 sets
// loss, reorder and jitter faults first (from the next bytes). Everything else is raw: keepalives, RTCP,
// runts, garbage, replays.
// Invariants: nothing crashes; a datagram goes only back to its sender (discovery, keepalive) or to another
// session of the sender's own call that is not deaf; an IP discovery answer is 74 bytes and names the
// sender's address; a relayed packet opens with its receiver's key and carries the sender's SSRC.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/forwarding_unit.hpp"

namespace {

using namespace platformpp::emulator;
namespace media_wire = platformpp::media_wire;

struct Client {
  std::string key;
  std::uint32_t ssrc = 0;
  MediaEndpoint endpoint;
  media_wire::TransportMode mode{};
  media_wire::TransportKey transport_key{};
};

struct Relay final : MediaSink {
  void send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data, std::int64_t) override;

  ForwardingUnit unit;
  Client a, b, c, d;
  MediaEndpoint from;              // the datagram being handled
  const Client* sender = nullptr;  // its session, when it came from one
};

void Relay::send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data, std::int64_t) {
  if (to == from) {
    // A keepalive echo or a discovery answer: to its sender only, as it came or as an answer of 74 bytes.
    if (data.size() == 8) return;
    if (data.size() != media_wire::kIpDiscoverySize) __builtin_trap();
    if (std::memcmp(data.data() + 8, from.address.data(), from.address.size()) != 0) __builtin_trap();
    return;
  }
  // Relayed media: only from a session, only to a hearing member of its call, sealed for that member.
  const Client* receiver = to == b.endpoint ? &b : to == a.endpoint ? &a : nullptr;
  if (sender == nullptr || receiver == nullptr || receiver == sender) __builtin_trap();
  media_wire::TransportOpener opener(receiver->mode, receiver->transport_key);
  std::vector<std::uint8_t> rtp(data.size());
  std::size_t written = 0;
  if (opener.Open(data, rtp, written) != media_wire::OpenResult::Ok) __builtin_trap();
  const auto header = media_wire::ParseRtpHeader(std::span<const std::uint8_t>(rtp.data(), written));
  if (!header || header->ssrc != sender->ssrc) __builtin_trap();
}

Client join(ForwardingUnit& unit, const char* key, const char* lobby, std::uint16_t port,
            media_wire::TransportMode mode, bool media) {
  Client client;
  client.key = key;
  client.ssrc = unit.allocate_ssrc();
  client.endpoint = MediaEndpoint{"127.0.0.1", port};
  client.mode = mode;
  for (std::size_t i = 0; i < client.transport_key.size(); ++i)
    client.transport_key[i] = static_cast<std::uint8_t>(port + i * 7);
  unit.add_session(key, client.ssrc, std::string("user-") + key, lobby);
  if (media) unit.set_media(key, client.endpoint, mode, client.transport_key);
  return client;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A fresh unit per input: its replay windows and fault state are per input too.
  auto relay = std::make_unique<Relay>();
  auto& unit = relay->unit;
  unit.set_sink(relay.get());
  constexpr auto kGcm = media_wire::TransportMode::AeadAes256GcmRtpsize;
  constexpr auto kXChaCha = media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize;
  relay->a = join(unit, "a", "L", 40001, kXChaCha, true);
  relay->b = join(unit, "b", "L", 40002, kGcm, true);
  relay->c = join(unit, "c", "L", 40003, kXChaCha, true);
  unit.set_deaf("c", true);
  relay->d = join(unit, "d", "M", 40004, kGcm, true);
  media_wire::TransportSealer sealer(relay->a.mode, relay->a.transport_key);

  std::size_t at = 0;
  while (at + 2 <= size) {
    const std::uint8_t how = data[at];
    const std::size_t length = std::min<std::size_t>(data[at + 1], size - at - 2);
    std::vector<std::uint8_t> bytes(data + at + 2, data + at + 2 + length);
    at += 2 + length;
    if ((how & 16) != 0 && bytes.size() >= 3) {
      unit.set_faults(UdpFaults{static_cast<double>(bytes[0] % 101), static_cast<double>(bytes[1] % 101),
                                static_cast<std::int64_t>(bytes[2]), 7});
    }
    const Client* clients[] = {&relay->a, &relay->b, &relay->d, nullptr};
    const Client* sender = clients[how & 3];
    relay->from = sender != nullptr ? sender->endpoint : MediaEndpoint{"192.0.2.7", 5000};
    // c is deaf and d in another call: neither may receive, so neither is a receiver in send_datagram; a
    // packet from d must not reach L's members at all.
    relay->sender = sender == &relay->d ? nullptr : sender;
    if ((how & 8) != 0) {
      std::uint32_t ssrc = relay->a.ssrc;
      if (bytes.size() >= 4)
        ssrc = (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
               (std::uint32_t{bytes[2]} << 8) | bytes[3];
      const auto request = media_wire::IpDiscoveryRequest(ssrc);
      bytes.assign(request.begin(), request.end());
    } else if ((how & 4) != 0 && sender == &relay->a) {
      // a's RTP: a valid fixed header with a's SSRC over whatever follows.
      if (bytes.size() < media_wire::kRtpFixedHeaderSize) bytes.resize(media_wire::kRtpFixedHeaderSize);
      bytes[0] = static_cast<std::uint8_t>(0x80 | (bytes[0] & 0x1F));  // version 2, keep X and CC bits
      for (int i = 0; i < 4; ++i)
        bytes[8 + i] = static_cast<std::uint8_t>(relay->a.ssrc >> (24 - 8 * i));
      std::vector<std::uint8_t> sealed(bytes.size() + media_wire::kTransportOverhead);
      sealed.resize(sealer.Seal(bytes, sealed));
      if (sealed.empty()) continue;  // not an RTP packet the sealer accepts (a CSRC count past its end)
      bytes = std::move(sealed);
    }
    unit.on_datagram(relay->from, bytes);
  }
  return 0;
}
