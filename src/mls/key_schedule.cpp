#include "mls/key_schedule.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/hpke.hpp"
#include "mls/tls_codec.hpp"

namespace platformpp::mls {

EpochSecrets EpochSecrets::Derive(const Secret& initSecret, const Secret& commitSecret,
                                  const Secret& pskSecret, ByteView groupContext) {
  // KDF.Extract takes its salt from the previous step and its IKM from the new input.
  Secret joiner = ExpandWithLabel(Extract(initSecret, commitSecret), "joiner", groupContext, kHashSize);
  return FromJoiner(joiner, pskSecret, groupContext);
}

EpochSecrets EpochSecrets::FromJoiner(const Secret& joinerSecret, const Secret& pskSecret,
                                      ByteView groupContext) {
  EpochSecrets out;
  out.joiner = joinerSecret;
  Secret member = Extract(joinerSecret, pskSecret);
  out.welcome = DeriveSecret(member, "welcome");
  out.epoch = ExpandWithLabel(member, "epoch", groupContext, kHashSize);
  out.senderData = DeriveSecret(out.epoch, "sender data");
  out.encryption = DeriveSecret(out.epoch, "encryption");
  out.exporter = DeriveSecret(out.epoch, "exporter");
  out.external = DeriveSecret(out.epoch, "external");
  out.confirmationKey = DeriveSecret(out.epoch, "confirm");
  out.membershipKey = DeriveSecret(out.epoch, "membership");
  out.resumptionPsk = DeriveSecret(out.epoch, "resumption");
  out.epochAuthenticator = DeriveSecret(out.epoch, "authentication").Reveal();
  out.init = DeriveSecret(out.epoch, "init");
  return out;
}

Bytes EpochSecrets::ExternalPublicKey() const {
  return HpkePrivateKey::Derive(external).PublicKey();
}

Secret PskSecret(const std::vector<PskInput>& psks) {
  Secret secret = Secret::Zero(kHashSize);
  const Secret zero = Secret::Zero(kHashSize);
  for (std::size_t i = 0; i < psks.size(); ++i) {
    Writer label;  // PSKLabel {PreSharedKeyID id; uint16 index; uint16 count}
    label.Raw(psks[i].id);
    label.U16(static_cast<uint16_t>(i));
    label.U16(static_cast<uint16_t>(psks.size()));
    const Secret extracted = Extract(zero, psks[i].psk);
    const Secret input = ExpandWithLabel(extracted, "derived psk", label.Data(), kHashSize);
    secret = Extract(input, secret);
  }
  return secret;
}

Secret MlsExporter(const Secret& exporterSecret, std::string_view label, ByteView context,
                   std::size_t length) {
  Secret labelled = DeriveSecret(exporterSecret, label);
  return ExpandWithLabel(labelled, "exported", Hash(context), length);
}

WelcomeKeys DeriveWelcomeKeys(const Secret& welcomeSecret) {
  return {ExpandWithLabel(welcomeSecret, "key", {}, kAeadKeySize),
          ExpandWithLabel(welcomeSecret, "nonce", {}, kAeadNonceSize)};
}

}  // namespace platformpp::mls
