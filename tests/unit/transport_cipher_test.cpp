// Transport encryption of RTP (docs/voice-protocol.md, "Transport encryption"): both rtpsize AEAD modes,
// checked against the libraries used directly with the documented layout, plus tampering, replays and mode
// negotiation.
#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <cstring>
#include <vector>

#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"

namespace transport_cipher_test {

namespace media_wire = platformpp::media_wire;

namespace {

media_wire::TransportKey TestKey(uint8_t seed) {
  media_wire::TransportKey key{};
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = static_cast<uint8_t>(seed + i * 7);
  return key;
}

std::vector<uint8_t> OpusRtp(uint16_t seq, std::size_t payloadSize) {
  std::vector<uint8_t> packet(media_wire::kRtpFixedHeaderSize + payloadSize);
  media_wire::WriteRtpHeader(seq, 960u * seq, 0x11223344,
                             std::span<uint8_t, media_wire::kRtpFixedHeaderSize>(packet.data(), 12));
  for (std::size_t i = 0; i < payloadSize; ++i)
    packet[media_wire::kRtpFixedHeaderSize + i] = static_cast<uint8_t>(i * 13 + seq);
  return packet;
}

std::vector<uint8_t> Seal(media_wire::TransportSealer& sealer, const std::vector<uint8_t>& rtp) {
  std::vector<uint8_t> out(rtp.size() + media_wire::kTransportOverhead);
  REQUIRE(sealer.Seal(rtp, out) == out.size());
  return out;
}

media_wire::OpenResult Open(media_wire::TransportOpener& opener, const std::vector<uint8_t>& packet,
                            std::vector<uint8_t>* plain = nullptr) {
  std::vector<uint8_t> out(packet.size());
  std::size_t written = 0;
  const auto result = opener.Open(packet, out, written);
  out.resize(written);
  if (plain) *plain = out;
  return result;
}

const media_wire::TransportMode kModes[] = {media_wire::TransportMode::AeadAes256GcmRtpsize,
                                            media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize};

}  // namespace

TEST_CASE("transport modes: only the two rtpsize AEAD modes exist, GCM preferred when offered") {
  CHECK(media_wire::ParseTransportMode("aead_aes256_gcm_rtpsize") ==
        media_wire::TransportMode::AeadAes256GcmRtpsize);
  CHECK(media_wire::ParseTransportMode("aead_xchacha20_poly1305_rtpsize") ==
        media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  for (const char* deprecated : {"xsalsa20_poly1305", "xsalsa20_poly1305_suffix", "xsalsa20_poly1305_lite",
                                 "xsalsa20_poly1305_lite_rtpsize", "aead_aes256_gcm", ""})
    CHECK_FALSE(media_wire::ParseTransportMode(deprecated).has_value());
  CHECK(media_wire::TransportModeName(media_wire::TransportMode::AeadAes256GcmRtpsize) ==
        "aead_aes256_gcm_rtpsize");
  CHECK(media_wire::TransportModeName(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize) ==
        "aead_xchacha20_poly1305_rtpsize");

  CHECK(media_wire::ChooseTransportMode({"aead_xchacha20_poly1305_rtpsize", "aead_aes256_gcm_rtpsize"}) ==
        media_wire::TransportMode::AeadAes256GcmRtpsize);
  CHECK(media_wire::ChooseTransportMode(
            {"xsalsa20_poly1305", "aead_aes256_gcm", "aead_xchacha20_poly1305_rtpsize"}) ==
        media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize);
  CHECK_FALSE(
      media_wire::ChooseTransportMode({"xsalsa20_poly1305", "aead_aes256_gcm", "xsalsa20_poly1305_lite"})
          .has_value());
  CHECK_FALSE(media_wire::ChooseTransportMode({}).has_value());
}

TEST_CASE("transport seal: clear header, ciphertext, tag, big-endian nonce; the libraries open it directly") {
  const auto key = TestKey(3);
  const auto rtp = OpusRtp(7, 60);
  for (const auto mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    media_wire::TransportSealer sealer(mode, key);
    sealer.SetNextNonce(0x01020304);
    const auto sealed = Seal(sealer, rtp);
    CHECK(sealer.NextNonce() == 0x01020305);
    CHECK(std::memcmp(sealed.data(), rtp.data(), media_wire::kRtpFixedHeaderSize) == 0);
    CHECK(std::memcmp(sealed.data() + 12, rtp.data() + 12, 60) != 0);  // payload encrypted
    const uint8_t* suffix = sealed.data() + sealed.size() - 4;
    CHECK(suffix[0] == 1);
    CHECK(suffix[1] == 2);
    CHECK(suffix[2] == 3);
    CHECK(suffix[3] == 4);

    // Decrypt with the library itself, from the layout in docs/voice-protocol.md, "Transport encryption".
    std::vector<uint8_t> plain(60);
    const uint8_t* cipher = sealed.data() + 12;
    const uint8_t* tag = cipher + 60;
    if (mode == media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize) {
      REQUIRE(sodium_init() >= 0);
      uint8_t nonce[24] = {1, 2, 3, 4};
      CHECK(crypto_aead_xchacha20poly1305_ietf_decrypt_detached(plain.data(), nullptr, cipher, 60, tag,
                                                                sealed.data(), 12, nonce, key.data()) == 0);
    } else {
      uint8_t iv[12] = {1, 2, 3, 4};
      EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
      int len = 0;
      CHECK(EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nullptr, key.data(), iv) == 1);
      CHECK(EVP_DecryptUpdate(ctx, nullptr, &len, sealed.data(), 12) == 1);
      CHECK(EVP_DecryptUpdate(ctx, plain.data(), &len, cipher, 60) == 1);
      CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, const_cast<uint8_t*>(tag)) == 1);
      CHECK(EVP_DecryptFinal_ex(ctx, plain.data() + len, &len) == 1);
      EVP_CIPHER_CTX_free(ctx);
    }
    CHECK(std::memcmp(plain.data(), rtp.data() + 12, 60) == 0);

