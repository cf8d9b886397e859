#include "mls/openssl_util.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <string>

namespace platformpp::mls::detail {

namespace {

struct BnFree {
  void operator()(BIGNUM* bn) const noexcept { BN_clear_free(bn); }
};
using Bn = std::unique_ptr<BIGNUM, BnFree>;

struct GroupFree {
  void operator()(EC_GROUP* group) const noexcept { EC_GROUP_free(group); }
};
struct PointFree {
  void operator()(EC_POINT* point) const noexcept { EC_POINT_free(point); }
};
struct ParamBldFree {
  void operator()(OSSL_PARAM_BLD* bld) const noexcept { OSSL_PARAM_BLD_free(bld); }
};
struct ParamFree {
  void operator()(OSSL_PARAM* params) const noexcept { OSSL_PARAM_free(params); }
};
struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* ctx) const noexcept { EVP_PKEY_CTX_free(ctx); }
};
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree>;

constexpr const char* kGroupName = "prime256v1";

const EC_GROUP* Group() {
  static const EC_GROUP* group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  if (!group) ThrowOpenSsl("P-256 group");
  return group;
}

Pkey FromData(OSSL_PARAM_BLD* bld, int selection, std::string_view what) {
  std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld));
  if (!params) ThrowOpenSsl(what);
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  if (!ctx) ThrowOpenSsl(what);
  Check(EVP_PKEY_fromdata_init(ctx.get()), what);
  EVP_PKEY* key = nullptr;
  Check(EVP_PKEY_fromdata(ctx.get(), &key, selection, params.get()), what);
  return Pkey(key);
}

}  // namespace

void ThrowOpenSsl(std::string_view what) {
  std::string message = "MLS: " + std::string(what) + " failed";
  char buffer[256];
  bool first = true;
  while (unsigned long code = ERR_get_error()) {
    ERR_error_string_n(code, buffer, sizeof buffer);
    message += first ? ": " : "; ";
    message += buffer;
    first = false;
  }
  throw Error(message);
}

void ClearOpenSslErrors() noexcept {
  ERR_clear_error();
}

Pkey P256Generate() {
  Pkey key(EVP_EC_gen("P-256"));
  if (!key) ThrowOpenSsl("P-256 key generation");
  return key;
}

bool P256ScalarValid(ByteView scalar) {
  if (scalar.size() != kP256ScalarSize) return false;
  Bn value(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
  if (!value) ThrowOpenSsl("P-256 scalar");
  return !BN_is_zero(value.get()) && BN_cmp(value.get(), EC_GROUP_get0_order(Group())) < 0;
}

Pkey P256FromScalar(ByteView scalar) {
  if (!P256ScalarValid(scalar)) throw Error("MLS: a P-256 private key is not a valid scalar");
  Bn value(BN_secure_new());
  if (!value || !BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), value.get()))
    ThrowOpenSsl("P-256 scalar");
  BN_set_flags(value.get(), BN_FLG_CONSTTIME);
  std::unique_ptr<EC_POINT, PointFree> point(EC_POINT_new(Group()));
  if (!point) ThrowOpenSsl("P-256 point");
  Check(EC_POINT_mul(Group(), point.get(), value.get(), nullptr, nullptr, nullptr), "P-256 public key");
  uint8_t encoded[kP256PublicKeySize];
  if (EC_POINT_point2oct(Group(), point.get(), POINT_CONVERSION_UNCOMPRESSED, encoded, sizeof encoded,
                         nullptr) != sizeof encoded)
    ThrowOpenSsl("P-256 public key encoding");
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld) ThrowOpenSsl("P-256 private key");
  Check(OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, kGroupName, 0),
        "P-256 private key");
  Check(OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_PRIV_KEY, value.get()), "P-256 private key");
  Check(OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, encoded, sizeof encoded),
        "P-256 private key");
  return FromData(bld.get(), EVP_PKEY_KEYPAIR, "P-256 private key");
}

Pkey P256FromPublic(ByteView encoded) {
  if (encoded.size() != kP256PublicKeySize || encoded[0] != 0x04)
    throw Error("MLS: a P-256 public key is not a 65-byte uncompressed point");
  std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
  if (!bld) ThrowOpenSsl("P-256 public key");
  Check(OSSL_PARAM_BLD_push_utf8_string(bld.get(), OSSL_PKEY_PARAM_GROUP_NAME, kGroupName, 0),
        "P-256 public key");
  Check(OSSL_PARAM_BLD_push_octet_string(bld.get(), OSSL_PKEY_PARAM_PUB_KEY, encoded.data(), encoded.size()),
        "P-256 public key");
  Pkey key;
  try {
    key = FromData(bld.get(), EVP_PKEY_PUBLIC_KEY, "P-256 public key");
  } catch (const Error&) {
    throw Error("MLS: a P-256 public key is not a point on the curve");
  }
  PkeyCtx check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check) ThrowOpenSsl("P-256 public key check");
  if (EVP_PKEY_public_check(check.get()) != 1) {
    ClearOpenSslErrors();
    throw Error("MLS: a P-256 public key is not a valid point");
  }
  return key;
}

Bytes P256PublicBytes(const EVP_PKEY* key) {
  Bytes out(kP256PublicKeySize);
  std::size_t size = 0;
  Check(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out.data(), out.size(), &size),
        "P-256 public key export");
  if (size != kP256PublicKeySize) throw Error("MLS: a P-256 public key exported in an unexpected form");
  return out;
}

Secret P256Scalar(const EVP_PKEY* key) {
  BIGNUM* raw = nullptr;
  Check(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &raw), "P-256 private key export");
  Bn value(raw);
  Secret out(kP256ScalarSize);
  if (BN_bn2binpad(value.get(), out.Data(), static_cast<int>(out.Size())) != static_cast<int>(out.Size()))
    ThrowOpenSsl("P-256 private key export");
  return out;
}

Secret P256Dh(EVP_PKEY* priv, EVP_PKEY* peer) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, priv, nullptr));
  if (!ctx) ThrowOpenSsl("ECDH");
  Check(EVP_PKEY_derive_init(ctx.get()), "ECDH");
  Check(EVP_PKEY_derive_set_peer(ctx.get(), peer), "ECDH");
  std::size_t size = kP256ScalarSize;
  Secret out(size);
  Check(EVP_PKEY_derive(ctx.get(), out.Data(), &size), "ECDH");
  if (size != kP256ScalarSize) throw Error("MLS: ECDH gave an unexpected size");
  return out;
}

}  // namespace platformpp::mls::detail
