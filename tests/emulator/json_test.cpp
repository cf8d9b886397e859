#include <doctest/doctest.h>

#include <string>

#include "core/json.hpp"

namespace json_test {

using namespace platformpp::emulator;

std::string round_trip(const std::string& text) {
  rapidjson::Document document;
  REQUIRE(parse_json(text, document));
  return json_text(document);
}

// What the emulator stores as JSON text (a command's options, a message's embeds) is read again on every
// request: a number must read as the nearest double each time, or it drifts with each write and read.
TEST_CASE("a number written by the emulator reads back as itself") {
  for (const std::string number :
       {"26666666662222227000.0", "6.666666666662222e22", "2.222622222256667e30", "0.1", "1e23",
        "9007199254740993.0", "2.2250738585072011e-308", "1.7976931348623157e308", "-0.0"}) {
    CAPTURE(number);
    const std::string once = round_trip("[" + number + "]");
    CHECK(round_trip(once) == once);
  }
  // The reproducer of libFuzzer's emulator_commands finding: RapidJSON's default parse read this 3 units in
  // the last place off, which wrote "26666666662222230000.0".
  CHECK(round_trip("[26666666662222227000.0]") == "[26666666662222227000.0]");
}

// RapidJSON 1.1.0's full-precision parse reads these as garbage (6.2e290 for 0e193); the emulator reads them
// as the zeros they are (src/json_wire/exact_numbers.hpp).
TEST_CASE("a zero with a large exponent or many fraction digits reads as zero") {
  for (const std::string number :
       {"0e193", "-0e193", "0.000e300", "0E-400", "0.0e+23", "-0.00000000000000e99"}) {
    CAPTURE(number);
    rapidjson::Document document;
    REQUIRE(parse_json("[" + number + "]", document));
    CHECK(document[0].GetDouble() == 0.0);
  }
  // Beside a number that needs full precision, in a string and out of one.
  rapidjson::Document document;
  REQUIRE(parse_json(R"(["0e193", 26666666662222227000.0])", document));
  CHECK(json_text(document) == R"(["0e193",26666666662222227000.0])");
  REQUIRE(parse_json(R"([1e5, 0e300, 26666666662222227000.0])", document));
  CHECK(document[1].GetDouble() == 0.0);
  // libFuzzer's third (emulator_commands): a zero of 26 fraction digits right before a minus sign, which the
  // scan that sent such zeros to the default parse took for one number with a non-zero digit. The text is
  // not JSON; what matters is that reading it reads no garbage.
  CHECK_FALSE(
      parse_json(R"({"min_value":0.00000000000000000000000000-000000000000000082956869110})", document));
  REQUIRE(parse_json(
      R"({"min_value":0.00000000000000000000000000,"max_value":-0.000000000000000000000000000e-99})",
      document));
  CHECK(document["min_value"].GetDouble() == 0.0);
  CHECK(document["max_value"].GetDouble() == 0.0);
}

}  // namespace json_test
