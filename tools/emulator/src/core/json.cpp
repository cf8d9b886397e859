#include "core/json.hpp"

namespace platformpp::emulator {

bool parse_json(std::string_view text, rapidjson::Document& document) {
  constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  document.Parse<kFlags>(text.data(), text.size());
  return !document.HasParseError();
}

std::string json_text(const rapidjson::Value& value) {
  return to_json([&](JsonWriter& writer) { value.Accept(writer); });
}

}  // namespace platformpp::emulator
