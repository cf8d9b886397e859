// DAVE verification codes: libdave's displayable code, epoch code and pairwise fingerprint against known
// answers (libdave's own test vectors and values computed independently with Python), the same codes at both
// members of a real DAVE group, the worker that runs scrypt, and a Call's codes and callbacks without DAVE
// (the pairwise callback runs once, inside RunCallbacks or inside the Client's destroy).
//
// The expected values were computed with Python 3's hashlib (OpenSSL's scrypt):
//
//   SALT = bytes.fromhex("24cab17a7af8ec2b82b412b92dab192e")
//   def disp(data, n, g=5):
//       return "".join(str(int.from_bytes(data[i:i+g], "big") % 10**g).zfill(g) for i in range(0, n, g))
//   def kf(key, uid): return struct.pack(">H", 0) + key + struct.pack(">Q", uid)
//   def pw(ka, ua, kb, ub):
//       a, b = sorted([kf(ka, ua), kf(kb, ub)])
//       return hashlib.scrypt(a + b, salt=SALT, n=16384, r=8, p=2, dklen=64, maxmem=64*1024*1024)
//
// and agree with libdave's js/__tests__ vectors (DisplayableCode, KeyFingerprint, PairwiseFingerprint).
#include "voice/dave/verification.hpp"

#include "client/client_core.hpp"
#include "core/retry_timer.hpp"
#include "voice/call_session.hpp"
#include "voice/dave/messages.hpp"
#include "voice/dave/session.hpp"
#include "voice/voice_manager.hpp"

#include <platformpp/call.hpp>
#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dave_verification_test {

using namespace platformpp;
using namespace platformpp::voice::dave;
using Bytes = std::vector<uint8_t>;

