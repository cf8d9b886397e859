// Admin routes of the forwarding unit (docs/voice-protocol.md, "Admin API"): UDP faults on what it sends.
#pragma once

#include "core/router.hpp"
#include "voice/forwarding_unit.hpp"

namespace platformpp::emulator {

inline constexpr std::int64_t kVoiceJitterMaxMs = 10000;

// POST /voice/udp-faults {"loss_percent"?, "reorder_percent"?, "jitter_ms"?, "seed"?} and DELETE on
// `admin_router` (paths relative to /_emulator). `unit` must outlive the router.
void register_voice_media_routes(Router& admin_router, ForwardingUnit& unit);

}  // namespace platformpp::emulator
