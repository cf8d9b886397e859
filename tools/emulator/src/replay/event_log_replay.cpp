#include "replay/event_log_replay.hpp"

#include <openssl/sha.h>
#include <rapidjson/document.h>

#include <array>
#include <cctype>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/fake_clock.hpp"
#include "core/http_message.hpp"
#include "core/json.hpp"
#include "core/random_token.hpp"
#include "core/service_context.hpp"
#include "events/event_log.hpp"
#include "events/secret_redaction.hpp"
#include "gateway/gateway.hpp"
#include "ipc/ipc_codec.hpp"
#include "ipc/ipc_peer.hpp"
#include "replay/file_digest.hpp"
#include "scenario/scenario_file.hpp"
#include "service/emulator_service.hpp"
#include "state/state_store.hpp"
#include "voice/voice_gateway.hpp"
#include "webhook/webhook_transport.hpp"

namespace platformpp::emulator {
namespace {

constexpr std::string_view kMarkerPrefix = "[redacted#";
constexpr std::size_t kMarkerSize = 19;  // "[redacted#" + 8 hex digits + "]"
constexpr int kMaxDepth = 64;            // JSON nesting the replay walks

std::string_view string_of(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return {};
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::optional<std::int64_t> integer_of(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return std::nullopt;
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || !it->value.IsInt64()) return std::nullopt;
  return it->value.GetInt64();
}

bool flag_of(const rapidjson::Value& object, const char* name, bool otherwise) {
  if (!object.IsObject()) return otherwise;
  const auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsBool() ? it->value.GetBool() : otherwise;
}

bool is_marker_at(std::string_view text, std::size_t at) {
  return text.size() >= at + kMarkerSize && text.compare(at, kMarkerPrefix.size(), kMarkerPrefix) == 0 &&
         text[at + kMarkerSize - 1] == ']';
}

// A text cut at its markers: the plain pieces and, between them, the markers.
struct MarkedText {
  std::vector<std::string_view> plain;  // one more than markers
  std::vector<std::string_view> markers;
};
MarkedText split_markers(std::string_view text) {
  MarkedText out;
  std::size_t from = 0;
  for (std::size_t at = text.find(kMarkerPrefix); at != std::string_view::npos;
       at = text.find(kMarkerPrefix, at + 1)) {
    if (!is_marker_at(text, at)) continue;
    out.plain.push_back(text.substr(from, at - from));
    out.markers.push_back(text.substr(at, kMarkerSize));
    from = at + kMarkerSize;
    at = from - 1;
  }
  out.plain.push_back(text.substr(from));
  return out;
}

std::string bytes_from_hex(std::string_view hex) {
  std::string out;
  out.reserve(hex.size() / 2);
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int high = digit(hex[i]);
    const int low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return {};
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

// What a recorded line is about, for a difference's message: `http GET /api/v10/gateway`, `gateway out
// READY`, `voice in`...
std::string describe(const rapidjson::Value& line) {
  std::string text(string_of(line, "kind"));
  if (text == "http") {
    text += " ";
    text += string_of(line, "method");
    text += " ";
    text += string_of(line, "target");
  } else if (!string_of(line, "dir").empty()) {
    text += " ";
    text += string_of(line, "dir");
    if (line.HasMember("frame") && line["frame"].IsObject()) {
      const auto type = string_of(line["frame"], "t");
      if (!type.empty()) {
        text += " ";
        text += type;
      } else if (const auto op = integer_of(line["frame"], "op")) {
        text += " op " + std::to_string(*op);
      }
    }
  }
  return text;
}

// A value for a difference's message, without walking into it (a container's nesting is the log's).
std::string shallow_text(const rapidjson::Value& value) {
  if (value.IsObject()) return "an object of " + std::to_string(value.MemberCount()) + " members";
  if (value.IsArray()) return "an array of " + std::to_string(value.Size()) + " items";
  const auto text = json_text(value);
  return text.size() <= 160 ? text : text.substr(0, 157) + "...";
}

std::string shorten(std::string_view text) {
  return text.size() <= 160 ? std::string(text) : std::string(text.substr(0, 157)) + "...";
}

// The peers the fresh emulator writes to: what they are sent is only mined for secrets (its event log,
// not these, is what is compared).
using Harvest = std::function<void(std::string_view json)>;

struct ReplayGatewayPeer final : GatewayPeer {
  explicit ReplayGatewayPeer(Harvest harvest) : harvest_(std::move(harvest)) {}
  void enable_compression() override {}
  void send(std::string json) override { harvest_(json); }
  void send_dispatch(const SharedDispatchBody& body, std::string_view tail) override {
    harvest_(body->text + std::string(tail));
  }
  void close(int, std::string) override {}
  void drop() override {}
  Harvest harvest_;
};

struct ReplayVoicePeer final : VoiceGatewayPeer {
  explicit ReplayVoicePeer(Harvest harvest) : harvest_(std::move(harvest)) {}
  void send_text(std::string json) override { harvest_(json); }
  void send_binary(std::string) override {}
  void close(int, std::string) override {}
  void drop() override {}
  Harvest harvest_;
};

struct ReplayIpcPeer final : IpcPeer {
  explicit ReplayIpcPeer(Harvest harvest) : harvest_(std::move(harvest)) {}
  void send(std::string bytes) override {
    if (bytes.size() > kIpcHeaderSize) harvest_(std::string_view(bytes).substr(kIpcHeaderSize));
  }
  void close() override {}
  Harvest harvest_;
};

// Webhook and interaction POSTs, answered when the replay reaches the line that says how they ended.
struct ReplayWebhookTransport final : WebhookTransport {
  void post(WebhookPost post, std::function<void(WebhookPostResult)> done) override {
    if (harvest) harvest(post.body);  // an interaction's token, which the game then answers with
    pending.push_back(std::move(done));
  }
  Harvest harvest;
  std::deque<std::function<void(WebhookPostResult)>> pending;
};

class Replayer {
 public:
  Replayer(const ReplayOptions& options, ReplayReport& report) : options_(options), report_(report) {}

  void run(std::istream& recorded) {
    if (!read(recorded)) return;
    const auto& start = lines_.front();
    if (string_of(start, "kind") != "start") {
      report_.refused = "the log has no start line (it was written by an emulator before record and replay)";
      return;
    }
    if (start.HasMember("state_loaded")) {
      report_.refused = "the run began from a --state file, whose world the log does not hold";
      return;
    }
    std::optional<Scenario> scenario;
    std::string snapshot;
    if (!load_file(start, "scenario", options_.scenario_path,
                   [&](const std::string& path) { scenario = parse_scenario(read_file(path), path); }))
      return;
    if (!load_file(start, "import", options_.import_path,
                   [&](const std::string& path) { snapshot = read_file(path); }))
      return;

    // The clock reads the recorded real time of the line the emulator writes next (a turn reads it once).
    clock_ = std::make_unique<FakeClock>([this] { return recorded_time(); });
    if (start.HasMember("clock") && start["clock"].IsObject()) {
      const auto& saved = start["clock"];
      FakeClock::Saved state;
      state.frozen = saved.HasMember("frozen") && saved["frozen"].IsBool() && saved["frozen"].GetBool();
      state.offset_ms = integer_of(saved, "offset_ms").value_or(0);
      state.frozen_at_ms = integer_of(saved, "frozen_at_ms").value_or(0);
      state.last_ms = integer_of(saved, "last_ms").value_or(0);
      clock_->restore(state);
    }
    service_ = std::make_unique<EmulatorService>(
        *clock_, ServiceEndpoints{std::string(string_of(start, "gateway_url")),
                                  std::string(string_of(start, "api_base")),
                                  std::string(string_of(start, "authority"))});
    admin_token_ = random_token();
    secrets_[secret_marker(admin_token_)] = admin_token_;
    if (flag_of(start, "admin_token", true)) service_->set_admin_token(admin_token_);
    service_->set_social_rate_limits_enabled(flag_of(start, "social_rate_limits", true));
    if (!snapshot.empty()) service_->state_store().replace_all(StateStore::parse_snapshot(snapshot));
    service_->event_log().set_observer([this](std::string_view line) { compare_next(line); });
    cursor_ = 0;  // the fresh emulator's start line is compared too (its version, endpoints, clock)
    service_->event_log().start(start_of(start));
    webhooks_.harvest = [this](std::string_view json) { harvest_secrets(json); };
    service_->set_webhook_transport(&webhooks_);
    service_->set_voice_udp_port(static_cast<std::uint16_t>(integer_of(start, "voice_udp_port").value_or(0)));
    if (scenario) service_->play_scenario(std::move(*scenario), admin_token_);

    while (cursor_ < lines_.size()) {
      const auto& line = lines_[cursor_];
      const std::size_t before = cursor_;
      if (is_input(line)) {
        ++report_.inputs;
        feed(line);
        if (cursor_ == before) {
          difference(line, "the replayed emulator wrote no line for this input");
          ++cursor_;
        }
        continue;
      }
      if (string_of(line, "kind") == "webhook" && !webhooks_.pending.empty()) {
        answer_webhook(line);
        if (cursor_ != before) continue;
      }
      // An HTTP exchange is written once it is answered, after what it caused (dispatches, closes): what
      // comes before the next client's request may be its doing.
      if (const auto next = next_http_input(); next && *next != before) {
        ++report_.inputs;
        feed_http(lines_[*next]);
        if (cursor_ != before) continue;
      }
      service_->gateway_tick();
      if (cursor_ == before) {
        difference(line, "not written by the replayed emulator");
        ++cursor_;
      }
    }
    service_->event_log().flush();  // an open fan-out line ends here
    service_->event_log().set_observer({});
    report_.mapped_values = recorded_to_live_.size();
    report_.stand_ins = stand_ins_;
  }

 private:
  // Every string of the recording, by its marker: a client's value that a line also holds in clear.
  void index_clear_values(const rapidjson::Value& value, int depth) {
    if (depth > kMaxDepth) return;
    if (value.IsString()) {
      const std::string_view text(value.GetString(), value.GetStringLength());
      if (!text.empty() && text.size() <= 4096 && !is_marker_at(text, 0))
        shown_in_clear_.emplace(secret_marker(text), std::string(text));
    } else if (value.IsObject()) {
      for (const auto& member : value.GetObject())
        index_clear_values(member.value, depth + 1);
    } else if (value.IsArray()) {
      for (const auto& item : value.GetArray())
        index_clear_values(item, depth + 1);
    }
  }

  bool read(std::istream& recorded) {
    std::string text;
    while (std::getline(recorded, text)) {
      if (text.empty()) continue;
      rapidjson::Document line;
      if (!parse_json(text, line) || !line.IsObject()) {
        report_.refused = "line " + std::to_string(lines_.size() + 1) + " is not a JSON object";
        return false;
      }
      lines_.push_back(std::move(line));
    }
    report_.recorded_lines = lines_.size();
    for (const auto& line : lines_) {
      for (const auto& member : line.GetObject())
        if (member.name == "frame" || member.name == "response") index_clear_values(member.value, 0);
    }
    if (lines_.empty()) report_.refused = "the log is empty";
    return !lines_.empty();
  }

  // The start line's scenario or snapshot: the file given instead, or the one it names, with the same
  // SHA-256.
  template <class Load>
  bool load_file(const rapidjson::Value& start, const char* name, const std::string& instead, Load&& load) {
    if (!start.HasMember(name)) return true;
    const auto& file = start[name];
    const std::string path = instead.empty() ? std::string(string_of(file, "path")) : instead;
    const auto digest = file_sha256_hex(path);
    if (digest.empty()) {
      report_.refused = std::string("the run's ") + name + " file " + path + " cannot be read";
      return false;
    }
    if (digest != string_of(file, "sha256")) {
      report_.refused =
          std::string("the ") + name + " file " + path + " is not the one the run had (SHA-256 differs)";
      return false;
    }
    try {
      load(path);
    } catch (const std::exception& e) {
      report_.refused = std::string("the run's ") + name + " file " + path + ": " + e.what();
      return false;
    }
    return true;
  }

  // The start line this emulator writes: the recorded one's, but for its own version.
  EventLogStart start_of(const rapidjson::Value& recorded) const {
    EventLogStart start;
    start.version = kEmulatorVersion;
    start.gateway_url = string_of(recorded, "gateway_url");
    start.api_base = string_of(recorded, "api_base");
    start.authority = string_of(recorded, "authority");
    start.voice_udp_port = static_cast<int>(integer_of(recorded, "voice_udp_port").value_or(0));
    start.clock = clock_->save();
    start.social_rate_limits = flag_of(recorded, "social_rate_limits", true);
    start.admin_token = flag_of(recorded, "admin_token", true);
    if (recorded.HasMember("scenario")) {
      start.scenario_path = string_of(recorded["scenario"], "path");
      start.scenario_sha256 = string_of(recorded["scenario"], "sha256");
    }
    if (recorded.HasMember("import")) {
      start.import_path = string_of(recorded["import"], "path");
      start.import_sha256 = string_of(recorded["import"], "sha256");
    }
    return start;
  }

  std::int64_t recorded_time() const {
    const std::size_t at = cursor_ < lines_.size() ? cursor_ : lines_.size() - 1;
    return integer_of(lines_[at], "real_ms").value_or(0);
  }

  // The next line that is a client's input, when it is an HTTP exchange.
  std::optional<std::size_t> next_http_input() const {
    for (std::size_t at = cursor_; at < lines_.size(); ++at) {
      if (!is_input(lines_[at]) && !lines_[at].HasMember("origin")) continue;
      if (string_of(lines_[at], "kind") == "http" && !lines_[at].HasMember("origin")) return at;
      return std::nullopt;
    }
    return std::nullopt;
  }

  // What a client did (fed here), as against what the emulator did (compared).
  static bool is_input(const rapidjson::Value& line) {
    const auto kind = string_of(line, "kind");
    if (kind == "http") return !line.HasMember("origin");
    if (kind == "gateway" || kind == "voice" || kind == "ipc") {
      const auto dir = string_of(line, "dir");
      return dir == "open" || dir == "in" || dir == "gone";
    }
    return false;
  }

  // ---- feeding ----

  void feed(const rapidjson::Value& line) {
    const auto kind = string_of(line, "kind");
    if (kind == "http") {
      feed_http(line);
      return;
    }
    const auto dir = string_of(line, "dir");
    const auto connection = integer_of(line, "conn").value_or(0);
    const auto harvest = [this](std::string_view json) { harvest_secrets(json); };
    if (dir == "open") {
      const std::string target(string_of(line, "detail"));
      // The live id is learned when the fresh emulator's open line is compared with this one.
      if (kind == "gateway") {
        auto peer = std::make_unique<ReplayGatewayPeer>(harvest);
        service_->gateway_opened(*peer, target);
        gateway_peers_.push_back(std::move(peer));
      } else if (kind == "voice") {
        auto peer = std::make_unique<ReplayVoicePeer>(harvest);
        service_->voice_opened(*peer, target);
        voice_peers_.push_back(std::move(peer));
      } else {
        auto peer = std::make_unique<ReplayIpcPeer>(harvest);
        service_->ipc_connected(*peer);
        ipc_peers_.push_back(std::move(peer));
      }
      return;
    }
    const auto live = live_connection(kind, connection);
    if (!live) {
      difference(line, "a connection the replayed emulator never opened");
      return;
    }
    if (dir == "gone") {
      std::optional<int> code;
      if (const auto recorded = integer_of(line, "code")) code = static_cast<int>(*recorded);
      if (kind == "gateway") service_->gateway_disconnected(*live, code);
      if (kind == "voice") service_->voice_disconnected(*live, code);
      if (kind == "ipc") service_->ipc_disconnected(*live);
      return;
    }
    // A frame in.
    const bool text = line.HasMember("text");
    const std::string message =
        text ? to_live(string_of(line, "text")) : bytes_from_hex(string_of(line, "data"));
    if (!text && message.empty()) {
      difference(line,
                 "a binary frame the log holds only the size of (recorded before frames kept their bytes)");
      return;
    }
    if (kind == "gateway") service_->gateway_received(*live, message, text);
    if (kind == "voice") service_->voice_received(*live, message, text);
    if (kind == "ipc") {
      const auto opcode = integer_of(line, "op").value_or(static_cast<std::int64_t>(IpcOpcode::frame));
      service_->ipc_received(*live, encode_ipc_frame(static_cast<IpcOpcode>(opcode), message));
    }
  }

  void feed_http(const rapidjson::Value& line) {
    HttpRequest request;
    request.method = string_of(line, "method");
    request.target = to_live(string_of(line, "target"));
    request.client_address = "127.0.0.1";
    if (line.HasMember("auth")) {
      auto recorded = string_of(line, "auth");
      // The admin token: the recording's stands for this emulator's.
      if (request.target.rfind("/_emulator/", 0) == 0) {
        for (const auto marker : split_markers(recorded).markers)
          learn_marker(std::string(marker), secret_marker(admin_token_));
      }
      request.headers.emplace_back("Authorization", to_live(recorded));
    }
    if (line.HasMember("content_type"))
      request.headers.emplace_back("Content-Type", std::string(string_of(line, "content_type")));
    if (line.HasMember("audit_reason"))
      request.headers.emplace_back("X-Audit-Log-Reason", std::string(string_of(line, "audit_reason")));
    request.body = to_live(string_of(line, "body"));
    const auto outcome = service_->handle(request);
    harvest_secrets(outcome.response.body);
  }

  void answer_webhook(const rapidjson::Value& line) {
    WebhookPostResult result;
    if (const auto status = integer_of(line, "status")) result.status = static_cast<int>(*status);
    result.error = string_of(line, "error");
    result.body = to_live(string_of(line, "answer"));
    if (!result.body.empty()) result.content_type = "application/json";
    auto done = std::move(webhooks_.pending.front());
    webhooks_.pending.pop_front();
    done(std::move(result));
  }

  std::optional<std::uint64_t> live_connection(std::string_view kind, std::int64_t recorded) const {
    const auto it = connections_.find({std::string(kind), recorded});
    if (it == connections_.end()) return std::nullopt;
    return it->second;
  }

  // A recorded input as this emulator needs it: each marker replaced by the live secret it stands for, each
  // session id by the live one.
  std::string to_live(std::string_view recorded) {
    pair_pkce_challenges(recorded);
    const auto marked = split_markers(recorded);
    std::string out;
    for (std::size_t i = 0; i < marked.plain.size(); ++i) {
      out += replace_values(marked.plain[i]);
      if (i == marked.markers.size()) break;
      const std::string marker(marked.markers[i]);
      const auto live = recorded_to_live_.find(marker);
      const auto secret = live == recorded_to_live_.end() ? secrets_.end() : secrets_.find(live->second);
      const auto shown =
          live == recorded_to_live_.end() ? shown_in_clear_.find(marker) : shown_in_clear_.end();
      if (shown != shown_in_clear_.end()) {
        // A value the client made that the emulator itself wrote out in clear somewhere in the recording (an
        // external provider's token becomes the account's provider user id): the very value is sent.
        secrets_[marker] = shown->second;
        learn(marker, marker);
        out += shown->second;
      } else if (secret == secrets_.end()) {
        // A secret the client made (a lobby's secret): the log holds its marker only, so a stand-in of the
        // replay's own takes its place wherever the recording used it. Where the emulator checks it against
        // something else the client sent in clear, the replay differs there, and says so.
        const std::string stand_in = random_token();
        const std::string stand_in_marker = secret_marker(stand_in);
        secrets_[stand_in_marker] = stand_in;
        learn(marker, stand_in_marker);
        ++stand_ins_;
        out += stand_in;
      } else {
        out += secret->second;
      }
    }
    return out;
  }

  // A PKCE challenge is the base64url SHA-256 of its verifier, and the verifier's marker the first 8 hex
  // digits of the same digest: the challenge a recorded request sent in clear names the verifier the later
  // token request sent as a marker. The replay makes a verifier of its own, sends its challenge instead, and
  // the verifier where the recording's marker stands.
  void pair_pkce_challenges(std::string_view text) {
    constexpr std::string_view kName = "code_challenge";
    for (auto at = text.find(kName); at != std::string_view::npos; at = text.find(kName, at + 1)) {
      auto from = at + kName.size();
      if (from < text.size() && text[from] == '"') ++from;  // JSON: "code_challenge":"X"
      if (from < text.size() && (text[from] == ':' || text[from] == '=')) ++from;
      if (from < text.size() && text[from] == '"') ++from;
      auto end = from;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                   text[end] == '-' || text[end] == '_'))
        ++end;
      const std::string challenge(text.substr(from, end - from));
      if (challenge.size() != 43 || recorded_to_live_.count(challenge) != 0) continue;
      const auto verifier_marker = marker_of_digest(challenge);
      if (verifier_marker.empty()) continue;
      const std::string verifier = random_token();
      std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
      SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest.data());
      const std::string live_challenge =
          base64url_encode(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
      secrets_[secret_marker(verifier)] = verifier;
      learn(verifier_marker, secret_marker(verifier));
      learn(challenge, live_challenge);
    }
  }

