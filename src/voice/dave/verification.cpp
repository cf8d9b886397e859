#include "voice/dave/verification.hpp"

#include <openssl/evp.h>

#include <array>
#include <utility>

namespace platformpp::voice::dave {

namespace {

// libdave's (js/src/PairwiseFingerprint.ts, cpp/src/mls/session.cpp).
constexpr std::array<uint8_t, 16> kPairwiseSalt = {0x24, 0xca, 0xb1, 0x7a, 0x7a, 0xf8, 0xec, 0x2b,
                                                   0x82, 0xb4, 0x12, 0xb9, 0x2d, 0xab, 0x19, 0x2e};
constexpr uint64_t kScryptN = 16384;
constexpr uint64_t kScryptR = 8;
constexpr uint64_t kScryptP = 2;
constexpr size_t kPairwiseFingerprintBytes = 64;
// OpenSSL needs about 128 * r * (N + p) bytes (16 MB here; p runs one lane at a time); the limit leaves room.
constexpr uint64_t kScryptMaxMem = 64ull * 1024 * 1024;
constexpr uint16_t kFingerprintVersion = 0;

}  // namespace

std::string DisplayableCode(std::span<const uint8_t> data, size_t desiredLength, size_t groupSize) {
  if (groupSize == 0 || groupSize > kMaxCodeGroupSize || desiredLength % groupSize != 0 ||
      data.size() < desiredLength)
    return {};
  uint64_t modulus = 1;
  for (size_t i = 0; i < groupSize; ++i)
    modulus *= 10;
  std::string code;
  code.reserve(desiredLength);
  for (size_t start = 0; start < desiredLength; start += groupSize) {
    uint64_t value = 0;
    for (size_t i = 0; i < groupSize; ++i)
      value = (value << 8) | data[start + i];
    value %= modulus;
    // groupSize digits, leading zeros kept: "00042", not "42".
    std::string digits(groupSize, '0');
    for (size_t i = groupSize; i > 0 && value != 0; --i, value /= 10)
      digits[i - 1] = static_cast<char>('0' + value % 10);
    code += digits;
  }
  return code;
}

std::string EpochVerificationCode(std::span<const uint8_t> authenticator) {
  return DisplayableCode(authenticator, kEpochCodeDigits);
}

std::vector<uint8_t> KeyFingerprint(std::span<const uint8_t> signatureKey, uint64_t userId) {
  if (signatureKey.empty()) return {};
  std::vector<uint8_t> fingerprint;
  fingerprint.reserve(2 + signatureKey.size() + 8);
  fingerprint.push_back(static_cast<uint8_t>(kFingerprintVersion >> 8));
  fingerprint.push_back(static_cast<uint8_t>(kFingerprintVersion & 0xFF));
  fingerprint.insert(fingerprint.end(), signatureKey.begin(), signatureKey.end());
  for (int shift = 56; shift >= 0; shift -= 8)
    fingerprint.push_back(static_cast<uint8_t>(userId >> shift));
  return fingerprint;
}

std::vector<uint8_t> PairwiseFingerprint(std::span<const uint8_t> keyA, uint64_t userA,
                                         std::span<const uint8_t> keyB, uint64_t userB) {
  std::vector<uint8_t> first = KeyFingerprint(keyA, userA);
  std::vector<uint8_t> second = KeyFingerprint(keyB, userB);
  if (first.empty() || second.empty()) return {};
  // Both members hash the same input whichever of them asks: the lower fingerprint (bytewise, unsigned; a
  // prefix first) goes first.
  if (second < first) std::swap(first, second);
  first.insert(first.end(), second.begin(), second.end());
  std::vector<uint8_t> out(kPairwiseFingerprintBytes);
  if (EVP_PBE_scrypt(reinterpret_cast<const char*>(first.data()), first.size(), kPairwiseSalt.data(),
                     kPairwiseSalt.size(), kScryptN, kScryptR, kScryptP, kScryptMaxMem, out.data(),
                     out.size()) != 1)
    return {};
  return out;
}

std::string PairwiseVerificationCode(std::span<const uint8_t> keyA, uint64_t userA,
                                     std::span<const uint8_t> keyB, uint64_t userB) {
  return DisplayableCode(PairwiseFingerprint(keyA, userA, keyB, userB), kPairwiseCodeDigits);
}

// --- FingerprintWorker
// --------------------------------------------------------------------------------------

void FingerprintWorker::Post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      jobs_.push_back(std::move(job));
      if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
      wake_.notify_one();
      return;
    }
  }
  job = nullptr;  // refused: destroyed here, outside the lock
}

void FingerprintWorker::Shutdown() {
  std::deque<std::function<void()>> dropped;
  std::thread thread;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(jobs_);
    thread = std::move(thread_);
  }
  wake_.notify_all();
  dropped.clear();
  if (thread.joinable()) thread.join();
}

void FingerprintWorker::Run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    try {
      job();
    } catch (...) {
      // A job that throws (out of memory) is dropped; what it owed is completed by its destruction.
    }
  }
}

}  // namespace platformpp::voice::dave
