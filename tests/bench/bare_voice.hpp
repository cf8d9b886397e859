#pragma once
// The voice benchmarks' bare baselines, straight from the libraries (OpenSSL, libsodium), none of the SDK's
// code: the transport AEAD of an RTP packet (AES-256-GCM or XChaCha20-Poly1305, rtpsize: the 12-byte header
// as additional data, a 4-byte counter nonce after the tag), and DAVE's frame AEAD (AES-128-GCM with its tag
// cut to 8 bytes, then the supplemental data: tag, ULEB128 nonce, size, 0xFAFA).

#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "voice/opus_codec.hpp"

#include <openssl/evp.h>
#include <opus.h>
#include <sodium.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace platformpp::bench {

using media_wire::kRtpFixedHeaderSize;
using media_wire::kTransportOverhead;
using media_wire::TransportKey;
using media_wire::TransportMode;

// libopus's encoder as the SDK sets it up (voice/opus_codec.cpp: VOIP, stereo 48 kHz, its bitrate, in-band
// FEC, no DTX, voice, its expected loss), made straight through libopus. Free with opus_encoder_destroy.
inline OpusEncoder* NewBareEncoder() {
  int error = 0;
  OpusEncoder* encoder = opus_encoder_create(48000, 2, OPUS_APPLICATION_VOIP, &error);
  opus_encoder_ctl(encoder, OPUS_SET_BITRATE(voice::OpusFrameEncoder::kDefaultBitrate));
  opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC(1));
  opus_encoder_ctl(encoder, OPUS_SET_DTX(0));
  opus_encoder_ctl(encoder, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
  opus_encoder_ctl(encoder, OPUS_SET_PACKET_LOSS_PERC(voice::OpusFrameEncoder::kDefaultExpectedLossPercent));
  return encoder;
}

// The same AEAD as the transport, straight from the libraries: seal `rtp` (12-byte header + payload).
struct BareSealer {
  BareSealer(media_wire::TransportMode m, const media_wire::TransportKey& k) : mode(m), key(k) {
    ctx = EVP_CIPHER_CTX_new();
    EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nullptr, key.data(), nullptr);
  }
  ~BareSealer() { EVP_CIPHER_CTX_free(ctx); }
  std::size_t Seal(const uint8_t* rtp, std::size_t size, uint8_t* out) {
    const std::size_t payload = size - media_wire::kRtpFixedHeaderSize;
    std::memcpy(out, rtp, media_wire::kRtpFixedHeaderSize);
    uint8_t* cipher = out + media_wire::kRtpFixedHeaderSize;
    uint8_t* tag = cipher + payload;
    uint8_t nonce[24] = {};
    nonce[0] = static_cast<uint8_t>(counter >> 24);
    nonce[1] = static_cast<uint8_t>(counter >> 16);
    nonce[2] = static_cast<uint8_t>(counter >> 8);
    nonce[3] = static_cast<uint8_t>(counter);
    if (mode == media_wire::TransportMode::AeadAes256GcmRtpsize) {
      int len = 0;
      EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce);
      EVP_EncryptUpdate(ctx, nullptr, &len, rtp, static_cast<int>(media_wire::kRtpFixedHeaderSize));
      EVP_EncryptUpdate(ctx, cipher, &len, rtp + media_wire::kRtpFixedHeaderSize, static_cast<int>(payload));
      EVP_EncryptFinal_ex(ctx, cipher + payload, &len);
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag);
    } else {
      unsigned long long tagLength = 0;
      crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
          cipher, tag, &tagLength, rtp + media_wire::kRtpFixedHeaderSize, payload, rtp,
          media_wire::kRtpFixedHeaderSize, nullptr, nonce, key.data());
    }
    std::memcpy(tag + 16, nonce, 4);
    ++counter;
    return size + media_wire::kTransportOverhead;
  }
  media_wire::TransportMode mode;
  media_wire::TransportKey key;
  EVP_CIPHER_CTX* ctx;
  uint32_t counter = 0;
};