  // "[redacted#<first 8 hex digits>]" of a digest given in base64url.
  static std::string marker_of_digest(std::string_view base64url) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < 6; ++i) {  // 36 bits hold the first 4 bytes
      const char c = base64url[i];
      int value = -1;
      if (c >= 'A' && c <= 'Z') value = c - 'A';
      if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
      if (c >= '0' && c <= '9') value = c - '0' + 52;
      if (c == '-') value = 62;
      if (c == '_') value = 63;
      if (value < 0) return {};
      bits = (bits << 6) | static_cast<std::uint64_t>(value);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string marker(kMarkerPrefix);
    const auto first = static_cast<std::uint32_t>(bits >> 4);
    for (int shift = 28; shift >= 0; shift -= 4)
      marker.push_back(kHex[(first >> shift) & 0x0F]);
    return marker + "]";
  }

  std::string replace_values(std::string_view text) const {
    std::string out(text);
    for (const auto& [recorded, live] : recorded_to_live_) {
      if (is_marker_at(recorded, 0)) continue;
      for (auto at = out.find(recorded); at != std::string::npos; at = out.find(recorded, at + live.size()))
        out.replace(at, recorded.size(), live);
    }
    return out;
  }

  // Every string in a JSON text the emulator sent, by its marker: what a later recorded request may carry.
  void harvest_secrets(std::string_view json) {
    if (json.empty()) return;
    rapidjson::Document document;
    if (!parse_json(json, document)) return;
    harvest_value(document, 0);
  }
  void harvest_value(const rapidjson::Value& value, int depth) {
    if (depth > kMaxDepth) return;
    if (value.IsString()) {
      const std::string_view text(value.GetString(), value.GetStringLength());
      if (text.size() >= 16) secrets_.emplace(secret_marker(text), std::string(text));
    } else if (value.IsObject()) {
      for (const auto& member : value.GetObject())
        harvest_value(member.value, depth + 1);
    } else if (value.IsArray()) {
      for (const auto& item : value.GetArray())
        harvest_value(item, depth + 1);
    }
  }

