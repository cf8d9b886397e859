#pragma once
// The MLS benchmark's bare baseline: HPKE (RFC 9180, base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
// AES-128-GCM: MLS cipher suite 2), DeriveKeyPair and labelled ECDSA, each written straight on OpenSSL 3's
// primitives (EVP key generation and ECDH, its one-shot HKDF, EVP AES-GCM and DigestSign, EC_POINT_mul).
// OpenSSL 3.0 has no HPKE of its own: this is the least code that does the same cryptographic work, which the
// benchmark checks by opening the library's ciphertexts with it and the reverse.

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::bench::bare_hpke {

using Bytes = std::vector<uint8_t>;

inline void Check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("bare HPKE: ") + what);
}

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

inline Bytes Concat(std::initializer_list<std::string_view> parts) {
  Bytes out;
  for (const auto part : parts)
    out.insert(out.end(), part.begin(), part.end());
  return out;
}
inline std::string_view View(const Bytes& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// HKDF-Extract / HKDF-Expand through OpenSSL's one-shot EVP_PKEY HKDF.
inline Bytes Hkdf(int mode, const Bytes& keyOrIkm, const Bytes& saltOrInfo, std::size_t length) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr);
  Check(ctx != nullptr && EVP_PKEY_derive_init(ctx) == 1, "HKDF");
  EVP_PKEY_CTX_set_hkdf_mode(ctx, mode);
  EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256());
  // An empty key or salt is one zero-length buffer (a null pointer is refused).
  static const uint8_t kNothing = 0;
  EVP_PKEY_CTX_set1_hkdf_key(ctx, keyOrIkm.empty() ? &kNothing : keyOrIkm.data(),
                             static_cast<int>(keyOrIkm.size()));
  if (mode == EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY) {
    EVP_PKEY_CTX_set1_hkdf_salt(ctx, saltOrInfo.empty() ? &kNothing : saltOrInfo.data(),
                                static_cast<int>(saltOrInfo.size()));
  } else if (!saltOrInfo.empty()) {
    EVP_PKEY_CTX_add1_hkdf_info(ctx, saltOrInfo.data(), static_cast<int>(saltOrInfo.size()));
  }
  Bytes out(mode == EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY ? 32 : length);
  std::size_t size = out.size();
  Check(EVP_PKEY_derive(ctx, out.data(), &size) == 1, "HKDF derive");
  EVP_PKEY_CTX_free(ctx);
  out.resize(size);
  return out;
}

// RFC 9180 section 4: LabeledExtract and LabeledExpand with a suite id.
inline Bytes LabeledExtract(std::string_view suite, const Bytes& salt, std::string_view label,
                            const Bytes& ikm) {
  Bytes labeled = Concat({"HPKE-v1", suite, label});
  labeled.insert(labeled.end(), ikm.begin(), ikm.end());
  return Hkdf(EVP_PKEY_HKDEF_MODE_EXTRACT_ONLY, labeled, salt, 32);
}
inline Bytes LabeledExpand(std::string_view suite, const Bytes& prk, std::string_view label,
                           const Bytes& info, std::size_t length) {
  Bytes labeled{static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length)};
  const Bytes rest = Concat({"HPKE-v1", suite, label});
  labeled.insert(labeled.end(), rest.begin(), rest.end());
  labeled.insert(labeled.end(), info.begin(), info.end());
  return Hkdf(EVP_PKEY_HKDEF_MODE_EXPAND_ONLY, prk, labeled, length);
}

inline constexpr std::string_view kKemSuite{"KEM\x00\x10", 5};
inline constexpr std::string_view kHpkeSuite{"HPKE\x00\x10\x00\x01\x00\x01", 10};

inline Bytes PublicKey(EVP_PKEY* key) {
  Bytes out(65);
  std::size_t size = 0;
  Check(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out.data(), out.size(), &size) == 1,
        "public key");
  out.resize(size);
  return out;
}

