#pragma once
// DAVE verification codes: the digits two players read to each other to check that their call is end-to-end
// encrypted between them and nobody else. The constructions are libdave's (the platform's own clients use
// them), so a player on this SDK and one on the platform's client see the same digits:
//
//   displayable code: for each group of `groupSize` bytes, the bytes as a big-endian integer mod
//                     10^groupSize, zero-padded to groupSize digits (libdave js/src/DisplayableCode.ts)
//   epoch code:       DisplayableCode(epoch authenticator, 30, 5): the same for everyone in the group's epoch
//   key fingerprint:  u16be(version 0) | signature public key | u64be(user id)
//                     (libdave js/src/KeyFingerprint.ts; cpp/src/mls/session.cpp GetPairwiseFingerprint)
//   pairwise:         scrypt(sorted(fingerprint A, fingerprint B) concatenated, salt 24cab17a..., N 16384,
//                     r 8, p 2, 64 bytes) (js/src/PairwiseFingerprint.ts); code = DisplayableCode(it, 45, 5)
//
// scrypt makes each pairwise code cost about 100 ms and 16 MB, so that an attacker who substitutes a key
// cannot search many keys for one whose code collides with the genuine one. That is too slow for the game
// or network thread: FingerprintWorker runs it on a thread of its own.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace platformpp::voice::dave {

/// Digits of the codes the platform's clients show.
constexpr size_t kEpochCodeDigits = 30;
constexpr size_t kPairwiseCodeDigits = 45;
/// The largest group whose bytes fit the integer (libdave's limit too).
constexpr size_t kMaxCodeGroupSize = 8;

/// `desiredLength` decimal digits from the first `desiredLength` bytes of `data`, in groups of `groupSize`
/// (see above). Empty when `data` is shorter than `desiredLength`, `groupSize` is 0 or above
/// kMaxCodeGroupSize, or `desiredLength` is not a multiple of it (libdave throws in those cases).
std::string DisplayableCode(std::span<const uint8_t> data, size_t desiredLength, size_t groupSize = 5);

/// The 30-digit code of an epoch authenticator (32 bytes); empty when it is shorter than 30 bytes (no group).
std::string EpochVerificationCode(std::span<const uint8_t> authenticator);

/// libdave's key fingerprint, version 0: u16be(0) | key | u64be(userId). Empty for an empty key.
std::vector<uint8_t> KeyFingerprint(std::span<const uint8_t> signatureKey, uint64_t userId);

/// The 64-byte scrypt of both members' key fingerprints, in either order (the fingerprints are sorted).
/// Empty when a key is empty or scrypt fails (out of memory). About 100 ms of CPU.
std::vector<uint8_t> PairwiseFingerprint(std::span<const uint8_t> keyA, uint64_t userA,
                                         std::span<const uint8_t> keyB, uint64_t userB);

/// The 45-digit code of PairwiseFingerprint; empty when that is.
std::string PairwiseVerificationCode(std::span<const uint8_t> keyA, uint64_t userA,
                                     std::span<const uint8_t> keyB, uint64_t userB);

/// One thread that runs jobs in order, for the pairwise fingerprints: one at a time, so that a game asking
/// for everyone's code at once costs one scrypt's memory, and off the game and network threads. The thread
/// starts with the first job.
class FingerprintWorker {
 public:
  FingerprintWorker() = default;
  ~FingerprintWorker() { Shutdown(); }
  FingerprintWorker(const FingerprintWorker&) = delete;
  FingerprintWorker& operator=(const FingerprintWorker&) = delete;

  /// Runs `job` on the worker thread after the jobs posted before it. After Shutdown the job is destroyed
  /// here, unrun. Any thread.
  void Post(std::function<void()> job);
  /// Destroys the jobs not started (on this thread), waits for the one running and joins. Idempotent; not
  /// from a job.
  void Shutdown();

 private:
  void Run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // mutex_
  bool stopping_ = false;                   // mutex_
  std::thread thread_;                      // started under mutex_
};

}  // namespace platformpp::voice::dave