namespace {

Bytes FromHex(const std::string& hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::string ToHex(const Bytes& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

/// `first` followed by the bytes first+1, first+2, ... (`count` bytes in all).
Bytes Counting(uint8_t first, size_t count) {
  Bytes out(count);
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<uint8_t>(first + i);
  return out;
}

/// An uncompressed P-256 point's shape: 0x04 then 64 bytes.
Bytes PointLike(uint8_t first) {
  Bytes key = Counting(first, 65);
  key[0] = 0x04;
  return key;
}

bool AllDigits(const std::string& code) {
  for (char c : code)
    if (c < '0' || c > '9') return false;
  return true;
}

}  // namespace

TEST_CASE("DAVE verification: displayable codes match libdave's vectors") {
  // libdave js/__tests__/DisplayableCode-test.ts.
  CHECK(DisplayableCode(FromHex("aabbccddee"), 5, 5) == "05870");
  CHECK(DisplayableCode(FromHex("aabbccddeebbccddeeffccddeeffaaddeeffaabbeeffaabbccffaabbccdd"), 30, 5) ==
        "058708105556138052119572494877");
  // Only the first desiredLength bytes count.
  CHECK(DisplayableCode(FromHex("aabbccddeeff"), 5) == "05870");
}

TEST_CASE("DAVE verification: a group whose value is below 10^4 keeps its leading zeros") {
  // 00 00 00 01 02 = 258 -> "00258"; 00 00 01 86 a0 = 100000 = 0 mod 10^5 -> "00000".
  CHECK(DisplayableCode(FromHex("0000000102"), 5) == "00258");
  CHECK(DisplayableCode(FromHex("00000186a0"), 5) == "00000");
  CHECK(DisplayableCode(FromHex("000000010200000186a0"), 10) == "0025800000");
  CHECK(DisplayableCode(Bytes(30, 0), 30) == std::string(30, '0'));
  // Other group sizes: 2 bytes mod 100, 8 bytes (the largest) mod 10^8.
  CHECK(DisplayableCode(FromHex("0001ffff"), 4, 2) == "0135");
  CHECK(DisplayableCode(FromHex("0000000000000007"), 8, 8) == "00000007");
}

TEST_CASE("DAVE verification: input too short or groups out of range give an empty code") {
  CHECK(DisplayableCode(FromHex("aabbccdd"), 5).empty());     // 4 bytes for 5 digits (libdave throws)
  CHECK(DisplayableCode(FromHex("aabbccdd"), 4, 3).empty());  // not a multiple of the group size
  CHECK(DisplayableCode(Bytes(27, 1), 27, 9).empty());        // groups above 8 bytes do not fit
  CHECK(DisplayableCode(Bytes(5, 1), 5, 0).empty());
  CHECK(DisplayableCode({}, 0) == "");
  CHECK(EpochVerificationCode({}).empty());  // no group
  CHECK(EpochVerificationCode(Bytes(29, 7)).empty());
}

TEST_CASE("DAVE verification: the epoch code is 30 digits of the authenticator") {
  // authenticator = sha256(b"platformpp epoch authenticator"); disp(authenticator, 30).
  const Bytes authenticator = FromHex("652cf6ac78cdfd03a17dfd29d7fcdccaf456e30c212098ac6b4cef07270eb99b");
  CHECK(EpochVerificationCode(authenticator) == "604086927746716287169729137870");
  CHECK(EpochVerificationCode(authenticator) == DisplayableCode(authenticator, kEpochCodeDigits, 5));
}

TEST_CASE("DAVE verification: a key fingerprint is u16be(0) | key | u64be(user id)") {
  // libdave js/__tests__/KeyFingerprint-test.ts: 33 zero bytes and user 1234.
  Bytes expected(2 + 33 + 8, 0);
  expected[2 + 33 + 6] = 0x04;
  expected[2 + 33 + 7] = 0xd2;  // 1234 = 0x04d2
  CHECK(KeyFingerprint(Bytes(33, 0), 1234) == expected);
  const Bytes key = FromHex("04aabb");
  CHECK(ToHex(KeyFingerprint(key, 0x0102030405060708ull)) == "000004aabb0102030405060708");
  CHECK(KeyFingerprint({}, 1).empty());
}

TEST_CASE("DAVE verification: pairwise fingerprints match libdave's vectors, in either order") {
  // libdave js/__tests__/PairwiseFingerprint-test.ts 'expectedOutput': 33 and 65 zero bytes, users 1234 and
  // 5678 (the same bytes as pw(bytes(33), 1234, bytes(65), 5678)).
  const std::string expected =
      "8581f12c24874fc31b1c97457cc5bd29c007102d4ff78a3a7ea1b2880c6d60a4"
      "a95c02e888ae4a9cad90bfb8222df28829850e9e774fcc3006dc7906f20ba43c";
  CHECK(ToHex(PairwiseFingerprint(Bytes(33, 0), 1234, Bytes(65, 0), 5678)) == expected);
  CHECK(ToHex(PairwiseFingerprint(Bytes(65, 0), 5678, Bytes(33, 0), 1234)) == expected);
  CHECK(PairwiseVerificationCode(Bytes(33, 0), 1234, Bytes(65, 0), 5678) ==
        "167087148466685475014767895181229783641225826");
  // 'badSort': keys 00 64 (user 1) and 00 14 (user 2): the fingerprints sort bytewise, not by user.
  const Bytes high = FromHex("0064"), low = FromHex("0014");
  CHECK(ToHex(PairwiseFingerprint(high, 1, low, 2)) ==
        "8da9c28f164816f50d8c42e49fc3656a77f045bfb2e3c27ea2ffde948a0521d7"
        "f0a7eaf595b62e140453bf1fa54afda5c7101d47c1cda99aff9a221e5eabf72b");
  CHECK(PairwiseVerificationCode(low, 2, high, 1) == "888540385217029685755312237093938343205203589");
}

TEST_CASE("DAVE verification: the pairwise code of two P-256 keys; other keys or users give other codes") {
  // pw(04 01..40, 111111111111111111, 04 65..a4, 222222222222222222) (keys: 0x04, then counting bytes).
  const Bytes keyA = PointLike(0), keyB = PointLike(100);
  constexpr uint64_t userA = 111111111111111111ull, userB = 222222222222222222ull;
  REQUIRE(keyA[1] == 0x01);
  REQUIRE(keyB[1] == 0x65);
  const Bytes fingerprint = PairwiseFingerprint(keyA, userA, keyB, userB);
  CHECK(ToHex(fingerprint) ==
        "133d2a43f772a4ce28915b5c395b39f6b6699ffc46ce48ae1aef67f1f090d21a"
        "6040989c997aca92a6158b74816e35199149faa6ec6ca2ee9768f0a0e124a193");
  const std::string code = PairwiseVerificationCode(keyA, userA, keyB, userB);
  CHECK(code == "587114596986713303648037892752477685947432001");
  CHECK(code.size() == kPairwiseCodeDigits);
  // Symmetric: B asking about A gets A's digits.
  CHECK(PairwiseVerificationCode(keyB, userB, keyA, userA) == code);
  // A substituted key (one bit) or another user id: another code.
  Bytes forged = keyB;
  forged[64] ^= 1;
  CHECK(PairwiseVerificationCode(keyA, userA, forged, userB) != code);
  CHECK(PairwiseVerificationCode(keyA, userA, keyB, userB + 1) != code);
  CHECK(PairwiseVerificationCode(keyA, userA, {}, userB).empty());
}

// --- two members of a real DAVE group ----------------------------------------------------------------------

namespace {

constexpr uint64_t kChannel = 0x0102030405060708ull;

struct Sink : DaveSessionSink {
  std::vector<std::pair<Opcode, Bytes>> sent;
  void SendBinary(Opcode op, Bytes payload) override { sent.emplace_back(op, std::move(payload)); }
  void SendReadyForTransition(uint16_t) override {}
  void SendInvalidCommitWelcome(uint16_t) override {}
  void AddReceiveEpoch(std::unique_ptr<ReceiveEpoch>) override {}
  void SetReceivePassThrough(bool) override {}
  void UseSendKeys(std::unique_ptr<SenderKeys>) override {}
  void UseSendPassThrough() override {}
  void E2eeChanged(bool) override {}
  void GroupChanged() override {}
  void Log(const std::string&) override {}
  Bytes Take(Opcode op) {
    auto latest =
        std::find_if(sent.rbegin(), sent.rend(), [op](const auto& entry) { return entry.first == op; });
    if (latest != sent.rend()) return latest->second;
    FAIL("nothing sent with opcode " << static_cast<int>(op));
    return {};
  }
};

struct Member {
  uint64_t user;
  Sink sink;
  DaveSession session;
  explicit Member(uint64_t id) : user(id), session(sink, id, kChannel) {}
};

/// The voice gateway as external sender: it proposes each pending member's Add to the other, and Alice's
/// commit wins (Bob joins by her Welcome). As dave_session_test's scripted gateway, cut to what this needs.
void FormGroup(Member& alice, Member& bob) {
  const mls::SignaturePrivateKey key = mls::SignaturePrivateKey::Generate();
  const std::string name = "voice gateway";
  const mls::ExternalSender sender{
      key.PublicKey(), mls::Credential{mls::kCredentialBasic, Bytes(name.begin(), name.end()), {}}};
  for (Member* m : {&alice, &bob}) {
    m->session.Start(1);
    m->session.OnClientsConnect({alice.user, bob.user});
    m->session.OnExternalSender(WriteExternalSenderPackage(sender));
  }
  auto adds = [&](const mls::KeyPackage& package) {
    mls::GroupContext context;
    context.groupId = IdentityOf(kChannel);
    context.epoch = 0;
    ProposalsMessage message;
    message.proposals.push_back(
        mls::ExternalProposal(context, 0, key, mls::Proposal{mls::AddProposal{package}}));
    return WriteProposals(message);
  };
  const mls::KeyPackage alicePackage = ReadKeyPackageMessage(alice.sink.Take(Opcode::KeyPackage));
  const mls::KeyPackage bobPackage = ReadKeyPackageMessage(bob.sink.Take(Opcode::KeyPackage));
  alice.session.OnProposals(adds(bobPackage));
  bob.session.OnProposals(adds(alicePackage));
  const CommitWelcomeMessage commit = ReadCommitWelcome(alice.sink.Take(Opcode::CommitWelcome));
  REQUIRE(commit.welcome);
  alice.session.OnAnnounceCommit(WriteAnnounceCommit({1, commit.commit}));
  bob.session.OnWelcome(WriteWelcome({1, *commit.welcome}));
  alice.session.OnExecuteTransition(1);
  bob.session.OnExecuteTransition(1);
}

}  // namespace

TEST_CASE("DAVE verification: both members of a real group see the same epoch code and pairwise code") {
  Member alice(1001), bob(1002);
  FormGroup(alice, bob);
  REQUIRE(alice.session.Encrypted());
  REQUIRE(bob.session.Encrypted());
  const std::string epochCode = EpochVerificationCode(alice.session.EpochAuthenticator());
  CHECK(epochCode.size() == kEpochCodeDigits);
  CHECK(AllDigits(epochCode));
  CHECK(EpochVerificationCode(bob.session.EpochAuthenticator()) == epochCode);
  // Each side reads its own key and the other's from the group: the same two keys, the same digits.
  const auto aliceSelf = alice.session.SignatureKeyOf(1001), aliceBob = alice.session.SignatureKeyOf(1002);
  const auto bobSelf = bob.session.SignatureKeyOf(1002), bobAlice = bob.session.SignatureKeyOf(1001);
  REQUIRE(aliceSelf);
  REQUIRE(aliceBob);
  REQUIRE(bobSelf);
  REQUIRE(bobAlice);
  CHECK(aliceSelf->size() == 65);  // an uncompressed P-256 point
  const std::string atAlice = PairwiseVerificationCode(*aliceSelf, 1001, *aliceBob, 1002);
  const std::string atBob = PairwiseVerificationCode(*bobSelf, 1002, *bobAlice, 1001);
  CHECK(atAlice.size() == kPairwiseCodeDigits);
  CHECK(AllDigits(atAlice));
  CHECK(atAlice == atBob);
  CHECK_FALSE(alice.session.SignatureKeyOf(1003));  // not in the group: no code
}

// --- the worker --------------------------------------------------------------------------------------------

namespace {

/// A latch one thread opens and another waits on (at most 10 s, so a failing test ends).
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  void Open() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    cv.notify_all();
  }
  bool Wait() {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(10), [this] { return open; });
  }
};

