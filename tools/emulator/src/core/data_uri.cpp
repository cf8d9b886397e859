#include "core/data_uri.hpp"

#include "auth/basic_auth.hpp"
#include "core/http_message.hpp"

namespace platformpp::emulator {

std::optional<DataUri> parse_data_uri(std::string_view uri) {
  constexpr std::string_view kScheme = "data:";
  if (uri.size() < kScheme.size() || ascii_lower(uri.substr(0, kScheme.size())) != kScheme)
    return std::nullopt;
  const auto comma = uri.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  const auto header = uri.substr(kScheme.size(), comma - kScheme.size());
  // The header is `<media type>[;param]...;base64`: only base64 data is accepted, as for images.
  const auto semicolon = header.find(';');
  if (semicolon == std::string_view::npos || ascii_lower(header.substr(header.rfind(';') + 1)) != "base64")
    return std::nullopt;
  const auto media_type = header.substr(0, semicolon);
  if (media_type.empty()) return std::nullopt;
  const auto data = base64_decode(uri.substr(comma + 1));
  if (!data) return std::nullopt;
  return DataUri{ascii_lower(media_type), data->size()};
}

}  // namespace platformpp::emulator
