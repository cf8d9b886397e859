#include "core/http_message.hpp"

#include <algorithm>
#include <cctype>

namespace platformpp::emulator {

bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string ascii_lower(std::string_view text) {
  std::string lower(text);
  for (auto& c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

namespace {
std::optional<std::string_view> find_header(const HeaderList& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}
}  // namespace

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  return find_header(headers, name);
}

std::string_view HttpRequest::path() const {
  std::string_view view(target);
  return view.substr(0, view.find('?'));
}

bool HttpRequest::has_media_type(std::string_view media_type) const {
  const auto content_type = header("Content-Type");
  if (!content_type) return false;
  std::string_view media = content_type->substr(0, content_type->find(';'));
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t'))
    media.remove_suffix(1);
  while (!media.empty() && (media.front() == ' ' || media.front() == '\t'))
    media.remove_prefix(1);
  return iequals(media, media_type);
}

void HttpResponse::set_header(std::string_view name, std::string value) {
  for (auto& [key, existing] : headers) {
    if (iequals(key, name)) {
      existing = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::string(name), std::move(value));
}

std::optional<std::string_view> HttpResponse::header(std::string_view name) const {
  return find_header(headers, name);
}

HttpResponse HttpResponse::json(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  response.headers.emplace_back("Content-Type", "application/json");
  return response;
}

HttpResponse HttpResponse::empty(int status) {
  HttpResponse response;
  response.status = status;
  return response;
}

HttpResponse HttpResponse::later(std::shared_ptr<DeferredResponse> deferred) {
  HttpResponse response;
  response.deferred = std::move(deferred);
  return response;
}

void DeferredResponse::set(HttpResponse response) {
  if (answer_) return;
  answer_ = std::move(response);
  if (waiter_) {
    auto waiter = std::move(waiter_);
    waiter_ = nullptr;
    waiter(*answer_);
  }
}

void DeferredResponse::wait(Waiter waiter) {
  if (answer_) {
    waiter(*answer_);
    return;
  }
  waiter_ = std::move(waiter);
}

}  // namespace platformpp::emulator
