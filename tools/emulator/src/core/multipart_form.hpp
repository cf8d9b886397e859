// multipart/form-data (RFC 7578) as the platform's message routes take it: a `payload_json` part with the
// JSON body and `files[n]` parts with the uploads. A strict reader: a body that is not well formed is
// refused as a whole, never half read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

struct MultipartPart {
  std::string name;                         // the Content-Disposition's name
  std::optional<std::string> filename;      // its filename, for a file
  std::optional<std::string> content_type;  // the part's Content-Type, if given
  std::string body;
};

// The boundary of a `multipart/form-data; boundary=...` Content-Type (quoted or not), if it has one of 1 to
// 70 characters.
std::optional<std::string> multipart_boundary(std::string_view content_type);

// The parts of `body`, in order; nullopt when it is malformed (no closing delimiter, a part without a
// Content-Disposition form-data name, headers not ended) or has more than `max_parts` parts.
std::optional<std::vector<MultipartPart>> parse_multipart_form(std::string_view body,
                                                               std::string_view boundary,
                                                               std::size_t max_parts = 32);

}  // namespace platformpp::emulator
