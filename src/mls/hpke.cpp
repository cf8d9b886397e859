#include "mls/hpke.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/tls_codec.hpp"

#include <algorithm>
#include <string>

namespace platformpp::mls {

namespace {

// RFC 9180 section 7: DHKEM(P-256, HKDF-SHA256) 0x0010, HKDF-SHA256 0x0001, AES-128-GCM 0x0001.
constexpr uint8_t kKemSuite[] = {'K', 'E', 'M', 0x00, 0x10};
constexpr uint8_t kHpkeSuite[] = {'H', 'P', 'K', 'E', 0x00, 0x10, 0x00, 0x01, 0x00, 0x01};
constexpr std::string_view kVersionLabel = "HPKE-v1";
constexpr std::size_t kSharedSecretSize = 32;  // Nsecret

void Append(Bytes& out, ByteView bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// The labelled input is secret when the IKM is: it is wiped with the Secret that holds it.
Secret LabeledExtract(ByteView suite, ByteView salt, std::string_view label, ByteView ikm) {
  Secret input(kVersionLabel.size() + suite.size() + label.size() + ikm.size());
  uint8_t* at = input.Data();
  for (ByteView part : {AsBytes(kVersionLabel), suite, AsBytes(label), ikm}) {
    std::copy(part.begin(), part.end(), at);
    at += part.size();
  }
  return Extract(salt, input);
}

Secret LabeledExpand(ByteView suite, ByteView prk, std::string_view label, ByteView info,
                     std::size_t length) {
  Bytes labeled;
  labeled.push_back(static_cast<uint8_t>(length >> 8));
  labeled.push_back(static_cast<uint8_t>(length));
  Append(labeled, AsBytes(kVersionLabel));
  Append(labeled, suite);
  Append(labeled, AsBytes(label));
  Append(labeled, info);
  return Expand(prk, labeled, length);
}

Secret ExtractAndExpand(ByteView dh, ByteView kemContext) {
  Secret prk = LabeledExtract(kKemSuite, {}, "eae_prk", dh);
  return LabeledExpand(kKemSuite, prk, "shared_secret", kemContext, kSharedSecretSize);
}

Bytes EncryptContext(std::string_view label, ByteView context) {
  Writer out;
  out.Vector("MLS 1.0 " + std::string(label));
  out.Vector(context);
  return std::move(out).Take();
}

}  // namespace

HpkePrivateKey::HpkePrivateKey(detail::Pkey key)
    : key_(key.release(), detail::PkeyFree{}), publicKey_(detail::P256PublicBytes(key_.get())) {}

HpkePrivateKey HpkePrivateKey::Generate() {
  return HpkePrivateKey(detail::P256Generate());
}

HpkePrivateKey HpkePrivateKey::FromScalar(ByteView scalar) {
  return HpkePrivateKey(detail::P256FromScalar(scalar));
}

HpkePrivateKey HpkePrivateKey::Derive(ByteView ikm) {
  Secret prk = LabeledExtract(kKemSuite, {}, "dkp_prk", ikm);
  for (unsigned counter = 0; counter < 256; ++counter) {
    const uint8_t counterByte = static_cast<uint8_t>(counter);
    Secret candidate = LabeledExpand(kKemSuite, prk, "candidate", ByteView(&counterByte, 1), kPrivateKeySize);
    // The bitmask for P-256 is 0xff: every candidate bit is kept.
    if (detail::P256ScalarValid(candidate)) return FromScalar(candidate);
  }
  throw Error("MLS: DeriveKeyPair found no valid P-256 scalar");  // probability ~2^-8000
}

Secret HpkePrivateKey::Scalar() const {
  return detail::P256Scalar(key_.get());
}

HpkeContext::HpkeContext(ByteView sharedSecret, ByteView info) {
  Secret pskIdHash = LabeledExtract(kHpkeSuite, {}, "psk_id_hash", {});
  Secret infoHash = LabeledExtract(kHpkeSuite, {}, "info_hash", info);
  Bytes context;
  context.push_back(0x00);  // mode_base
  Append(context, pskIdHash);
  Append(context, infoHash);
  Secret secret = LabeledExtract(kHpkeSuite, sharedSecret, "secret", {});
  key_ = LabeledExpand(kHpkeSuite, secret, "key", context, kAeadKeySize);
  baseNonce_ = LabeledExpand(kHpkeSuite, secret, "base_nonce", context, kAeadNonceSize);
  exporterSecret_ = LabeledExpand(kHpkeSuite, secret, "exp", context, kHashSize);
}

Bytes HpkeContext::Nonce() const {
  if (sequence_ == UINT64_MAX) throw Error("MLS: HPKE message limit reached");
  Bytes nonce(baseNonce_.View().begin(), baseNonce_.View().end());
  for (std::size_t i = 0; i < 8; ++i)
    nonce[kAeadNonceSize - 1 - i] ^= static_cast<uint8_t>(sequence_ >> (8 * i));
  return nonce;
}

Bytes HpkeContext::Seal(ByteView aad, ByteView plaintext) {
  Bytes ciphertext = AeadSeal(key_, Nonce(), aad, plaintext);
  ++sequence_;
  return ciphertext;
}

Bytes HpkeContext::Open(ByteView aad, ByteView ciphertext) {
  // The sequence advances only on success, so that a forged message does not desynchronise the context.
  Bytes plaintext = AeadOpen(key_, Nonce(), aad, ciphertext);
  ++sequence_;
  return plaintext;
}

Secret HpkeContext::Export(ByteView exporterContext, std::size_t length) const {
  return LabeledExpand(kHpkeSuite, exporterSecret_, "sec", exporterContext, length);
}

std::pair<Bytes, HpkeContext> HpkeSetup::Sender(ByteView receiverPublicKey, ByteView info) {
  detail::Pkey receiver = detail::P256FromPublic(receiverPublicKey);
  detail::Pkey ephemeral = detail::P256Generate();
  Secret dh = detail::P256Dh(ephemeral.get(), receiver.get());
  Bytes enc = detail::P256PublicBytes(ephemeral.get());
  Bytes kemContext = Concat(enc, receiverPublicKey);
  Secret shared = ExtractAndExpand(dh, kemContext);
  return {std::move(enc), HpkeContext(shared, info)};
}

HpkeContext HpkeSetup::Receiver(ByteView enc, const HpkePrivateKey& receiver, ByteView info) {
  detail::Pkey ephemeral = detail::P256FromPublic(enc);
  Secret dh = detail::P256Dh(receiver.Native(), ephemeral.get());
  Bytes kemContext = Concat(enc, receiver.PublicKey());
  Secret shared = ExtractAndExpand(dh, kemContext);
  return HpkeContext(shared, info);
}

HpkeCiphertext EncryptWithLabel(ByteView publicKey, std::string_view label, ByteView context,
                                ByteView plaintext) {
  auto [enc, hpke] = HpkeSetup::Sender(publicKey, EncryptContext(label, context));
  HpkeCiphertext out;
  out.kemOutput = std::move(enc);
  out.ciphertext = hpke.Seal({}, plaintext);
  return out;
}

Bytes DecryptWithLabel(const HpkePrivateKey& key, std::string_view label, ByteView context,
                       const HpkeCiphertext& ciphertext) {
  HpkeContext hpke = HpkeSetup::Receiver(ciphertext.kemOutput, key, EncryptContext(label, context));
  return hpke.Open({}, ciphertext.ciphertext);
}

}  // namespace platformpp::mls
