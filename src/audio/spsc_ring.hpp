#pragma once
// A lock-free single-producer/single-consumer ring: the hand-off between the audio device's callback thread
// and the voice (codec) thread. One side only writes, the other only reads; each index has one writer, so
// acquire/release on the two indices is all the synchronisation needed. Capacity is a power of two (indices
// run freely and are masked), storage is allocated once in the constructor, and Write/Read never allocate,
// lock or block: they are safe in a real-time device callback.
//
// Overflow drops the newest samples (the producer cannot move the consumer's index) and underflow hands out
// what there is; both are counted, each counter by the only thread that changes it.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <type_traits>

namespace platformpp::audio {

template <typename T>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  /// Room for at least `minCapacity` elements (rounded up to a power of two, at least 2).
  explicit SpscRing(std::size_t minCapacity)
      : capacity_(std::bit_ceil(std::max<std::size_t>(minCapacity, 2))),
        mask_(capacity_ - 1),
        storage_(std::make_unique<T[]>(capacity_)) {}

  SpscRing(const SpscRing&) = delete;
  SpscRing& operator=(const SpscRing&) = delete;

  std::size_t Capacity() const noexcept { return capacity_; }

  /// Elements ready to read (exact on the consumer side, a lower bound elsewhere).
  std::size_t ReadAvailable() const noexcept {
    return writeIndex_.load(std::memory_order_acquire) - readIndex_.load(std::memory_order_acquire);
  }
  /// Free room (exact on the producer side, a lower bound elsewhere).
  std::size_t WriteAvailable() const noexcept { return capacity_ - ReadAvailable(); }

  /// Producer: appends as much of `data` as fits; what does not fit is dropped and counted as overflow.
  std::size_t Write(std::span<const T> data) noexcept {
    const std::size_t write = writeIndex_.load(std::memory_order_relaxed);
    const std::size_t read = readIndex_.load(std::memory_order_acquire);
    const std::size_t n = std::min(data.size(), capacity_ - (write - read));
    CopyIn(write, data.first(n));
    writeIndex_.store(write + n, std::memory_order_release);
    if (n < data.size()) Bump(overflow_, data.size() - n);
    return n;
  }

  /// Producer: appends all of `data` or nothing (nothing is counted as overflow of the whole span).
  bool WriteAll(std::span<const T> data) noexcept {
    const std::size_t write = writeIndex_.load(std::memory_order_relaxed);
    const std::size_t read = readIndex_.load(std::memory_order_acquire);
    if (capacity_ - (write - read) < data.size()) {
      Bump(overflow_, data.size());
      return false;
    }
    CopyIn(write, data);
    writeIndex_.store(write + data.size(), std::memory_order_release);
    return true;
  }

  /// Consumer: fills `out` with what is there and the rest with T{} (zero: silence), counting the shortfall
  /// as underflow. Returns the number of real elements.
  std::size_t Read(std::span<T> out) noexcept {
    const std::size_t n = ReadSome(out);
    if (n < out.size()) {
      std::fill(out.begin() + static_cast<std::ptrdiff_t>(n), out.end(), T{});
      Bump(underflow_, out.size() - n);
    }
    return n;
  }

  /// Consumer: reads exactly `out.size()` elements, or nothing (and counts nothing) when fewer are ready.
  bool TryReadAll(std::span<T> out) noexcept {
    const std::size_t read = readIndex_.load(std::memory_order_relaxed);
    const std::size_t write = writeIndex_.load(std::memory_order_acquire);
    if (write - read < out.size()) return false;
    CopyOut(read, out);
    readIndex_.store(read + out.size(), std::memory_order_release);
    return true;
  }

  /// Consumer: drops everything currently readable.
  void Clear() noexcept {
    readIndex_.store(writeIndex_.load(std::memory_order_acquire), std::memory_order_release);
  }

  /// Elements dropped because the ring was full (any thread may read it).
  uint64_t OverflowCount() const noexcept { return overflow_.load(std::memory_order_relaxed); }
  /// Elements Read() had to make up because the ring was empty (any thread may read it).
  uint64_t UnderflowCount() const noexcept { return underflow_.load(std::memory_order_relaxed); }

 private:
  // Single writer per counter: a relaxed load + store is enough and is not a read-modify-write.
  static void Bump(std::atomic<uint64_t>& counter, std::size_t n) noexcept {
    counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }

  std::size_t ReadSome(std::span<T> out) noexcept {
    const std::size_t read = readIndex_.load(std::memory_order_relaxed);
    const std::size_t write = writeIndex_.load(std::memory_order_acquire);
    const std::size_t n = std::min(out.size(), write - read);
    CopyOut(read, out.first(n));
    readIndex_.store(read + n, std::memory_order_release);
    return n;
  }

  void CopyIn(std::size_t index, std::span<const T> data) noexcept {
    const std::size_t start = index & mask_;
    const std::size_t first = std::min(data.size(), capacity_ - start);
    std::copy_n(data.begin(), first, storage_.get() + start);
    std::copy(data.begin() + static_cast<std::ptrdiff_t>(first), data.end(), storage_.get());
  }

  void CopyOut(std::size_t index, std::span<T> out) const noexcept {
    const std::size_t start = index & mask_;
    const std::size_t first = std::min(out.size(), capacity_ - start);
    std::copy_n(storage_.get() + start, first, out.begin());
    std::copy_n(storage_.get(), out.size() - first, out.begin() + static_cast<std::ptrdiff_t>(first));
  }

  // Apart, so that the two threads do not fight over one cache line.
  static constexpr std::size_t kLine = 64;
  const std::size_t capacity_;
  const std::size_t mask_;
  std::unique_ptr<T[]> storage_;
  alignas(kLine) std::atomic<std::size_t> writeIndex_{0};  // written by the producer only
  std::atomic<uint64_t> overflow_{0};                      // producer only
  alignas(kLine) std::atomic<std::size_t> readIndex_{0};   // written by the consumer only
  std::atomic<uint64_t> underflow_{0};                     // consumer only
};

}  // namespace platformpp::audio
