#include "media_wire/transport_cipher.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "media_wire/rtp_packet.hpp"

namespace platformpp::media_wire {

namespace {

constexpr std::string_view kAesGcmName = "aead_aes256_gcm_rtpsize";
constexpr std::string_view kXChaChaName = "aead_xchacha20_poly1305_rtpsize";
constexpr std::size_t kGcmNonceSize = 12;
constexpr std::size_t kXChaChaNonceSize = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
static_assert(kXChaChaNonceSize == 24);
static_assert(crypto_aead_xchacha20poly1305_ietf_ABYTES == kTransportTagSize);
static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == kTransportKeySize);

void WriteNonce(uint32_t counter, uint8_t* out) noexcept {
  out[0] = static_cast<uint8_t>(counter >> 24);
  out[1] = static_cast<uint8_t>(counter >> 16);
  out[2] = static_cast<uint8_t>(counter >> 8);
  out[3] = static_cast<uint8_t>(counter);
}

uint32_t ReadNonce(const uint8_t* in) noexcept {
  return (static_cast<uint32_t>(in[0]) << 24) | (static_cast<uint32_t>(in[1]) << 16) |
         (static_cast<uint32_t>(in[2]) << 8) | static_cast<uint32_t>(in[3]);
}

// One AES-256-GCM context with the key set once; each packet only sets its IV (no allocation per packet).
class GcmContext {
 public:
  GcmContext(const TransportKey& key, bool encrypt) : ctx_(EVP_CIPHER_CTX_new()) {
    if (!ctx_) throw std::runtime_error("EVP_CIPHER_CTX_new failed");
    const int ok = encrypt ? EVP_EncryptInit_ex(ctx_, EVP_aes_256_gcm(), nullptr, key.data(), nullptr)
                           : EVP_DecryptInit_ex(ctx_, EVP_aes_256_gcm(), nullptr, key.data(), nullptr);
    if (ok != 1) {
      EVP_CIPHER_CTX_free(ctx_);
      throw std::runtime_error("AES-256-GCM setup failed");
    }
  }
  ~GcmContext() { EVP_CIPHER_CTX_free(ctx_); }
  GcmContext(const GcmContext&) = delete;
  GcmContext& operator=(const GcmContext&) = delete;

  bool Seal(const uint8_t* iv, std::span<const uint8_t> aad, std::span<const uint8_t> plain, uint8_t* cipher,
            uint8_t* tag) noexcept {
    int len = 0;
    if (EVP_EncryptInit_ex(ctx_, nullptr, nullptr, nullptr, iv) != 1) return false;
    if (EVP_EncryptUpdate(ctx_, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) return false;
    if (!plain.empty() &&
        EVP_EncryptUpdate(ctx_, cipher, &len, plain.data(), static_cast<int>(plain.size())) != 1)
      return false;
    if (EVP_EncryptFinal_ex(ctx_, cipher + plain.size(), &len) != 1) return false;
    return EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTransportTagSize), tag) == 1;
  }

  bool Open(const uint8_t* iv, std::span<const uint8_t> aad, std::span<const uint8_t> cipher,
            const uint8_t* tag, uint8_t* plain) noexcept {
    int len = 0;
    if (EVP_DecryptInit_ex(ctx_, nullptr, nullptr, nullptr, iv) != 1) return false;
    if (EVP_DecryptUpdate(ctx_, nullptr, &len, aad.data(), static_cast<int>(aad.size())) != 1) return false;
    if (!cipher.empty() &&
        EVP_DecryptUpdate(ctx_, plain, &len, cipher.data(), static_cast<int>(cipher.size())) != 1)
      return false;
    // OpenSSL takes the expected tag through a non-const pointer but only reads it.
    if (EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTransportTagSize),
                            const_cast<uint8_t*>(tag)) != 1)
      return false;
    return EVP_DecryptFinal_ex(ctx_, plain + cipher.size(), &len) == 1;
  }

 private:
  EVP_CIPHER_CTX* ctx_;
};

