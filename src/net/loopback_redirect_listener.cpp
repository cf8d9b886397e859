// The one Beast HTTP server translation unit of the library (the browser flow's loopback redirect target).
#include "core/asio_prelude.hpp"

#include "net/loopback_redirect_listener.hpp"

#include "core/io_context_access.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <set>
#include <stdexcept>

namespace platformpp::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr const char* kDonePage =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>Signed in</title></head>"
    "<body><p>Authorization complete. You can close this window and return to the game.</p></body></html>";

}  // namespace

class LoopbackRedirectListener::Impl : public std::enable_shared_from_this<Impl> {
 public:
  Impl(asio::io_context& io, OnRequest onRequest, std::function<void()> onTimeout)
      : strand_(asio::make_strand(io)),
        acceptor_(strand_),
        timer_(strand_),
        onRequest_(std::move(onRequest)),
        onTimeout_(std::move(onTimeout)) {
    tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
    acceptor_.open(endpoint.protocol());
    acceptor_.bind(endpoint);
    acceptor_.listen(8);
  }
  ~Impl() { stopped_.set_value(); }

  std::future<void> StoppedFuture() { return stopped_.get_future(); }
  uint16_t Port() const { return acceptor_.local_endpoint().port(); }

  void Start(std::chrono::milliseconds timeout) {
    asio::post(strand_, [self = shared_from_this(), timeout] {
      self->StartTimer(timeout);
      self->Accept();
    });
  }

  void StartTimer(std::chrono::milliseconds timeout) {
    timer_.expires_after(timeout);
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->done_) return;
      self->Close();
      self->onTimeout_();
    });
  }

  void Accept() {
    acceptor_.async_accept(strand_, [self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
      if (ec || self->done_) return;
      self->Serve(std::make_shared<beast::tcp_stream>(std::move(socket)));
      self->Accept();
    });
  }

  void Stop() {
    asio::dispatch(strand_, [self = shared_from_this()] { self->Close(); });
  }

 private:
  struct Exchange {
    beast::flat_buffer buffer;
    http::request<http::empty_body> request;
    http::response<http::string_body> response;
  };

  void Serve(const std::shared_ptr<beast::tcp_stream>& stream) {
    streams_.insert(stream);
    auto exchange = std::make_shared<Exchange>();
    stream->expires_after(std::chrono::seconds(10));
    http::async_read(
        *stream, exchange->buffer, exchange->request,
        asio::bind_executor(
            strand_, [self = shared_from_this(), stream, exchange](beast::error_code ec, std::size_t) {
              if (ec || self->done_) return self->Forget(stream);
              bool awaited = self->onRequest_(std::string(exchange->request.target()));
              auto& res = exchange->response;
              res.version(11);
              res.result(awaited ? http::status::ok : http::status::not_found);
              res.set(http::field::content_type, "text/html; charset=utf-8");
              res.set(http::field::cache_control, "no-store");
              res.keep_alive(false);
              res.body() = awaited ? kDonePage : "<!doctype html><p>Not found.</p>";
              res.prepare_payload();
              if (awaited) self->done_ = true;
              http::async_write(*stream, res,
                                asio::bind_executor(self->strand_, [self, stream, exchange, awaited](
                                                                       beast::error_code, std::size_t) {
                                  self->Forget(stream);
                                  if (awaited) self->Close();
                                }));
            }));
  }

  void Forget(const std::shared_ptr<beast::tcp_stream>& stream) {
    beast::error_code ignored;
    stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream->close();
    streams_.erase(stream);
  }

  void Close() {
    done_ = true;
    beast::error_code ignored;
    acceptor_.close(ignored);
    timer_.cancel();
    for (auto& stream : streams_)
      stream->close();
    streams_.clear();
  }

  std::promise<void> stopped_;
  asio::strand<asio::io_context::executor_type> strand_;
  tcp::acceptor acceptor_;
  asio::steady_timer timer_;
  OnRequest onRequest_;
  std::function<void()> onTimeout_;
  std::set<std::shared_ptr<beast::tcp_stream>> streams_;
  bool done_ = false;
};

LoopbackRedirectListener::LoopbackRedirectListener(IoContext& context, OnRequest onRequest,
                                                   std::chrono::milliseconds timeout,
                                                   std::function<void()> onTimeout)
    : context_(context) {
  try {
    impl_ = std::make_shared<Impl>(core::IoContextAccess::Get(context), std::move(onRequest),
                                   std::move(onTimeout));
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error(std::string("cannot listen on 127.0.0.1: ") + e.what());
  }
  stopped_ = impl_->StoppedFuture();
  port_ = impl_->Port();
  impl_->Start(timeout);
}

LoopbackRedirectListener::~LoopbackRedirectListener() {
  Stop();
}

void LoopbackRedirectListener::Stop() {
  if (!impl_) return;
  impl_->Stop();
  impl_.reset();
  core::IoContextAccess::WaitFor(context_, stopped_);
}

}  // namespace platformpp::net
