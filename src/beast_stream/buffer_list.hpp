// The buffers of one read or write as one type, whatever sequence Beast's operations pass (a single buffer, a
// prefix of a dynamic buffer, the parts of a serialised HTTP message or WebSocket frame...): with the erased
// handler (erased_handler.hpp), the stream layers under Beast compile once per direction. A read or write
// "some" may move fewer bytes than offered, so a sequence longer than the list keeps its first kCapacity
// non-empty buffers; the operations that must move everything (Beast's and Asio's write, read until...) loop.
#pragma once

#include <array>
#include <boost/asio/buffer.hpp>
#include <cstddef>

namespace platformpp::beast_stream {

/// Up to kCapacity buffers (`boost::asio::mutable_buffer` or `const_buffer`), a buffer sequence of Asio's.
template <class Buffer>
class BufferList {
 public:
  /// How many buffers a list keeps: more than an HTTP message's serialised parts or a WebSocket frame's
  /// header and payload, so that a plain TCP write still gathers them into one system call.
  static constexpr std::size_t kCapacity = 16;

  using value_type = Buffer;
  using const_iterator = const Buffer*;

  /// The non-empty buffers of `buffers`, the first kCapacity of them.
  template <class BufferSequence>
  explicit BufferList(const BufferSequence& buffers) {
    const auto end = boost::asio::buffer_sequence_end(buffers);
    for (auto it = boost::asio::buffer_sequence_begin(buffers); it != end && count_ < kCapacity; ++it) {
      const Buffer buffer(*it);
      if (buffer.size() != 0) items_[count_++] = buffer;
    }
  }

  /// The first buffer.
  [[nodiscard]] const_iterator begin() const noexcept { return items_.data(); }
  /// Past the last buffer.
  [[nodiscard]] const_iterator end() const noexcept { return items_.data() + count_; }

 private:
  std::array<Buffer, kCapacity> items_{};
  std::size_t count_ = 0;
};

}  // namespace platformpp::beast_stream
