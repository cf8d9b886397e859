#include "fault_schedule.hpp"

#include <algorithm>
#include <cstdio>
#include <random>

namespace soak {
namespace {

// mt19937_64's sequence is fixed by the standard; its distributions are not, so values are drawn here.
struct Draw {
  std::mt19937_64 engine;
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : engine() % n; }
  double Unit() { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }
};

constexpr FaultKind kEveryKind[] = {
    FaultKind::GatewayDrop,       FaultKind::InvalidSession,   FaultKind::VoiceDrop,
    FaultKind::RateLimitStorm,    FaultKind::ServerErrorBurst, FaultKind::HeartbeatStall,
    FaultKind::UdpLossAndReorder, FaultKind::IpcVanish,        FaultKind::TokenExpiry,
    FaultKind::TokenRevocation,   FaultKind::EmulatorKill,
};

}  // namespace

const char* KindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::GatewayDrop:
      return "gateway drop";
    case FaultKind::InvalidSession:
      return "invalid session";
    case FaultKind::VoiceDrop:
      return "voice drop";
    case FaultKind::RateLimitStorm:
      return "429 storm";
    case FaultKind::ServerErrorBurst:
      return "5xx burst";
    case FaultKind::HeartbeatStall:
      return "heartbeat ACKs stalled";
    case FaultKind::UdpLossAndReorder:
      return "UDP loss 10 % and reordering";
    case FaultKind::IpcVanish:
      return "desktop client's IPC gone";
    case FaultKind::TokenExpiry:
      return "tokens expire";
    case FaultKind::TokenRevocation:
      return "token revoked";
    case FaultKind::EmulatorKill:
      return "emulator killed and restarted";
  }
  return "?";
}

std::string Describe(const ScheduledFault& fault) {
  char text[160];
  std::snprintf(text, sizeof text, "%7.2f s %s", fault.atSeconds, KindName(fault.kind));
  std::string out = text;
  switch (fault.kind) {
    case FaultKind::GatewayDrop:
    case FaultKind::VoiceDrop:
    case FaultKind::HeartbeatStall:
    case FaultKind::TokenRevocation:
      out += " (player " + std::to_string(fault.player) + ")";
      break;
    case FaultKind::InvalidSession:
      out += std::string(fault.resumable ? " resumable" : " not resumable") + " (player " +
             std::to_string(fault.player) + ")";
      break;
    case FaultKind::UdpLossAndReorder:
    case FaultKind::IpcVanish:
      std::snprintf(text, sizeof text, " for %.1f s", fault.durationSeconds);
      out += text;
      break;
    default:
      break;
  }
  return out;
}

std::vector<ScheduledFault> MakeSchedule(uint64_t seed, double seconds, int players, bool withKill) {
  Draw draw{std::mt19937_64(seed)};
  std::vector<FaultKind> kinds;
  for (const auto kind : kEveryKind)
    if (kind != FaultKind::EmulatorKill || withKill) kinds.push_back(kind);
  // About one fault every 2.5 s, every kind at least once; the kill and the token events stay rare (each
  // costs every player a new session).
  const double active = seconds * 0.75;
  const auto count = std::max<std::size_t>(kinds.size(), static_cast<std::size_t>(active / 2.5));
  std::vector<FaultKind> picks = kinds;
  while (picks.size() < count) {
    const auto kind = kinds[draw.Below(kinds.size())];
    if (kind == FaultKind::EmulatorKill || kind == FaultKind::TokenExpiry) {
      // At most one of each per ten minutes of soak.
      const auto same = std::count(picks.begin(), picks.end(), kind);
      if (static_cast<double>(same) >= seconds / 600.0) continue;
    }
    picks.push_back(kind);
  }
  // Shuffle (Fisher-Yates with our own draw).
  for (std::size_t i = picks.size(); i > 1; --i)
    std::swap(picks[i - 1], picks[draw.Below(i)]);
  std::vector<ScheduledFault> schedule;
  const double step = active / static_cast<double>(picks.size() + 1);
  for (std::size_t i = 0; i < picks.size(); ++i) {
    ScheduledFault fault;
    fault.kind = picks[i];
    fault.atSeconds = step * static_cast<double>(i + 1) + (draw.Unit() - 0.5) * step * 0.5;
    fault.player = static_cast<int>(draw.Below(static_cast<uint64_t>(players)));
    fault.resumable = draw.Below(2) == 0;
    fault.durationSeconds = 2.0 + draw.Unit() * 3.0;
    schedule.push_back(fault);
  }
  return schedule;
}

}  // namespace soak
