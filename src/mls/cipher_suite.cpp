#include "mls/cipher_suite.hpp"

#include "mls/tls_codec.hpp"

#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <string>

namespace platformpp::mls {

namespace {

using detail::Check;
using detail::ThrowOpenSsl;

constexpr std::string_view kLabelPrefix = "MLS 1.0 ";

struct KdfCtxFree {
  void operator()(EVP_KDF_CTX* ctx) const noexcept { EVP_KDF_CTX_free(ctx); }
};
struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* ctx) const noexcept { EVP_CIPHER_CTX_free(ctx); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); }
};

// Fetched once: fetching by name on every derivation costs more than the derivation.
EVP_KDF* HkdfAlgorithm() {
  static EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  if (!kdf) ThrowOpenSsl("HKDF fetch");
  return kdf;
}

const uint8_t kZeroHash[kHashSize] = {};

// opaque label<V> = "MLS 1.0 " + label
void WriteLabel(Writer& out, std::string_view label) {
  std::string full;
  full.reserve(kLabelPrefix.size() + label.size());
  full.append(kLabelPrefix).append(label);
  out.Vector(full);
}

void CheckSize(ByteView bytes, std::size_t size, std::string_view what) {
  if (bytes.size() != size)
    throw Error("MLS: " + std::string(what) + " must be " + std::to_string(size) + " bytes");
}

}  // namespace

Bytes Hash(ByteView data) {
  Bytes out(kHashSize);
  unsigned int size = 0;
  Check(EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(), nullptr), "SHA-256");
  return out;
}

Bytes Hmac(ByteView key, ByteView data) {
  Bytes out(kHashSize);
  unsigned int size = 0;
  // A zero-length key still needs a pointer: a null one would mean "the previous key".
  const uint8_t* keyData = key.empty() ? kZeroHash : key.data();
  if (!HMAC(EVP_sha256(), keyData, static_cast<int>(key.size()), data.data(), data.size(), out.data(), &size))
    ThrowOpenSsl("HMAC-SHA256");
  return out;
}

Secret Extract(ByteView salt, ByteView ikm) {
  // HKDF-Extract is HMAC(salt, ikm) (RFC 5869 section 2.2); done as one HMAC because an empty IKM (which
  // MLS uses) is refused by OpenSSL's HKDF.
  ByteView key = salt.empty() ? ByteView(kZeroHash, kHashSize) : salt;
  Secret out(kHashSize);
  unsigned int size = 0;
  const uint8_t* data = ikm.empty() ? kZeroHash : ikm.data();
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), data, ikm.size(), out.Data(), &size))
    ThrowOpenSsl("HKDF-Extract");
  return out;
}

Secret Expand(ByteView prk, ByteView info, std::size_t length) {
  if (length == 0 || length > 255 * kHashSize) throw Error("MLS: HKDF-Expand length out of range");
  std::unique_ptr<EVP_KDF_CTX, KdfCtxFree> ctx(EVP_KDF_CTX_new(HkdfAlgorithm()));
  if (!ctx) ThrowOpenSsl("HKDF-Expand");
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  char digest[] = "SHA256";
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<uint8_t*>(prk.data()), prk.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<uint8_t*>(info.data()), info.size()),
      OSSL_PARAM_construct_end(),
  };
  Secret out(length);
  Check(EVP_KDF_derive(ctx.get(), out.Data(), out.Size(), params), "HKDF-Expand");
  return out;
}

Secret ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, std::size_t length) {
  Writer info;
  info.U16(static_cast<uint16_t>(length));
  WriteLabel(info, label);
  info.Vector(context);
  return Expand(secret, info.Data(), length);
}

Secret DeriveSecret(ByteView secret, std::string_view label) {
  return ExpandWithLabel(secret, label, {}, kHashSize);
}

Secret DeriveTreeSecret(ByteView secret, std::string_view label, uint32_t generation, std::size_t length) {
  Writer context;
  context.U32(generation);
  return ExpandWithLabel(secret, label, context.Data(), length);
}

Bytes RefHash(std::string_view label, ByteView value) {
  Writer input;
  input.Vector(label);
  input.Vector(value);
  return Hash(input.Data());
}

