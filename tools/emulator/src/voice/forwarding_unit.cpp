#include "voice/forwarding_unit.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <stdexcept>

#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::size_t kKeepaliveSize = 8;
constexpr std::uint16_t kDiscoveryRequestType = 1;
constexpr std::uint16_t kDiscoveryResponseType = 2;
constexpr std::uint16_t kDiscoveryBodyLength = 70;
constexpr std::size_t kDiscoveryAddressOffset = 8;
constexpr std::size_t kDiscoveryPortOffset = media_wire::kIpDiscoverySize - 2;
// An odd step visits every u32 once per 2^32 allocations: no SSRC repeats until then.
constexpr std::uint32_t kSsrcStep = 0x9E3779B9u;

std::uint16_t read_u16(std::span<const std::uint8_t> in, std::size_t at) {
  return static_cast<std::uint16_t>((in[at] << 8) | in[at + 1]);
}

bool is_discovery_request(std::span<const std::uint8_t> data) {
  return data.size() == media_wire::kIpDiscoverySize && read_u16(data, 0) == kDiscoveryRequestType &&
         read_u16(data, 2) == kDiscoveryBodyLength;
}

// SplitMix64: tiny, and the same sequence on every platform (std distributions are not), so a seed means the
// same decisions everywhere.
class FaultRandom {
 public:
  void seed(std::uint64_t seed) { state_ = seed; }
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 100).
  double percent() { return static_cast<double>(next() >> 11) * (100.0 / 9007199254740992.0); }

 private:
  std::uint64_t state_ = 0;
};

}  // namespace

struct ForwardingUnit::Impl {
  struct Session {
    std::string key;
    std::uint32_t ssrc = 0;
    std::string user_id;
    std::string lobby_id;
    std::vector<Session*>* call = nullptr;  // the lobby's sessions (this one included)
    bool deaf = false;
    bool has_media = false;
    MediaEndpoint endpoint;
    media_wire::TransportMode mode = media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize;
    media_wire::TransportKey transport_key{};
    std::unique_ptr<media_wire::TransportOpener> opener;  // its packets to the unit
    std::unique_ptr<media_wire::TransportSealer> sealer;  // the unit's packets to it
    ForwardingStats stats;
    // The reorder fault: one packet held back until the next one to this session.
    std::vector<std::uint8_t> held;
    bool has_held = false;
    std::int64_t held_delay_ms = 0;
  };

  MediaSink* sink = nullptr;
  std::unordered_map<std::string, std::unique_ptr<Session>> sessions;
  std::unordered_map<std::uint32_t, Session*> by_ssrc;
  // Node-based: a session's `call` pointer stays valid while the lobby has sessions.
  std::unordered_map<std::string, std::vector<Session*>> calls;
  std::uint32_t next_ssrc = 0;

  bool faults_active = false;
  UdpFaults faults;
  FaultRandom random;

  // Reused for every packet: steady-state forwarding allocates nothing.
  std::vector<std::uint8_t> opened;
  std::vector<std::uint8_t> sealed;
  std::array<std::uint8_t, media_wire::kIpDiscoverySize> discovery_answer{};

  void answer_discovery(const MediaEndpoint& from, std::span<const std::uint8_t> request) {
    const std::uint32_t ssrc = (static_cast<std::uint32_t>(request[4]) << 24) |
                               (static_cast<std::uint32_t>(request[5]) << 16) |
                               (static_cast<std::uint32_t>(request[6]) << 8) | request[7];
    // Only for a live session's SSRC: nothing to learn for a stranger.
    if (!by_ssrc.contains(ssrc)) return;
    // The address must fit with its NUL before the port (64 bytes: any IPv4 or IPv6 text does).
    if (from.address.empty() || from.address.size() >= kDiscoveryPortOffset - kDiscoveryAddressOffset) return;
    auto& out = discovery_answer;
    out.fill(0);
    out[1] = kDiscoveryResponseType;
    out[3] = kDiscoveryBodyLength;
    std::memcpy(out.data() + 4, request.data() + 4, 4);
    std::memcpy(out.data() + kDiscoveryAddressOffset, from.address.data(), from.address.size());
    out[kDiscoveryPortOffset] = static_cast<std::uint8_t>(from.port >> 8);
    out[kDiscoveryPortOffset + 1] = static_cast<std::uint8_t>(from.port);
    sink->send_datagram(from, out, 0);
  }

