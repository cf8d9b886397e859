#include "console/console_stream.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "core/json.hpp"

namespace platformpp::emulator {

namespace {

// Kinds whose documents or ids are credentials: tokens, codes, a lobby's join secret (knowing it is being
// able to join), external identities (without a mapping, the emulator takes a game's external token itself as
// the external account's id).
constexpr std::array<std::string_view, 5> kSecretKinds = {"grant", "authorization_code", "external_token",
                                                          "external_identity", "lobby_secret"};
constexpr std::array<const char*, 3> kApplicationSecrets = {"client_secret", "bot_token",
                                                            "signing_secret_key"};

bool shown(std::string_view kind) {
  for (const auto secret : kSecretKinds) {
    if (kind == secret) return false;
  }
  return true;
}

// The body as the page may see it.
std::string shown_body(std::string_view kind, const std::string& body) {
  if (kind != "application" && kind != "lobby") return body;
  rapidjson::Document document;
  if (!parse_json(body, document) || !document.IsObject()) return "{}";
  if (kind == "application") {
    for (const auto* name : kApplicationSecrets)
      document.RemoveMember(name);
  } else {
    document.RemoveMember("secret");
  }
  return json_text(document);
}

void write_change(JsonWriter& writer, const DocumentChange& change) {
  writer.StartObject();
  writer.Key("kind");
  write_string(writer, change.kind);
  writer.Key("id");
  write_string(writer, change.id);
  writer.Key("body");
  if (change.body) {
    write_raw(writer, shown_body(change.kind, *change.body), rapidjson::kObjectType);
  } else {
    writer.Null();
  }
  writer.EndObject();
}

}  // namespace

std::string console_snapshot_json(const StateChanges& changes) {
  const auto documents = changes.save_all();
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.String("snapshot");
    writer.Key("documents");
    writer.StartArray();
    for (const auto& document : documents) {
      if (shown(document.kind)) write_change(writer, document);
    }
    writer.EndArray();
    writer.EndObject();
  });
}

std::optional<std::string> console_changes_json(const std::vector<DocumentChange>& changes) {
  bool any = false;
  for (const auto& change : changes)
    any = any || shown(change.kind);
  if (!any) return std::nullopt;
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.String("changes");
    writer.Key("changes");
    writer.StartArray();
    for (const auto& change : changes) {
      if (shown(change.kind)) write_change(writer, change);
    }
    writer.EndArray();
    writer.EndObject();
  });
}

bool console_changes_replace_all(const std::vector<DocumentChange>& changes) {
  return changes.size() == 1 && changes.front().kind == "*";
}

std::string console_admin_token(std::string_view message) {
  rapidjson::Document document;
  parse_stored_json(message, document);
  if (!document.IsObject()) return {};
  const auto token = document.FindMember("admin_token");
  if (token == document.MemberEnd() || !token->value.IsString()) return {};
  return {token->value.GetString(), token->value.GetStringLength()};
}

// ---- the inspector ----------------------------------------------------------------------------------------

InspectorHub::~InspectorHub() {
  if (!feeds_.empty()) log_.set_observer(nullptr);
}

void InspectorHub::join(InspectorFeed& feed) {
  if (std::find(feeds_.begin(), feeds_.end(), &feed) != feeds_.end()) return;
  feeds_.push_back(&feed);
  if (feeds_.size() > 1) return;
  log_.set_observer([this](std::string_view line) {
    // A feed's push only writes to its page's socket: no feed joins or leaves meanwhile.
    for (auto* reader : feeds_)
      reader->push(line);
  });
}

void InspectorHub::leave(InspectorFeed& feed) {
  const auto it = std::find(feeds_.begin(), feeds_.end(), &feed);
  if (it == feeds_.end()) return;
  feeds_.erase(it);
  if (feeds_.empty()) log_.set_observer(nullptr);
}

