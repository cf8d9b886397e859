#pragma once
// The random numbers of jitter, backoff and nonce bases: SplitMix64, 8 bytes of state where std::mt19937_64
// keeps 2.5 KiB (every Client had three). Statistically sound for these, and not for secrets (libsodium and
// OpenSSL make those).

#include <cstdint>
#include <limits>
#include <random>

namespace platformpp::core {

class Random {
 public:
  using result_type = uint64_t;

  explicit Random(uint64_t seed) noexcept : state_(seed) {}
  /// Seeded from std::random_device (64 bits of it).
  static Random Seeded() {
    std::random_device device;
    return Random((uint64_t{device()} << 32) ^ device());
  }

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }
  result_type operator()() noexcept {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }

 private:
  uint64_t state_;
};

}  // namespace platformpp::core