  void forward(Session& sender, std::span<const std::uint8_t> packet) {
    if (opened.size() < packet.size()) opened.resize(packet.size());
    std::size_t written = 0;
    // Tampered, replayed, or too short for its tag and nonce.
    if (sender.opener->Open(packet, std::span(opened.data(), packet.size()), written) !=
        media_wire::OpenResult::Ok) {
      ++sender.stats.packets_rejected;
      return;
    }
    ++sender.stats.packets_received;
    const std::span<const std::uint8_t> rtp(opened.data(), written);
    count_payload(sender.stats, rtp);
    const std::size_t sealed_size = written + media_wire::kTransportOverhead;
    if (sealed.size() < sealed_size) sealed.resize(sealed_size);
    for (Session* receiver : *sender.call) {
      if (receiver == &sender || receiver->deaf || !receiver->has_media) continue;
      const std::size_t n = receiver->sealer->Seal(rtp, std::span(sealed.data(), sealed_size));
      if (n == 0) continue;
      ++receiver->stats.packets_forwarded;
      emit(*receiver, std::span<const std::uint8_t>(sealed.data(), n));
    }
  }

  // The RTP payload after the header, its CSRCs and its extension (whose body the transport encrypts too).
  static void count_payload(ForwardingStats& stats, std::span<const std::uint8_t> rtp) {
    if (rtp.size() < 12) return;
    std::size_t offset = 12 + 4 * static_cast<std::size_t>(rtp[0] & 0x0F);
    if ((rtp[0] & 0x10) != 0) {
      if (rtp.size() < offset + 4) return;
      offset += 4 + 4 * ((static_cast<std::size_t>(rtp[offset + 2]) << 8) | rtp[offset + 3]);
    }
    if (rtp.size() < offset) return;
    const auto payload = rtp.subspan(offset);
    const bool silence =
        payload.size() == 3 && payload[0] == 0xF8 && payload[1] == 0xFF && payload[2] == 0xFE;
    if (payload.size() >= 2 && payload[payload.size() - 2] == 0xFA && payload.back() == 0xFA) {
      ++stats.payloads_e2ee;
    } else if (!silence && !payload.empty()) {
      ++stats.payloads_clear;
    }
  }

  // One sealed packet to `receiver`, through the faults. A lost packet has used its nonce, as on a network.
  void emit(Session& receiver, std::span<const std::uint8_t> data) {
    if (!faults_active) {
      sink->send_datagram(receiver.endpoint, data, 0);
      return;
    }
    // Three draws per packet whatever the settings, so a seed's loss decisions do not depend on the others.
    const double loss_draw = random.percent();
    const double reorder_draw = random.percent();
    const std::uint64_t jitter_draw = random.next();
    if (loss_draw < faults.loss_percent) return;
    const std::int64_t delay =
        faults.jitter_ms > 0
            ? static_cast<std::int64_t>(jitter_draw % static_cast<std::uint64_t>(faults.jitter_ms + 1))
            : 0;
    if (receiver.has_held) {
      sink->send_datagram(receiver.endpoint, data, delay);
      // Never earlier than the packet it was held behind.
      sink->send_datagram(receiver.endpoint, receiver.held, std::max(delay, receiver.held_delay_ms));
      receiver.has_held = false;
      return;
    }
    if (reorder_draw < faults.reorder_percent) {
      receiver.held.assign(data.begin(), data.end());
      receiver.held_delay_ms = delay;
      receiver.has_held = true;
      return;
    }
    sink->send_datagram(receiver.endpoint, data, delay);
  }

  void release_held() {
    for (auto& [key, session] : sessions) {
      if (!session->has_held) continue;
      session->has_held = false;
      if (sink != nullptr && session->has_media) sink->send_datagram(session->endpoint, session->held, 0);
    }
  }

  void erase(const std::string& session_key) {
    const auto it = sessions.find(session_key);
    if (it == sessions.end()) return;
    Session* session = it->second.get();
    by_ssrc.erase(session->ssrc);
    auto call = calls.find(session->lobby_id);
    if (call != calls.end()) {
      std::erase(call->second, session);
      if (call->second.empty()) calls.erase(call);
    }
    sessions.erase(it);
  }
};

ForwardingUnit::ForwardingUnit() : impl_(std::make_unique<Impl>()) {
  std::random_device device;
  impl_->next_ssrc = device();
}