  // ---- comparing ----

  void compare_next(std::string_view text) {
    rapidjson::Document live;
    const bool parsed = parse_json(text, live);
    if (cursor_ >= lines_.size()) {
      ++report_.difference_count;
      if (report_.differences.size() < options_.max_differences)
        report_.differences.push_back(
            {0, "the replayed emulator wrote a line the recording does not have: " + shorten(text)});
      return;
    }
    const auto& recorded = lines_[cursor_];
    ++report_.compared_lines;
    std::string why;
    if (!parsed) why = "the replayed line is not JSON";
    if (!parsed || !compare_line(recorded, live, why)) difference(recorded, why);
    ++cursor_;
  }

  bool compare_line(const rapidjson::Value& recorded, const rapidjson::Value& live, std::string& why) {
    if (!live.IsObject()) {
      why = "the replayed line is not an object";
      return false;
    }
    // The connection ids first: a fresh emulator numbers its connections itself.
    const auto kind = std::string(string_of(recorded, "kind"));
    if (const auto connection = integer_of(recorded, "conn")) {
      const auto live_connection = integer_of(live, "conn");
      if (!live_connection) {
        why = "no connection in the replayed line";
        return false;
      }
      const auto [it, added] = connections_.emplace(std::make_pair(kind, *connection),
                                                    static_cast<std::uint64_t>(*live_connection));
      if (!added && it->second != static_cast<std::uint64_t>(*live_connection)) {
        why = "connection " + std::to_string(*connection) + " is " + std::to_string(it->second) +
              " in the replay, not " + std::to_string(*live_connection);
        return false;
      }
    }
    for (const auto& member : recorded.GetObject()) {
      const std::string_view name(member.name.GetString(), member.name.GetStringLength());
      if (name == "seq" || name == "real_ms" || name == "conn") continue;
      // The emulator's own DAVE messages carry its signatures, whose DER encoding varies in length.
      if (name == "bytes" && kind == "voice" && string_of(recorded, "dir") == "out") continue;
      const auto other = live.FindMember(member.name);
      if (other == live.MemberEnd()) {
        why = "\"" + std::string(name) + "\" is missing from the replayed line";
        return false;
      }
      if (!compare_value(std::string(name), member.value, other->value, std::string(name), why, 0))
        return false;
    }
    for (const auto& member : live.GetObject()) {
      if (!recorded.HasMember(member.name)) {
        why = "the replayed line has \"" + std::string(member.name.GetString()) + "\", the recording not";
        return false;
      }
    }
    return true;
  }

