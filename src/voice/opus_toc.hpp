#pragma once
// The table-of-contents byte of an Opus packet (RFC 6716 section 3.1) and the framing rules of section 3.2,
// checked the way a receiver must before handing a packet to the decoder: a packet that breaks one of the
// requirements [R1]-[R7] is malformed and dropped. Parsing never reads past the packet and never allocates.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace platformpp::voice {

enum class OpusMode : uint8_t { Silk, Hybrid, Celt };
enum class OpusBandwidth : uint8_t { Narrow, Medium, Wide, SuperWide, Full };

/// The longest frame data the framing allows (RFC 6716 [R2]).
inline constexpr std::size_t kOpusMaxFrameBytes = 1275;
/// The longest packet duration (RFC 6716 [R5]): 120 ms at 48 kHz.
inline constexpr uint32_t kOpusMaxPacketSamples48k = 5760;

struct OpusToc {
  uint8_t config = 0;  // 0..31
  OpusMode mode = OpusMode::Silk;
  OpusBandwidth bandwidth = OpusBandwidth::Narrow;
  bool stereo = false;
  uint8_t code = 0;                 // frame count code 0..3
  uint8_t frameCount = 0;           // 1 (code 0), 2 (codes 1 and 2), M (code 3)
  bool vbr = false;                 // code 3 only (code 2 is always VBR, codes 0 and 1 CBR)
  std::size_t padding = 0;          // code 3 padding bytes (not counting the padding length bytes)
  uint32_t frameSamples48k = 0;     // one frame's duration at 48 kHz (120 = 2.5 ms ... 2880 = 60 ms)
  uint32_t durationSamples48k = 0;  // frameCount * frameSamples48k
};

/// One frame's duration at 48 kHz for a configuration number 0..31.
uint32_t OpusConfigFrameSamples48k(uint8_t config) noexcept;

/// Parses and validates a whole Opus packet; nullopt when it is malformed (empty, a frame length beyond the
/// packet or above 1275 bytes, an odd code 1 payload, a code 3 packet with no frames, more than 120 ms, bad
/// padding, or a CBR size that does not divide evenly).
std::optional<OpusToc> ParseOpusToc(std::span<const uint8_t> packet) noexcept;

}  // namespace platformpp::voice

namespace platformpp::voice {

/// The Opus silence frame senders append five of after speech (docs/voice-protocol.md, "RTP"); it is never
/// end-to-end encrypted.
inline constexpr uint8_t kOpusSilenceFrame[3] = {0xF8, 0xFF, 0xFE};

inline bool IsOpusSilenceFrame(std::span<const uint8_t> frame) noexcept {
  return frame.size() == 3 && frame[0] == 0xF8 && frame[1] == 0xFF && frame[2] == 0xFE;
}

}  // namespace platformpp::voice
