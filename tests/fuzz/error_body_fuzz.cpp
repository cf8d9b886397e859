// The platform's error bodies, as they arrive from the network.
#include "json/error_body.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  int status = 400 + data[0];
  std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  auto details = platformpp::json::ParseErrorResponse(
      status, body, data[0] % 2 ? std::optional<double>(1.5) : std::nullopt);
  if (details.status != status || details.error.empty()) __builtin_trap();
  platformpp::ClientResult result(std::move(details));
  (void)result.ToString();
  return 0;
}