    media_wire::TransportOpener opener(mode, key);
    std::vector<uint8_t> opened;
    CHECK(Open(opener, sealed, &opened) == media_wire::OpenResult::Ok);
    CHECK(opened == rtp);
    CHECK(opener.GetCounters().opened == 1);
  }
}

TEST_CASE(
    "transport seal: CSRCs and the extension preamble are authenticated in clear, the extension body is "
    "encrypted") {
  // Two CSRCs, X bit, preamble 0xBEDE with one 32-bit word of body, then a 20-byte payload.
  std::vector<uint8_t> rtp = {0x92, 0x78, 0,    1,    0, 0, 3, 0xC0,
                              0xAA, 0xBB, 0xCC, 0xDD,              // header, CC=2, X
                              1,    2,    3,    4,    5, 6, 7, 8,  // CSRCs
                              0xBE, 0xDE, 0,    1,                 // preamble
                              0x10, 0x20, 0x30, 0x40};             // extension body
  for (int i = 0; i < 20; ++i)
    rtp.push_back(static_cast<uint8_t>(0xF0 + i));
  const auto header = media_wire::ParseRtpHeader(rtp);
  REQUIRE(header);
  CHECK(header->clearSize == 24);
  CHECK(header->extensionBodySize == 4);
  for (const auto mode : kModes) {
    media_wire::TransportSealer sealer(mode, TestKey(9));
    media_wire::TransportOpener opener(mode, TestKey(9));
    auto sealed = Seal(sealer, rtp);
    CHECK(std::memcmp(sealed.data(), rtp.data(), 24) == 0);
    CHECK(std::memcmp(sealed.data() + 24, rtp.data() + 24, 4) != 0);  // the body is not sent in clear
    std::vector<uint8_t> opened;
    CHECK(Open(opener, sealed, &opened) == media_wire::OpenResult::Ok);
    CHECK(opened == rtp);
    // The preamble is additional data: changing it breaks authentication.
    auto changed = Seal(sealer, rtp);
    changed[22] ^= 0x01;
    CHECK(Open(opener, changed) != media_wire::OpenResult::Ok);
  }
}

TEST_CASE("transport open: any changed byte, a wrong key or a wrong mode is refused and counted") {
  const auto rtp = OpusRtp(1, 40);
  for (const auto mode : kModes) {
    CAPTURE(media_wire::TransportModeName(mode));
    media_wire::TransportSealer sealer(mode, TestKey(1));
    const auto sealed = Seal(sealer, rtp);
    for (std::size_t i = 0; i < sealed.size(); ++i) {
      media_wire::TransportOpener opener(mode, TestKey(1));
      auto tampered = sealed;
      tampered[i] ^= 0x04;
      CAPTURE(i);
      // A changed first byte may make it RTCP or another RTP version: Malformed rather than unauthentic.
      const auto result = Open(opener, tampered);
      CHECK(result != media_wire::OpenResult::Ok);
      CHECK(opener.GetCounters().opened == 0);
      // Refused packets never move the replay window: the genuine packet still opens afterwards.
      CHECK(Open(opener, sealed) == media_wire::OpenResult::Ok);
    }
    media_wire::TransportOpener wrongKey(mode, TestKey(2));
    CHECK(Open(wrongKey, sealed) == media_wire::OpenResult::AuthenticationFailed);
    CHECK(wrongKey.GetCounters().authenticationFailed == 1);
  }
  media_wire::TransportSealer gcm(media_wire::TransportMode::AeadAes256GcmRtpsize, TestKey(1));
  media_wire::TransportOpener xchacha(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, TestKey(1));
  CHECK(Open(xchacha, Seal(gcm, rtp)) == media_wire::OpenResult::AuthenticationFailed);
}