/// Opens its gate when destroyed: a job that holds one tells when it is dropped. Made in place only (no
/// temporary whose destruction would open the gate early).
struct OpensOnDestroy {
  explicit OpensOnDestroy(std::shared_ptr<Gate> g) : gate(std::move(g)) {}
  OpensOnDestroy(const OpensOnDestroy&) = delete;
  OpensOnDestroy& operator=(const OpensOnDestroy&) = delete;
  ~OpensOnDestroy() { gate->Open(); }
  std::shared_ptr<Gate> gate;
};

}  // namespace

TEST_CASE("DAVE verification: the fingerprint worker runs jobs in order, off the caller's thread") {
  FingerprintWorker worker;
  std::vector<int> order;
  std::mutex mutex;
  std::atomic<bool> onCaller{false};
  const auto caller = std::this_thread::get_id();
  auto done = std::make_shared<Gate>();
  for (int i = 0; i < 3; ++i) {
    worker.Post([&, i] {
      if (std::this_thread::get_id() == caller) onCaller = true;
      std::lock_guard lock(mutex);
      order.push_back(i);
    });
  }
  worker.Post([done] { done->Open(); });
  REQUIRE(done->Wait());
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK_FALSE(onCaller.load());
  worker.Shutdown();
  worker.Shutdown();  // idempotent
  // After shutdown a job is destroyed unrun.
  bool ran = false;
  auto dropped = std::make_shared<Gate>();
  worker.Post([&ran, guard = std::make_shared<OpensOnDestroy>(dropped)] { ran = true; });
  CHECK(dropped->open);
  CHECK_FALSE(ran);
}

