// The DAVE media transforms: frames encrypted by one member of a real MLS group decrypt at the others, and
// every refusal (replay, unknown sender, clear frame, forged tag, generation too far ahead, expired epoch)
// drops the frame and counts it under its reason; the 10 s retention limits crossed by one millisecond.
#include "voice/dave/frame_transforms.hpp"

#include "mls/group.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <vector>

namespace dave_frame_transforms_test {

using namespace platformpp::voice::dave;
namespace mls = platformpp::mls;

constexpr uint64_t kAlice = 1001, kBob = 1002, kCarol = 1003;

struct Member {
  uint64_t user;
  mls::KeyPackageBundle bundle;
  std::optional<mls::Group> group;
};

Member MakeMember(uint64_t user) {
  mls::KeyPackageOptions options;
  options.identity = IdentityOf(user);
  return {user, mls::MakeKeyPackage(mls::SignaturePrivateKey::Generate(), options), std::nullopt};
}

/// Alice creates the group and adds Bob and Carol in one commit.
struct Call {
  Member alice = MakeMember(kAlice), bob = MakeMember(kBob), carol = MakeMember(kCarol);
  Call() {
    alice.group = mls::Group::Create(mls::Bytes{0, 0, 0, 0, 0, 0, 0, 7}, alice.bundle, {});
    auto commit = alice.group->Commit({mls::Proposal{mls::AddProposal{bob.bundle.keyPackage}},
                                       mls::Proposal{mls::AddProposal{carol.bundle.keyPackage}}});
    alice.group->HandleCommit(commit.commit);
    const auto& welcome = std::get<mls::Welcome>(commit.welcome->body);
    bob.group = mls::Group::Join(welcome, bob.bundle);
    carol.group = mls::Group::Join(welcome, carol.bundle);
  }
  /// Alice removes `leaf`; the remaining members move to the next epoch.
  void Remove(mls::LeafIndex leaf, const std::vector<Member*>& remaining) {
    auto commit = alice.group->Commit({mls::Proposal{mls::RemoveProposal{leaf}}});
    for (Member* member : remaining)
      member->group->HandleCommit(commit.commit);
  }
};

const std::vector<uint8_t> kOpus = {0xFC, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99};

std::vector<uint8_t> Encrypt(DaveFrameEncryptor& encryptor, const std::vector<uint8_t>& frame = kOpus) {
  std::vector<uint8_t> out(frame.size() + encryptor.MaxOverhead());
  out.resize(encryptor.Encrypt(1, frame, out));
  return out;
}

std::vector<uint8_t> Decrypt(DaveFrameDecryptor& decryptor, uint64_t sender, uint64_t nowMs,
                             const std::vector<uint8_t>& frame) {
  std::vector<uint8_t> out(frame.size());
  out.resize(decryptor.Decrypt(1, sender, nowMs, frame, out));
  return out;
}

TEST_CASE("DAVE transforms: a member's frames decrypt at every other member, not at itself") {
  Call call;
  DaveFrameEncryptor alice;
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  DaveFrameDecryptor bob, carol, aliceReceive;
  bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), 0);
  carol.AddEpoch(MakeReceiveEpoch(*call.carol.group, kCarol), 0);
  aliceReceive.AddEpoch(MakeReceiveEpoch(*call.alice.group, kAlice), 0);

  for (int i = 0; i < 50; ++i) {
    const auto frame = Encrypt(alice);
    REQUIRE(frame.size() > kOpus.size());
    CHECK(frame[frame.size() - 1] == 0xFA);
    CHECK(frame[frame.size() - 2] == 0xFA);
    // The whole frame is encrypted, the TOC byte too (one ciphertext byte equals its plaintext byte one time
    // in 256, so compare the whole body: a chance of 2^-80 of a false failure).
    CHECK_FALSE(std::equal(kOpus.begin(), kOpus.end(), frame.begin()));
    CHECK(Decrypt(bob, kAlice, uint64_t{20} * i, frame) == kOpus);
    CHECK(Decrypt(carol, kAlice, uint64_t{20} * i, frame) == kOpus);
    CHECK(Decrypt(aliceReceive, kAlice, uint64_t{20} * i, frame).empty());  // no keys for oneself
  }
  CHECK(alice.GetCounters().encrypted == 50);
  CHECK(bob.GetCounters().decrypted == 50);
  CHECK(aliceReceive.GetCounters().drops.unknownSender == 50);
}

TEST_CASE("DAVE transforms: the encryptor withholds until it has keys, and passes through in protocol 0") {
  DaveFrameEncryptor encryptor;
  CHECK(encryptor.CurrentMode() == DaveFrameEncryptor::Mode::Withhold);
  CHECK(Encrypt(encryptor).empty());
  CHECK(encryptor.GetCounters().withheld == 1);
  encryptor.UsePassThrough();
  CHECK(Encrypt(encryptor) == kOpus);
  CHECK(encryptor.GetCounters().passedThrough == 1);
  encryptor.UseKeys(nullptr);
  CHECK(encryptor.CurrentMode() == DaveFrameEncryptor::Mode::Withhold);
}

