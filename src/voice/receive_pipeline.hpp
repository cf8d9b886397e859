#pragma once
// The incoming media of one voice session, from UDP datagrams to one mixed stereo frame per 20 ms tick:
//   datagram -> media_wire::TransportOpener (one: the forwarding unit's nonce sequence) -> RTP parse (RTCP,
//   runts and other payload types dropped; the extension body skipped) -> FrameDecryptor (not for silence
//   frames)
//   -> Opus TOC check (a malformed or non-20 ms packet is dropped) -> per-SSRC JitterBuffer
// and on each playout tick, per SSRC:
//   pop -> decode (FEC from the next packet, else PLC, for a missing frame) -> the user's PCM -> the optional
//   per-user callback (may change the samples, may set "mute SDK playback") -> local mute and volume 0..200 %
//   -> mix with saturation into one stereo frame.
// SSRCs map to users from op 5 Speaking (MapSsrc); a stream whose SSRC is not mapped yet still plays, without
// the per-user callback. Streams (jitter buffer + decoder) are preallocated, `maxStreams` of them; an idle
// stream is recycled for a new SSRC. OnDatagram and PlayoutTick never allocate; the setters may. No sockets,
// no threads, not thread-safe: the voice thread owns it.

#include "media_wire/transport_cipher.hpp"
#include "voice/frame_transform.hpp"
#include "voice/jitter_buffer.hpp"
#include "voice/opus_codec.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace platformpp::voice {

struct ReceivePipelineOptions {
  std::size_t maxStreams = 32;
  JitterBufferOptions jitter;
};

class ReceivePipeline {
 public:
  static constexpr int kMaxVolumePercent = 200;
  static constexpr int kDefaultVolumePercent = 100;
  /// Datagrams larger than this are malformed (a 20 ms Opus frame is far smaller).
  static constexpr std::size_t kMaxDatagramSize = 2048;
  /// Encrypted frames of SSRCs not mapped yet held at a time, and for how long (OnDatagram's Held).
  static constexpr std::size_t kHeldSlots = 16;
  static constexpr uint64_t kHoldMs = 500;

  /// The SDK's received-audio callback: (userId, samples (interleaved, may be changed), samplesPerChannel,
  /// sampleRate, channels, outShouldMute). Runs on the voice thread within the playout tick: keep it short.
  using UserAudioCallback = std::function<void(uint64_t userId, int16_t* pcm, int samplesPerChannel,
                                               int sampleRate, int channels, bool& outShouldMute)>;

  /// `mode` and `key` from op 4 Session Description.
  ReceivePipeline(media_wire::TransportMode mode, const media_wire::TransportKey& key,
                  ReceivePipelineOptions options = {});
  ~ReceivePipeline();
  ReceivePipeline(const ReceivePipeline&) = delete;
  ReceivePipeline& operator=(const ReceivePipeline&) = delete;

  enum class PacketResult {
    Accepted,
    Malformed,      // runt, RTCP, not Opus, a bad extension or Opus packet
    Tampered,       // transport authentication failed
    Replayed,       // a transport nonce seen before
    DecryptFailed,  // the FrameDecryptor refused it
    Held,           // end-to-end encrypted from an SSRC op 5 has not mapped yet: held until it is
    Late,           // its playout time has passed
    Duplicate,      // this RTP sequence is already buffered
    NoStream,       // every stream is busy with another SSRC
  };
  PacketResult OnDatagram(std::span<const uint8_t> datagram, uint64_t nowMs) noexcept;

  /// One 20 ms playout tick: `mix` gets the sum of every audible stream (silence when none); returns how many
  /// streams were mixed.
  int PlayoutTick(uint64_t nowMs, PcmFrame mix) noexcept;

  /// From op 5 Speaking: the SSRC's user. Re-mapping an SSRC moves it to the new user.
  void MapSsrc(uint32_t ssrc, uint64_t userId);
  /// From op 13 Client Disconnect: forgets the user's SSRCs and frees their streams.
  void UnmapUser(uint64_t userId);
  std::optional<uint64_t> UserForSsrc(uint32_t ssrc) const;

