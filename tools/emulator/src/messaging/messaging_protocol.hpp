// What the messaging module's files share: error codes and answers of the message routes, the content limit,
// and the readers of ?limit= and of moderation metadata bodies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <variant>

#include "core/api_error.hpp"
#include "core/http_message.hpp"

namespace platformpp::emulator::messaging_protocol {

namespace message_error {
inline constexpr int kNotAuthor = 50005;
inline constexpr int kCannotMessageUser = 50007;
}  // namespace message_error

inline constexpr std::size_t kContentMax = 2000;

inline HttpResponse cannot_message_user() {
  return error_response(400, message_error::kCannotMessageUser, "Cannot send messages to this user");
}

// ?limit=N of the history routes: 1..200, default 50.
std::variant<std::int64_t, HttpResponse> history_limit(const HttpRequest& request);
// A moderation metadata body: an object of at most 5 string values of at most 2000 characters each.
std::variant<std::map<std::string, std::string>, HttpResponse> read_moderation_metadata(
    const HttpRequest& request);

}  // namespace platformpp::emulator::messaging_protocol