InspectorFeed::InspectorFeed(InspectorHub& hub, Send send, InspectorLimits limits)
    : hub_(hub), send_(std::move(send)), limits_(limits) {}

InspectorFeed::~InspectorFeed() {
  if (active_) hub_.leave(*this);
}

bool InspectorFeed::handle(std::string_view message) {
  rapidjson::Document document;
  if (!parse_json(message, document) || !document.IsObject()) return false;
  if (const auto inspect = document.FindMember("inspect");
      inspect != document.MemberEnd() && inspect->value.IsBool()) {
    if (inspect->value.GetBool()) {
      start();
    } else {
      stop();
    }
    return true;
  }
  if (const auto ack = document.FindMember("ack"); ack != document.MemberEnd() && ack->value.IsUint64()) {
    acknowledge(ack->value.GetUint64());
    return true;
  }
  return false;
}

void InspectorFeed::start() {
  if (active_) return;
  // Whether the log was on before this feed: if not, connections opened before now are not followed (the
  // service puts the log's decorators on a connection when it opens), only their HTTP.
  const bool continuous = hub_.log().enabled();
  active_ = true;
  acknowledged_ = sent_;  // frames of an earlier start no longer hold the window
  dropped_unreported_ = 0;
  dropped_total_ = 0;
  hub_.join(*this);
  send_(to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("type");
    writer.String("inspector");
    writer.Key("active");
    writer.Bool(true);
    writer.Key("after_seq");
    writer.Uint64(hub_.log().lines());
    writer.Key("continuous");
    writer.Bool(continuous);
    writer.Key("max_lines");
    writer.Uint64(limits_.max_lines);
    writer.EndObject();
  }));
}

void InspectorFeed::stop() {
  if (!active_) return;
  active_ = false;
  hub_.leave(*this);
  queue_.clear();
  queued_bytes_ = 0;
  send_(R"({"type":"inspector","active":false})");
}

void InspectorFeed::acknowledge(std::uint64_t batch) {
  // A number the page cannot have seen yet, or one acknowledged before, changes nothing.
  if (batch <= acknowledged_ || batch > sent_) return;
  acknowledged_ = batch;
  pump();
}

void InspectorFeed::drop_oldest() {
  queued_bytes_ -= queue_.front().size();
  queue_.pop_front();
  ++dropped_unreported_;
  ++dropped_total_;
}

void InspectorFeed::push(std::string_view line) {
  if (!active_) return;
  if (line.size() > limits_.max_bytes) {
    // Alone over the bound: it could never be queued.
    ++dropped_unreported_;
    ++dropped_total_;
    return;
  }
  queue_.emplace_back(line);
  queued_bytes_ += line.size();
  while (queue_.size() > limits_.max_lines || queued_bytes_ > limits_.max_bytes)
    drop_oldest();
  pump();
}

void InspectorFeed::pump() {
  while (active_ && !queue_.empty() && sent_ - acknowledged_ < limits_.window) {
    std::string frame = R"({"type":"events","batch":)";
    frame += std::to_string(sent_ + 1);
    frame += R"(,"dropped":)";
    frame += std::to_string(dropped_unreported_);
    frame += R"(,"lines":[)";
    frame.reserve(frame.size() + std::min(queued_bytes_, limits_.batch_bytes) + 2 * limits_.batch_lines);
    std::size_t lines = 0;
    std::size_t bytes = 0;
    while (!queue_.empty() && lines < limits_.batch_lines &&
           (lines == 0 || bytes + queue_.front().size() <= limits_.batch_bytes)) {
      // Each line is one JSON object as the log wrote it: put in as it is.
      if (lines != 0) frame += ',';
      frame += queue_.front();
      bytes += queue_.front().size();
      queued_bytes_ -= queue_.front().size();
      queue_.pop_front();
      ++lines;
    }
    frame += "]}";
    ++sent_;
    dropped_unreported_ = 0;
    send_(std::move(frame));
  }
}

}  // namespace platformpp::emulator
