#pragma once
// JSON numbers read exactly, as the platform's own parsers read them: an integer as itself, any other number
// as the nearest double. RapidJSON 1.1.0 gets neither mode right on its own: its default conversion can be a
// few units in the last place off (a number the emulator stored and read again drifted each time), and its
// full-precision mode reads a zero written with an exponent or many fraction digits ("0e193") as garbage,
// through undefined behaviour (libFuzzer found both; docs/fuzzing.md, "Findings"). So the reader hands over
// each number as its text (kParseNumbersAsStringsFlag), and std::from_chars converts it: correctly rounded by
// the standard's definition.
//
// Shared by the SDK and the emulator (tools/architecture/check.cmake): how a number on the wire becomes a
// double is the JSON grammar's, not either side's reading of the platform.

#include <rapidjson/document.h>
#include <rapidjson/error/error.h>
#include <rapidjson/reader.h>

#include <cstdint>
#include <string_view>

namespace platformpp::json_wire {

/// One JSON number, converted.
struct Number {
  /// What the text holds: RapidJSON's own choice of types (integers that fit 64 bits stay integers).
  enum class Kind {
    kInt64,   ///< a negative integer that fits int64_t (`int64`)
    kUint64,  ///< a non-negative integer that fits uint64_t (`uint64`)
    kDouble,  ///< anything else finite (`real`): a fraction, an exponent, or an integer past 64 bits
    kTooBig,  ///< a magnitude past the largest double: refused, as RapidJSON refuses "1e309"
  };
  Kind kind = Kind::kTooBig;
  int64_t int64 = 0;
  uint64_t uint64 = 0;
  double real = 0.0;
};

/// Converts the text of a number that RapidJSON's reader has already checked against the JSON grammar. A
/// magnitude below the smallest double reads as a zero of its sign, as RapidJSON reads it.
Number ReadNumber(std::string_view text) noexcept;

/// A SAX handler in front of a RapidJSON document: every event goes on to the document, but numbers, which
/// the reader passes as text, are converted by ReadNumber first.
class ExactNumberHandler {
 public:
  explicit ExactNumberHandler(rapidjson::Document& document) noexcept : document_(document) {}

  bool Null() { return document_.Null(); }
  bool Bool(bool b) { return document_.Bool(b); }
  bool Int(int i) { return document_.Int(i); }
  bool Uint(unsigned u) { return document_.Uint(u); }
  bool Int64(int64_t i) { return document_.Int64(i); }
  bool Uint64(uint64_t u) { return document_.Uint64(u); }
  bool Double(double d) { return document_.Double(d); }
  bool RawNumber(const char* text, rapidjson::SizeType length, bool copy);
  bool String(const char* text, rapidjson::SizeType length, bool copy) {
    return document_.String(text, length, copy);
  }
  bool StartObject() { return document_.StartObject(); }
  bool Key(const char* text, rapidjson::SizeType length, bool copy) {
    return document_.Key(text, length, copy);
  }
  bool EndObject(rapidjson::SizeType members) { return document_.EndObject(members); }
  bool StartArray() { return document_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return document_.EndArray(elements); }

  /// Whether the parse stopped on a number too big for a double (the reader then reports
  /// kParseErrorTermination).
  bool stoppedOnTooBig() const noexcept { return tooBig_; }

 private:
  rapidjson::Document& document_;
  bool tooBig_ = false;
};

/// Parses `stream` into `document` with `Flags` (plus kParseNumbersAsStringsFlag), numbers read by
/// ReadNumber. On success the document holds the value; on failure it is null and the result says what and
/// where, as GenericDocument::Parse says it (a number too big is kParseErrorNumberTooBig). The document's own
/// HasParseError() is not set: use the result.
template <unsigned Flags, typename InputStream>
rapidjson::ParseResult ParseExact(InputStream& stream, rapidjson::Document& document) {
  document.SetNull();
  ExactNumberHandler handler(document);
  rapidjson::ParseResult result;
  auto generate = [&](rapidjson::Document&) {
    rapidjson::Reader reader;
    result = reader.Parse<Flags | rapidjson::kParseNumbersAsStringsFlag>(stream, handler);
    return !result.IsError();
  };
  document.Populate(generate);
  if (result.IsError() && handler.stoppedOnTooBig())
    result.Set(rapidjson::kParseErrorNumberTooBig, result.Offset());
  return result;
}

/// ParseExact over text in memory, iteratively (nesting costs heap, not stack), a UTF-8 byte order mark
/// skipped as GenericDocument::Parse skips it; with `validateUtf8`, a string that is not UTF-8 is an error.
rapidjson::ParseResult ParseExact(std::string_view text, rapidjson::Document& document, bool validateUtf8);

}  // namespace platformpp::json_wire