TEST_CASE(
    "DAVE verification: shutting the worker down drops the jobs not started and waits for the one running") {
  FingerprintWorker worker;
  auto started = std::make_shared<Gate>();
  auto release = std::make_shared<Gate>();
  std::atomic<bool> firstFinished{false};
  bool secondRan = false;
  worker.Post([&, started, release] {
    started->Open();
    release->Wait();  // until the queued job below is dropped
    firstFinished = true;
  });
  worker.Post([&secondRan, guard = std::make_shared<OpensOnDestroy>(release)] { secondRan = true; });
  REQUIRE(started->Wait());
  worker.Shutdown();
  CHECK(firstFinished.load());
  CHECK_FALSE(secondRan);
}

// --- a Call without DAVE -----------------------------------------------------------------------------------

namespace {

constexpr uint64_t kSelf = 2000;
constexpr uint64_t kOther = 2001;
constexpr uint64_t kLobby = 6000;

struct CallFixture {
  std::unique_ptr<client::ClientCore> core;
  std::unique_ptr<core::RetryTimer> timer;
  std::shared_ptr<voice::CallSession> session;

  CallFixture() {
    ClientOptions options;
    options.ipcEnabled = false;
    core = std::make_unique<client::ClientCore>(options);
    timer = std::make_unique<core::RetryTimer>(core->Io());
    session =
        std::make_shared<voice::CallSession>(core->Runtime(), core->Gateway(), core->Voice().Fingerprints(),
                                             core->Voice().Engine(), *timer, kLobby, kSelf, 1);
  }
  /// Client destroy, in the order the Client does it (the timer runs on the network thread it stops).
  void Destroy() {
    if (session) session->Shutdown();
    timer->Shutdown();
    core->Destroy();
  }
  ~CallFixture() { Destroy(); }
};

}  // namespace

