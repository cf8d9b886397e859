#include "events/event_log.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <rapidjson/document.h>

#include "core/json.hpp"
#include "core/private_files.hpp"
#include "events/secret_redaction.hpp"

namespace platformpp::emulator {
namespace {

constexpr std::size_t kFileBuffer = std::size_t{1} << 20;
constexpr std::int64_t kFlushEveryMs = 100;

std::string_view protocol_name(EventLog::Protocol protocol) {
  switch (protocol) {
    case EventLog::Protocol::gateway:
      return "gateway";
    case EventLog::Protocol::voice:
      return "voice";
    case EventLog::Protocol::ipc:
      return "ipc";
  }
  return "gateway";
}

std::string_view direction_name(EventLog::Direction direction) {
  return direction == EventLog::Direction::in ? "in" : "out";
}

void key(rapidjson::Writer<rapidjson::StringBuffer>& writer, std::string_view name) {
  writer.Key(name.data(), static_cast<rapidjson::SizeType>(name.size()));
}

void optional_string(rapidjson::Writer<rapidjson::StringBuffer>& writer, std::string_view name,
                     std::string_view value) {
  if (value.empty()) return;
  key(writer, name);
  write_string(writer, value);
}

// An answer's body as JSON when the emulator made it so (its Content-Type says JSON), else as a string.
bool is_json_response(const HttpResponse& response) {
  for (const auto& [name, value] : response.headers) {
    if (iequals(name, "Content-Type")) return value.find("json") != std::string::npos;
  }
  return false;
}

// GET /_emulator/scenario/values/<reference> answers with the value alone, a JSON string with no key
// around it: when the reference's last member is a secret's name (game.client_secret, game.bot_token), the
// answer is that secret's marker instead.
bool is_secret_scenario_value(const HttpRequest& request) {
  constexpr std::string_view kValues = "/_emulator/scenario/values/";
  const auto path = request.path();
  if (path.rfind(kValues, 0) != 0) return false;
  const auto reference = path.substr(kValues.size());
  const auto dot = reference.rfind('.');
  return is_secret_key(dot == std::string_view::npos ? reference : reference.substr(dot + 1));
}

std::string hex_of(std::string_view data) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(data.size() * 2);
  for (const char c : data) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 0x0F]);
  }
  return out;
}

}  // namespace

EventLog::EventLog(FakeClock& clock) : clock_(clock) {}

EventLog::~EventLog() {
  end_fanout();
  if (file_ != nullptr) std::fclose(file_);
}

