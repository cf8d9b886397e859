// Uploaded files written as data URIs (`data:<media type>[;param]...;base64,<data>`), as the platform's image
// data and soundboard sounds are: what an upload route needs to check (the media type and the decoded size).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

// An uploaded file: the media type of its data URI (lower case, without parameters) and its decoded size.
struct DataUri {
  std::string media_type;
  std::size_t size_bytes = 0;
};

// Reads a base64 data URI. Nullopt when it is not one, has no media type, or its base64 does not decode. The
// content itself is not decoded further (an image's dimensions, a sound's duration).
[[nodiscard]] std::optional<DataUri> parse_data_uri(std::string_view uri);

}  // namespace platformpp::emulator
