#include "gateway/dispatch.hpp"

#include <cstring>

#include "core/logger.hpp"

namespace platformpp::gateway {

const json::Value* Dispatch::Data(std::string* error) const {
  if (!parsed_) {
    auto& parsed = parsed_.emplace();
    // RapidJSON stops at a NUL as at the end of the text; the envelope parser refuses those already, and this
    // keeps a Dispatch built elsewhere (tests, benchmarks) just as safe.
    if (dataJson.find('\0') != std::string_view::npos) {
      parsed.error = "a NUL character";
    } else {
      // Parsed in place, in a copy taken from the document's own pool: strings then point into the copy
      // instead of being copied one by one, and a typical dispatch still allocates nothing.
      auto* text = static_cast<char*>(parsed.allocator.Malloc(dataJson.size() + 1));
      std::memcpy(text, dataJson.data(), dataJson.size());
      text[dataJson.size()] = '\0';
      if (json::ParseInsitu(text, parsed.document, &parsed.error) && !parsed.document.IsObject())
        parsed.error = "not a JSON object";
    }
  }
  if (!parsed_->error.empty()) {
    if (error) *error = parsed_->error;
    return nullptr;
  }
  return &parsed_->document;
}

const json::Value* Dispatch::DataOrWarn(core::Logger& log) const {
  std::string error;
  const json::Value* data = Data(&error);
  if (data == nullptr) log.Warning(std::string(type) + ": ignored, `d` is not a JSON object (" + error + ")");
  return data;
}

}  // namespace platformpp::gateway