  bool compare_value(const std::string& key, const rapidjson::Value& recorded, const rapidjson::Value& live,
                     const std::string& path, std::string& why, int depth) {
    // Deeper than anything the emulator writes: a log's own nesting cannot take the stack.
    if (depth > kMaxDepth) {
      why = "at " + path + ": nested deeper than " + std::to_string(kMaxDepth) + " levels";
      return false;
    }
    if (recorded.IsString() && live.IsString())
      return compare_string(key, std::string_view(recorded.GetString(), recorded.GetStringLength()),
                            std::string_view(live.GetString(), live.GetStringLength()), path, why, depth);
    if (recorded.IsObject() && live.IsObject()) {
      if (recorded.MemberCount() != live.MemberCount()) {
        why = "at " + path + ": " + std::to_string(recorded.MemberCount()) + " members recorded, " +
              std::to_string(live.MemberCount()) + " replayed";
        return false;
      }
      for (const auto& member : recorded.GetObject()) {
        const auto other = live.FindMember(member.name);
        const std::string name(member.name.GetString(), member.name.GetStringLength());
        if (other == live.MemberEnd()) {
          why = "at " + path + ": \"" + name + "\" is missing from the replay";
          return false;
        }
        if (!compare_value(name, member.value, other->value, path + "." + name, why, depth + 1)) return false;
      }
      return true;
    }
    if (recorded.IsArray() && live.IsArray()) {
      if (recorded.Size() != live.Size()) {
        why = "at " + path + ": " + std::to_string(recorded.Size()) + " items recorded, " +
              std::to_string(live.Size()) + " replayed";
        return false;
      }
      for (rapidjson::SizeType i = 0; i < recorded.Size(); ++i)
        if (!compare_value(key, recorded[i], live[i], path + "." + std::to_string(i), why, depth + 1))
          return false;
      return true;
    }
    if (recorded == live) return true;
    // A voice connection's SSRC is drawn at random.
    if (key == "ssrc" && recorded.IsUint64() && live.IsUint64() &&
        learn(std::to_string(recorded.GetUint64()), std::to_string(live.GetUint64())))
      return true;
    why = "at " + path + ": recorded " + shallow_text(recorded) + ", replayed " + shallow_text(live);
    return false;
  }

