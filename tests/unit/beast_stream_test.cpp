// The two types under MaybeTlsStream's reads and writes (src/beast_stream): the erased completion handler
// keeps what Asio reads from the real one and frees its block before running it; the buffer list keeps the
// non-empty buffers of any sequence, in order, up to its capacity. Every SDK and emulator connection runs
// through them (the integration tests); these pin the properties those tests would only show as rare
// misbehaviour.
#include "core/asio_prelude.hpp"

#include "beast_stream/buffer_list.hpp"
#include "beast_stream/erased_handler.hpp"

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <doctest/doctest.h>

#include <array>
#include <iterator>
#include <string>
#include <typeinfo>
#include <vector>

namespace beast_stream_test {

namespace asio = boost::asio;
using platformpp::beast_stream::BufferList;
using platformpp::beast_stream::ErasedHandler;

namespace {

// Logs when it runs and when a moved-from copy of it is destroyed.
struct Probe {
  std::vector<std::string>* log;
  bool live = true;
  explicit Probe(std::vector<std::string>* l) : log(l) {}
  Probe(Probe&& other) noexcept : log(other.log), live(other.live) { other.live = false; }
  Probe& operator=(Probe&&) = delete;
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;
  ~Probe() {
    if (!live) log->push_back("moved-from freed");
  }
  void operator()(boost::system::error_code ec, std::size_t bytes) const {
    log->push_back("run " + std::to_string(ec.value()) + " " + std::to_string(bytes));
  }
};

// A handler that says it continues an operation, as Beast's composed operations do.
struct Continuing {
  bool* ran;
  void operator()(boost::system::error_code /*ec*/, std::size_t /*bytes*/) const { *ran = true; }
  friend bool asio_handler_is_continuation(Continuing* /*handler*/) { return true; }
};

bool IsContinuation(ErasedHandler& handler) {
  using asio::asio_handler_is_continuation;
  return asio_handler_is_continuation(&handler);
}

}  // namespace

TEST_CASE("an erased handler runs where the real one would: its strand, else the stream's executor") {
  asio::io_context io;
  const asio::any_io_executor stream_executor = io.get_executor();
  auto strand = asio::make_strand(io);
  bool ran = false;

  ErasedHandler bound(
      asio::bind_executor(strand, [&](boost::system::error_code, std::size_t) { ran = true; }),
      stream_executor);
  // target_type, not target<T>(): Boost 1.74's any_executor::target casts without comparing types.
  using Strand = asio::strand<asio::io_context::executor_type>;
  REQUIRE(bound.get_executor().target_type() == typeid(Strand));
  CHECK(*bound.get_executor().target<Strand>() == strand);

  ErasedHandler unbound([](boost::system::error_code, std::size_t) {}, stream_executor);
  CHECK(unbound.get_executor() == stream_executor);
  CHECK(unbound.get_executor().target_type() == typeid(asio::io_context::executor_type));

  bound(boost::system::error_code(), 0);
  CHECK(ran);
}

TEST_CASE("an erased handler frees its block before the real one runs, and passes the result through") {
  asio::io_context io;
  std::vector<std::string> log;
  ErasedHandler handler(Probe(&log), io.get_executor());
  log.clear();  // the moves that stored it
  handler(asio::error::operation_aborted, 42);
  const std::string aborted = std::to_string(static_cast<int>(asio::error::operation_aborted));
  // Freed first: what the handler starts may reuse the memory (Asio's rule for its own operations).
  REQUIRE(log.size() >= 2);
  CHECK(log[0] == "moved-from freed");
  CHECK(log[1] == "run " + aborted + " 42");
  CHECK(log.size() == 2);
}

TEST_CASE("an erased handler keeps whether the real one continues an operation") {
  asio::io_context io;
  bool ran = false;
  ErasedHandler continuing(Continuing{&ran}, io.get_executor());
  ErasedHandler plain([](boost::system::error_code, std::size_t) {}, io.get_executor());
  CHECK(IsContinuation(continuing));
  CHECK_FALSE(IsContinuation(plain));
  ErasedHandler moved(std::move(continuing));
  CHECK(IsContinuation(moved));
  moved(boost::system::error_code(), 1);
  CHECK(ran);
}

TEST_CASE("a buffer list keeps the non-empty buffers in order, at most its capacity") {
  constexpr std::size_t kCapacity = BufferList<asio::const_buffer>::kCapacity;
  std::array<char, 64> bytes{};
  std::vector<asio::const_buffer> sequence;
  sequence.emplace_back(bytes.data(), 1);
  sequence.emplace_back(bytes.data(), 0);  // dropped: a read or write of it would move nothing
  for (std::size_t i = 0; i < kCapacity + 3; ++i)
    sequence.emplace_back(bytes.data() + i, 2);

  const BufferList<asio::const_buffer> list(sequence);
  std::vector<asio::const_buffer> kept(list.begin(), list.end());
  REQUIRE(kept.size() == kCapacity);
  CHECK(kept[0].size() == 1);
  for (std::size_t i = 1; i < kCapacity; ++i) {
    CHECK(kept[i].size() == 2);
    CHECK(kept[i].data() == bytes.data() + (i - 1));
  }
  CHECK(asio::buffer_size(list) == 1 + 2 * (kCapacity - 1));
}

TEST_CASE("a buffer list of nothing, or of empty buffers, is empty: the operation completes with 0 bytes") {
  const std::vector<asio::mutable_buffer> none;
  const BufferList<asio::mutable_buffer> from_none(none);
  CHECK(from_none.begin() == from_none.end());

  std::array<char, 4> bytes{};
  const std::array<asio::mutable_buffer, 2> empties{asio::mutable_buffer(bytes.data(), 0),
                                                    asio::mutable_buffer(bytes.data() + 1, 0)};
  const BufferList<asio::mutable_buffer> from_empties(empties);
  CHECK(asio::buffer_size(from_empties) == 0);

  // One buffer is a sequence of its own (what Beast's flat buffer gives a read).
  const BufferList<asio::mutable_buffer> single(asio::mutable_buffer(bytes.data(), bytes.size()));
  REQUIRE(std::distance(single.begin(), single.end()) == 1);
  CHECK(single.begin()->data() == bytes.data());
  CHECK(asio::buffer_size(single) == 4);
}

}  // namespace beast_stream_test