// A P-256 key from its public point and, for a key pair, its private scalar (EVP_PKEY_fromdata).
inline Pkey Import(const Bytes& point, const BIGNUM* scalar) {
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
  if (scalar != nullptr) OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, scalar);
  OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size());
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
  EVP_PKEY* key = nullptr;
  Check(EVP_PKEY_fromdata_init(ctx) == 1 &&
            EVP_PKEY_fromdata(ctx, &key, scalar != nullptr ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                              params) == 1,
        "key import");
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(bld);
  return Pkey(key);
}

inline Pkey FromPublic(const Bytes& point) {
  return Import(point, nullptr);
}

// A key pair from a 32-byte scalar: the public point by EC_POINT_mul, both imported as one key.
inline Pkey FromScalar(const Bytes& scalar) {
  EC_GROUP* group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  BIGNUM* value = BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr);
  EC_POINT* point = EC_POINT_new(group);
  Check(EC_POINT_mul(group, point, value, nullptr, nullptr, nullptr) == 1, "EC_POINT_mul");
  Bytes encoded(65);
  encoded.resize(EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, encoded.data(),
                                    encoded.size(), nullptr));
  Pkey key = Import(encoded, value);
  EC_POINT_free(point);
  BN_free(value);
  EC_GROUP_free(group);
  return key;
}

inline Pkey Generate() {
  return Pkey(EVP_EC_gen("P-256"));
}

// RFC 9180 section 7.1.3 for P-256 (the bitmask is 0xff: no masking).
inline Pkey DeriveKeyPair(const Bytes& ikm) {
  const Bytes prk = LabeledExtract(kKemSuite, {}, "dkp_prk", ikm);
  static const Bytes kOrder = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
                               0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17,
                               0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
  for (int counter = 0; counter < 256; ++counter) {
    const Bytes candidate = LabeledExpand(kKemSuite, prk, "candidate", {static_cast<uint8_t>(counter)}, 32);
    bool zero = true;
    for (uint8_t byte : candidate)
      zero = zero && byte == 0;
    if (!zero && candidate < kOrder) return FromScalar(candidate);
  }
  throw std::runtime_error("bare HPKE: DeriveKeyPair found no scalar");
}

inline Bytes Ecdh(EVP_PKEY* own, EVP_PKEY* peer) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new(own, nullptr);
  Bytes secret(32);
  std::size_t size = secret.size();
  Check(EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
            EVP_PKEY_derive(ctx, secret.data(), &size) == 1,
        "ECDH");
  EVP_PKEY_CTX_free(ctx);
  return secret;
}

// The key schedule of base mode: the AEAD key and base nonce from the KEM's shared secret and the info.
inline void KeySchedule(const Bytes& sharedSecret, const Bytes& info, Bytes& key, Bytes& nonce) {
  const Bytes pskIdHash = LabeledExtract(kHpkeSuite, {}, "psk_id_hash", {});
  const Bytes infoHash = LabeledExtract(kHpkeSuite, {}, "info_hash", info);
  Bytes context{0x00};  // mode_base
  context.insert(context.end(), pskIdHash.begin(), pskIdHash.end());
  context.insert(context.end(), infoHash.begin(), infoHash.end());
  const Bytes secret = LabeledExtract(kHpkeSuite, sharedSecret, "secret", {});
  key = LabeledExpand(kHpkeSuite, secret, "key", context, 16);
  nonce = LabeledExpand(kHpkeSuite, secret, "base_nonce", context, 12);
}

inline Bytes SharedSecret(const Bytes& dh, const Bytes& enc, const Bytes& recipientPublic) {
  Bytes kemContext = enc;
  kemContext.insert(kemContext.end(), recipientPublic.begin(), recipientPublic.end());
  const Bytes eaePrk = LabeledExtract(kKemSuite, {}, "eae_prk", dh);
  return LabeledExpand(kKemSuite, eaePrk, "shared_secret", kemContext, 32);
}

