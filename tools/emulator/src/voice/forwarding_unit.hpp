// The forwarding unit (docs/voice-protocol.md, "Media"): relays the RTP packets of each voice session to the
// other sessions of the same lobby call, opening each packet with the sender's transport key and sealing it
// again with each receiver's, without decoding the Opus inside (and, from the E2EE issue on, unable to).
// Socket-free: the UDP front end (voice_udp_server) feeds datagrams in and sends what the unit hands to its
// MediaSink. Runs on the emulator's single I/O thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "media_wire/transport_cipher.hpp"

namespace platformpp::emulator {

struct MediaEndpoint {
  std::string address;  // dotted IPv4 or IPv6 text
  std::uint16_t port = 0;
  bool operator==(const MediaEndpoint&) const = default;
};

// Where the unit's outgoing datagrams go. `delay_ms` > 0 asks the sink to send later (jitter/reorder faults).
class MediaSink {
 public:
  virtual ~MediaSink() = default;
  virtual void send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data,
                             std::int64_t delay_ms) = 0;
};

// Faults applied to every datagram the unit sends (not to IP discovery answers or keepalive echoes).
struct UdpFaults {
  double loss_percent = 0;     // 0..100: dropped
  double reorder_percent = 0;  // 0..100: held back and sent after the next packet to the same receiver
  std::int64_t jitter_ms = 0;  // each packet delayed by a uniform 0..jitter_ms
  std::uint64_t seed = 1;      // the same seed makes the same decisions for the same traffic
};

struct ForwardingStats {
  std::uint64_t packets_received = 0;   // authentic RTP packets from this session
  std::uint64_t packets_forwarded = 0;  // packets sent to this session (sealed for it)
  std::uint64_t packets_rejected = 0;  // from this session's address/SSRC but tampered, replayed or malformed
  // What the unit can tell of the media it relays without any key: payloads that end with the DAVE frame
  // marker (0xFAFA, end-to-end encrypted), and payloads that are neither that nor the silence frame (Opus in
  // clear). Counted for packets from this session.
  std::uint64_t payloads_e2ee = 0;
  std::uint64_t payloads_clear = 0;
};

class ForwardingUnit {
 public:
  ForwardingUnit();
  ~ForwardingUnit();
  ForwardingUnit(const ForwardingUnit&) = delete;
  ForwardingUnit& operator=(const ForwardingUnit&) = delete;

  void set_sink(MediaSink* sink);

  // --- the voice gateway side ---
  // A new SSRC, unique among live sessions, never 0.
  std::uint32_t allocate_ssrc();
  // A voice session (key: the voice session id) joins `lobby_id`'s call; it receives nothing until set_media.
  void add_session(const std::string& session_key, std::uint32_t ssrc, std::string user_id,
                   std::string lobby_id);
  // From Select Protocol + Session Description: where to send its media, and its transport mode and key.
  void set_media(const std::string& session_key, MediaEndpoint endpoint, media_wire::TransportMode mode,
                 const media_wire::TransportKey& key);
  void set_deaf(const std::string& session_key, bool deaf);
  void remove_session(const std::string& session_key);
  std::optional<ForwardingStats> stats(const std::string& session_key) const;

  // --- the UDP side ---
  // One datagram received from `from`: an IP discovery request (answered to `from`), an 8-byte keepalive
  // (echoed), or a sealed RTP packet (forwarded). Anything else is dropped.
  void on_datagram(const MediaEndpoint& from, std::span<const std::uint8_t> data);
  void set_faults(const UdpFaults& faults);
  void clear_faults();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace platformpp::emulator