Bytes AeadSeal(ByteView key, ByteView nonce, ByteView aad, ByteView plaintext) {
  CheckSize(key, kAeadKeySize, "an AES-128-GCM key");
  CheckSize(nonce, kAeadNonceSize, "an AES-128-GCM nonce");
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  if (!ctx) ThrowOpenSsl("AES-128-GCM");
  Check(EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, key.data(), nonce.data()), "AES-128-GCM");
  int size = 0;
  if (!aad.empty())
    Check(EVP_EncryptUpdate(ctx.get(), nullptr, &size, aad.data(), static_cast<int>(aad.size())),
          "AES-128-GCM");
  Bytes out(plaintext.size() + kAeadTagSize);
  int written = 0;
  if (!plaintext.empty()) {
    Check(EVP_EncryptUpdate(ctx.get(), out.data(), &written, plaintext.data(),
                            static_cast<int>(plaintext.size())),
          "AES-128-GCM");
  }
  int final = 0;
  Check(EVP_EncryptFinal_ex(ctx.get(), out.data() + written, &final), "AES-128-GCM");
  Check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kAeadTagSize),
                            out.data() + plaintext.size()),
        "AES-128-GCM tag");
  return out;
}

Bytes AeadOpen(ByteView key, ByteView nonce, ByteView aad, ByteView ciphertext) {
  CheckSize(key, kAeadKeySize, "an AES-128-GCM key");
  CheckSize(nonce, kAeadNonceSize, "an AES-128-GCM nonce");
  if (ciphertext.size() < kAeadTagSize) throw Error("MLS: a ciphertext is shorter than its tag");
  const std::size_t size = ciphertext.size() - kAeadTagSize;
  std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree> ctx(EVP_CIPHER_CTX_new());
  if (!ctx) ThrowOpenSsl("AES-128-GCM");
  Check(EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, key.data(), nonce.data()), "AES-128-GCM");
  int ignored = 0;
  if (!aad.empty())
    Check(EVP_DecryptUpdate(ctx.get(), nullptr, &ignored, aad.data(), static_cast<int>(aad.size())),
          "AES-128-GCM");
  Bytes out(size);
  int written = 0;
  if (size > 0) {
    Check(EVP_DecryptUpdate(ctx.get(), out.data(), &written, ciphertext.data(), static_cast<int>(size)),
          "AES-128-GCM");
  }
  Check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kAeadTagSize),
                            const_cast<uint8_t*>(ciphertext.data() + size)),
        "AES-128-GCM tag");
  int final = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), out.data() + written, &final) != 1) {
    detail::ClearOpenSslErrors();
    Wipe(out.data(), out.size());
    throw Error("MLS: a ciphertext failed authentication");
  }
  return out;
}

SignaturePrivateKey::SignaturePrivateKey(detail::Pkey key)
    : key_(key.release(), detail::PkeyFree{}), publicKey_(detail::P256PublicBytes(key_.get())) {}

SignaturePrivateKey SignaturePrivateKey::Generate() {
  return SignaturePrivateKey(detail::P256Generate());
}

SignaturePrivateKey SignaturePrivateKey::FromScalar(ByteView scalar) {
  return SignaturePrivateKey(detail::P256FromScalar(scalar));
}

Secret SignaturePrivateKey::Scalar() const {
  return detail::P256Scalar(key_.get());
}

Bytes SignaturePrivateKey::Sign(ByteView message) const {
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx) ThrowOpenSsl("ECDSA sign");
  Check(EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key_.get()), "ECDSA sign");
  std::size_t size = 0;
  Check(EVP_DigestSign(ctx.get(), nullptr, &size, message.data(), message.size()), "ECDSA sign");
  Bytes signature(size);
  Check(EVP_DigestSign(ctx.get(), signature.data(), &size, message.data(), message.size()), "ECDSA sign");
  signature.resize(size);
  return signature;
}

bool Verify(ByteView publicKey, ByteView message, ByteView signature) {
  detail::Pkey key;
  try {
    key = detail::P256FromPublic(publicKey);
  } catch (const Error&) {
    return false;
  }
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx) ThrowOpenSsl("ECDSA verify");
  Check(EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()), "ECDSA verify");
  const int result =
      EVP_DigestVerify(ctx.get(), signature.data(), signature.size(), message.data(), message.size());
  if (result != 1) detail::ClearOpenSslErrors();  // malformed DER or a wrong signature alike
  return result == 1;
}

namespace {

Bytes SignContent(std::string_view label, ByteView content) {
  Writer out;
  WriteLabel(out, label);
  out.Vector(content);
  return std::move(out).Take();
}

}  // namespace

Bytes SignWithLabel(const SignaturePrivateKey& key, std::string_view label, ByteView content) {
  return key.Sign(SignContent(label, content));
}

bool VerifyWithLabel(ByteView publicKey, std::string_view label, ByteView content, ByteView signature) {
  return Verify(publicKey, SignContent(label, content), signature);
}

}  // namespace platformpp::mls
