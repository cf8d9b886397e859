// What the social module's files share: relationship types and error codes of the relationship routes
// (docs/social-protocol.md), and small answers they all give.
#pragma once

#include <optional>

#include "core/api_error.hpp"
#include "core/http_message.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator::social_protocol {

namespace relationship_type {
inline constexpr int kNone = 0;
inline constexpr int kFriend = 1;
inline constexpr int kBlocked = 2;
inline constexpr int kIncoming = 3;
inline constexpr int kOutgoing = 4;
}  // namespace relationship_type

// Platform error codes of these routes (docs/social-protocol.md).
namespace social_error {
inline constexpr int kNoSuchRelationship = 10070;
inline constexpr int kRequestNotAllowed = 80000;
inline constexpr int kNoSuchUsername = 80004;
inline constexpr int kAlreadyFriends = 80007;
}  // namespace social_error

inline HttpResponse unknown_user() {
  return error_response(404, error_code::kUnknownUser, "Unknown User");
}

// PUT/DELETE bodies may be empty (no Content-Type) or a JSON object.
inline std::optional<HttpResponse> read_optional_object(const HttpRequest& request,
                                                        rapidjson::Document& body) {
  if (request.body.empty()) {
    body.SetObject();
    return std::nullopt;
  }
  return read_json_object(request, body);
}

}  // namespace platformpp::emulator::social_protocol
