// HPKE base mode (DHKEM P-256, HKDF-SHA256, AES-128-GCM) beyond the single-shot vectors: a context used for
// several messages, the exporter, forged messages, DeriveKeyPair, and bad public keys.
#include "vectors.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/hpke.hpp"

#include <doctest/doctest.h>

namespace hpke_test {

using namespace platformpp::mls;

TEST_CASE("HPKE: one context seals several messages in order; both sides export the same secret") {
  auto receiver = HpkePrivateKey::Generate();
  const Bytes info = {'i', 'n', 'f', 'o'};
  auto [enc, sender] = HpkeSetup::Sender(receiver.PublicKey(), info);
  CHECK(enc.size() == kPublicKeySize);
  HpkeContext opener = HpkeSetup::Receiver(enc, receiver, info);

  const Bytes aad = {1, 2, 3};
  std::vector<Bytes> sealed;
  for (uint8_t i = 0; i < 3; ++i)
    sealed.push_back(sender.Seal(aad, Bytes(10, i)));
  CHECK(sealed[0] != sealed[1]);  // a new nonce per message
  // A forged message is refused and does not move the sequence on.
  Bytes forged = sealed[0];
  forged[0] ^= 1;
  CHECK_THROWS_AS(opener.Open(aad, forged), Error);
  CHECK_THROWS_AS(opener.Open({}, sealed[0]), Error);  // the AAD is authenticated
  for (uint8_t i = 0; i < 3; ++i)
    CHECK(opener.Open(aad, sealed[i]) == Bytes(10, i));
  CHECK_THROWS_AS(opener.Open(aad, sealed[0]), Error);  // out of order: the sequence has moved on

  const Bytes context = {'c', 't', 'x'};
  CHECK(sender.Export(context, 32) == opener.Export(context, 32));
  CHECK_FALSE(sender.Export(context, 32) == opener.Export(Bytes{'x'}, 32));
  CHECK(sender.Export(context, 70).Size() == 70);

  // Another info gives another context.
  HpkeContext other = HpkeSetup::Receiver(enc, receiver, Bytes{'x'});
  CHECK_FALSE(other.Export(context, 32) == sender.Export(context, 32));
}

TEST_CASE("HPKE: DeriveKeyPair is deterministic and its key decrypts") {
  const Bytes ikm(32, 0x42);
  auto a = HpkePrivateKey::Derive(ikm);
  auto b = HpkePrivateKey::Derive(ikm);
  CHECK(a.PublicKey() == b.PublicKey());
  CHECK(a.Scalar() == b.Scalar());
  CHECK_FALSE(HpkePrivateKey::Derive(Bytes(32, 0x43)).PublicKey() == a.PublicKey());
  auto sealed = EncryptWithLabel(a.PublicKey(), "Test", Bytes{1}, Bytes{9, 9});
  CHECK(DecryptWithLabel(b, "Test", Bytes{1}, sealed) == Bytes{9, 9});
}

TEST_CASE("HPKE and signatures: malformed keys are refused with an error, never a crash") {
  Bytes notOnCurve(kPublicKeySize, 0);
  notOnCurve[0] = 0x04;
  notOnCurve[64] = 1;
  CHECK_THROWS_AS(EncryptWithLabel(notOnCurve, "x", {}, Bytes{1}), Error);
  CHECK_THROWS_AS(EncryptWithLabel(Bytes(64, 4), "x", {}, Bytes{1}), Error);  // one byte short
  Bytes compressed(33, 2);
  CHECK_THROWS_AS(EncryptWithLabel(compressed, "x", {}, Bytes{1}), Error);
  CHECK_THROWS_AS(HpkePrivateKey::FromScalar(Bytes(32, 0)), Error);     // zero
  CHECK_THROWS_AS(HpkePrivateKey::FromScalar(Bytes(32, 0xff)), Error);  // above the group order
  CHECK_THROWS_AS(HpkePrivateKey::FromScalar(Bytes(31, 1)), Error);
  auto key = HpkePrivateKey::Generate();
  HpkeCiphertext junk{Bytes(kPublicKeySize, 0), Bytes(20, 0)};
  CHECK_THROWS_AS(DecryptWithLabel(key, "x", {}, junk), Error);
  HpkeCiphertext shortCiphertext{HpkePrivateKey::Generate().PublicKey(), Bytes(5, 0)};
  CHECK_THROWS_AS(DecryptWithLabel(key, "x", {}, shortCiphertext), Error);

  auto signer = SignaturePrivateKey::Generate();
  const Bytes message = {1, 2, 3};
  const Bytes signature = signer.Sign(message);
  CHECK(Verify(signer.PublicKey(), message, signature));
  CHECK_FALSE(Verify(notOnCurve, message, signature));
  CHECK_FALSE(Verify(signer.PublicKey(), message, Bytes{0x30, 0x02, 0x01}));  // truncated DER
  CHECK_FALSE(Verify(signer.PublicKey(), message, {}));
  CHECK_FALSE(Verify(SignaturePrivateKey::Generate().PublicKey(), message, signature));
}

}  // namespace hpke_test
