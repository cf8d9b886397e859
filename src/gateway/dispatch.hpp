#pragma once
// One Gateway dispatch (op 0) as every feature reads it. `d` is parsed once, on the first call to Data(), and
// the same document serves every reader of the dispatch (the stores, presence, messaging and voice each used
// to parse it again). A dispatch lives on the network thread for the duration of the sink call; its views and
// its document are valid only then.

#include <rapidjson/allocators.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "json/json.hpp"

namespace platformpp::core {
class Logger;
}

namespace platformpp::gateway {

class Dispatch {
 public:
  Dispatch(std::string_view type, std::string_view dataJson, int64_t seq)
      : type(type), dataJson(dataJson), seq(seq) {}
  Dispatch(const Dispatch&) = delete;
  Dispatch& operator=(const Dispatch&) = delete;

  std::string_view type;      ///< `t`, e.g. "PRESENCE_UPDATE"
  std::string_view dataJson;  ///< `d` as JSON text
  int64_t seq = 0;            ///< `s` (0 when the server sent none)

  /// `d` when it is a JSON object, parsed on the first call; null otherwise, with the reason in `*error` (a
  /// parse error names an offset, never the payload's contents).
  const json::Value* Data(std::string* error = nullptr) const;
  /// Data(), or null after a warning in `log` that the dispatch is ignored and why: what a store does with a
  /// `d` it cannot read.
  const json::Value* DataOrWarn(core::Logger& log) const;

 private:
  struct Parsed {
    // User-provided, so that emplace() does not zero the buffer first (value-initialization would).
    Parsed() {}  // NOLINT(modernize-use-equals-default)
    // A typical dispatch fits in the inline buffer, so parsing it allocates nothing (presence updates of a
    // large friends list are the hot path); bigger ones (READY) continue on the heap.
    alignas(std::max_align_t) char buffer[16 * 1024];
    rapidjson::MemoryPoolAllocator<> allocator{buffer, sizeof(buffer)};
    json::Document document{&allocator};
    std::string error;
  };
  mutable std::optional<Parsed> parsed_;
};

}  // namespace platformpp::gateway
