// JSON numbers read exactly (json_wire/exact_numbers.hpp), through json::Parse and the Gateway dispatch's
// in-place parse: integers as themselves at both ends of 64 bits, other numbers as the nearest double, the
// zeros RapidJSON 1.1.0's full-precision mode misreads, and the edges of the double's range crossed by one.
#include "json_wire/exact_numbers.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include "json/json.hpp"

namespace exact_numbers_test {

using namespace platformpp;
using json_wire::Number;
using json_wire::ReadNumber;

std::string Written(const json::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

TEST_CASE("an integer reads as itself up to either end of 64 bits, a double past them") {
  auto number = ReadNumber("9223372036854775807");
  CHECK(number.kind == Number::Kind::kUint64);
  CHECK(number.uint64 == 9223372036854775807ULL);
  number = ReadNumber("18446744073709551615");
  CHECK(number.kind == Number::Kind::kUint64);
  CHECK(number.uint64 == std::numeric_limits<uint64_t>::max());
  number = ReadNumber("18446744073709551616");  // one past: a double, as RapidJSON makes it
  CHECK(number.kind == Number::Kind::kDouble);
  CHECK(number.real == 18446744073709551616.0);
  number = ReadNumber("-9223372036854775808");
  CHECK(number.kind == Number::Kind::kInt64);
  CHECK(number.int64 == std::numeric_limits<int64_t>::min());
  number = ReadNumber("-9223372036854775809");
  CHECK(number.kind == Number::Kind::kDouble);
  CHECK(number.real == -9223372036854775808.0);
  number = ReadNumber("-0");  // an integer zero, as RapidJSON reads it
  CHECK(number.kind == Number::Kind::kInt64);
  CHECK(number.int64 == 0);

  // Through the document, the value's type flags are RapidJSON's own for the same text.
  json::Document document;
  REQUIRE(json::Parse("[1, -1, 4294967296, -2147483649, 18446744073709551615]", document));
  CHECK(document[0].IsInt());
  CHECK(document[0].IsUint());
  CHECK(document[1].GetInt() == -1);
  CHECK_FALSE(document[1].IsUint());
  CHECK(document[2].IsUint64());
  CHECK_FALSE(document[2].IsUint());
  CHECK(document[3].IsInt64());
  CHECK_FALSE(document[3].IsInt());
  CHECK(document[4].GetUint64() == std::numeric_limits<uint64_t>::max());
}

TEST_CASE("a number reads as the nearest double and writes back as itself") {
  // RapidJSON's default conversion read the first 3 units in the last place off (libFuzzer,
  // emulator_commands).
  for (const std::string text : {"26666666662222227000.0", "6.666666666662222e22", "0.1", "1e23",
                                 "9007199254740993.0", "2.2250738585072011e-308", "4.9406564584124654e-324",
                                 "1.7976931348623157e308", "-0.0", "123.456e-7"}) {
    CAPTURE(text);
    json::Document document;
    REQUIRE(json::Parse("[" + text + "]", document));
    const std::string once = Written(document);
    json::Document again;
    REQUIRE(json::Parse(once, again));
    CHECK(Written(again) == once);
    CHECK(again[0].GetDouble() == std::strtod(text.c_str(), nullptr));
  }
}

TEST_CASE("a zero with an exponent or many fraction digits reads as zero") {
  // RapidJSON 1.1.0's full-precision mode read these as garbage (0e193 as 6.2e290, through UBSan's clz(0)).
  for (const std::string text : {"0e193", "-0e193", "0.000e300", "0E-400", "0.0e+23",
                                 "0.0000000000000000000000000000000000000000000000000000000000000000"}) {
    CAPTURE(text);
    json::Document document;
    REQUIRE(json::Parse("[" + text + "]", document));
    CHECK(document[0].GetDouble() == 0.0);
    CHECK(std::signbit(document[0].GetDouble()) == (text.front() == '-'));
  }
}

TEST_CASE("past the double's range: too big is an error, too small is a zero of its sign") {
  CHECK(ReadNumber("1.7976931348623157e308").kind == Number::Kind::kDouble);
  CHECK(ReadNumber("1.7976931348623159e308").kind == Number::Kind::kTooBig);  // rounds past DBL_MAX
  CHECK(ReadNumber("-1.8e308").kind == Number::Kind::kTooBig);
  CHECK(ReadNumber("0.00000000000000000000001e331").kind == Number::Kind::kDouble);
  CHECK(ReadNumber("0.00000000000000000000001e332").kind == Number::Kind::kTooBig);
  // The smallest subnormal reads as itself; below half of it, a zero.
  CHECK(ReadNumber("4.9406564584124654e-324").real == std::numeric_limits<double>::denorm_min());
  auto tiny = ReadNumber("2e-324");
  CHECK(tiny.kind == Number::Kind::kDouble);
  CHECK(tiny.real == 0.0);
  tiny = ReadNumber("-1000e-400");
  CHECK(tiny.kind == Number::Kind::kDouble);
  CHECK(tiny.real == 0.0);
  CHECK(std::signbit(tiny.real));

  json::Document document;
  std::string error;
  CHECK_FALSE(json::Parse(R"({"a": [1, 2e308]})", document, &error));
  CHECK(error == "Number too big to be stored in double. at offset 10");
  CHECK(document.IsNull());
  REQUIRE(json::Parse("[1e-400]", document, &error));
  CHECK(document[0].GetDouble() == 0.0);
}

TEST_CASE("a document parsed in place reads numbers the same way and keeps its strings in the text") {
  std::string text = R"({"name":"ada","at":26666666662222227000.0,"zero":0e193,"id":18446744073709551615})";
  json::Document document;
  REQUIRE(json::ParseInsitu(text.data(), document));
  CHECK(document["at"].GetDouble() == 26666666662222227000.0);
  CHECK(document["zero"].GetDouble() == 0.0);
  CHECK(document["id"].GetUint64() == std::numeric_limits<uint64_t>::max());
  const char* name = document["name"].GetString();
  CHECK(name >= text.data());
  CHECK(name < text.data() + text.size());
  std::string bad = R"({"a":1e999})";
  std::string error;
  CHECK_FALSE(json::ParseInsitu(bad.data(), document, &error));
  CHECK(error.find("Number too big") == 0);
}

TEST_CASE("a syntax error reads as RapidJSON reports it, and a reused document is reset") {
  json::Document document;
  REQUIRE(json::Parse(R"({"kept":1})", document));
  std::string error;
  CHECK_FALSE(json::Parse(R"({"a": 01})", document, &error));
  CHECK(error.find("at offset 7") != std::string::npos);
  CHECK(document.IsNull());
  CHECK_FALSE(json::Parse("[1] x", document, &error));
  CHECK(error.find("must not be followed by other values") != std::string::npos);
  REQUIRE(
      json::Parse("\xEF\xBB\xBF[2]", document));  // a byte order mark, skipped as Document::Parse skips it
  CHECK(document[0].GetInt() == 2);
}

}  // namespace exact_numbers_test
