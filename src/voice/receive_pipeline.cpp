#include "voice/receive_pipeline.hpp"

#include "media_wire/rtp_packet.hpp"
#include "voice/opus_toc.hpp"

#include <algorithm>
#include <limits>

namespace platformpp::voice {

struct ReceivePipeline::Stream {
  explicit Stream(const JitterBufferOptions& options) : jitter(options) {}
  bool inUse = false;
  uint32_t ssrc = 0;
  std::optional<uint64_t> userId;
  uint64_t lastPacketMs = 0;
  uint64_t lostCounted = 0;  // the jitter buffer's losses already in the pipeline's counters
  JitterBuffer jitter;
  OpusFrameDecoder decoder;
  std::array<int16_t, kOpusFrameSamples> pcm{};
};

ReceivePipeline::ReceivePipeline(media_wire::TransportMode mode, const media_wire::TransportKey& key,
                                 ReceivePipelineOptions options)
    : opener_(mode, key), options_(options) {
  streams_.reserve(options_.maxStreams);
  for (std::size_t i = 0; i < options_.maxStreams; ++i)
    streams_.push_back(std::make_unique<Stream>(options_.jitter));
}

ReceivePipeline::~ReceivePipeline() = default;

ReceivePipeline::Stream* ReceivePipeline::StreamFor(uint32_t ssrc, uint64_t nowMs) noexcept {
  Stream* freeStream = nullptr;
  Stream* idle = nullptr;
  for (auto& stream : streams_) {
    if (stream->inUse && stream->ssrc == ssrc) return stream.get();
    if (!stream->inUse) {
      if (!freeStream) freeStream = stream.get();
    } else if (!stream->jitter.Playing() && !stream->jitter.Active(nowMs) &&
               (!idle || stream->lastPacketMs < idle->lastPacketMs)) {
      idle = stream.get();
    }
  }
  Stream* stream = freeStream ? freeStream : idle;
  if (!stream) return nullptr;
  stream->inUse = true;
  stream->ssrc = ssrc;
  stream->jitter.Reset();
  stream->decoder.Reset();
  auto user = ssrcUsers_.find(ssrc);
  stream->userId = user == ssrcUsers_.end() ? std::nullopt : std::optional<uint64_t>(user->second);
  return stream;
}

void ReceivePipeline::CountLosses(Stream& stream) noexcept {
  const uint64_t lost = stream.jitter.GetCounters().lost;
  counters_.lost += lost - stream.lostCounted;
  stream.lostCounted = lost;
}

ReceivePipeline::PacketResult ReceivePipeline::OnDatagram(std::span<const uint8_t> datagram,
                                                          uint64_t nowMs) noexcept {
  ++counters_.packetsReceived;
  if (datagram.size() > kMaxDatagramSize) {
    ++counters_.malformed;
    return PacketResult::Malformed;
  }
  std::size_t written = 0;
  switch (opener_.Open(datagram, opened_, written)) {
    case media_wire::OpenResult::Ok:
      break;
    case media_wire::OpenResult::Malformed:
      ++counters_.malformed;
      return PacketResult::Malformed;
    case media_wire::OpenResult::AuthenticationFailed:
      ++counters_.tampered;
      return PacketResult::Tampered;
    case media_wire::OpenResult::Replayed:
      ++counters_.replayed;
      return PacketResult::Replayed;
  }
  lastNowMs_ = nowMs;
  return OnRtp(std::span<const uint8_t>(opened_.data(), written), nowMs, true);
}

ReceivePipeline::PacketResult ReceivePipeline::OnRtp(std::span<const uint8_t> rtp, uint64_t nowMs,
                                                     bool mayHold) noexcept {
  const auto header = media_wire::ParseRtpHeader(rtp);
  if (!header || header->payloadType != media_wire::kOpusPayloadType ||
      header->clearSize + header->extensionBodySize >= rtp.size()) {
    ++counters_.malformed;
    return PacketResult::Malformed;
  }
  std::span<const uint8_t> frame = rtp.subspan(header->clearSize + header->extensionBodySize);

  if (decryptor_ && !IsOpusSilenceFrame(frame)) {
    const auto user = ssrcUsers_.find(header->ssrc);
    if (user == ssrcUsers_.end() && mayHold && decryptor_->NeedsSender(frame)) {
      // Full: the oldest held packet goes on (dropped, unmapped) to make room.
      if (heldCount_ == held_.size()) {
        auto oldest =
            std::min_element(held_.begin(), held_.end(),
                             [](const HeldPacket& a, const HeldPacket& b) { return a.order < b.order; });
        oldest->arrivedMs = 0;
        ReleaseHeld(std::nullopt, nowMs);
      }
      auto slot = std::find_if(held_.begin(), held_.end(), [](const HeldPacket& p) { return !p.used; });
      slot->used = true;
      slot->ssrc = header->ssrc;
      slot->arrivedMs = nowMs;
      slot->order = ++heldOrder_;
      slot->size = rtp.size();
      std::copy(rtp.begin(), rtp.end(), slot->rtp.begin());
      ++heldCount_;
      ++counters_.held;
      return PacketResult::Held;
    }
    const std::size_t size =
        decryptor_->Decrypt(header->ssrc, user == ssrcUsers_.end() ? 0 : user->second, nowMs, frame,
                            std::span<uint8_t>(decrypted_.data(), frame.size()));
    if (size == 0 || size > frame.size()) {
      ++counters_.decryptFailed;
      return PacketResult::DecryptFailed;
    }
    frame = std::span<const uint8_t>(decrypted_.data(), size);
  }
  const auto toc = ParseOpusToc(frame);
  if (!toc || toc->durationSamples48k != static_cast<uint32_t>(kOpusFrameSamplesPerChannel)) {
    ++counters_.malformed;
    return PacketResult::Malformed;
  }
  Stream* stream = StreamFor(header->ssrc, nowMs);
  if (!stream) {
    ++counters_.noStream;
    return PacketResult::NoStream;
  }
  const JitterBuffer::PushResult pushed =
      stream->jitter.Push(header->sequence, header->timestamp, frame, nowMs);
  CountLosses(*stream);  // a packet can show that frames concealed earlier were lost
  switch (pushed) {
    case JitterBuffer::PushResult::Accepted:
      stream->lastPacketMs = nowMs;
      ++counters_.accepted;
      return PacketResult::Accepted;
    case JitterBuffer::PushResult::Duplicate:
      ++counters_.duplicate;
      return PacketResult::Duplicate;
    case JitterBuffer::PushResult::Late:
      ++counters_.late;
      return PacketResult::Late;
    case JitterBuffer::PushResult::Invalid:
      break;
  }
  ++counters_.malformed;
  return PacketResult::Malformed;
}

void ReceivePipeline::ReleaseHeld(std::optional<uint32_t> ssrc, uint64_t nowMs) noexcept {
  for (;;) {
    HeldPacket* next = nullptr;
    for (auto& packet : held_) {
      if (!packet.used) continue;
      const bool due = ssrc ? packet.ssrc == *ssrc : nowMs >= packet.arrivedMs + kHoldMs;
      if (due && (!next || packet.order < next->order)) next = &packet;
    }
    if (!next) return;
    next->used = false;
    --heldCount_;
    // Mapped now, or too old: either way it goes on (unmapped, the decryptor counts it as undecryptable).
    OnRtp(std::span<const uint8_t>(next->rtp.data(), next->size), nowMs, false);
  }
}

int ReceivePipeline::PlayoutTick(uint64_t nowMs, PcmFrame mix) noexcept {
  lastNowMs_ = nowMs;
  if (heldCount_ != 0) ReleaseHeld(std::nullopt, nowMs);
  std::fill(accumulator_.begin(), accumulator_.end(), 0);
  int mixed = 0;
  for (auto& owned : streams_) {
    Stream& stream = *owned;
    if (!stream.inUse) continue;
    const JitterBuffer::Playout playout = stream.jitter.Pop(nowMs);
    CountLosses(stream);
    int decoded = -1;
    switch (playout.kind) {
      case JitterBuffer::Playout::Kind::None:
        continue;
      case JitterBuffer::Playout::Kind::Frame:
        decoded = stream.decoder.Decode(playout.payload, stream.pcm);
        if (decoded == kOpusFrameSamplesPerChannel) {
          ++counters_.framesDecoded;
        } else {
          ++counters_.decodeErrors;
          decoded = stream.decoder.Conceal(stream.pcm);
          ++counters_.concealed;
        }
        break;
      case JitterBuffer::Playout::Kind::Missing:
        ++counters_.concealed;
        if (!playout.next.empty()) {
          decoded = stream.decoder.DecodeFec(playout.next, stream.pcm);
          ++counters_.fecRecovered;
        } else {
          decoded = stream.decoder.Conceal(stream.pcm);
        }
        break;
    }
    if (decoded != kOpusFrameSamplesPerChannel) continue;

    bool muted = false;
    int volume = kDefaultVolumePercent;
    if (stream.userId) {
      if (callback_) {
        callback_(*stream.userId, stream.pcm.data(), kOpusFrameSamplesPerChannel, kOpusSampleRate,
                  kOpusChannels, muted);
      }
      if (auto settings = users_.find(*stream.userId); settings != users_.end()) {
        muted = muted || settings->second.muted;
        volume = settings->second.volume;
      }
    }
    if (muted || volume == 0) continue;
    ++mixed;
    if (volume == kDefaultVolumePercent) {
      for (std::size_t i = 0; i < kOpusFrameSamples; ++i)
        accumulator_[i] += stream.pcm[i];
    } else {
      for (std::size_t i = 0; i < kOpusFrameSamples; ++i)
        accumulator_[i] += stream.pcm[i] * volume / 100;
    }
  }
  for (std::size_t i = 0; i < kOpusFrameSamples; ++i)
    mix[i] = static_cast<int16_t>(std::clamp<int32_t>(accumulator_[i], std::numeric_limits<int16_t>::min(),
                                                      std::numeric_limits<int16_t>::max()));
  return mixed;
}

void ReceivePipeline::MapSsrc(uint32_t ssrc, uint64_t userId) {
  ssrcUsers_[ssrc] = userId;
  for (auto& stream : streams_)
    if (stream->inUse && stream->ssrc == ssrc) stream->userId = userId;
  if (heldCount_ != 0) ReleaseHeld(ssrc, lastNowMs_);
}

void ReceivePipeline::UnmapUser(uint64_t userId) {
  std::erase_if(ssrcUsers_, [userId](const auto& entry) { return entry.second == userId; });
  for (auto& stream : streams_) {
    if (stream->inUse && stream->userId == userId) {
      stream->inUse = false;
      stream->userId.reset();
    }
  }
}

std::optional<uint64_t> ReceivePipeline::UserForSsrc(uint32_t ssrc) const {
  auto found = ssrcUsers_.find(ssrc);
  if (found == ssrcUsers_.end()) return std::nullopt;
  return found->second;
}

void ReceivePipeline::SetLocalMute(uint64_t userId, bool muted) {
  users_[userId].muted = muted;
}

bool ReceivePipeline::LocalMuted(uint64_t userId) const {
  auto found = users_.find(userId);
  return found != users_.end() && found->second.muted;
}

bool ReceivePipeline::SetUserVolume(uint64_t userId, int percent) {
  if (percent < 0 || percent > kMaxVolumePercent) return false;
  users_[userId].volume = percent;
  return true;
}

int ReceivePipeline::UserVolume(uint64_t userId) const {
  auto found = users_.find(userId);
  return found == users_.end() ? kDefaultVolumePercent : found->second.volume;
}

const JitterBuffer* ReceivePipeline::JitterFor(uint32_t ssrc) const noexcept {
  for (const auto& stream : streams_)
    if (stream->inUse && stream->ssrc == ssrc) return &stream->jitter;
  return nullptr;
}

}  // namespace platformpp::voice