struct BareOpener {
  BareOpener(media_wire::TransportMode m, const media_wire::TransportKey& k) : mode(m), key(k) {
    ctx = EVP_CIPHER_CTX_new();
    EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nullptr, key.data(), nullptr);
  }
  ~BareOpener() { EVP_CIPHER_CTX_free(ctx); }
  bool Open(const uint8_t* packet, std::size_t size, uint8_t* payloadOut) {
    const std::size_t payload = size - media_wire::kRtpFixedHeaderSize - media_wire::kTransportOverhead;
    const uint8_t* cipher = packet + media_wire::kRtpFixedHeaderSize;
    const uint8_t* tag = cipher + payload;
    uint8_t nonce[24] = {};
    std::memcpy(nonce, tag + 16, 4);
    if (mode == media_wire::TransportMode::AeadAes256GcmRtpsize) {
      int len = 0;
      EVP_DecryptInit_ex(ctx, nullptr, nullptr, nullptr, nonce);
      EVP_DecryptUpdate(ctx, nullptr, &len, packet, static_cast<int>(media_wire::kRtpFixedHeaderSize));
      EVP_DecryptUpdate(ctx, payloadOut, &len, cipher, static_cast<int>(payload));
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, const_cast<uint8_t*>(tag));
      return EVP_DecryptFinal_ex(ctx, payloadOut + len, &len) == 1;
    }
    return crypto_aead_xchacha20poly1305_ietf_decrypt_detached(payloadOut, nullptr, cipher, payload, tag,
                                                               packet, media_wire::kRtpFixedHeaderSize, nonce,
                                                               key.data()) == 0;
  }
  media_wire::TransportMode mode;
  media_wire::TransportKey key;
  EVP_CIPHER_CTX* ctx;
};

// DAVE's media frame AEAD done directly with OpenSSL: AES-128-GCM under a 16-byte key, the 96-bit nonce with
// the 32-bit frame nonce in its last four bytes, the tag cut to 8 bytes, then the supplemental data (tag,
// ULEB128 nonce, its size, the 0xFAFA marker). Audio frames are encrypted whole (no unencrypted ranges).
struct BareFrameCipher {
  explicit BareFrameCipher(const std::array<uint8_t, 16>& frameKey) : key(frameKey) {
    encrypt = EVP_CIPHER_CTX_new();
    EVP_EncryptInit_ex(encrypt, EVP_aes_128_gcm(), nullptr, key.data(), nullptr);
    decrypt = EVP_CIPHER_CTX_new();
    EVP_DecryptInit_ex(decrypt, EVP_aes_128_gcm(), nullptr, key.data(), nullptr);
  }
  ~BareFrameCipher() {
    EVP_CIPHER_CTX_free(encrypt);
    EVP_CIPHER_CTX_free(decrypt);
  }
  BareFrameCipher(const BareFrameCipher&) = delete;
  BareFrameCipher& operator=(const BareFrameCipher&) = delete;

  std::size_t Encrypt(const uint8_t* frame, std::size_t size, uint8_t* out) {
    ++nonce;
    uint8_t iv[12] = {};
    std::memcpy(iv + 8, &nonce, 4);
    int len = 0;
    EVP_EncryptInit_ex(encrypt, nullptr, nullptr, nullptr, iv);
    EVP_EncryptUpdate(encrypt, out, &len, frame, static_cast<int>(size));
    EVP_EncryptFinal_ex(encrypt, out + size, &len);
    uint8_t tag[16];
    EVP_CIPHER_CTX_ctrl(encrypt, EVP_CTRL_GCM_GET_TAG, 16, tag);
    std::size_t at = size;
    std::memcpy(out + at, tag, 8);
    at += 8;
    const std::size_t start = at;
    for (uint32_t value = nonce;; value >>= 7) {  // ULEB128
      out[at++] = static_cast<uint8_t>((value & 0x7f) | (value > 0x7f ? 0x80 : 0));
      if (value <= 0x7f) break;
    }
    out[at] = static_cast<uint8_t>(8 + (at - start) + 1 + 2);  // supplemental size
    ++at;
    out[at++] = 0xfa;
    out[at++] = 0xfa;
    return at;
  }
  // The frame's payload back, or 0 when it does not open.
  std::size_t Decrypt(const uint8_t* frame, std::size_t size, uint8_t* out) {
    if (size < 12 || frame[size - 1] != 0xfa || frame[size - 2] != 0xfa) return 0;
    const std::size_t supplemental = frame[size - 3];
    if (supplemental > size) return 0;
    const std::size_t payload = size - supplemental;
    uint32_t value = 0;
    for (std::size_t i = payload + 8, shift = 0; i < size - 3; ++i, shift += 7)
      value |= static_cast<uint32_t>(frame[i] & 0x7f) << shift;
    uint8_t iv[12] = {};
    std::memcpy(iv + 8, &value, 4);
    uint8_t tag[16] = {};
    std::memcpy(tag, frame + payload, 8);
    int len = 0;
    EVP_DecryptInit_ex(decrypt, nullptr, nullptr, nullptr, iv);
    EVP_DecryptUpdate(decrypt, out, &len, frame, static_cast<int>(payload));
    // A truncated tag: OpenSSL checks the 8 bytes given.
    EVP_CIPHER_CTX_ctrl(decrypt, EVP_CTRL_GCM_SET_TAG, 8, tag);
    return EVP_DecryptFinal_ex(decrypt, out + len, &len) == 1 ? payload : 0;
  }

  std::array<uint8_t, 16> key;
  EVP_CIPHER_CTX* encrypt;
  EVP_CIPHER_CTX* decrypt;
  uint32_t nonce = 0;
};

}  // namespace platformpp::bench
