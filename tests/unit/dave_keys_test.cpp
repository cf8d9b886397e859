// DAVE media keys: sender base secrets from an MLS group's exporter and the per-generation ratchet, checked
// against known answers of an independent implementation (davey); the ratchet's 250-generation limit and the
// replay window, each limit crossed by one.
#include "voice/dave/keys.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/group.hpp"
#include "voice/dave/frame_transforms.hpp"
#include "voice/dave/messages.hpp"
#include "voice/dave/verification.hpp"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dave_keys_test {

using namespace platformpp::voice::dave;
namespace mls = platformpp::mls;

mls::Secret Base(uint8_t fill) {
  return mls::Secret(mls::Bytes(16, fill));
}

TEST_CASE("DAVE keys: the sender context is the user id, 8 bytes little-endian") {
  const auto context = SenderContext(0x0102030405060708ull);
  CHECK(context == std::array<uint8_t, 8>{8, 7, 6, 5, 4, 3, 2, 1});
}

// Known answers from an independent implementation (tests/data/dave-kat: @snazzah/davey, Rust on OpenMLS,
// made by tests/interop/dave_kat_generator.cpp): our member joins davey's group from its Welcome, and must
// then show davey's epoch authenticator, privacy code and pairwise verification code, and open davey's frames
// at the last nonces of generation 0 and the first of generation 1. That pins the exporter's label and
// context (SenderBaseSecret) and the key ratchet on both sides of a generation, against answers this code did
// not make.
namespace {

mls::Bytes FromHex(const std::string& text) {
  mls::Bytes out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return out;
}

struct DaveyVectors {
  rapidjson::Document document;
  std::string Text(const char* name) const { return document[name].GetString(); }
  uint64_t Id(const char* name) const { return std::stoull(Text(name)); }
};

DaveyVectors LoadDavey() {
  std::ifstream in(std::string(PLATFORMPP_DAVE_KAT_DIR) + "/davey-0.1.12.json");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  DaveyVectors vectors;
  vectors.document.Parse(text.str().c_str());
  REQUIRE(vectors.document.IsObject());
  return vectors;
}

// Our member, from its key package and private keys, joined from davey's commit and Welcome as opcode 28.
mls::Group JoinDaveysGroup(const DaveyVectors& v) {
  const auto& member = v.document["member"];
  const mls::MlsMessage keyPackage = mls::MlsMessage::Decode(FromHex(member["key_package"].GetString()));
  const mls::KeyPackageBundle bundle{
      std::get<mls::KeyPackage>(keyPackage.body),
      mls::HpkePrivateKey::FromScalar(FromHex(member["init_priv"].GetString())),
      mls::HpkePrivateKey::FromScalar(FromHex(member["encryption_priv"].GetString())),
      mls::SignaturePrivateKey::FromScalar(FromHex(member["signature_priv"].GetString()))};
  mls::Bytes commitWelcome = FromHex(v.Text("commit"));
  const mls::Bytes welcome = FromHex(v.Text("welcome"));
  commitWelcome.insert(commitWelcome.end(), welcome.begin(), welcome.end());
  const auto message = ReadCommitWelcome(commitWelcome);
  REQUIRE(message.welcome);
  return mls::Group::Join(*message.welcome, bundle);
}

}  // namespace

TEST_CASE("DAVE keys: davey's group, joined from its Welcome, shows davey's epoch and verification codes") {
  const auto v = LoadDavey();
  const auto group = JoinDaveysGroup(v);
  CHECK(group.Epoch() == static_cast<uint64_t>(v.document["epoch"].GetInt()));
  const auto& authenticator = group.EpochAuthenticator();
  CHECK(mls::Bytes(authenticator.begin(), authenticator.end()) == FromHex(v.Text("epoch_authenticator")));
  CHECK(EpochVerificationCode(authenticator) == v.Text("privacy_code"));
  // The pairwise code of our member and davey's, as davey computed it for our user.
  // davey's key package as its opcode 26 carries it (bare, as the platform's library sends it).
  const mls::KeyPackage daveyPackage = ReadKeyPackageMessage(FromHex(v.Text("davey_key_package")));
  const auto& daveyKey = daveyPackage.leafNode.signatureKey;
  const mls::MlsMessage ourPackage =
      mls::MlsMessage::Decode(FromHex(v.document["member"]["key_package"].GetString()));
  const auto& ourKey = std::get<mls::KeyPackage>(ourPackage.body).leafNode.signatureKey;
  CHECK(PairwiseVerificationCode(ourKey, v.Id("member_user_id"), daveyKey, v.Id("davey_user_id")) ==
        v.Text("verification_code"));
}

