// What the guild routes (guild_routes.cpp, role_routes.cpp) read from request bodies, and their common
// errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/api_error.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator {

// Permission bits as the wire carries them (a decimal string); an integer is accepted from the admin too.
std::optional<std::uint64_t> read_bits(const rapidjson::Value& value);
// The issue of a value that is not permission bits.
FieldIssue bits_issue();
// The optional member `name` as permission bits; recorded as an issue when it is not.
std::optional<std::uint64_t> read_permission_bits(BodyFields& fields, const char* name);
// The member "name" (an issue unless `min` to `max` characters long, though it is still read); `required`:
// an issue when it is absent.
std::optional<std::string> read_name(BodyFields& fields, std::size_t min, std::size_t max,
                                     bool required = true);
// An image sent as data (a data: URI), named as the platform names uploaded images: 32 hex digits (here the
// MD5 of the data).
std::string image_hash(std::string_view data);
// 404 Unknown Guild (10004).
HttpResponse unknown_guild();

}  // namespace platformpp::emulator
