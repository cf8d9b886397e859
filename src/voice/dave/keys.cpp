#include "voice/dave/keys.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/group.hpp"

#include <algorithm>

namespace platformpp::voice::dave {

mls::Bytes IdentityOf(uint64_t userId) {
  mls::Bytes identity(8);
  for (int i = 0; i < 8; ++i)
    identity[static_cast<std::size_t>(i)] = static_cast<uint8_t>(userId >> (56 - 8 * i));
  return identity;
}

std::optional<uint64_t> UserIdOf(mls::ByteView identity) noexcept {
  if (identity.size() != 8) return std::nullopt;
  uint64_t id = 0;
  for (uint8_t byte : identity)
    id = (id << 8) | byte;
  return id;
}

std::array<uint8_t, 8> SenderContext(uint64_t userId) noexcept {
  std::array<uint8_t, 8> context{};
  for (int i = 0; i < 8; ++i)
    context[static_cast<std::size_t>(i)] = static_cast<uint8_t>(userId >> (8 * i));
  return context;
}

mls::Secret SenderBaseSecret(const mls::Group& group, uint64_t userId) {
  const auto context = SenderContext(userId);
  return group.Export(kExporterLabel, context, 16);
}

KeyRatchet::KeyRatchet(mls::Secret base) : secret_(std::move(base)) {}

const MediaKey* KeyRatchet::Key(uint32_t generation) {
  if (generation < floor_) return nullptr;
  if (generation >= next_) {
    const uint32_t newest = next_ == 0 ? 0 : next_ - 1;
    if (generation - newest > kMaxGenerationGap) return nullptr;
    while (next_ <= generation) {
      const mls::Secret key = mls::DeriveTreeSecret(secret_, "key", next_, 16);
      MediaKey& slot = keys_[next_];
      std::copy(key.View().begin(), key.View().end(), slot.begin());
      secret_ = mls::DeriveTreeSecret(secret_, "secret", next_, mls::kHashSize);
      if (next_ == UINT32_MAX) break;
      ++next_;
    }
  }
  auto it = keys_.find(generation);
  return it == keys_.end() ? nullptr : &it->second;
}

void KeyRatchet::EraseBelow(uint32_t generation) {
  if (generation <= floor_) return;
  floor_ = generation;
  for (auto it = keys_.begin(); it != keys_.end() && it->first < generation;) {
    mls::Wipe(it->second.data(), it->second.size());
    it = keys_.erase(it);
  }
}

bool NonceWindow::Fresh(uint32_t nonce) const noexcept {
  if (!any_ || nonce > highest_) return true;
  const uint32_t back = highest_ - nonce;
  return back < kWindow && !Test(back);
}

void NonceWindow::Shift(uint32_t by) noexcept {
  if (by >= kWindow) {
    seen_.fill(0);
  } else if (by >= 64) {
    seen_[1] = seen_[0] << (by - 64);
    seen_[0] = 0;
  } else if (by > 0) {
    seen_[1] = (seen_[1] << by) | (seen_[0] >> (64 - by));
    seen_[0] <<= by;
  }
}

void NonceWindow::Record(uint32_t nonce) noexcept {
  if (!any_) {
    any_ = true;
    highest_ = nonce;
    seen_.fill(0);
    Set(0);
  } else if (nonce > highest_) {
    Shift(nonce - highest_);
    highest_ = nonce;
    Set(0);
  } else if (highest_ - nonce < kWindow) {
    Set(highest_ - nonce);
  }
}

std::pair<uint32_t, const MediaKey*> SenderKeys::Next() {
  if (nonce_ == UINT32_MAX) return {0, nullptr};
  ++nonce_;  // the first frame's nonce is 1
  const uint32_t generation = nonce_ >> 24;
  const MediaKey* key = ratchet_.Key(generation);
  if (generation > 0) ratchet_.EraseBelow(generation);
  return {nonce_, key};
}

const MediaKey* ReceiverKeys::KeyFor(uint32_t nonce, Refusal& why) {
  why = Refusal::None;
  if (!window_.Fresh(nonce)) {
    why = Refusal::Replayed;
    return nullptr;
  }
  const uint32_t generation = nonce >> 24;
  const MediaKey* key = ratchet_.Key(generation);
  if (!key) why = generation < ratchet_.NextGeneration() ? Refusal::Expired : Refusal::TooFarAhead;
  return key;
}

void ReceiverKeys::Commit(uint32_t nonce) {
  window_.Record(nonce);
  // Frames of the previous generation may still arrive late; older ones are gone.
  const uint32_t generation = nonce >> 24;
  if (generation > 1) ratchet_.EraseBelow(generation - 1);
}

}  // namespace platformpp::voice::dave
