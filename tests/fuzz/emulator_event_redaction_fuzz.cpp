// The event log's redaction (tools/emulator/src/events/secret_redaction.hpp) sees every frame and body that
// crosses the emulator's edge, any bytes a client sends. Nothing may crash; secrets planted around the input
// in each of the shapes it knows never survive; and what was JSON before is JSON after (the log embeds
// the emulator's own frames as JSON, unparsed).
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "events/secret_redaction.hpp"

namespace {

bool is_json(std::string_view text) {
  rapidjson::Document document;
  document.Parse(text.data(), text.size());
  return !document.HasParseError();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string out = redacted(input);
  if (is_json(input) && !is_json(out)) __builtin_trap();

  // Each shape, complete before the input starts, so that nothing the input holds can make it something else.
  // An input that holds the planted value itself (libFuzzer finds it among the program's constants) shows it
  // in plain text, as any text that is not in a secret's place: nothing to check then.
  const std::string secret = "Pl4nted-s3cret_value.0123456789";
  if (input.find(secret) != std::string_view::npos) return 0;
  const std::string planted[] = {
      R"({"access_token":")" + secret + R"("})",
      "Authorization: Bearer " + secret + " ",
      "code_verifier=" + secret + "&",
      "/api/v10/webhooks/123/" + secret + "/messages ",
  };
  for (const auto& prefix : planted) {
    if (redacted(prefix + std::string(input)).find(secret) != std::string::npos) __builtin_trap();
  }
  return 0;
}