  bool compare_string(const std::string& key, std::string_view recorded, std::string_view live,
                      const std::string& path, std::string& why, int depth) {
    if (recorded == live) return true;
    // Random by nature: a session's id and an application's key pair are new in every run.
    if (key == "session" || key == "session_id" || key == "verify_key") {
      if (learn(std::string(recorded), std::string(live))) return true;
      why = "at " + path + ": session " + std::string(recorded) + " stands for another in the replay already";
      return false;
    }
    // JSON inside a string (a client's frame, a request's body, an answer that is not an object): compared
    // as JSON.
    if (!recorded.empty() &&
        (recorded.front() == '{' || recorded.front() == '[' || recorded.front() == '"')) {
      rapidjson::Document a;
      rapidjson::Document b;
      if (parse_json(recorded, a) && parse_json(live, b))
        return compare_value(key, a, b, path, why, depth + 1);
    }
    // Text with markers in it: the markers pair up, the rest is the same once the values learned so far
    // stand in.
    const auto r = split_markers(recorded);
    const auto l = split_markers(live);
    if (r.markers.size() == l.markers.size()) {
      bool same = true;
      for (std::size_t i = 0; i < r.plain.size() && same; ++i)
        same = replace_values(r.plain[i]) == l.plain[i];
      if (same) {
        for (std::size_t i = 0; i < r.markers.size(); ++i) {
          if (!learn_marker(std::string(r.markers[i]), std::string(l.markers[i]))) {
            why = "at " + path + ": " + std::string(r.markers[i]) +
                  " stands for another secret in the replay already";
            return false;
          }
        }
        return true;
      }
    }
    why = "at " + path + ": recorded \"" + shorten(recorded) + "\", replayed \"" + shorten(live) + "\"";
    return false;
  }

