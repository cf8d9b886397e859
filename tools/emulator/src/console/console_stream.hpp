// What the web console's live socket (/_emulator/ui/live) sends: a snapshot of every document, then each
// committed turn's changes, as JSON text. Kinds that hold secrets are left out, and applications and lobbies
// lose theirs (client secret, bot token, signing key; the join secret): the page shows the platform's data,
// never a credential.
//
// A page may also ask for the event log (events/event_log.hpp), live: the inspector. After its token, the
// page sends {"inspect": true} and gets {"type":"inspector","active":true,"after_seq":N,"continuous":bool},
// then
// {"type":"events","batch":B,"dropped":D,"lines":[<event log line>...]} frames, each of which it acknowledges
// with {"ack": B}. At most InspectorLimits::window frames are unacknowledged at a time; the lines that wait
// behind them are queued, up to a bound of lines and bytes, past which the oldest go and the next frame's
// "dropped" counts them: a slow page costs the emulator a bounded amount of memory, and learns what it
// missed. {"inspect": false} stops. The log's lines are already redacted (events/secret_redaction.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/state_changes.hpp"
#include "events/event_log.hpp"

namespace platformpp::emulator {

// {"type":"snapshot","documents":[{"kind","id","body"}...]}
[[nodiscard]] std::string console_snapshot_json(const StateChanges& changes);
// {"type":"changes","changes":[{"kind","id","body" or null}...]}; nullopt when nothing in them is shown.
[[nodiscard]] std::optional<std::string> console_changes_json(const std::vector<DocumentChange>& changes);
// The admin token in the page's first message, {"admin_token": "..."}; empty when the message is not that.
[[nodiscard]] std::string console_admin_token(std::string_view message);
// Whether the changes are a replacement of everything (an import or a reset): the page needs a new snapshot.
[[nodiscard]] bool console_changes_replace_all(const std::vector<DocumentChange>& changes);

// ---- the inspector ----------------------------------------------------------------------------------------

/// How much one page's inspector feed may hold and send at a time.
struct InspectorLimits {
  /// Lines queued (not yet sent) at most: past it the oldest are dropped and counted.
  std::size_t max_lines = 5000;
  /// Bytes of queued lines at most, likewise (a line longer than this alone is dropped at once).
  std::size_t max_bytes = std::size_t{8} << 20;
  /// Lines in one "events" frame at most.
  std::size_t batch_lines = 500;
  /// Bytes of lines in one "events" frame at most (a frame has at least one line, whatever its size).
  std::size_t batch_bytes = std::size_t{512} << 10;
  /// "events" frames sent and not yet acknowledged at most.
  std::uint64_t window = 4;
};

class InspectorFeed;

/// The event log's readers among the console's pages: puts the log's observer in place while at least one
/// feed is active, and takes it away when the last one stops, so that without an inspector open the log does
/// no work on its account (EventLog::enabled()). The service owns one; used on the emulator's thread only.
class InspectorHub {
 public:
  /// Observes `log` while a feed is active. The log must outlive the hub.
  explicit InspectorHub(EventLog& log) : log_(log) {}
  /// Takes the observer away if it put it there.
  ~InspectorHub();
  /// Not copied: the log's observer and the feeds hold its address.
  InspectorHub(const InspectorHub&) = delete;
  /// Not copied: the log's observer and the feeds hold its address.
  InspectorHub& operator=(const InspectorHub&) = delete;

  /// How many feeds are active.
  [[nodiscard]] std::size_t listeners() const noexcept { return feeds_.size(); }
  /// The event log the feeds read.
  [[nodiscard]] EventLog& log() noexcept { return log_; }

 private:
  friend class InspectorFeed;
  void join(InspectorFeed& feed);
  void leave(InspectorFeed& feed);

  EventLog& log_;
  std::vector<InspectorFeed*> feeds_;
};

/// One page's inspector: the event log's lines as "events" frames, with the bounded queue and the window of
/// unacknowledged frames described above. Inactive until the page asks; `send` writes a text frame to the
/// page's socket. Used on the emulator's thread only.
class InspectorFeed {
 public:
  /// Writes one text frame to the page.
  using Send = std::function<void(std::string frame)>;
  /// A feed of `hub`'s log, inactive until start() (or the page's {"inspect": true}).
  InspectorFeed(InspectorHub& hub, Send send, InspectorLimits limits = {});
  /// Leaves the hub if active.
  ~InspectorFeed();
  /// Not copied: the hub holds its address while it is active.
  InspectorFeed(const InspectorFeed&) = delete;
  /// Not copied: the hub holds its address while it is active.
  InspectorFeed& operator=(const InspectorFeed&) = delete;

  /// A message from the page after its token: {"inspect": bool} or {"ack": N}. False when it is neither
  /// (ignored).
  bool handle(std::string_view message);
  /// Starts the feed (sends the "inspector" frame first); nothing when active already.
  void start();
  /// Stops it: what is queued is forgotten.
  void stop();
  /// The page is done with frames up to `batch`: more may be sent.
  void acknowledge(std::uint64_t batch);
  /// One event log line (the hub's observer calls it): queued, then sent when the window allows.
  void push(std::string_view line);

  /// Whether the feed is active.
  [[nodiscard]] bool active() const noexcept { return active_; }
  /// Lines queued, not yet sent.
  [[nodiscard]] std::size_t queued_lines() const noexcept { return queue_.size(); }
  /// Bytes of the lines queued.
  [[nodiscard]] std::size_t queued_bytes() const noexcept { return queued_bytes_; }
  /// Lines dropped since start() (sent or still to be reported).
  [[nodiscard]] std::uint64_t dropped() const noexcept { return dropped_total_; }
  /// "events" frames sent and not yet acknowledged.
  [[nodiscard]] std::uint64_t unacknowledged() const noexcept { return sent_ - acknowledged_; }

 private:
  void drop_oldest();
  void pump();

  InspectorHub& hub_;
  Send send_;
  InspectorLimits limits_;
  bool active_ = false;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  std::uint64_t dropped_unreported_ = 0;
  std::uint64_t dropped_total_ = 0;
  std::uint64_t sent_ = 0;          // the last frame's batch number
  std::uint64_t acknowledged_ = 0;  // the last acknowledged one
};

}  // namespace platformpp::emulator
