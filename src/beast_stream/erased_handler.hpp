// A read's or a write's completion handler of any type behind one type, so that the stream layers under
// Beast (the TLS stream's operations, the TCP stream's timeouts, Asio's socket operations) are compiled once
// per stream instead of once per handler type that reaches them: every composed operation of Beast's HTTP
// and WebSocket code (read, read_some, write, accept, close, ping...) is one such type. What the handler
// carries that Asio looks at is kept: its associated executor (a strand stays a strand) and whether it
// continues an operation. Its associated allocator is not: the handler is held in one heap block, freed
// before it runs. Include core/asio_prelude.hpp (or the emulator's server/asio_prelude.hpp) first.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/handler_continuation_hook.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace platformpp::beast_stream {

/// A move-only completion handler of signature `void(error_code, std::size_t)`, called at most once.
class ErasedHandler {
 public:
  /// The handler's associated executor, as Asio sees it.
  using executor_type = boost::asio::any_io_executor;

  /// Holds `handler`; `fallback` is the executor it runs on if it has none of its own (the stream's).
  template <class Handler,
            std::enable_if_t<!std::is_same_v<std::remove_cvref_t<Handler>, ErasedHandler>, int> = 0>
  ErasedHandler(Handler&& handler, const executor_type& fallback)
      : executor_(boost::asio::get_associated_executor(handler, fallback)),
        continuation_(IsContinuation(handler)),
        held_(std::make_unique<Held<std::decay_t<Handler>>>(std::forward<Handler>(handler))) {}

  ErasedHandler(ErasedHandler&&) noexcept = default;
  ErasedHandler& operator=(ErasedHandler&&) noexcept = default;
  ErasedHandler(const ErasedHandler&) = delete;
  ErasedHandler& operator=(const ErasedHandler&) = delete;
  ~ErasedHandler() = default;

  /// Runs the handler. Its block is freed first, so that what it starts may reuse the memory.
  void operator()(boost::system::error_code ec, std::size_t bytes) {
    auto held = std::move(held_);
    Base::Run(std::move(held), ec, bytes);
  }

  /// Where the handler runs (Asio's associated executor).
  [[nodiscard]] executor_type get_executor() const noexcept { return executor_; }

  /// Asio's hook: whether the handler continues an operation (a scheduling hint).
  friend bool asio_handler_is_continuation(ErasedHandler* handler) { return handler->continuation_; }

 private:
  struct Base {
    Base() = default;
    Base(const Base&) = delete;
    Base& operator=(const Base&) = delete;
    Base(Base&&) = delete;
    Base& operator=(Base&&) = delete;
    virtual ~Base() = default;
    // Moves the handler out of `self`, frees `self`, then runs the handler.
    static void Run(std::unique_ptr<Base> self, boost::system::error_code ec, std::size_t bytes) {
      Base* raw = self.get();
      raw->RunAndFree(std::move(self), ec, bytes);
    }
    virtual void RunAndFree(std::unique_ptr<Base> self, boost::system::error_code ec, std::size_t bytes) = 0;
  };

  template <class Handler>
  struct Held final : Base {
    explicit Held(Handler&& h) : handler(std::move(h)) {}
    explicit Held(const Handler& h) : handler(h) {}
    void RunAndFree(std::unique_ptr<Base> self, boost::system::error_code ec, std::size_t bytes) override {
      Handler local(std::move(handler));
      self.reset();
      std::move(local)(ec, bytes);
    }
    Handler handler;
  };

  template <class Handler>
  static bool IsContinuation(Handler& handler) {
    using boost::asio::asio_handler_is_continuation;
    return asio_handler_is_continuation(std::addressof(handler));
  }

  executor_type executor_;
  bool continuation_ = false;
  std::unique_ptr<Base> held_;
};

}  // namespace platformpp::beast_stream
