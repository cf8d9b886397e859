#pragma once
// Byte strings of the MLS layer, and the one error type it throws.
//
// `Bytes` is public data (keys, hashes, messages). `Secret` holds key material: it is wiped when it is freed
// or overwritten, so that a secret of an ended epoch does not stay readable in freed memory, and it has no
// stream output, so that it cannot end up in a log by accident.

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::mls {

using Bytes = std::vector<uint8_t>;
using ByteView = std::span<const uint8_t>;

/// Any failure of the MLS layer: malformed input, a check that failed (signature, tag, hash), a state that
/// does not allow the operation, or an OpenSSL error (its message included). Never carries secret values.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Wipes memory in a way the compiler may not remove (OPENSSL_cleanse).
void Wipe(void* data, std::size_t size) noexcept;

class Secret {
 public:
  Secret() = default;
  explicit Secret(std::size_t size) : bytes_(size) {}
  explicit Secret(ByteView bytes) : bytes_(bytes.begin(), bytes.end()) {}
  Secret(const Secret& other) = default;
  Secret(Secret&& other) noexcept : bytes_(std::move(other.bytes_)) {}
  Secret& operator=(const Secret& other) {
    if (this != &other) {
      Clear();
      bytes_ = other.bytes_;
    }
    return *this;
  }
  Secret& operator=(Secret&& other) noexcept {
    if (this != &other) {
      Clear();
      bytes_ = std::move(other.bytes_);
    }
    return *this;
  }
  ~Secret() { Clear(); }

  /// Zero bytes of the given size (the key schedule's "0" input).
  static Secret Zero(std::size_t size) { return Secret(size); }

  ByteView View() const noexcept { return bytes_; }
  operator ByteView() const noexcept { return bytes_; }  // NOLINT: a secret is read where bytes are
  uint8_t* Data() noexcept { return bytes_.data(); }
  const uint8_t* Data() const noexcept { return bytes_.data(); }
  std::size_t Size() const noexcept { return bytes_.size(); }
  bool Empty() const noexcept { return bytes_.empty(); }
  void Clear() noexcept {
    if (!bytes_.empty()) Wipe(bytes_.data(), bytes_.size());
    bytes_.clear();
  }
  /// A copy as public bytes, for a value that leaves the secret domain (test vectors, exported keys).
  Bytes Reveal() const { return Bytes(bytes_.begin(), bytes_.end()); }

  friend bool operator==(const Secret& a, const Secret& b) noexcept;

 private:
  std::vector<uint8_t> bytes_;
};

inline ByteView AsBytes(std::string_view text) noexcept {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

/// a || b
Bytes Concat(ByteView a, ByteView b);

}  // namespace platformpp::mls
