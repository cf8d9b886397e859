// The fault soak's schedule: which fault hits whom and when, drawn from a seed alone, so that a run is
// reproducible from the seed it prints (the network's timing is not, the faults and the game's actions are).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace soak {

/// What the soak injects (issue 38, part 2).
enum class FaultKind {
  GatewayDrop,        ///< a player's Gateway connection cut without a close frame; the session resumes
  InvalidSession,     ///< op 9, resumable or not (`resumable`)
  VoiceDrop,          ///< a player's voice gateway connection cut; the voice session resumes
  RateLimitStorm,     ///< 429s with Retry-After on the message routes
  ServerErrorBurst,   ///< 502s on the message routes
  HeartbeatStall,     ///< the server stops acknowledging a player's heartbeats
  UdpLossAndReorder,  ///< 10 % of voice datagrams lost, 5 % reordered, for `durationSeconds`
  IpcVanish,          ///< the desktop client's IPC goes away for `durationSeconds`, then returns
  TokenExpiry,        ///< the fake clock jumps past every access token's expiry
  TokenRevocation,    ///< a player's token revoked, then its connection cut: a terminal close (4004)
  EmulatorKill,       ///< SIGKILL, then the emulator restarted on its state file and port
};

/// One fault of the schedule.
struct ScheduledFault {
  double atSeconds = 0;  ///< from the start of the soak
  FaultKind kind = FaultKind::GatewayDrop;
  int player = 0;              ///< the player it hits, where it hits one
  bool resumable = false;      ///< InvalidSession: may the session resume
  double durationSeconds = 0;  ///< how long a fault with a duration lasts
};

/// The schedule of a run: faults spread over `seconds` (the last quarter is left quiet, for the end checks'
/// settling), every kind at least once (EmulatorKill only `withKill`), the rest drawn at random. Depends on
/// the arguments alone: the same seed gives the same schedule on every machine (no std distributions, whose
/// results differ between standard libraries).
std::vector<ScheduledFault> MakeSchedule(uint64_t seed, double seconds, int players, bool withKill);

/// "12.5 s gateway drop (player 3)".
std::string Describe(const ScheduledFault& fault);

/// The kind's name, as the report prints it.
const char* KindName(FaultKind kind);

}  // namespace soak