TEST_CASE(
    "DAVE transforms: replays, forged tags, unknown senders and malformed trailers are dropped by reason") {
  Call call;
  DaveFrameEncryptor alice;
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  DaveFrameDecryptor bob;
  bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), 0);

  const auto frame = Encrypt(alice);
  CHECK(Decrypt(bob, kAlice, 0, frame) == kOpus);
  CHECK(Decrypt(bob, kAlice, 0, frame).empty());
  CHECK(bob.GetCounters().drops.replayed == 1);

  auto forged = Encrypt(alice);
  forged[0] ^= 1;
  CHECK(Decrypt(bob, kAlice, 0, forged).empty());
  CHECK(bob.GetCounters().drops.authentication == 1);
  // A forged frame does not burn its nonce: the genuine one still decrypts.
  forged[0] ^= 1;
  CHECK(Decrypt(bob, kAlice, 0, forged) == kOpus);

  CHECK(Decrypt(bob, 0, 0, Encrypt(alice)).empty());  // SSRC not mapped to a user yet
  CHECK(Decrypt(bob, 999, 0, Encrypt(alice)).empty());
  CHECK(bob.GetCounters().drops.unknownSender == 2);

  auto broken = Encrypt(alice);
  broken[broken.size() - 3] = 200;  // a supplemental size larger than the frame
  CHECK(Decrypt(bob, kAlice, 0, broken).empty());
  CHECK(bob.GetCounters().drops.malformed == 1);

  CHECK(Decrypt(bob, kAlice, 0, kOpus).empty());  // clear audio in an encrypted call
  CHECK(bob.GetCounters().drops.notEncrypted == 1);
  CHECK(bob.GetCounters().decrypted == 2);
}

TEST_CASE("DAVE transforms: a generation 250 ahead decrypts, 251 ahead is refused") {
  Call call;
  DaveFrameDecryptor bob;
  bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), 0);
  KeyRatchet ratchet(SenderBaseSecret(*call.alice.group, kAlice));
  FrameCipher cipher;
  const auto seal = [&](uint32_t generation) {
    std::vector<uint8_t> out(kOpus.size() + kMaxAudioOverhead);
    for (uint32_t g = 0; g < generation; ++g)
      ratchet.Key(g);  // the test's ratchet has the same limit
    const MediaKey* key = ratchet.Key(generation);
    REQUIRE(key != nullptr);
    out.resize(cipher.Seal(std::span<const uint8_t, kKeySize>(key->data(), kKeySize), (generation << 24) | 5,
                           kOpus, out));
    return out;
  };
  CHECK(Decrypt(bob, kAlice, 0, seal(kMaxGenerationGap + 1)).empty());
  CHECK(bob.GetCounters().drops.tooFarAhead == 1);
  CHECK(Decrypt(bob, kAlice, 0, seal(kMaxGenerationGap)) == kOpus);
}

TEST_CASE("DAVE transforms: the previous epoch's keys work for 10 s after the next arrives, not a ms more") {
  Call call;
  DaveFrameEncryptor alice;
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  DaveFrameDecryptor bob;
  bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), 0);
  const auto inFlight1 = Encrypt(alice);
  const auto inFlight2 = Encrypt(alice);

  call.Remove(call.carol.group->OwnLeaf(), {&call.alice, &call.bob});
  REQUIRE(call.bob.group->Epoch() == 2);
  constexpr uint64_t kTransitionMs = 5'000;
  bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), kTransitionMs);
  CHECK(bob.EpochCount() == 2);
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  CHECK(Decrypt(bob, kAlice, kTransitionMs + 1, Encrypt(alice)) == kOpus);  // the new epoch
  CHECK(Decrypt(bob, kAlice, kTransitionMs + kRetentionMs - 1, inFlight1) == kOpus);
  CHECK(Decrypt(bob, kAlice, kTransitionMs + kRetentionMs, inFlight2).empty());
  CHECK(bob.EpochCount() == 1);
  // Alice is still a sender of the live epoch, so the old frame fails as a forgery would.
  CHECK(bob.GetCounters().drops.authentication == 1);
}

TEST_CASE("DAVE transforms: a removed member cannot decrypt the next epoch's frames") {
  Call call;
  DaveFrameDecryptor carol;
  carol.AddEpoch(MakeReceiveEpoch(*call.carol.group, kCarol), 0);
  DaveFrameEncryptor alice;
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  CHECK(Decrypt(carol, kAlice, 0, Encrypt(alice)) == kOpus);

  call.Remove(call.carol.group->OwnLeaf(), {&call.alice, &call.bob});
  alice.UseKeys(MakeSenderKeys(*call.alice.group, kAlice));
  Encrypt(alice);  // nonce 1, which Carol has seen in the old epoch
  CHECK(Decrypt(carol, kAlice, 20, Encrypt(alice)).empty());
  CHECK(carol.GetCounters().drops.authentication == 1);
}

TEST_CASE("DAVE transforms: clear frames pass only in passthrough, and for 10 s after it ends") {
  DaveFrameDecryptor decryptor;
  CHECK(Decrypt(decryptor, kAlice, 0, kOpus).empty());
  decryptor.SetPassThrough(true, 0);
  CHECK(Decrypt(decryptor, kAlice, 1, kOpus) == kOpus);
  decryptor.SetPassThrough(false, 1'000);
  CHECK(Decrypt(decryptor, kAlice, 1'000 + kRetentionMs - 1, kOpus) == kOpus);
  CHECK(Decrypt(decryptor, kAlice, 1'000 + kRetentionMs, kOpus).empty());
  CHECK(decryptor.GetCounters().passedThrough == 2);
  CHECK(decryptor.GetCounters().drops.notEncrypted == 2);
}

TEST_CASE("DAVE transforms: at most kMaxEpochs epochs are kept, the oldest going first") {
  Call call;
  DaveFrameDecryptor bob;
  for (std::size_t i = 0; i < DaveFrameDecryptor::kMaxEpochs + 2; ++i)
    bob.AddEpoch(MakeReceiveEpoch(*call.bob.group, kBob), i);
  CHECK(bob.EpochCount() == DaveFrameDecryptor::kMaxEpochs);
  bob.Clear();
  CHECK(bob.EpochCount() == 0);
}

}  // namespace dave_frame_transforms_test
