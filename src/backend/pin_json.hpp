#pragma once
// A channel's pins on the wire: the paginated answer of Get Channel Pins.

#include "json/json.hpp"

#include <platformpp/channel_pins.hpp>

#include <optional>

namespace platformpp::backend {

/// A pins page; nullopt when `value` is not one (an item without a readable message or time included).
std::optional<ChannelPinsPage> ParseChannelPinsPageValue(const json::Value& value);

}  // namespace platformpp::backend
