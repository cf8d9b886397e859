// KeyPackage validation (RFC 9420 section 10.1): each check crossed by one, and the error names it.
#include "vectors.hpp"

#include "mls/key_package.hpp"

#include <doctest/doctest.h>

#include <string>

namespace key_package_test {

using namespace platformpp::mls;

constexpr uint64_t kNow = 1'800'000'000;

KeyPackageBundle Make(uint64_t notBefore = kNow - 100, uint64_t notAfter = kNow + 100) {
  KeyPackageOptions options;
  options.identity = {'a'};
  options.notBefore = notBefore;
  options.notAfter = notAfter;
  return MakeKeyPackage(SignaturePrivateKey::Generate(), options);
}

std::string Refusal(const KeyPackage& keyPackage, uint64_t now = kNow,
                    const std::vector<uint16_t>& extensions = {},
                    const std::vector<uint16_t>& proposals = {}) {
  try {
    ValidateKeyPackage(keyPackage, now, extensions, proposals);
    return {};
  } catch (const Error& e) {
    return e.what();
  }
}

// Re-signs a KeyPackage (and its leaf) after a change, so that only the change is wrong.
void Resign(KeyPackageBundle& bundle) {
  bundle.keyPackage.leafNode.Sign(bundle.signatureKey, {}, 0);
  bundle.keyPackage.Sign(bundle.signatureKey);
}

TEST_CASE("KeyPackage: a fresh one is valid, encodes canonically and has a stable reference") {
  KeyPackageBundle bundle = Make();
  CHECK(Refusal(bundle.keyPackage).empty());
  const Bytes encoded = bundle.keyPackage.Encode();
  Reader in(encoded);
  CHECK(KeyPackage::Read(in) == bundle.keyPackage);
  CHECK(bundle.keyPackage.Ref() == bundle.keyPackage.Ref());
  CHECK(bundle.keyPackage.Ref().size() == kHashSize);
  CHECK(bundle.initKey.PublicKey() == bundle.keyPackage.initKey);
  CHECK(bundle.encryptionKey.PublicKey() == bundle.keyPackage.leafNode.encryptionKey);
}

TEST_CASE("KeyPackage: the lifetime is inclusive at both ends, and one second outside is refused") {
  KeyPackageBundle bundle = Make(kNow, kNow + 10);
  CHECK(Refusal(bundle.keyPackage, kNow).empty());
  CHECK(Refusal(bundle.keyPackage, kNow + 10).empty());
  CHECK(Refusal(bundle.keyPackage, kNow - 1).find("lifetime") != std::string::npos);
  CHECK(Refusal(bundle.keyPackage, kNow + 11).find("lifetime") != std::string::npos);
}

TEST_CASE("KeyPackage: version, cipher suite, signatures, source, keys and capabilities are checked") {
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.version = 2;
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("protocol version") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.cipherSuite = 1;
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("cipher suite") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.signature.back() ^= 1;
    CHECK(Refusal(bundle.keyPackage).find("signature") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.leafNode.signature.back() ^= 1;
    bundle.keyPackage.Sign(bundle.signatureKey);  // the package's own signature stays valid
    CHECK(Refusal(bundle.keyPackage).find("leaf node's signature") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.leafNode.source = LeafNodeSource::Update;
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("does not come from a KeyPackage") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.initKey = bundle.keyPackage.leafNode.encryptionKey;
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("init key") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.leafNode.capabilities.cipherSuites = {1};
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("cipher suite 2") != std::string::npos);
  }
  {
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.leafNode.capabilities.credentials = {kCredentialX509};
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("credential type") != std::string::npos);
  }
  {
    // A group that requires a non-default extension or proposal type.
    KeyPackageBundle bundle = Make();
    CHECK(Refusal(bundle.keyPackage, kNow, {0xff00}).find("required extension") != std::string::npos);
    CHECK(Refusal(bundle.keyPackage, kNow, {kExtensionExternalSenders}).empty());  // a default one
    CHECK(Refusal(bundle.keyPackage, kNow, {}, {0xff01}).find("required proposal") != std::string::npos);
    bundle.keyPackage.leafNode.capabilities.extensions = {0xff00};
    bundle.keyPackage.leafNode.capabilities.proposals = {0xff01};
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage, kNow, {0xff00}, {0xff01}).empty());
  }
  {
    // A leaf extension that the leaf does not list.
    KeyPackageBundle bundle = Make();
    bundle.keyPackage.leafNode.extensions.push_back({0xff02, {1}});
    Resign(bundle);
    CHECK(Refusal(bundle.keyPackage).find("extension 65282") != std::string::npos);
  }
}

TEST_CASE("KeyPackage: a list naming one extension type twice does not parse") {
  KeyPackageBundle bundle = Make();
  bundle.keyPackage.extensions = {{0xff00, {1}}, {0xff00, {2}}};
  const Bytes encoded = bundle.keyPackage.Encode();
  Reader in(encoded);
  CHECK_THROWS_AS(KeyPackage::Read(in), Error);
}

}  // namespace key_package_test
