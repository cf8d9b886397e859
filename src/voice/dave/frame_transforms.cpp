#include "voice/dave/frame_transforms.hpp"

#include "mls/group.hpp"

#include <algorithm>
#include <cstring>

namespace platformpp::voice::dave {

void DaveFrameEncryptor::UseKeys(std::unique_ptr<SenderKeys> keys) noexcept {
  keys_ = std::move(keys);
  mode_ = keys_ ? Mode::Encrypt : Mode::Withhold;
}

void DaveFrameEncryptor::UsePassThrough() noexcept {
  keys_.reset();
  mode_ = Mode::PassThrough;
}

void DaveFrameEncryptor::Withhold() noexcept {
  keys_.reset();
  mode_ = Mode::Withhold;
}

std::size_t DaveFrameEncryptor::Encrypt(uint32_t, std::span<const uint8_t> frame,
                                        std::span<uint8_t> out) noexcept {
  switch (mode_) {
    case Mode::Withhold:
      ++counters_.withheld;
      return 0;
    case Mode::PassThrough:
      if (out.size() < frame.size()) {
        ++counters_.failed;
        return 0;
      }
      std::memcpy(out.data(), frame.data(), frame.size());
      ++counters_.passedThrough;
      return frame.size();
    case Mode::Encrypt:
      break;
  }
  const auto [nonce, key] = keys_->Next();
  const std::size_t size =
      key ? cipher_.Seal(std::span<const uint8_t, kKeySize>(key->data(), kKeySize), nonce, frame, out) : 0;
  if (size == 0) {
    ++counters_.failed;
    return 0;
  }
  ++counters_.encrypted;
  return size;
}

void DaveFrameDecryptor::AddEpoch(std::unique_ptr<ReceiveEpoch> keys, uint64_t nowMs) {
  DropExpired(nowMs);
  if (!epochs_.empty() && epochs_.back().expiresAtMs == UINT64_MAX)
    epochs_.back().expiresAtMs = nowMs + kRetentionMs;
  // A burst of transitions within 10 s: the oldest goes first.
  if (epochs_.size() == kMaxEpochs) epochs_.erase(epochs_.begin());
  epochs_.push_back({std::move(keys), UINT64_MAX});
}

void DaveFrameDecryptor::SetPassThrough(bool on, uint64_t nowMs) noexcept {
  if (on) {
    passThrough_ = true;
  } else if (passThrough_) {
    passThrough_ = false;
    passThroughUntilMs_ = nowMs + kRetentionMs;
  }
}

void DaveFrameDecryptor::Clear() noexcept {
  epochs_.clear();
}

void DaveFrameDecryptor::DropExpired(uint64_t nowMs) noexcept {
  // Frees an expired epoch's keys: at most once per transition, never in steady state.
  std::erase_if(epochs_, [nowMs](const Entry& entry) { return nowMs >= entry.expiresAtMs; });
}

bool DaveFrameDecryptor::NeedsSender(std::span<const uint8_t> frame) const noexcept {
  const std::size_t size = frame.size();
  return !epochs_.empty() && size >= 2 && frame[size - 1] == kMarkerByte && frame[size - 2] == kMarkerByte;
}

std::size_t DaveFrameDecryptor::Decrypt(uint32_t, uint64_t userId, uint64_t nowMs,
                                        std::span<const uint8_t> frame, std::span<uint8_t> out) noexcept {
  ParsedFrame parsed;
  const FrameError error = ParseFrame(frame, parsed);
  if (error != FrameError::None) {
    if (PassThroughAllowed(nowMs) && out.size() >= frame.size()) {
      std::memcpy(out.data(), frame.data(), frame.size());
      ++counters_.passedThrough;
      return frame.size();
    }
    if (error == FrameError::NoMarker)
      ++counters_.drops.notEncrypted;
    else
      ++counters_.drops.malformed;
    return 0;
  }
  if (parsed.rangeCount != 0 || out.size() < parsed.body.size()) {
    ++counters_.drops.malformed;  // audio frames are encrypted whole
    return 0;
  }
  if (!epochs_.empty() && nowMs >= epochs_.front().expiresAtMs) DropExpired(nowMs);

  // The worst reason wins the count: a frame that fails authentication under a key is not merely "unknown".
  enum Reason { Unknown, Expired, TooFarAhead, Replayed, Authentication };
  Reason reason = Unknown;
  // NOLINTNEXTLINE(modernize-loop-convert): clang 14 cannot compile ranges::reverse_view over libstdc++ 12's
  for (auto it = epochs_.rbegin(); it != epochs_.rend(); ++it) {
    auto& epoch = *it;
    auto sender = epoch.keys->senders.find(userId);
    if (sender == epoch.keys->senders.end()) continue;
    ReceiverKeys::Refusal why = ReceiverKeys::Refusal::None;
    const MediaKey* key = sender->second.KeyFor(parsed.nonce, why);
    if (!key) {
      const Reason r = why == ReceiverKeys::Refusal::Replayed      ? Replayed
                       : why == ReceiverKeys::Refusal::TooFarAhead ? TooFarAhead
                                                                   : Expired;
      reason = std::max(reason, r);
      continue;
    }
    const long size = cipher_.Open(std::span<const uint8_t, kKeySize>(key->data(), kKeySize), parsed, out);
    if (size < 0) {
      reason = Authentication;
      continue;
    }
    sender->second.Commit(parsed.nonce);
    ++counters_.decrypted;
    return static_cast<std::size_t>(size);
  }
  switch (reason) {
    case Unknown:
      ++counters_.drops.unknownSender;
      break;
    case Expired:
      ++counters_.drops.expired;
      break;
    case TooFarAhead:
      ++counters_.drops.tooFarAhead;
      break;
    case Replayed:
      ++counters_.drops.replayed;
      break;
    case Authentication:
      ++counters_.drops.authentication;
      break;
  }
  return 0;
}

namespace {

std::optional<uint64_t> LeafUser(const mls::Group& group, mls::LeafIndex leaf) {
  const mls::LeafNode* node = group.Tree().Leaf(leaf);
  if (!node) return std::nullopt;
  return UserIdOf(node->credential.identity);
}

}  // namespace

std::unique_ptr<ReceiveEpoch> MakeReceiveEpoch(const mls::Group& group, uint64_t selfUserId) {
  auto epoch = std::make_unique<ReceiveEpoch>();
  epoch->epoch = group.Epoch();
  for (const mls::LeafIndex leaf : group.Members()) {
    const auto user = LeafUser(group, leaf);
    if (!user || *user == selfUserId) continue;
    auto [it, added] = epoch->senders.try_emplace(*user, SenderBaseSecret(group, *user));
    if (!added) continue;
    ReceiverKeys::Refusal why;
    it->second.KeyFor(1, why);  // derives generation 0 here rather than on the first frame
  }
  return epoch;
}

std::unique_ptr<SenderKeys> MakeSenderKeys(const mls::Group& group, uint64_t selfUserId) {
  return std::make_unique<SenderKeys>(SenderBaseSecret(group, selfUserId));
}

}  // namespace platformpp::voice::dave