TEST_CASE("Call verification without DAVE: no codes; the pairwise callback runs once, inside RunCallbacks") {
  CallFixture f;
  Call call(f.session);
  CHECK_FALSE(call.GetE2eeActive());
  CHECK(call.GetEpochAuthenticator().empty());
  CHECK(call.GetEpochVerificationCode().empty());
  std::vector<std::string> codes;
  call.GetPairwiseVerificationCode(kOther, [&](std::string code) { codes.push_back(std::move(code)); });
  call.GetPairwiseVerificationCode(kSelf, [&](std::string code) { codes.push_back(std::move(code)); });
  call.GetPairwiseVerificationCode(kOther, nullptr);  // no callback: fine
  CHECK(codes.empty());                               // never from inside the call
  f.core->RunCallbacks();
  CHECK(codes == std::vector<std::string>{"", ""});
  f.core->RunCallbacks();
  CHECK(codes.size() == 2);
  // The status callback is set; with no DAVE session nothing changes, so it is not called.
  int e2eeCalls = 0;
  call.SetE2eeStatusChangedCallback([&](bool) { ++e2eeCalls; });
  f.core->RunCallbacks();
  CHECK(e2eeCalls == 0);
  // A null Call: nothing, no crash.
  Call none;
  CHECK_FALSE(none.GetE2eeActive());
  CHECK(none.GetEpochVerificationCode().empty());
  none.GetPairwiseVerificationCode(kOther, [&](std::string code) { codes.push_back(std::move(code)); });
  none.SetE2eeStatusChangedCallback(nullptr);
  f.core->RunCallbacks();
  CHECK(codes.size() == 2);
}

TEST_CASE("Call verification: a pairwise request still queued at Client destroy ends once, with \"\"") {
  CallFixture f;
  // Queued before RunCallbacks: the destroy completes it, inside the destroy call.
  std::vector<std::string> queued;
  Call(f.session).GetPairwiseVerificationCode(kOther,
                                              [&](const std::string& code) { queued.push_back(code); });
  // One still waiting on the worker (the way CallSession hands a request over, behind a job that runs until
  // the waiting one is dropped): the worker's shutdown drops it, and the destroy delivers its "".
  std::vector<std::string> waiting;
  auto started = std::make_shared<Gate>();
  auto release = std::make_shared<Gate>();
  auto& worker = f.core->Voice().Fingerprints();
  worker.Post([started, release] {
    started->Open();
    release->Wait();
  });
  auto done = std::make_shared<core::Completion<std::string>>(f.core->MakeCompletion<std::string>(
      [&](const ClientResult&, std::string code) { waiting.push_back(std::move(code)); }));
  // The job holds the only reference to the Completion, as CallSession's does.
  worker.Post([done = std::move(done), guard = std::make_shared<OpensOnDestroy>(release)] {
    (*done)(ClientResult(), "not dropped");
  });
  REQUIRE(started->Wait());
  f.Destroy();
  CHECK(queued == std::vector<std::string>{""});
  CHECK(waiting == std::vector<std::string>{""});
}

}  // namespace dave_verification_test