inline Bytes Aead(bool seal, const Bytes& key, const Bytes& nonce, const Bytes& aad, const Bytes& input) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  Bytes out(input.size() + 16);
  int length = 0, total = 0;
  bool ok = (seal ? EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, key.data(), nonce.data())
                  : EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, key.data(), nonce.data())) == 1;
  if (seal) {
    ok = ok && EVP_EncryptUpdate(ctx, nullptr, &length, aad.data(), static_cast<int>(aad.size())) == 1;
    ok = ok && EVP_EncryptUpdate(ctx, out.data(), &length, input.data(), static_cast<int>(input.size())) == 1;
    total = length;
    ok = ok && EVP_EncryptFinal_ex(ctx, out.data() + total, &length) == 1;
    total += length;
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out.data() + total) == 1;
    total += 16;
  } else {
    ok = ok && input.size() >= 16;
    const int body = static_cast<int>(input.size()) - 16;
    ok = ok && EVP_DecryptUpdate(ctx, nullptr, &length, aad.data(), static_cast<int>(aad.size())) == 1;
    ok = ok && EVP_DecryptUpdate(ctx, out.data(), &length, input.data(), body) == 1;
    total = length;
    Bytes tag(input.end() - 16, input.end());
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, tag.data()) == 1;
    ok = ok && EVP_DecryptFinal_ex(ctx, out.data() + total, &length) == 1;
    total += length;
  }
  EVP_CIPHER_CTX_free(ctx);
  Check(ok, seal ? "AES-GCM seal" : "AES-GCM open");
  out.resize(static_cast<std::size_t>(total));
  return out;
}

struct Sealed {
  Bytes enc;
  Bytes ciphertext;
};

// SealBase: an ephemeral key, ECDH, the KEM's shared secret, the key schedule, AES-128-GCM.
inline Sealed Seal(const Bytes& recipientPublic, const Bytes& info, const Bytes& aad,
                   const Bytes& plaintext) {
  const Pkey recipient = FromPublic(recipientPublic);
  const Pkey ephemeral = Generate();
  Sealed out;
  out.enc = PublicKey(ephemeral.get());
  const Bytes shared = SharedSecret(Ecdh(ephemeral.get(), recipient.get()), out.enc, recipientPublic);
  Bytes key, nonce;
  KeySchedule(shared, info, key, nonce);
  out.ciphertext = Aead(true, key, nonce, aad, plaintext);
  return out;
}

inline Bytes Open(EVP_PKEY* recipient, const Sealed& sealed, const Bytes& info, const Bytes& aad) {
  const Pkey ephemeral = FromPublic(sealed.enc);
  const Bytes shared = SharedSecret(Ecdh(recipient, ephemeral.get()), sealed.enc, PublicKey(recipient));
  Bytes key, nonce;
  KeySchedule(shared, info, key, nonce);
  return Aead(false, key, nonce, aad, sealed.ciphertext);
}

// MLS's labelled signatures (RFC 9420 section 5.1.2): ECDSA P-256 with SHA-256 over SignContent.
inline Bytes SignContent(std::string_view label, const Bytes& content) {
  const std::string full = "MLS 1.0 " + std::string(label);
  Bytes out{static_cast<uint8_t>(full.size())};  // a varint below 64
  out.insert(out.end(), full.begin(), full.end());
  const std::size_t size = content.size();
  out.push_back(static_cast<uint8_t>(0x40 | (size >> 8)));  // a two-byte varint (content under 16 KiB)
  out.push_back(static_cast<uint8_t>(size));
  out.insert(out.end(), content.begin(), content.end());
  return out;
}

inline Bytes Sign(EVP_PKEY* key, std::string_view label, const Bytes& content) {
  const Bytes message = SignContent(label, content);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  Bytes signature(80);
  std::size_t size = signature.size();
  Check(EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
            EVP_DigestSign(ctx, signature.data(), &size, message.data(), message.size()) == 1,
        "ECDSA sign");
  EVP_MD_CTX_free(ctx);
  signature.resize(size);
  return signature;
}

inline bool Verify(EVP_PKEY* key, std::string_view label, const Bytes& content, const Bytes& signature) {
  const Bytes message = SignContent(label, content);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const bool ok =
      EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
      EVP_DigestVerify(ctx, signature.data(), signature.size(), message.data(), message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

}  // namespace platformpp::bench::bare_hpke