void EventLog::open(const std::string& path) {
  // A new file, private to the user (it names users and sessions, and what they said), even where one was.
  // What is not a file (a FIFO a tool reads the log from, /dev/stdout, /dev/null) is written as it is:
  // unlinking a device as root would take it from every program on the machine.
  std::error_code ignored;
  const auto existing = std::filesystem::status(path, ignored);
  if (!std::filesystem::exists(existing) || std::filesystem::is_regular_file(existing)) {
    remove_file(path);
    create_private_file(path);
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error("--event-log " + path + ": " + std::strerror(errno));
  if (file_ != nullptr) std::fclose(file_);
  file_ = file;
  file_buffer_ = std::make_unique<char[]>(kFileBuffer);
  std::setvbuf(file_, file_buffer_.get(), _IOFBF, kFileBuffer);
}

void EventLog::flush() {
  end_fanout();
  if (file_ != nullptr) std::fflush(file_);
}

void EventLog::flush_if_due(std::int64_t now_steady_ms) {
  if (now_steady_ms < next_flush_ms_) return;
  next_flush_ms_ = now_steady_ms + kFlushEveryMs;
  flush();
}

void EventLog::end_fanout() {
  if (!fanout_open_) return;
  fanout_open_ = false;
  writer_.EndArray();
  end();
}

void EventLog::begin(std::string_view kind) {
  end_fanout();
  line_.Clear();
  writer_.Reset(line_);
  writer_.StartObject();
  key(writer_, "seq");
  writer_.Uint64(++seq_);
  key(writer_, "real_ms");
  writer_.Int64(clock_.real_ms());
  key(writer_, "fake_ms");
  writer_.Int64(clock_.now_ms());
  key(writer_, "kind");
  write_string(writer_, kind);
}

void EventLog::end() {
  writer_.EndObject();
  const std::string_view line(line_.GetString(), line_.GetSize());
  if (file_ != nullptr) {
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fputc('\n', file_);
  }
  if (observer_) observer_(line);
}

void EventLog::write_protocol_head(Protocol protocol, std::string_view dir, std::uint64_t connection,
                                   std::string_view session, std::string_view user) {
  begin(protocol_name(protocol));
  key(writer_, "dir");
  write_string(writer_, dir);
  key(writer_, "conn");
  writer_.Uint64(connection);
  optional_string(writer_, "session", session);
  optional_string(writer_, "user", user);
}

void EventLog::start(const EventLogStart& start) {
  if (!enabled()) return;
  begin("start");
  key(writer_, "version");
  write_string(writer_, start.version);
  key(writer_, "gateway_url");
  write_string(writer_, start.gateway_url);
  key(writer_, "api_base");
  write_string(writer_, start.api_base);
  key(writer_, "authority");
  write_string(writer_, start.authority);
  key(writer_, "voice_udp_port");
  writer_.Int(start.voice_udp_port);
  key(writer_, "clock");
  writer_.StartObject();
  key(writer_, "frozen");
  writer_.Bool(start.clock.frozen);
  key(writer_, "offset_ms");
  writer_.Int64(start.clock.offset_ms);
  key(writer_, "frozen_at_ms");
  writer_.Int64(start.clock.frozen_at_ms);
  key(writer_, "last_ms");
  writer_.Int64(start.clock.last_ms);
  writer_.EndObject();
  key(writer_, "social_rate_limits");
  writer_.Bool(start.social_rate_limits);
  key(writer_, "admin_token");
  writer_.Bool(start.admin_token);
  // A file the run began from: {"path", "sha256"}.
  const auto file = [this](std::string_view name, std::string_view path, std::string_view sha256) {
    if (path.empty()) return;
    key(writer_, name);
    writer_.StartObject();
    key(writer_, "path");
    write_string(writer_, path);
    key(writer_, "sha256");
    write_string(writer_, sha256);
    writer_.EndObject();
  };
  file("scenario", start.scenario_path, start.scenario_sha256);
  file("import", start.import_path, start.import_sha256);
  if (start.state_loaded) {
    key(writer_, "state_loaded");
    writer_.Bool(true);
  }
  end();
}

void EventLog::http(const HttpRequest& request, std::string_view user, std::string_view application,
                    const HttpResponse* response, std::string_view delivery, std::string_view origin) {
  if (!enabled()) return;
  begin("http");
  optional_string(writer_, "origin", origin);
  key(writer_, "method");
  write_string(writer_, request.method);
  key(writer_, "target");
  write_string(writer_, redacted(request.target));
  optional_string(writer_, "user", user);
  optional_string(writer_, "app", application);
  if (const auto authorization = request.header("Authorization")) {
    key(writer_, "auth");
    write_string(writer_, redacted(*authorization));
  }
  if (const auto type = request.header("Content-Type")) {
    key(writer_, "content_type");
    write_string(writer_, *type);
  }
  if (const auto reason = request.header("X-Audit-Log-Reason")) {
    key(writer_, "audit_reason");
    write_string(writer_, *reason);
  }
  if (!request.body.empty()) {
    key(writer_, "body");
    write_string(writer_, redacted(request.body));
  }
  key(writer_, "delivery");
  write_string(writer_, delivery);
  if (response != nullptr) {
    key(writer_, "status");
    writer_.Int(response->status);
    for (const auto& [name, value] : response->headers) {
      if (iequals(name, "Location")) {
        key(writer_, "location");
        write_string(writer_, redacted(value));
      }
    }
    if (request.path() == "/_emulator/state/export") {
      // The whole world with every key in it: its size is what the log needs.
      key(writer_, "response_bytes");
      writer_.Uint64(response->body.size());
    } else if (response->status == 200 && is_secret_scenario_value(request)) {
      rapidjson::Document value;
      parse_stored_json(response->body, value);
      key(writer_, "response_text");
      write_string(writer_, "\"" +
                                secret_marker(value.IsString() ? std::string_view(value.GetString(),
                                                                                  value.GetStringLength())
                                                               : std::string_view(response->body)) +
                                "\"");
    } else if (!response->body.empty()) {
      scratch_.clear();
      append_redacted(response->body, scratch_);
      if (is_json_response(*response) && (scratch_.front() == '{' || scratch_.front() == '[')) {
        key(writer_, "response");
        writer_.RawValue(scratch_.data(), scratch_.size(),
                         scratch_.front() == '{' ? rapidjson::kObjectType : rapidjson::kArrayType);
      } else {
        key(writer_, "response_text");
        write_string(writer_, scratch_);
      }
    }
  }
  end();
}

void EventLog::frame(Protocol protocol, Direction direction, std::uint64_t connection,
                     std::string_view session, std::string_view user, std::string_view text, bool made_here,
                     int opcode) {
  if (!enabled()) return;
  write_protocol_head(protocol, direction_name(direction), connection, session, user);
  if (opcode >= 0) {
    key(writer_, "op");
    writer_.Int(opcode);
  }
  scratch_.clear();
  append_redacted(text, scratch_);
  if (made_here && !scratch_.empty() && scratch_.front() == '{') {
    key(writer_, "frame");
    writer_.RawValue(scratch_.data(), scratch_.size(), rapidjson::kObjectType);
  } else {
    key(writer_, "text");
    write_string(writer_, scratch_);
  }
  end();
}

void EventLog::dispatch(std::uint64_t connection, std::string_view session, std::string_view user,
                        const std::shared_ptr<const void>& body, std::string_view body_text,
                        std::string_view tail) {
  if (!enabled()) return;
  if (body != nullptr && body == last_body_) {
    // The rest of a fan-out: one line naming the first's seq, with an entry per session. It stays open
    // while the fan-out goes on; the next line of any other kind, or a flush, ends it.
    if (!fanout_open_) {
      begin("gateway");
      key(writer_, "dir");
      write_string(writer_, "out");
      key(writer_, "same_as");
      writer_.Uint64(last_body_seq_);
      key(writer_, "to");
      writer_.StartArray();
      fanout_open_ = true;
    }
    writer_.StartObject();
    key(writer_, "conn");
    writer_.Uint64(connection);
    optional_string(writer_, "session", session);
    optional_string(writer_, "user", user);
    // The tail is `,"s":N}`: N is this session's.
    const auto digits = tail.find_first_of("0123456789");
    const auto digits_end = tail.find_first_not_of("0123456789", digits);
    key(writer_, "s");
    writer_.RawValue(tail.data() + digits,
                     (digits_end == std::string_view::npos ? tail.size() : digits_end) - digits,
                     rapidjson::kNumberType);
    writer_.EndObject();
    return;
  }
  scratch_.clear();
  write_protocol_head(Protocol::gateway, "out", connection, session, user);
  // The body is the dispatch up to its sequence number; the tail (`,"s":N}`) holds no secret.
  append_redacted(body_text, scratch_);
  scratch_.append(tail);
  key(writer_, "frame");
  writer_.RawValue(scratch_.data(), scratch_.size(), rapidjson::kObjectType);
  end();
  last_body_ = body;
  last_body_seq_ = seq_;
}

void EventLog::binary(Protocol protocol, Direction direction, std::uint64_t connection,
                      std::string_view session, std::string_view user, int opcode, std::size_t bytes,
                      std::string_view data) {
  if (!enabled()) return;
  write_protocol_head(protocol, direction_name(direction), connection, session, user);
  key(writer_, "binary_op");
  writer_.Int(opcode);
  key(writer_, "bytes");
  writer_.Uint64(bytes);
  if (!data.empty()) {
    key(writer_, "data");
    write_string(writer_, hex_of(data));
  }
  end();
}

void EventLog::connection(Protocol protocol, std::string_view event, std::uint64_t connection,
                          std::string_view session, std::string_view user, std::optional<int> code,
                          std::string_view detail) {
  if (!enabled()) return;
  write_protocol_head(protocol, event, connection, session, user);
  if (code) {
    key(writer_, "code");
    writer_.Int(*code);
  }
  optional_string(writer_, "detail", redacted(detail));
  end();
}

void EventLog::webhook(std::string_view url, std::string_view body, std::optional<int> status,
                       std::string_view error, std::string_view answer) {
  if (!enabled()) return;
  begin("webhook");
  key(writer_, "url");
  write_string(writer_, redacted(url));
  key(writer_, "body");
  write_string(writer_, redacted(body));
  if (status) {
    key(writer_, "status");
    writer_.Int(*status);
  }
  optional_string(writer_, "error", error);
  if (!answer.empty()) {
    key(writer_, "answer");
    write_string(writer_, redacted(answer));
  }
  end();
}

}  // namespace platformpp::emulator
