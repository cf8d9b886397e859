// The webhook events client: one Beast HTTP(S) exchange per POST on the emulator's io_context. The only
// translation unit that compiles Beast's client side (server.cpp compiles its server side).
#include "server/asio_prelude.hpp"

#include "server/webhook_client.hpp"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <chrono>
#include <optional>

#include "beast_stream/maybe_tls_stream.hpp"
#include "core/service_context.hpp"
#include "server/step_handler.hpp"

namespace platformpp::emulator {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

constexpr std::uint64_t kAnswerBodyLimit = std::uint64_t{1024} * 1024;

// http and https over one stream type: Beast's HTTP client templates are instantiated once.
using Stream = ::platformpp::beast_stream::MaybeTlsStream;

// What went wrong, in words for the delivery's attempt (never the body or the signature).
std::string describe(const beast::error_code& ec, bool answered_nothing) {
  if (ec == beast::error::timeout) return "no answer in time";
  if (ec == net::error::connection_refused) return "connection refused";
  if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset ||
      ec == http::error::partial_message || ec == ssl::error::stream_truncated) {
    return answered_nothing ? "connection closed without an answer" : "connection dropped";
  }
  if (&ec.category() == &net::error::get_ssl_category()) return "TLS: " + ec.message();
  return ec.message();
}

// One POST: connect, (TLS handshake,) write, read the answer, report. Every step completes into one handler
// type (StepHandler), as the server's sessions do.
class Exchange : public std::enable_shared_from_this<Exchange> {
 public:
  // `stream_args`: the TLS context for https; nothing for http.
  template <class... StreamArgs>
  Exchange(WebhookPost post, std::function<void(WebhookPostResult)> done, net::io_context& io,
           StreamArgs&... stream_args)
      : post_(std::move(post)), done_(std::move(done)), stream_(io, stream_args...) {}

  void start() {
    beast::error_code ec;
    const auto address = net::ip::make_address(post_.url.address, ec);
    if (ec) return finish("bad address " + post_.url.address);
    if (stream_.Secure()) {
      // The certificate must name the host: its IP address, or "localhost".
      auto& tls = stream_.Tls();
      tls.set_verify_mode(ssl::verify_peer);
      tls.set_verify_callback(ssl::host_name_verification(post_.url.host));
      if (post_.url.host == "localhost") SSL_set_tlsext_host_name(tls.native_handle(), "localhost");
    }
    request_.method(http::verb::post);
    request_.target(post_.url.target);
    request_.version(11);
    const bool ipv6 = post_.url.host.find(':') != std::string::npos;
    request_.set(http::field::host,
                 (ipv6 ? "[" + post_.url.host + "]" : post_.url.host) + ":" + std::to_string(post_.url.port));
    request_.set(http::field::user_agent, std::string("platformpp-emulator/") + kEmulatorVersion);
    request_.set(http::field::content_type, "application/json");
    request_.set("X-Signature-Ed25519", post_.signature);
    request_.set("X-Signature-Timestamp", post_.timestamp);
    request_.keep_alive(false);
    request_.body() = std::move(post_.body);
    request_.prepare_payload();
    parser_.body_limit(kAnswerBodyLimit);

    // One deadline for the whole exchange.
    lowest().expires_after(post_.timeout);
    lowest().async_connect(tcp::endpoint(address, post_.url.port), handler(Step::connected));
  }

 private:
  enum class Step { connected, handshaken, written, read };

  using Handler = StepHandler<Exchange, Step>;
  friend Handler;
  Handler handler(Step step) { return Handler{shared_from_this(), step}; }

  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void on(Step step, beast::error_code ec, std::size_t /*bytes*/) {
    if (ec) return finish(describe(ec, step == Step::read && !parser_.got_some()));
    switch (step) {
      case Step::connected:
        if (stream_.Secure())
          return stream_.Tls().async_handshake(ssl::stream_base::client, handler(Step::handshaken));
        return write();
      case Step::handshaken:
        return write();
      case Step::written:
        return http::async_read(stream_, buffer_, parser_, handler(Step::read));
      case Step::read:
        return finish(std::nullopt);
    }
  }

  void write() { http::async_write(stream_, request_, handler(Step::written)); }

  void finish(std::optional<std::string> error) {
    WebhookPostResult result;
    if (error) {
      result.error = std::move(*error);
    } else {
      result.status = static_cast<int>(parser_.get().result_int());
      result.body = std::move(parser_.get().body());
      if (const auto it = parser_.get().find(http::field::content_type); it != parser_.get().end())
        result.content_type = std::string(it->value());
    }
    beast::error_code ignored;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    lowest().socket().close(ignored);
    done_(std::move(result));
  }

  WebhookPost post_;
  std::function<void(WebhookPostResult)> done_;
  Stream stream_;
  http::request<http::string_body> request_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
};

// A TLS client context that verifies: against the given CA file, or the system's store.
std::shared_ptr<ssl::context> client_tls_context(const std::optional<std::string>& ca_file,
                                                 std::string& error) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  beast::error_code ec;
  if (ca_file) {
    context->load_verify_file(*ca_file, ec);
  } else {
    context->set_default_verify_paths(ec);
  }
  if (ec) {
    error = "cannot load the CA certificates: " + ec.message();
    return nullptr;
  }
  return context;
}

}  // namespace

WebhookClient::WebhookClient(net::io_context& io) : io_(io) {}

WebhookClient::~WebhookClient() = default;

void WebhookClient::post(WebhookPost post, std::function<void(WebhookPostResult)> done) {
  if (!post.url.tls) {
    auto exchange = std::make_shared<Exchange>(std::move(post), std::move(done), io_);
    // Started from the io_context, so `done` never runs inside post().
    net::post(io_, [exchange] { exchange->start(); });
    return;
  }
  std::string error;
  auto context = client_tls_context(post.ca_file, error);
  if (!context) {
    net::post(io_, [done = std::move(done), error] { done(WebhookPostResult{std::nullopt, error, {}, {}}); });
    return;
  }
  // The exchange's completion releases the context: `done` is wrapped to hold it.
  auto finish = [context, done = std::move(done)](WebhookPostResult result) { done(std::move(result)); };
  auto exchange = std::make_shared<Exchange>(std::move(post), std::move(finish), io_, *context);
  net::post(io_, [exchange] { exchange->start(); });
}

}  // namespace platformpp::emulator