ForwardingUnit::~ForwardingUnit() = default;

void ForwardingUnit::set_sink(MediaSink* sink) {
  impl_->sink = sink;
}

std::uint32_t ForwardingUnit::allocate_ssrc() {
  for (;;) {
    impl_->next_ssrc += kSsrcStep;
    if (impl_->next_ssrc != 0 && !impl_->by_ssrc.contains(impl_->next_ssrc)) return impl_->next_ssrc;
  }
}

void ForwardingUnit::add_session(const std::string& session_key, std::uint32_t ssrc, std::string user_id,
                                 std::string lobby_id) {
  impl_->erase(session_key);
  if (ssrc == 0 || impl_->by_ssrc.contains(ssrc)) {
    throw std::invalid_argument("forwarding unit: SSRC 0 or already in use");
  }
  auto session = std::make_unique<Impl::Session>();
  session->key = session_key;
  session->ssrc = ssrc;
  session->user_id = std::move(user_id);
  session->lobby_id = std::move(lobby_id);
  auto& call = impl_->calls[session->lobby_id];
  call.push_back(session.get());
  session->call = &call;
  impl_->by_ssrc.emplace(ssrc, session.get());
  impl_->sessions.emplace(session_key, std::move(session));
}

void ForwardingUnit::set_media(const std::string& session_key, MediaEndpoint endpoint,
                               media_wire::TransportMode mode, const media_wire::TransportKey& key) {
  const auto it = impl_->sessions.find(session_key);
  if (it == impl_->sessions.end()) return;
  auto& session = *it->second;
  // The same key and mode again (e.g. a new media address): keep the replay window and, above all, the
  // sealing nonce counter, which must never restart under the same key.
  if (!session.has_media || session.mode != mode || session.transport_key != key) {
    session.opener = std::make_unique<media_wire::TransportOpener>(mode, key);
    session.sealer = std::make_unique<media_wire::TransportSealer>(mode, key);
    session.mode = mode;
    session.transport_key = key;
    session.has_held = false;  // sealed under the old key: its receiver could not open it
  }
  session.endpoint = std::move(endpoint);
  session.has_media = true;
}

void ForwardingUnit::set_deaf(const std::string& session_key, bool deaf) {
  const auto it = impl_->sessions.find(session_key);
  if (it != impl_->sessions.end()) it->second->deaf = deaf;
}

void ForwardingUnit::remove_session(const std::string& session_key) {
  impl_->erase(session_key);
}

std::optional<ForwardingStats> ForwardingUnit::stats(const std::string& session_key) const {
  const auto it = impl_->sessions.find(session_key);
  if (it == impl_->sessions.end()) return std::nullopt;
  return it->second->stats;
}

void ForwardingUnit::on_datagram(const MediaEndpoint& from, std::span<const std::uint8_t> data) {
  if (impl_->sink == nullptr) return;
  if (data.size() == kKeepaliveSize) {
    impl_->sink->send_datagram(from, data, 0);
    return;
  }
  if (is_discovery_request(data)) {
    impl_->answer_discovery(from, data);
    return;
  }
  // RTCP, runts and other versions are dropped uncounted: nothing attributes them to a session.
  const auto header = media_wire::ParseRtpHeader(data);
  if (!header) return;
  const auto it = impl_->by_ssrc.find(header->ssrc);
  if (it == impl_->by_ssrc.end()) return;
  auto& sender = *it->second;
  // Another host using a session's SSRC, or a session before Select Protocol: not that session's packet.
  if (!sender.has_media || sender.endpoint.port != from.port || sender.endpoint.address != from.address)
    return;
  impl_->forward(sender, data);
}

void ForwardingUnit::set_faults(const UdpFaults& faults) {
  auto& f = impl_->faults;
  f = faults;
  f.loss_percent = std::clamp(f.loss_percent, 0.0, 100.0);
  f.reorder_percent = std::clamp(f.reorder_percent, 0.0, 100.0);
  f.jitter_ms = std::max<std::int64_t>(f.jitter_ms, 0);
  impl_->random.seed(f.seed);
  impl_->faults_active = true;
}

void ForwardingUnit::clear_faults() {
  impl_->faults_active = false;
  impl_->faults = UdpFaults{};
  impl_->release_held();
}

}  // namespace platformpp::emulator