TEST_CASE("transport open: replays are refused, reordering within the window passes") {
  for (const auto mode : kModes) {
    media_wire::TransportSealer sealer(mode, TestKey(5));
    media_wire::TransportOpener opener(mode, TestKey(5));
    std::vector<std::vector<uint8_t>> packets;
    for (uint16_t i = 0; i < 3000; ++i)
      packets.push_back(Seal(sealer, OpusRtp(i, 10)));

    CHECK(Open(opener, packets[0]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[0]) == media_wire::OpenResult::Replayed);
    CHECK(Open(opener, packets[2]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[1]) == media_wire::OpenResult::Ok);  // late but within the window
    CHECK(Open(opener, packets[1]) == media_wire::OpenResult::Replayed);
    CHECK(Open(opener, packets[2]) == media_wire::OpenResult::Replayed);

    // Jump ahead by more than 64 (several bitmap words) and check the old bits moved with the window.
    CHECK(Open(opener, packets[200]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[1]) == media_wire::OpenResult::Replayed);
    CHECK(Open(opener, packets[150]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[150]) == media_wire::OpenResult::Replayed);
    CHECK(Open(opener, packets[3]) == media_wire::OpenResult::Ok);  // 197 behind: still inside a 1024 window

    // The window edge, crossed by one: 1023 behind passes, 1024 behind is refused.
    CHECK(Open(opener, packets[1300]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[1300 - 1023]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[1300 - 1024]) == media_wire::OpenResult::Replayed);
    // A jump beyond the whole window clears it.
    CHECK(Open(opener, packets[2999]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[2999 - 1023]) == media_wire::OpenResult::Ok);
    CHECK(Open(opener, packets[2999]) == media_wire::OpenResult::Replayed);
    CHECK(opener.GetCounters().replayed == 7);
  }
}

TEST_CASE("transport: malformed input and short buffers are refused without reading or writing past them") {
  media_wire::TransportSealer sealer(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, TestKey(4));
  media_wire::TransportOpener opener(media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, TestKey(4));
  const auto rtp = OpusRtp(3, 30);
  std::vector<uint8_t> small(rtp.size() + media_wire::kTransportOverhead - 1);
  CHECK(sealer.Seal(rtp, small) == 0);
  CHECK(sealer.NextNonce() == 0);  // nothing spent
  std::vector<uint8_t> runt(11, 0x80);
  std::vector<uint8_t> out(64);
  CHECK(sealer.Seal(runt, out) == 0);
  std::vector<uint8_t> rtcp = {0x80, 0xC8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};  // payload type 72 with the marker
  CHECK(sealer.Seal(rtcp, out) == 0);

  std::size_t written = 1;
  CHECK(opener.Open(runt, out, written) == media_wire::OpenResult::Malformed);
  CHECK(written == 0);
  CHECK(opener.Open(std::vector<uint8_t>(12 + media_wire::kTransportOverhead - 1, 0x80), out, written) ==
        media_wire::OpenResult::Malformed);
  auto packet = Seal(sealer, rtp);
  std::vector<uint8_t> tooSmall(packet.size() - media_wire::kTransportOverhead - 1);
  CHECK(opener.Open(packet, tooSmall, written) == media_wire::OpenResult::Malformed);
  CHECK(Open(opener, packet) == media_wire::OpenResult::Ok);  // the refusal above spent nothing
  // An empty payload is valid RTP and seals to header + tag + nonce.
  const auto empty = OpusRtp(4, 0);
  auto sealedEmpty = Seal(sealer, empty);
  CHECK(sealedEmpty.size() == 12 + media_wire::kTransportOverhead);
  CHECK(Open(opener, sealedEmpty) == media_wire::OpenResult::Ok);
  CHECK(opener.GetCounters().malformed == 3);
}

}  // namespace transport_cipher_test
