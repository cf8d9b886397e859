#pragma once
// Parses an HTTP/1.1 response from the network straight into a status, a flat header list and a body string.
// Beast's response_parser would build a basic_fields first (an allocation per field) that we would then copy
// out. Beast's parser only, no sockets: the HTTP client feeds it from its connection, the fuzz target
// (tests/fuzz/http_response_reader_fuzz.cpp) from arbitrary bytes.
#include "core/asio_prelude.hpp"

#include "net/http_types.hpp"

#include <boost/beast/http/basic_parser.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace platformpp::net::http_detail {

class ResponseReader final : public boost::beast::http::basic_parser<false> {
 public:
  /// Parses into these three, which it clears first. Set header_limit and body_limit before put().
  ResponseReader(int& status, HttpHeaders& headers, std::string& body)
      : status_(status), headers_(headers), body_(body) {
    status_ = 0;
    headers_.clear();
    headers_.reserve(512);  // a typical response's fields in one allocation
    body_.clear();
  }

 private:
  using string_view = boost::beast::string_view;
  using error_code = boost::system::error_code;
  static std::string_view View(string_view text) { return {text.data(), text.size()}; }

  void on_request_impl(boost::beast::http::verb, string_view, string_view, int, error_code&) override {}
  void on_response_impl(int code, string_view, int, error_code&) override { status_ = code; }
  void on_field_impl(boost::beast::http::field, string_view name, string_view value, error_code&) override {
    headers_.emplace_back(View(name), View(value));
  }
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code& ec) override {
    // Beast 1.74's eager loop reaches here even after the header failed (a Content-Length over the body
    // limit): that error stands, and nothing is reserved. Otherwise reserve what the server announced, up to
    // kReserveCap: the body limit is checked as the body comes, and a reservation is only a head start.
    if (ec) return;
    if (length) body_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(*length, kReserveCap)));
  }
  std::size_t on_body_impl(string_view body, error_code&) override {
    body_.append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view body, error_code&) override {
    body_.append(body.data(), body.size());
    return body.size();
  }
  void on_finish_impl(error_code&) override {}

  static constexpr std::uint64_t kReserveCap = std::uint64_t{1} << 20;  // 1 MiB

  int& status_;
  HttpHeaders& headers_;
  std::string& body_;
};

}  // namespace platformpp::net::http_detail
