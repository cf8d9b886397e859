// The event log (--event-log FILE): everything that crossed the emulator's edge, one JSON object a line, in
// the order the emulator's thread saw it. HTTP exchanges (request and answer, with the caller it
// authenticated), Gateway, voice gateway and IPC frames both ways with their connection, session and user,
// connections opened, closed and dropped, and webhook and interaction POSTs with their outcome. Every line
// has "seq" (from 1), "real_ms" (the machine's clock) and "fake_ms" (the fake clock), Unix epoch
// milliseconds. Secrets are replaced by markers (secret_redaction.hpp). It is what a failed CI run leaves to
// read, what a replay feeds back, and what the web console's inspector shows live.
//
// Cheap enough to leave on: a frame the emulator made is copied in as JSON as it is (no parse), one dispatch
// fanned out to many sessions is written once (one more line names it and the others), and lines go to the
// file through a 1 MiB buffer, flushed every 100 ms and at the end. Only the emulator's thread calls it.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/fake_clock.hpp"
#include "core/http_message.hpp"

namespace platformpp::emulator {

// What the first line of a log says about the emulator that wrote it: what a replay needs to build the same
// emulator (replay/event_log_replay.hpp). Files are named with their SHA-256, so a replay can tell that the
// scenario or snapshot it is given is the one the run had.
struct EventLogStart {
  std::string version;
  std::string gateway_url;
  std::string api_base;
  std::string authority;
  int voice_udp_port = 0;
  FakeClock::Saved clock;
  bool social_rate_limits = true;
  bool admin_token = true;    // the admin API wanted its token (a service inside a test's process may not)
  std::string scenario_path;  // empty: none
  std::string scenario_sha256;
  std::string import_path;  // empty: none
  std::string import_sha256;
  bool state_loaded = false;  // --state brought a world the log does not hold
};

class EventLog {
 public:
  enum class Protocol { gateway, voice, ipc };
  enum class Direction { in, out };

  explicit EventLog(FakeClock& clock);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Writes to `path` from now on (created 0600, or truncated: one run's log). Throws std::runtime_error.
  void open(const std::string& path);
  // Sees each line (without its newline) as it is written: the console's inspector.
  void set_observer(std::function<void(std::string_view line)> observer) { observer_ = std::move(observer); }
  // Whether anything reads the log: callers skip the work of a record when not.
  [[nodiscard]] bool enabled() const noexcept { return file_ != nullptr || observer_ != nullptr; }
  // Writes what is buffered to the file (every 100 ms from the Gateway's tick: `now_steady_ms`), an open
  // fan-out line included.
  void flush();
  void flush_if_due(std::int64_t now_steady_ms);
  [[nodiscard]] std::uint64_t lines() const noexcept { return seq_; }

  // The log's first line, {"kind":"start", ...}: written by the emulator's main before its scenario runs.
  void start(const EventLogStart& start);

  // One HTTP exchange: the request, who it authenticated as (empty: no one), and what was done with it
  // ("respond", "drop", "truncate", or "deferred" when the route answers later). `response` null for a drop.
  // `origin` names who made the request when it was not a client ("scenario": the scenario's own calls).
  void http(const HttpRequest& request, std::string_view user, std::string_view application,
            const HttpResponse* response, std::string_view delivery, std::string_view origin = {});
  // A text frame. `made_here` frames (out) are JSON the emulator wrote and go in as JSON ("frame"); what a
  // client sent goes in as a string ("text"): it may not be JSON at all. An IPC frame has its opcode ("op";
  // -1: none written).
  void frame(Protocol protocol, Direction direction, std::uint64_t connection, std::string_view session,
             std::string_view user, std::string_view text, bool made_here, int opcode = -1);
  // A Gateway dispatch sent to one session: the first of a fan-out is written whole, the others together on
  // the next line, {"same_as": <its seq>, "to": [{"conn", "session", "user", "s": <theirs>}, ...]}, which the
  // next line of another kind (or a flush) completes. `body` identifies the fan-out (the same object for all
  // of it; held until the next dispatch, so that no other can take its address meanwhile).
  void dispatch(std::uint64_t connection, std::string_view session, std::string_view user,
                const std::shared_ptr<const void>& body, std::string_view body_text, std::string_view tail);
  // A binary frame (a voice gateway's DAVE message, an IPC frame): its opcode and size. A client's frame
  // (`data`, given for those) also goes in whole, as hex ("data"), so that a replay can send it again: a
  // DAVE key package or commit holds public keys and signatures, no secret.
  void binary(Protocol protocol, Direction direction, std::uint64_t connection, std::string_view session,
              std::string_view user, int opcode, std::size_t bytes, std::string_view data = {});
  // A connection's life: "open" (with the target it asked for), "close" (the emulator closed it, with the
  // code and reason), "drop" (cut without a close), "gone" (the client left; its close code if it sent one).
  void connection(Protocol protocol, std::string_view event, std::uint64_t connection,
                  std::string_view session, std::string_view user, std::optional<int> code,
                  std::string_view detail);
  // A POST to a webhook events or interactions endpoint URL, and how it ended (the status, or the error),
  // with the answer's body when it had one (an interactions endpoint answers with its response).
  void webhook(std::string_view url, std::string_view body, std::optional<int> status, std::string_view error,
               std::string_view answer = {});

 private:
  void begin(std::string_view kind);  // completes an open fan-out line first
  void end_fanout();
  void end();
  void write_protocol_head(Protocol protocol, std::string_view dir, std::uint64_t connection,
                           std::string_view session, std::string_view user);

  FakeClock& clock_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<char[]> file_buffer_;
  std::function<void(std::string_view)> observer_;
  std::uint64_t seq_ = 0;
  std::int64_t next_flush_ms_ = 0;
  rapidjson::StringBuffer line_;
  rapidjson::Writer<rapidjson::StringBuffer> writer_{line_};
  std::string scratch_;  // redacted text
  std::shared_ptr<const void> last_body_;
  std::uint64_t last_body_seq_ = 0;
  bool fanout_open_ = false;  // line_ holds a fan-out's line, its "to" array still open
};

}  // namespace platformpp::emulator
