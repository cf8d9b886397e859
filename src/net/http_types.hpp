#pragma once
// What the HTTP client sends and receives, free of Beast types so that callers stay light to compile.

#include <platformpp/client_result.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::net {

using HttpHeader = std::pair<std::string, std::string>;

struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< absolute
  std::vector<HttpHeader> headers;
  std::string body;
  std::string contentType;  ///< sent as Content-Type when the body is not empty
  /// Per-exchange timeout; empty = the client's (SetHttpRequestTimeout).
  std::optional<std::chrono::milliseconds> timeout;
  /// Retry network errors and 5xx even though the method is not idempotent (the body carries its own guard,
  /// e.g. a nonce with enforce_nonce). GET, HEAD, PUT, DELETE and OPTIONS are always retry-safe.
  bool retrySafe = false;
};

/// A response's header fields in arrival order, stored flat: one buffer for every name and value, so a
/// response's header costs one allocation instead of two strings per field. Reads like a list of pairs
/// (`header.first`, `header.second`), as views into the buffer.
class HttpHeaders {
 public:
  struct Field {
    std::string_view first;   ///< name
    std::string_view second;  ///< value
  };

  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Field;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Field;

    Iterator() = default;
    Field operator*() const noexcept {
      Lengths lengths = ReadLengths(at_);
      const char* name = at_ + sizeof(Lengths);
      return {std::string_view(name, lengths.name), std::string_view(name + lengths.name, lengths.value)};
    }
    Iterator& operator++() noexcept {
      Lengths lengths = ReadLengths(at_);
      at_ += sizeof(Lengths) + lengths.name + lengths.value;
      return *this;
    }
    Iterator operator++(int) noexcept {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const noexcept { return at_ == other.at_; }
    bool operator!=(const Iterator& other) const noexcept { return at_ != other.at_; }

   private:
    friend class HttpHeaders;
    explicit Iterator(const char* at) : at_(at) {}
    const char* at_ = nullptr;
  };

  HttpHeaders() = default;
  HttpHeaders(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    for (const auto& [name, value] : fields)
      emplace_back(name, value);
  }

  void emplace_back(std::string_view name, std::string_view value) {
    Lengths lengths{static_cast<uint32_t>(name.size()), static_cast<uint32_t>(value.size())};
    data_.append(reinterpret_cast<const char*>(&lengths), sizeof lengths).append(name).append(value);
    ++count_;
  }
  void clear() noexcept {
    data_.clear();
    count_ = 0;
  }
  /// Room for `bytes` of names and values (plus a few bytes per field) without reallocating.
  void reserve(std::size_t bytes) { data_.reserve(bytes); }
  std::size_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  Iterator begin() const noexcept { return Iterator(data_.data()); }
  Iterator end() const noexcept { return Iterator(data_.data() + data_.size()); }

  /// Value of the first field named `name` (ASCII case-insensitive), empty when absent.
  std::string_view Find(std::string_view name) const noexcept;

 private:
  struct Lengths {
    uint32_t name;
    uint32_t value;
  };
  static Lengths ReadLengths(const char* at) noexcept {
    Lengths lengths;
    std::memcpy(&lengths, at, sizeof lengths);
    return lengths;
  }
  std::string data_;  // per field: its Lengths, the name, the value
  std::size_t count_ = 0;
};

struct HttpResponse {
  /// Not Successful when no usable response arrived (NetworkError, timeout, invalid request). Then `status`
  /// is 0.
  ClientResult transport;
  int status = 0;
  HttpHeaders headers;
  std::string body;
  int attempts = 0;  ///< network attempts made (1 = first try succeeded)

  /// Value of the first header named `name` (case-insensitive), empty when absent.
  std::string_view Header(std::string_view name) const noexcept { return headers.Find(name); }
  bool Ok() const noexcept { return transport.Successful() && status >= 200 && status < 300; }
};

bool IsIdempotentMethod(std::string_view method) noexcept;

}  // namespace platformpp::net