  bool learn_marker(const std::string& recorded, const std::string& live) { return learn(recorded, live); }

  // One to one: a recorded value stands for one live value, and a live value for one recorded value.
  bool learn(const std::string& recorded, const std::string& live) {
    const auto forward = recorded_to_live_.find(recorded);
    if (forward != recorded_to_live_.end()) return forward->second == live;
    if (live_to_recorded_.count(live) != 0) return false;
    recorded_to_live_.emplace(recorded, live);
    live_to_recorded_.emplace(live, recorded);
    return true;
  }

  void difference(const rapidjson::Value& line, const std::string& what) {
    ++report_.difference_count;
    if (report_.differences.size() >= options_.max_differences) return;
    const auto seq = integer_of(line, "seq").value_or(0);
    report_.differences.push_back({static_cast<std::uint64_t>(seq), describe(line) + ": " + what});
  }

  const ReplayOptions& options_;
  ReplayReport& report_;
  std::vector<rapidjson::Document> lines_;
  std::size_t cursor_ = 1;  // the recorded line the fresh emulator's next line is compared with
  std::size_t stand_ins_ = 0;
  std::unique_ptr<FakeClock> clock_;
  std::string admin_token_;
  ReplayWebhookTransport webhooks_;
  std::vector<std::unique_ptr<ReplayGatewayPeer>> gateway_peers_;
  std::vector<std::unique_ptr<ReplayVoicePeer>> voice_peers_;
  std::vector<std::unique_ptr<ReplayIpcPeer>> ipc_peers_;
  std::map<std::pair<std::string, std::int64_t>, std::uint64_t> connections_;  // (kind, recorded) -> live
  std::unordered_map<std::string, std::string> recorded_to_live_;
  std::unordered_map<std::string, std::string> live_to_recorded_;
  std::unordered_map<std::string, std::string> secrets_;  // live marker -> live secret
  std::unordered_map<std::string, std::string>
      shown_in_clear_;  // marker -> a recorded value written in clear
  // Last: it goes first, before the peers, the transport and the clock it may still use as it ends.
  std::unique_ptr<EmulatorService> service_;
};

}  // namespace

std::string ReplayReport::text() const {
  std::ostringstream out;
  if (!refused.empty()) {
    out << "replay refused: " << refused << "\n";
    return out.str();
  }
  out << "replay: " << recorded_lines << " recorded lines, " << inputs << " inputs fed, " << compared_lines
      << " lines compared, " << mapped_values << " random values paired, " << stand_ins
      << " client secrets stood in for: ";
  if (difference_count == 0) {
    out << "identical\n";
    return out.str();
  }
  out << difference_count << " difference(s)\n";
  for (const auto& difference : differences)
    out << "  line " << difference.seq << ": " << difference.what << "\n";
  if (difference_count > differences.size())
    out << "  ... and " << difference_count - differences.size() << " more\n";
  return out.str();
}

ReplayReport replay_event_log(std::istream& recorded, const ReplayOptions& options) {
  ReplayReport report;
  try {
    Replayer(options, report).run(recorded);
  } catch (const std::exception& e) {
    report.refused = std::string("the replay stopped: ") + e.what();
  }
  return report;
}

}  // namespace platformpp::emulator
