#pragma once
// A channel's pinned messages as the backend reads them with the bot token (BackendClient::GetChannelPins):
// one page of pins, newest pin first, each with when it was pinned; the next page starts before the last
// pin's time. ParseChannelPinsPage reads an answer leniently, as the other readers do.

#include <platformpp/client_result.hpp>
#include <platformpp/message_payload.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::backend {

/// The limits of GetChannelPins and PinMessage, as the platform sets them.
namespace pin_limits {
/// A page holds 1 to 50 pins (50 by default).
inline constexpr int32_t MaxPinsPage = 50;
/// A channel holds at most 250 pins (PinMessage beyond: HTTPError 400, code 30003).
inline constexpr int32_t MaxPinsPerChannel = 250;
}  // namespace pin_limits

/// One pinned message.
struct PinnedMessage {
  /// When it was pinned (ISO 8601).
  std::string pinnedAt;
  /// The message.
  ChannelMessage message;
};

/// One page of a channel's pins (GET /channels/{channel}/messages/pins).
struct ChannelPinsPage {
  /// The pins, newest pin first.
  std::vector<PinnedMessage> items;
  /// More pins follow: ask again with `before` set to the last item's `pinnedAt`.
  bool hasMore = false;
};

/// Which page GetChannelPins asks for.
struct PinsQuery {
  /// Only pins made before this time (ISO 8601, e.g. a page's last `pinnedAt`); empty: the newest.
  std::string before;
  /// How many pins, 1 to 50.
  int32_t limit = pin_limits::MaxPinsPage;
};

/// Reads a pins page ({"items": [{"pinned_at", "message"}], "has_more"}); nullopt when `json` is not one (an
/// item without a readable message or time makes the whole page unreadable, as lists are). Never throws.
std::optional<ChannelPinsPage> ParseChannelPinsPage(std::string_view json);

}  // namespace platformpp::backend
