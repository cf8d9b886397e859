#include "json_wire/exact_numbers.hpp"

#include <rapidjson/encodedstream.h>
#include <rapidjson/memorystream.h>

#include <charconv>
#include <system_error>

namespace platformpp::json_wire {

namespace {

// Whether a number that from_chars found out of a double's range is below it (underflow) rather than above:
// the decimal exponent of its first significant digit is negative. The text is valid JSON, and its value is
// not zero (from_chars reads any zero).
bool BelowDoubleRange(std::string_view text) noexcept {
  std::size_t at = text.front() == '-' ? 1 : 0;
  int64_t position = 0;  // the first significant digit's decimal exponent, before the written exponent
  bool found = false;
  int64_t integerDigits = 0;
  for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
    if (!found && text[at] != '0') found = true;
    if (found) ++integerDigits;
  }
  if (found) {
    position = integerDigits - 1;
  } else if (at < text.size() && text[at] == '.') {
    for (++at, position = -1; at < text.size() && text[at] == '0'; ++at)
      --position;
  }
  while (at < text.size() && text[at] != 'e' && text[at] != 'E')
    ++at;
  int64_t exponent = 0;
  if (at < text.size()) {
    ++at;
    const bool negative = at < text.size() && text[at] == '-';
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    // Clamped: far past either end of the double's range, the sign is all that matters.
    for (; at < text.size() && exponent < 100000; ++at)
      exponent = exponent * 10 + (text[at] - '0');
    if (negative) exponent = -exponent;
  }
  return position + exponent < 0;
}

}  // namespace

Number ReadNumber(std::string_view text) noexcept {
  Number number;
  if (text.empty()) return number;
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  if (text.find_first_of(".eE") == std::string_view::npos) {
    if (text.front() == '-') {
      auto [ptr, ec] = std::from_chars(begin, end, number.int64);
      if (ec == std::errc() && ptr == end) {
        number.kind = Number::Kind::kInt64;
        return number;
      }
    } else {
      auto [ptr, ec] = std::from_chars(begin, end, number.uint64);
      if (ec == std::errc() && ptr == end) {
        number.kind = Number::Kind::kUint64;
        return number;
      }
    }
    // An integer past 64 bits becomes a double, as RapidJSON makes it.
  }
  auto [ptr, ec] = std::from_chars(begin, end, number.real);
  if (ptr != end) return number;  // not the JSON grammar's (the reader has checked it; refused all the same)
  if (ec == std::errc()) {
    number.kind = Number::Kind::kDouble;
  } else if (ec == std::errc::result_out_of_range && BelowDoubleRange(text)) {
    number.kind = Number::Kind::kDouble;
    number.real = text.front() == '-' ? -0.0 : 0.0;
  }
  return number;
}

bool ExactNumberHandler::RawNumber(const char* text, rapidjson::SizeType length, bool /*copy*/) {
  const Number number = ReadNumber(std::string_view(text, length));
  switch (number.kind) {
    case Number::Kind::kInt64:
      return document_.Int64(number.int64);
    case Number::Kind::kUint64:
      return document_.Uint64(number.uint64);
    case Number::Kind::kDouble:
      return document_.Double(number.real);
    case Number::Kind::kTooBig:
      break;
  }
  tooBig_ = true;
  return false;
}

rapidjson::ParseResult ParseExact(std::string_view text, rapidjson::Document& document, bool validateUtf8) {
  rapidjson::MemoryStream bytes(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> stream(bytes);
  if (validateUtf8)
    return ParseExact<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(stream,
                                                                                              document);
  return ParseExact<rapidjson::kParseIterativeFlag>(stream, document);
}

}  // namespace platformpp::json_wire