TEST_CASE("DAVE keys: davey's frames open with our keys, either side of a key ratchet generation") {
  const auto v = LoadDavey();
  const auto group = JoinDaveysGroup(v);
  const uint64_t davey = v.Id("davey_user_id");
  DaveFrameDecryptor decryptor;
  decryptor.AddEpoch(MakeReceiveEpoch(group, v.Id("member_user_id")), 0);
  int opened = 0;
  for (const auto& frame : v.document["frames"].GetArray()) {
    const uint32_t nonce = frame["nonce"].GetUint();
    INFO("nonce " << nonce << " (generation " << (nonce >> 24) << ")");
    const mls::Bytes ciphertext = FromHex(frame["ciphertext"].GetString());
    std::vector<uint8_t> out(ciphertext.size());
    const std::size_t size = decryptor.Decrypt(1234, davey, 0, ciphertext, out);
    REQUIRE(size > 0);
    out.resize(size);
    CHECK(mls::Bytes(out.begin(), out.end()) == FromHex(frame["plaintext"].GetString()));
    ++opened;
  }
  CHECK(opened == 6);
  // A frame changed by one bit does not open (the tag is checked, not only the key found).
  mls::Bytes tampered = FromHex(v.document["frames"][0]["ciphertext"].GetString());
  tampered[0] ^= 1;
  std::vector<uint8_t> out(tampered.size());
  DaveFrameDecryptor fresh;
  fresh.AddEpoch(MakeReceiveEpoch(group, v.Id("member_user_id")), 0);
  CHECK(fresh.Decrypt(1234, davey, 0, tampered, out) == 0);
  // Another sender's keys (our own member's) do not open davey's frames.
  DaveFrameDecryptor wrongSender;
  wrongSender.AddEpoch(MakeReceiveEpoch(group, davey), 0);
  CHECK(wrongSender.Decrypt(1234, v.Id("member_user_id"), 0,
                            FromHex(v.document["frames"][0]["ciphertext"].GetString()), out) == 0);
}

TEST_CASE("DAVE keys: the ratchet keeps a generation's key until erased below it") {
  KeyRatchet ratchet(Base(3));
  for (uint32_t generation = 0; generation < 4; ++generation)
    REQUIRE(ratchet.Key(generation) != nullptr);
  CHECK_FALSE(*ratchet.Key(0) == *ratchet.Key(1));  // each generation its own key
  CHECK(ratchet.Key(1) != nullptr);                 // kept until erased
  ratchet.EraseBelow(2);
  CHECK(ratchet.Key(1) == nullptr);
  CHECK(ratchet.Key(2) != nullptr);
}

TEST_CASE("DAVE keys: a generation 250 ahead of the newest is served, 251 is refused") {
  KeyRatchet fresh(Base(1));
  CHECK(fresh.Key(kMaxGenerationGap + 1) == nullptr);
  CHECK(fresh.NextGeneration() == 0);  // a refusal derives nothing
  CHECK(fresh.Key(kMaxGenerationGap) != nullptr);
  KeyRatchet later(Base(1));
  REQUIRE(later.Key(3) != nullptr);
  CHECK(later.Key(3 + kMaxGenerationGap + 1) == nullptr);
  CHECK(later.Key(3 + kMaxGenerationGap) != nullptr);
}

TEST_CASE("DAVE keys: each nonce once; late nonces within the window once; older ones refused") {
  NonceWindow window;
  CHECK(window.Accept(10));
  CHECK_FALSE(window.Accept(10));
  CHECK(window.Accept(12));
  CHECK(window.Accept(11));  // late, once
  CHECK_FALSE(window.Accept(11));
  // The window reaches kWindow - 1 below the highest.
  CHECK(window.Accept(10 + NonceWindow::kWindow));
  CHECK_FALSE(window.Fresh(10));  // exactly kWindow below: refused

  CHECK_FALSE(window.Accept(11));  // already seen, still inside the window
  CHECK(window.Accept(13));
  for (uint32_t jump : {63u, 64u, 65u, 127u, 128u, 300u}) {
    NonceWindow w;
    INFO("jump " << jump);
    CHECK(w.Accept(1000));
    CHECK(w.Accept(999));
    CHECK(w.Accept(1000 + jump));
    const bool inside = jump + 1 < NonceWindow::kWindow;
    CHECK_FALSE(w.Fresh(1000));  // seen, or now too old
    CHECK(w.Fresh(998) == (jump + 2 < NonceWindow::kWindow));
    CHECK_FALSE(w.Fresh(999));
    if (inside) CHECK(w.Accept(1001));
  }
}

TEST_CASE("DAVE keys: a sender's nonces start at 1 and a receiver finds each one's key once") {
  SenderKeys sender(Base(7));
  ReceiverKeys receiver(Base(7));
  for (uint32_t expected = 1; expected <= 5; ++expected) {
    auto [nonce, key] = sender.Next();
    CHECK(nonce == expected);
    REQUIRE(key != nullptr);
    ReceiverKeys::Refusal why;
    const MediaKey* received = receiver.KeyFor(nonce, why);
    REQUIRE(received != nullptr);
    CHECK(*received == *key);
    receiver.Commit(nonce);
    CHECK(receiver.KeyFor(nonce, why) == nullptr);
    CHECK(why == ReceiverKeys::Refusal::Replayed);
  }
  // A nonce of generation 2 (top byte); one 251 generations beyond it is refused as too far ahead.
  ReceiverKeys::Refusal why;
  const uint32_t generation2 = (2u << 24) | 5;
  REQUIRE(receiver.KeyFor(generation2, why) != nullptr);
  receiver.Commit(generation2);
  CHECK(receiver.KeyFor(((2u + kMaxGenerationGap + 1) << 24) | 1, why) == nullptr);
  CHECK(why == ReceiverKeys::Refusal::TooFarAhead);
  // Generation 0 is gone once the sender is at generation 2 (one generation back is kept).
  CHECK(receiver.KeyFor(100, why) == nullptr);
  CHECK(why == ReceiverKeys::Refusal::Replayed);  // far below the window as well
  // An uncommitted nonce (a frame that did not decrypt) stays usable.
  const uint32_t next = generation2 + 1;
  REQUIRE(receiver.KeyFor(next, why) != nullptr);
  REQUIRE(receiver.KeyFor(next, why) != nullptr);
}

}  // namespace dave_keys_test
