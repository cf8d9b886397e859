// Record and replay: an event log (--event-log) played back against a fresh emulator in this process, its
// recorded client side (HTTP requests, Gateway, voice gateway and IPC connections and frames) fed in the
// recorded order, and everything the fresh emulator writes to its own log compared, line by line, with
// what the recording holds: answers, dispatches, closes, the scenario's own calls, webhook deliveries.
//
// What makes a run repeatable:
// - The clock. The fresh emulator's fake clock reads, as its "real" time, the time of the line it is about
//   to write as the recording had it (minus the clock's own offset, which the replayed clock jumps move
//   alike). Every id (snowflakes carry their time) and every timestamp comes out as it did.
// - The world. The log's first line ("start") names the scenario and snapshot the run began from, with
//   their SHA-256; the replay loads the same ones, and refuses a run whose --state brought a world the log
//   does not hold.
// - Random values. Tokens, client secrets and session ids are new in every run. The log holds markers for
//   secrets ("[redacted#<sha-256 prefix>]"), never the secrets: where the recording and the replay write
//   different markers (or session ids) at the same place, the replay learns that the one stands for the
//   other (one to one: a second, different pairing is a difference), and sends the live secret wherever a
//   recorded request carried the recorded marker.
// - Webhook deliveries are answered as the recording says they were (status, error, answer).
//
// A secret a client made itself is in the log as a marker only: the replay sends the value itself when the
// emulator wrote it out in clear somewhere in the log (an external provider's token becomes an account's
// provider user id), else a stand-in of its own (a lobby's secret) wherever the recording used it. What it
// cannot replay, reported rather than guessed: a client's secret checked against something it sent in clear
// (a PKCE code verifier against its challenge), time-outs of real time (a heartbeat that came too late in the
// recording comes at once here), and the voice media over UDP, which the log does not hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace platformpp::emulator {

struct ReplayOptions {
  // Where the scenario and the snapshot are now, when not where the start line says (a log from another
  // machine); their SHA-256 must still match.
  std::string scenario_path;
  std::string import_path;
  // The differences kept in the report (the first ones matter most: later ones often follow from them).
  std::size_t max_differences = 20;
};

struct ReplayDifference {
  std::uint64_t seq = 0;  // the recorded line's
  std::string what;
};

struct ReplayReport {
  // Why the log cannot be replayed at all (no start line, a file that changed...); empty when it was.
  std::string refused;
  std::uint64_t recorded_lines = 0;
  std::uint64_t compared_lines = 0;
  std::uint64_t inputs = 0;
  // Random values (secrets' markers, session ids) found to stand for each other.
  std::size_t mapped_values = 0;
  // Secrets a client made (a lobby's secret), for which the replay sent stand-ins of its own.
  std::size_t stand_ins = 0;
  std::vector<ReplayDifference> differences;
  std::size_t difference_count = 0;  // all of them, kept or not

  [[nodiscard]] bool identical() const noexcept { return refused.empty() && difference_count == 0; }
  // What the command line prints: a summary line, then the differences kept.
  [[nodiscard]] std::string text() const;
};

// Replays the event log read from `recorded`. Throws nothing for a bad log: it is refused in the report.
ReplayReport replay_event_log(std::istream& recorded, const ReplayOptions& options = {});

}  // namespace platformpp::emulator
