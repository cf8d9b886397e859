#include "core/api_error.hpp"

#include <cmath>
#include <cstdint>
#include <utility>

namespace platformpp::emulator {

struct FieldErrors::Node {
  std::map<std::string, Node>
      children;  // std::map allows the incomplete value type here (libstdc++ and libc++)
  std::vector<FieldIssue> issues;

  void write(JsonWriter& writer) const {
    writer.StartObject();
    for (const auto& [key, child] : children) {
      write_string(writer, key);
      child.write(writer);
    }
    if (!issues.empty()) {
      writer.Key("_errors");
      writer.StartArray();
      for (const auto& issue : issues) {
        writer.StartObject();
        writer.Key("code");
        write_string(writer, issue.code);
        writer.Key("message");
        write_string(writer, issue.message);
        writer.EndObject();
      }
      writer.EndArray();
    }
    writer.EndObject();
  }
};

FieldIssue field_issue(std::string code, std::string message) {
  return {std::move(code), std::move(message)};
}

FieldIssue required_field_issue() {
  return {"BASE_TYPE_REQUIRED", "This field is required"};
}

FieldErrors::FieldErrors() : root_(std::make_unique<Node>()) {}
FieldErrors::~FieldErrors() = default;
FieldErrors::FieldErrors(FieldErrors&&) noexcept = default;
FieldErrors& FieldErrors::operator=(FieldErrors&&) noexcept = default;

void FieldErrors::add(const std::vector<std::string>& path, FieldIssue issue) {
  Node* node = root_.get();
  for (const auto& key : path)
    node = &node->children[key];
  node->issues.push_back(std::move(issue));
  empty_ = false;
}

FieldErrors FieldErrors::nested_under(const std::string& key) && {
  FieldErrors nested;
  nested.root_->children.emplace(key, std::move(*root_));
  nested.empty_ = empty_;
  root_ = std::make_unique<Node>();
  empty_ = true;
  return nested;
}

void FieldErrors::write(JsonWriter& writer) const {
  root_->write(writer);
}

std::string error_body(int code, std::string_view message, const FieldErrors* errors) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("code");
    writer.Int(code);
    writer.Key("message");
    write_string(writer, message);
    if (errors != nullptr && !errors->empty()) {
      writer.Key("errors");
      errors->write(writer);
    }
    writer.EndObject();
  });
}

HttpResponse error_response(int status, int code, std::string_view message, const FieldErrors* errors) {
  return HttpResponse::json(status, error_body(code, message, errors));
}

HttpResponse invalid_form_body(const FieldErrors& errors) {
  return error_response(400, error_code::kInvalidFormBody, "Invalid Form Body", &errors);
}

namespace {
std::string_view reason_phrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 413:
      return "Payload Too Large";
    case 415:
      return "Unsupported Media Type";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "Error";
  }
}
}  // namespace

HttpResponse status_error(int status) {
  return error_response(status, error_code::kGeneral,
                        std::to_string(status) + ": " + std::string(reason_phrase(status)));
}

HttpResponse unknown_application() {
  return error_response(404, error_code::kUnknownApplication, "Unknown Application");
}

HttpResponse unknown_channel() {
  return error_response(404, error_code::kUnknownChannel, "Unknown Channel");
}

HttpResponse unknown_message() {
  return error_response(404, error_code::kUnknownMessage, "Unknown Message");
}

HttpResponse unknown_user() {
  return error_response(404, error_code::kUnknownUser, "Unknown User");
}

HttpResponse unknown_lobby() {
  return error_response(404, error_code::kUnknownLobby, "Unknown Lobby");
}

HttpResponse missing_access() {
  return error_response(403, error_code::kMissingAccess, "Missing Access");
}

HttpResponse missing_permissions() {
  return error_response(403, error_code::kMissingPermissions, "Missing Permissions");
}

HttpResponse rate_limited_response(double retry_after_s, bool global, std::string_view scope) {
  auto response = HttpResponse::json(429, to_json([&](JsonWriter& writer) {
                                       writer.StartObject();
                                       // The published RatelimitedResponse requires code (0: general error).
                                       writer.Key("code");
                                       writer.Int(0);
                                       writer.Key("message");
                                       writer.String("You are being rate limited.");
                                       writer.Key("retry_after");
                                       writer.Double(retry_after_s);
                                       writer.Key("global");
                                       writer.Bool(global);
                                       writer.EndObject();
                                     }));
  response.set_header("Retry-After", std::to_string(static_cast<std::int64_t>(std::ceil(retry_after_s))));
  if (global) response.set_header("X-RateLimit-Global", "true");
  response.set_header("X-RateLimit-Scope", global ? std::string("global") : std::string(scope));
  return response;
}

}  // namespace platformpp::emulator
