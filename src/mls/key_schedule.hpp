#pragma once
// The key schedule (RFC 9420 section 8): from the previous epoch's init secret, the commit secret, the PSK
// secret and the new GroupContext to every secret of the new epoch; and the MLS exporter.

#include "mls/bytes.hpp"

#include <cstdint>
#include <vector>

namespace platformpp::mls {

struct EpochSecrets {
  Secret joiner;
  Secret welcome;
  Secret epoch;
  Secret senderData;
  Secret encryption;
  Secret exporter;
  Secret external;
  Secret confirmationKey;
  Secret membershipKey;
  Secret resumptionPsk;
  Bytes epochAuthenticator;  // public by design: members compare it out of band
  Secret init;               // the next epoch's init secret

  /// From the previous init secret (a random one for a new group), the commit secret (zeros when the commit
  /// has no path) and the PSK secret (zeros without PSKs).
  static EpochSecrets Derive(const Secret& initSecret, const Secret& commitSecret, const Secret& pskSecret,
                             ByteView groupContext);
  /// From the joiner secret a Welcome carries.
  static EpochSecrets FromJoiner(const Secret& joinerSecret, const Secret& pskSecret, ByteView groupContext);

  /// The HPKE public key of external_secret (external_pub).
  Bytes ExternalPublicKey() const;
};

/// One pre-shared key as the key schedule takes it (section 8.4).
struct PskInput {
  Bytes id;  // the encoded PreSharedKeyID
  Secret psk;
};
/// psk_secret from the PSKs of a commit or Welcome, in order (zeros for none).
Secret PskSecret(const std::vector<PskInput>& psks);

/// MLS-Exporter(label, context, length)
Secret MlsExporter(const Secret& exporterSecret, std::string_view label, ByteView context,
                   std::size_t length);

/// welcome_key and welcome_nonce from the welcome secret.
struct WelcomeKeys {
  Secret key;
  Secret nonce;
};
WelcomeKeys DeriveWelcomeKeys(const Secret& welcomeSecret);

}  // namespace platformpp::mls
