#include "core/json.hpp"

#include <cstddef>
#include <string>

#include "json_wire/exact_numbers.hpp"

namespace platformpp::emulator {

namespace {

// The length of the valid UTF-8 sequence at text[at] (RFC 3629: no overlong forms, surrogates or code points
// past U+10FFFF), 0 when none starts there.
std::size_t utf8_sequence(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
  } else {
    return 0;
  }
  if (text.size() - at < length) return 0;
  for (std::size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  const unsigned second = byte(at + 1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
      (lead == 0xF4 && second > 0x8F)) {
    return 0;
  }
  return length;
}

}  // namespace

void write_string(JsonWriter& writer, std::string_view value) {
  std::size_t valid = 0;
  for (std::size_t n = 0; valid < value.size();) {
    // ASCII, nearly every string written, in a loop the compiler can widen.
    while (valid < value.size() && static_cast<unsigned char>(value[valid]) < 0x80)
      ++valid;
    if (valid == value.size() || (n = utf8_sequence(value, valid)) == 0) break;
    valid += n;
  }
  if (valid == value.size()) {
    writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
    return;
  }
  std::string repaired(value.substr(0, valid));
  for (std::size_t at = valid; at < value.size();) {
    if (const auto n = utf8_sequence(value, at); n != 0) {
      repaired.append(value.substr(at, n));
      at += n;
    } else {
      repaired.append("\xEF\xBF\xBD");  // U+FFFD
      ++at;
    }
  }
  writer.String(repaired.data(), static_cast<rapidjson::SizeType>(repaired.size()));
}

bool parse_json(std::string_view text, rapidjson::Document& document) {
  // Numbers as the platform's own parsers read them: an integer as itself, any other as the nearest double.
  // RapidJSON's default conversion may be a few units in the last place off, so a stored number written back
  // and read again drifted ("26666666662222227000.0" came back as "...230000.0"), and its full-precision mode
  // reads some zeros as garbage ("0e193" as 6.2e290; libFuzzer, emulator_commands and
  // emulator_scenario_file).
  return !json_wire::ParseExact(text, document, /*validateUtf8=*/true).IsError();
}

void parse_stored_json(std::string_view text, rapidjson::Document& document) {
  static_cast<void>(parse_json(text, document));  // null on failure: what the callers' checks expect
}

std::string json_text(const rapidjson::Value& value) {
  return to_json([&](JsonWriter& writer) { value.Accept(writer); });
}

}  // namespace platformpp::emulator