void EnsureSodium() {
  // Safe to call repeatedly and from several threads; keeps no state of ours.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

std::string_view TransportModeName(TransportMode mode) noexcept {
  return mode == TransportMode::AeadAes256GcmRtpsize ? kAesGcmName : kXChaChaName;
}

std::optional<TransportMode> ParseTransportMode(std::string_view name) noexcept {
  if (name == kAesGcmName) return TransportMode::AeadAes256GcmRtpsize;
  if (name == kXChaChaName) return TransportMode::AeadXChaCha20Poly1305Rtpsize;
  return std::nullopt;
}

std::optional<TransportMode> ChooseTransportMode(const std::vector<std::string>& offered) noexcept {
  const auto has = [&](std::string_view name) {
    return std::find(offered.begin(), offered.end(), name) != offered.end();
  };
  if (has(kAesGcmName)) return TransportMode::AeadAes256GcmRtpsize;
  if (has(kXChaChaName)) return TransportMode::AeadXChaCha20Poly1305Rtpsize;
  return std::nullopt;
}

// --- sealing ---

struct TransportSealer::Impl {
  TransportKey key;
  std::optional<GcmContext> gcm;
};

TransportSealer::TransportSealer(TransportMode mode, const TransportKey& key)
    : mode_(mode), impl_(std::make_unique<Impl>()) {
  impl_->key = key;
  if (mode == TransportMode::AeadAes256GcmRtpsize)
    impl_->gcm.emplace(key, true);
  else
    EnsureSodium();
}

TransportSealer::~TransportSealer() {
  sodium_memzero(impl_->key.data(), impl_->key.size());
}

std::size_t TransportSealer::Seal(std::span<const uint8_t> rtp, std::span<uint8_t> out) noexcept {
  const auto header = ParseRtpHeader(rtp);
  if (!header || header->clearSize + header->extensionBodySize > rtp.size()) return 0;
  const std::size_t total = rtp.size() + kTransportOverhead;
  if (out.size() < total) return 0;

  const auto aad = rtp.first(header->clearSize);
  const auto plain = rtp.subspan(header->clearSize);
  uint8_t* cipher = out.data() + header->clearSize;
  uint8_t* tag = cipher + plain.size();
  uint8_t* suffix = tag + kTransportTagSize;
  const uint32_t counter = nextNonce_;

  bool ok = false;
  if (mode_ == TransportMode::AeadAes256GcmRtpsize) {
    uint8_t iv[kGcmNonceSize] = {};
    WriteNonce(counter, iv);
    ok = impl_->gcm->Seal(iv, aad, plain, cipher, tag);
  } else {
    uint8_t nonce[kXChaChaNonceSize] = {};
    WriteNonce(counter, nonce);
    unsigned long long tagLength = 0;
    ok = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(cipher, tag, &tagLength, plain.data(),
                                                             plain.size(), aad.data(), aad.size(), nullptr,
                                                             nonce, impl_->key.data()) == 0;
  }
  if (!ok) return 0;
  std::memcpy(out.data(), aad.data(), aad.size());
  WriteNonce(counter, suffix);
  ++nextNonce_;
  return total;
}

// --- opening ---

struct TransportOpener::Impl {
  TransportKey key;
  std::optional<GcmContext> gcm;
};

TransportOpener::TransportOpener(TransportMode mode, const TransportKey& key)
    : mode_(mode), impl_(std::make_unique<Impl>()) {
  impl_->key = key;
  if (mode == TransportMode::AeadAes256GcmRtpsize)
    impl_->gcm.emplace(key, false);
  else
    EnsureSodium();
}

TransportOpener::~TransportOpener() {
  sodium_memzero(impl_->key.data(), impl_->key.size());
}

bool TransportOpener::AcceptNonce(uint32_t nonce) const noexcept {
  if (!anyAccepted_ || nonce > newestNonce_) return true;
  const uint32_t behind = newestNonce_ - nonce;
  if (behind >= kReplayWindow) return false;
  return (seen_[behind / 64] & (uint64_t{1} << (behind % 64))) == 0;
}

void TransportOpener::RecordNonce(uint32_t nonce) noexcept {
  if (!anyAccepted_) {
    anyAccepted_ = true;
    newestNonce_ = nonce;
    seen_.fill(0);
    seen_[0] = 1;
    return;
  }
  if (nonce > newestNonce_) {
    // Slide the window: the bit of nonce n moves from index (old - n) to (new - n).
    const uint32_t shift = nonce - newestNonce_;
    if (shift >= kReplayWindow) {
      seen_.fill(0);
    } else {
      const std::size_t words = shift / 64, bits = shift % 64;
      for (std::size_t i = seen_.size(); i-- > 0;) {
        uint64_t value = 0;
        if (i >= words) {
          value = seen_[i - words] << bits;
          if (bits != 0 && i >= words + 1) value |= seen_[i - words - 1] >> (64 - bits);
        }
        seen_[i] = value;
      }
    }
    newestNonce_ = nonce;
    seen_[0] |= 1;
    return;
  }
  const uint32_t behind = newestNonce_ - nonce;
  seen_[behind / 64] |= uint64_t{1} << (behind % 64);
}

OpenResult TransportOpener::Open(std::span<const uint8_t> packet, std::span<uint8_t> out,
                                 std::size_t& written) noexcept {
  written = 0;
  const auto header = ParseRtpHeader(packet);
  if (!header || packet.size() < header->clearSize + kTransportOverhead) {
    ++counters_.malformed;
    return OpenResult::Malformed;
  }
  const std::size_t plainSize = packet.size() - header->clearSize - kTransportOverhead;
  if (out.size() < header->clearSize + plainSize) {
    ++counters_.malformed;
    return OpenResult::Malformed;
  }
  const uint8_t* suffix = packet.data() + packet.size() - kTransportNonceSuffixSize;
  const uint32_t counter = ReadNonce(suffix);
  if (!AcceptNonce(counter)) {
    ++counters_.replayed;
    return OpenResult::Replayed;
  }

  const auto aad = packet.first(header->clearSize);
  const auto cipher = packet.subspan(header->clearSize, plainSize);
  const uint8_t* tag = cipher.data() + plainSize;
  uint8_t* plain = out.data() + header->clearSize;
  bool ok = false;
  if (mode_ == TransportMode::AeadAes256GcmRtpsize) {
    uint8_t iv[kGcmNonceSize] = {};
    WriteNonce(counter, iv);
    ok = impl_->gcm->Open(iv, aad, cipher, tag, plain);
  } else {
    uint8_t nonce[kXChaChaNonceSize] = {};
    WriteNonce(counter, nonce);
    ok = crypto_aead_xchacha20poly1305_ietf_decrypt_detached(plain, nullptr, cipher.data(), cipher.size(),
                                                             tag, aad.data(), aad.size(), nonce,
                                                             impl_->key.data()) == 0;
  }
  if (!ok) {
    ++counters_.authenticationFailed;
    return OpenResult::AuthenticationFailed;
  }
  RecordNonce(counter);
  if (header->extensionBodySize > plainSize) {
    // Authentic, so the nonce is spent, but there is no payload after the extension it announces.
    ++counters_.malformed;
    return OpenResult::Malformed;
  }
  std::memcpy(out.data(), aad.data(), aad.size());
  written = header->clearSize + plainSize;
  ++counters_.opened;
  return OpenResult::Ok;
}

}  // namespace platformpp::media_wire
