// DAVE media keys: sender base secrets from an MLS group's exporter, the per-generation ratchet with its
// 250-generation limit, and the replay window; each limit crossed by one.
#include "voice/dave_keys.hpp"

#include "mls/cipher_suite.hpp"
#include "mls/group.hpp"

#include <doctest/doctest.h>

#include <string>

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

TEST_CASE("DAVE keys: members of one MLS group derive the same base secret per sender, another per user") {
  auto signerA = mls::SignaturePrivateKey::Generate();
  auto signerB = mls::SignaturePrivateKey::Generate();
  mls::KeyPackageOptions options;
  const auto a = mls::MakeKeyPackage(signerA, options);
  const auto b = mls::MakeKeyPackage(signerB, options);
  auto groupA = mls::Group::Create(mls::Bytes{0, 0, 0, 0, 0, 0, 0, 42}, a, {});
  auto commit = groupA.Commit({mls::Proposal{mls::AddProposal{b.keyPackage}}});
  groupA.HandleCommit(commit.commit);
  auto groupB = mls::Group::Join(std::get<mls::Welcome>(commit.welcome->body), b);
  CHECK(SenderBaseSecret(groupA, 1001) == SenderBaseSecret(groupB, 1001));
  CHECK(SenderBaseSecret(groupA, 1001).Size() == 16);
  CHECK_FALSE(SenderBaseSecret(groupA, 1001) == SenderBaseSecret(groupA, 1002));
  // It is MLS-Exporter with the protocol's label and context.
  const auto context = SenderContext(1001);
  CHECK(SenderBaseSecret(groupA, 1001) == groupA.Export("Discord Secure Frames v0", context, 16));
}

TEST_CASE("DAVE keys: the ratchet follows the protocol's derivation") {
  KeyRatchet ratchet(Base(3));
  mls::Secret secret = Base(3);
  for (uint32_t generation = 0; generation < 4; ++generation) {
    const mls::Secret expected = mls::DeriveTreeSecret(secret, "key", generation, 16);
    const MediaKey* key = ratchet.Key(generation);
    REQUIRE(key != nullptr);
    CHECK(mls::Bytes(key->begin(), key->end()) == expected.Reveal());
    secret = mls::DeriveTreeSecret(secret, "secret", generation, 32);
  }
  CHECK(ratchet.Key(1) != nullptr);  // kept until erased
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
