#include "core/asio_prelude.hpp"

#include "net/websocket_session.hpp"

#include "net/url.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <exception>
#include <utility>

namespace platformpp::net::ws {

namespace asio = boost::asio;
using boost::system::error_code;

Session::Session(asio::io_context& io, std::shared_ptr<core::Logger> logger, SessionOptions options)
    : strand_(asio::make_strand(io)),
      logger_(std::move(logger)),
      options_(std::move(options)),
      tls_(options_.trust, options_.name),
      waitTimer_(strand_),
      helloTimer_(strand_),
      heartbeatTimer_(strand_) {}

void Session::Spawn(const std::shared_ptr<void>& owner, std::function<asio::awaitable<void>()> loop,
                    std::function<void()> onFailure) {
  asio::co_spawn(
      strand_, [owner, loop = std::move(loop)]() -> asio::awaitable<void> { co_await loop(); },
      [this, owner, onFailure = std::move(onFailure)](const std::exception_ptr& error) {
        if (!error) return;
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& e) {
          logger_->Error(options_.name + ": the session loop failed with an exception: " + e.what());
        } catch (...) {
          logger_->Error(options_.name + ": the session loop failed with an unknown exception");
        }
        if (onFailure) onFailure();
      });
}

asio::awaitable<std::shared_ptr<Link>> Session::Open(std::string text, std::string& failure,
                                                     std::function<bool()> stopped) {
  std::optional<Url> url = ParseUrl(text);
  if (!url) {
    failure = "invalid " + options_.name + " URL";
    co_return nullptr;
  }
  asio::ssl::context* tls = nullptr;
  if (url->Secure()) {
    tls = tls_.Get(*logger_);
    if (!tls) {
      failure = tls_.Error();
      co_return nullptr;
    }
  }
  ConnectResult result = co_await Connect(strand_, tls, *url, options_.connect, abortOpen_, stopped);
  if (!result.link) {
    failure = std::move(result.failure);
    co_return nullptr;
  }
  logger_->Info(options_.name + ": connected to " + url->Authority());
  co_return std::move(result.link);
}

asio::awaitable<std::optional<int>> Session::Serve(
    std::shared_ptr<void> owner, std::shared_ptr<Link> link, MessageHandler onMessage,
    std::function<void(const std::shared_ptr<Link>&)> onNoHello, std::function<bool()> stop) {
  helloTimer_.expires_after(options_.connect.connectTimeout);
  helloTimer_.async_wait([this, owner, link, onNoHello](error_code ec) {
    if (ec || link->gotHello || link->closing) return;
    logger_->Warning(options_.name + ": no Hello within " +
                     std::to_string(options_.connect.connectTimeout.count()) + " ms");
    if (onNoHello) onNoHello(link);
  });
  for (;;) {
    error_code ec;
    co_await link->Read(ec);
    if (ec) {
      if (!IsCloseFrame(ec) && !link->closing) {
        logger_->Warning(options_.name + ": the connection dropped: " + ec.message());
      }
      break;
    }
    onMessage(link, link->Message(), link->GotText());
    if (stop()) break;
  }
  StopHeartbeats();
  helloTimer_.cancel();
  std::optional<int> closeCode = link->CloseCode();
  link->Teardown();
  co_return closeCode;
}

void Session::HelloReceived(const std::shared_ptr<Link>& link) {
  link->gotHello = true;
  helloTimer_.cancel();
}

void Session::StartHeartbeats(const std::shared_ptr<void>& owner, const std::shared_ptr<Link>& link,
                              Clock::time_point first, Beat beat) {
  ++heartbeatGeneration_;
  beat_ = std::move(beat);
  ArmHeartbeat(owner, link, first);
}

void Session::ArmHeartbeat(const std::shared_ptr<void>& owner, const std::shared_ptr<Link>& link,
                           Clock::time_point at) {
  heartbeatTimer_.expires_at(at);
  heartbeatTimer_.async_wait([this, owner, link, generation = heartbeatGeneration_](error_code ec) {
    if (ec || link->closing || generation != heartbeatGeneration_ || !beat_) return;
    Beat beat = beat_;  // a copy: the beat may stop (and so clear) the schedule
    std::optional<Clock::time_point> next = beat(link);
    if (next && generation == heartbeatGeneration_) ArmHeartbeat(owner, link, *next);
  });
}

void Session::StopHeartbeats() {
  ++heartbeatGeneration_;
  beat_ = nullptr;
  heartbeatTimer_.cancel();
}

asio::awaitable<void> Session::Wait(std::chrono::milliseconds delay) {
  waitTimer_.expires_after(delay);
  error_code ec;
  co_await waitTimer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

asio::awaitable<void> Session::WaitForWakeUp() {
  waitTimer_.expires_at(Clock::time_point::max());
  error_code ec;
  co_await waitTimer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
}

void Session::CancelWait() {
  waitTimer_.cancel();
}

void Session::Interrupt() {
  waitTimer_.cancel();
  helloTimer_.cancel();
  StopHeartbeats();
  if (abortOpen_) abortOpen_();
}

}  // namespace platformpp::net::ws
