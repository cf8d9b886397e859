// The pins page (pin_json.hpp). An item the SDK cannot read whole makes the page unreadable, as a list answer
// does: a page with a pin silently missing would make the next page's `before` skip pins.
#include "backend/pin_json.hpp"

#include "backend/message_json.hpp"

#include <exception>
#include <string_view>

namespace platformpp::backend {

std::optional<ChannelPinsPage> ParseChannelPinsPageValue(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  const json::Value* items = json::Member(value, "items");
  if (items == nullptr || !items->IsArray()) return std::nullopt;
  ChannelPinsPage page;
  page.items.reserve(items->Size());
  for (const json::Value& item : items->GetArray()) {
    if (!item.IsObject()) return std::nullopt;
    auto pinnedAt = json::GetString(item, "pinned_at");
    const json::Value* message = json::Member(item, "message");
    if (!pinnedAt || message == nullptr) return std::nullopt;
    auto parsed = ParseMessage(*message);
    if (!parsed) return std::nullopt;
    page.items.push_back(PinnedMessage{std::string(*pinnedAt), std::move(*parsed)});
  }
  page.hasMore = json::GetBool(value, "has_more").value_or(false);
  return page;
}

std::optional<ChannelPinsPage> ParseChannelPinsPage(std::string_view json) {
  try {
    json::Document document;
    if (!json::Parse(json, document)) return std::nullopt;
    return ParseChannelPinsPageValue(document);
  } catch (const std::exception&) {
    return std::nullopt;  // out of memory on a huge document
  }
}

}  // namespace platformpp::backend