  void SetLocalMute(uint64_t userId, bool muted);
  bool LocalMuted(uint64_t userId) const;
  /// 0..200 %; false (unchanged) outside.
  bool SetUserVolume(uint64_t userId, int percent);
  int UserVolume(uint64_t userId) const;
  void SetUserAudioCallback(UserAudioCallback callback) { callback_ = std::move(callback); }
  /// Not owned; null (the default) is pass-through.
  void SetFrameDecryptor(FrameDecryptor* decryptor) noexcept { decryptor_ = decryptor; }

  /// The jitter buffer of `ssrc`'s stream, or null.
  const JitterBuffer* JitterFor(uint32_t ssrc) const noexcept;

  struct Counters {
    uint64_t packetsReceived = 0;
    uint64_t accepted = 0;
    uint64_t malformed = 0;
    uint64_t tampered = 0;
    uint64_t replayed = 0;
    uint64_t decryptFailed = 0;
    uint64_t held = 0;  // frames held for their SSRC's mapping (then decrypted, or dropped unmapped)
    uint64_t late = 0;
    uint64_t duplicate = 0;
    uint64_t noStream = 0;
    uint64_t lost = 0;          // frames the sender sent that were missing at their playout time
                                // (JitterBuffer::Counters::lost)
    uint64_t concealed = 0;     // frames produced by PLC or FEC (losses and underruns)
    uint64_t fecRecovered = 0;  // of which from the next packet's FEC data
    uint64_t decodeErrors = 0;
    uint64_t framesDecoded = 0;
  };
  const Counters& GetCounters() const noexcept { return counters_; }

 private:
  struct Stream;
  // Adds what the stream's jitter buffer counted as lost since the last call.
  void CountLosses(Stream& stream) noexcept;
  struct UserSettings {
    bool muted = false;
    int volume = kDefaultVolumePercent;
  };

  Stream* StreamFor(uint32_t ssrc, uint64_t nowMs) noexcept;
  // From the RTP packet on: DAVE, the Opus TOC, the jitter buffer. `rtp` may be `opened_` or a held packet.
  PacketResult OnRtp(std::span<const uint8_t> rtp, uint64_t nowMs, bool mayHold) noexcept;
  // Replays, in arrival order, the held packets of `ssrc` (just mapped), or without one those held too long.
  void ReleaseHeld(std::optional<uint32_t> ssrc, uint64_t nowMs) noexcept;

  // A new sender's first frames reach the receiver before op 5 tells whose SSRC it is (UDP overtakes the
  // voice gateway): end-to-end encrypted, they cannot be decrypted without the sender. They wait here, a
  // fixed few (kHeldSlots: no allocation on the voice thread), for up to kHoldMs; then they are dropped as
  // undecryptable.
  struct HeldPacket {
    bool used = false;
    uint32_t ssrc = 0;
    uint64_t arrivedMs = 0;
    uint64_t order = 0;
    std::size_t size = 0;
    std::array<uint8_t, kMaxDatagramSize> rtp{};
  };

  media_wire::TransportOpener opener_;
  ReceivePipelineOptions options_;
  std::vector<std::unique_ptr<Stream>> streams_;
  std::unordered_map<uint32_t, uint64_t> ssrcUsers_;
  std::unordered_map<uint64_t, UserSettings> users_;
  UserAudioCallback callback_;
  FrameDecryptor* decryptor_ = nullptr;
  std::array<uint8_t, kMaxDatagramSize> opened_{};
  std::array<uint8_t, kMaxDatagramSize> decrypted_{};
  std::array<int32_t, kOpusFrameSamples> accumulator_{};
  std::array<HeldPacket, kHeldSlots> held_{};
  std::size_t heldCount_ = 0;
  uint64_t heldOrder_ = 0;
  uint64_t lastNowMs_ = 0;  // of the last datagram or tick: MapSsrc replays at it
  Counters counters_;
};

}  // namespace platformpp::voice
