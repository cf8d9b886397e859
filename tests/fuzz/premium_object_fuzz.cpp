// SKUs, entitlements and subscriptions as HTTP answers, Gateway dispatches and webhook events carry them: any
// JSON decodes to a whole object or to nothing, and what decodes is consistent.
#include "json/json.hpp"
#include "json/timestamp.hpp"
#include "premium/premium_json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace platformpp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  json::Document document;
  if (json::Parse(input, document)) {
    if (auto sku = premium::ParseSku(document); sku && (sku->id == 0 || sku->applicationId == 0))
      __builtin_trap();
    if (auto entitlement = premium::ParseEntitlement(document)) {
      if (entitlement->id == 0 || entitlement->skuId == 0) __builtin_trap();
      (void)entitlement->ActiveAt(UINT64_MAX);
    }
    if (auto subscription = premium::ParseSubscription(document)) {
      for (uint64_t id : subscription->skuIds)
        if (id == 0) __builtin_trap();
    }
    (void)premium::ParseList(document, &premium::ParseEntitlement);
    (void)premium::ParseList(document, &premium::ParseSku);
    (void)premium::ParseList(document, &premium::ParseSubscription);
  }
  // Timestamps both ways: what parses formats back to the same instant.
  if (auto ms = json::ParseTimestampMs(input)) {
    if (json::ParseTimestampMs(json::FormatTimestampMs(*ms)) != ms) __builtin_trap();
  }
  return 0;
}
