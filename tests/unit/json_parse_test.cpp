// The SDK's JSON reads, whole documents (json::Parse) and Gateway dispatches (Dispatch::Data): a number is
// the nearest double to its text, as the platform's own parsers read it, so that what a bot reads and sends
// back (a command's bounds, a component's values) is what the platform sent.
#include <doctest/doctest.h>

#include <string>

#include "gateway/dispatch.hpp"
#include "json/json.hpp"

namespace json_parse_test {

using namespace platformpp;

// Each with more digits than RapidJSON's default parse reads exactly: it was up to 3 units in the last place
// off ("26666666662222227000.0" read as the double that is written "26666666662222230000.0").
constexpr const char* kNumbers[] = {"26666666662222227000.0", "6.666666666662222e22",
                                    "2.2250738585072011e-308", "9007199254740993", "0.30000000000000004441"};
constexpr double kNearest[] = {26666666662222227000.0, 6.666666666662222e22, 2.2250738585072011e-308,
                               9007199254740993.0, 0.30000000000000004441};

TEST_CASE("json::Parse reads a number as the nearest double") {
  for (std::size_t i = 0; i < std::size(kNumbers); ++i) {
    const std::string number = kNumbers[i];
    CAPTURE(number);
    json::Document document;
    REQUIRE(json::Parse(std::string("[") + kNumbers[i] + "]", document));
    CHECK(document[0].GetDouble() == kNearest[i]);
  }
}

TEST_CASE("a dispatch's data reads a number as the nearest double") {
  for (std::size_t i = 0; i < std::size(kNumbers); ++i) {
    const std::string number = kNumbers[i];
    CAPTURE(number);
    const std::string data = std::string(R"({"min_value":)") + kNumbers[i] + "}";
    gateway::Dispatch dispatch{"INTERACTION_CREATE", data, 1};
    const auto* value = dispatch.Data();
    REQUIRE(value != nullptr);
    CHECK((*value)["min_value"].GetDouble() == kNearest[i]);
  }
}

}  // namespace json_parse_test
