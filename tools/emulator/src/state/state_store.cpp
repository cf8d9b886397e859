#include "state/state_store.hpp"

#include <rapidjson/document.h>

#include <stdexcept>

#include "core/json.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::string_view kSnapshotFormat = "platformpp-emulator-state";

StateBatch batch_of(const std::vector<DocumentChange>& changes, const StateChanges& kinds) {
  StateBatch batch;
  for (const auto& change : changes) {
    const auto* kind = kinds.find_kind(change.kind);
    if (kind == nullptr || !kind->persisted) continue;
    if (change.body) {
      batch.put.push_back(StateDocument{change.kind, change.id, *change.body});
    } else {
      batch.deleted.emplace_back(change.kind, change.id);
    }
  }
  return batch;
}

}  // namespace

StateStore::StateStore(StateChanges& changes) : changes_(changes) {
  changes_.start_recording();
}

void StateStore::attach(std::unique_ptr<StateFile> file) {
  file_ = std::move(file);
  const auto& path = file_->path();
  std::vector<DocumentChange> documents;
  for (auto& document : file_->load_all())
    documents.push_back(
        DocumentChange{std::move(document.kind), std::move(document.id), std::move(document.body)});
  try {
    changes_.load(documents);
  } catch (const std::invalid_argument& e) {
    throw StateFileError(StateFile::kExitNotAStateFile,
                         path + ": cannot be read by this emulator (" + e.what() + "); it was left as it is");
  }
  changes_.discard_pending();
}

std::optional<std::string> StateStore::meta(const std::string& key) const {
  return file_ ? file_->meta(key) : std::nullopt;
}

void StateStore::set_meta(const std::string& key, const std::string& value) {
  if (!file_) return;
  StateBatch batch;
  batch.meta[key] = value;
  file_->write(batch);
}

void StateStore::commit() {
  if (!file_ && watchers_.empty()) {  // nobody to write them for: no need to save each document
    changes_.discard_pending();
    return;
  }
  auto changes = changes_.take();
  if (changes.empty()) return;
  if (file_) file_->write(batch_of(changes, changes_));
  // A watcher may unwatch itself (a console socket closing): iterate over a copy of the ids.
  std::vector<std::uint64_t> ids;
  ids.reserve(watchers_.size());
  for (const auto& entry : watchers_)
    ids.push_back(entry.first);
  for (const auto id : ids) {
    if (const auto it = watchers_.find(id); it != watchers_.end()) it->second(changes);
  }
}

std::uint64_t StateStore::watch(Watcher watcher) {
  const auto id = next_watcher_++;
  watchers_.emplace(id, std::move(watcher));
  return id;
}

void StateStore::unwatch(std::uint64_t id) {
  watchers_.erase(id);
}

std::map<std::string, std::int64_t> StateStore::counts() const {
  std::map<std::string, std::int64_t> counts;
  for (const auto& kind : changes_.kinds()) {
    if (kind.persisted) counts[kind.name] = static_cast<std::int64_t>(kind.ids().size());
  }
  return counts;
}

std::string StateStore::export_json() const {
  const auto documents = changes_.save_all(true);
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("format");
    write_string(writer, kSnapshotFormat);
    writer.Key("schema_version");
    writer.Int(StateFile::kSchemaVersion);
    writer.Key("documents");
    writer.StartArray();
    for (const auto& document : documents) {
      writer.StartObject();
      writer.Key("kind");
      write_string(writer, document.kind);
      writer.Key("id");
      write_string(writer, document.id);
      writer.Key("body");
      write_raw(writer, *document.body, rapidjson::kObjectType);
      writer.EndObject();
    }
    writer.EndArray();
    writer.EndObject();
  });
}

std::vector<DocumentChange> StateStore::parse_snapshot(std::string_view snapshot) {
  rapidjson::Document parsed;
  if (!parse_json(snapshot, parsed) || !parsed.IsObject()) {
    throw std::invalid_argument("the snapshot is not a JSON object");
  }
  const auto format = parsed.FindMember("format");
  if (format == parsed.MemberEnd() || !format->value.IsString() ||
      format->value.GetString() != kSnapshotFormat) {
    throw std::invalid_argument("the snapshot's \"format\" is not \"platformpp-emulator-state\"");
  }
  const auto version = parsed.FindMember("schema_version");
  if (version != parsed.MemberEnd() && version->value.IsInt() &&
      version->value.GetInt() > StateFile::kSchemaVersion) {
    throw NewerSnapshotError(
        "the snapshot's \"schema_version\" is " + std::to_string(version->value.GetInt()) +
        ", written by a newer emulator; this one reads 1 to " + std::to_string(StateFile::kSchemaVersion));
  }
  if (version == parsed.MemberEnd() || !version->value.IsInt() || version->value.GetInt() < 1) {
    throw std::invalid_argument("the snapshot's \"schema_version\" is not one this emulator reads (1 to " +
                                std::to_string(StateFile::kSchemaVersion) + ")");
  }
  const auto list = parsed.FindMember("documents");
  if (list == parsed.MemberEnd() || !list->value.IsArray()) {
    throw std::invalid_argument("the snapshot has no \"documents\" array");
  }
  std::vector<DocumentChange> documents;
  documents.reserve(list->value.Size());
  for (const auto& entry : list->value.GetArray()) {
    if (!entry.IsObject()) throw std::invalid_argument("a document is not an object");
    const auto kind = entry.FindMember("kind");
    const auto id = entry.FindMember("id");
    const auto body = entry.FindMember("body");
    if (kind == entry.MemberEnd() || !kind->value.IsString() || id == entry.MemberEnd() ||
        !id->value.IsString() || body == entry.MemberEnd() || !body->value.IsObject()) {
      throw std::invalid_argument(
          "a document lacks a string \"kind\", a string \"id\" or an object \"body\"");
    }
    documents.push_back(DocumentChange{std::string(kind->value.GetString(), kind->value.GetStringLength()),
                                       std::string(id->value.GetString(), id->value.GetStringLength()),
                                       json_text(body->value)});
  }
  return documents;
}

void StateStore::replace_all(const std::vector<DocumentChange>& documents) {
  // All or nothing: what was there comes back if any document cannot be read.
  const auto previous = changes_.save_all(true);
  changes_.clear_all();
  try {
    changes_.load(documents);
  } catch (const std::invalid_argument&) {
    changes_.clear_all();
    changes_.load(previous);
    throw;
  }
  rewrite();
}

void StateStore::reset() {
  changes_.clear_all();
  rewrite();
}

void StateStore::rewrite() {
  changes_.discard_pending();
  auto documents = changes_.save_all(true);
  if (file_) {
    StateBatch batch;
    batch.replace_all = true;
    for (const auto& document : documents)
      batch.put.push_back(StateDocument{document.kind, document.id, *document.body});
    file_->write(batch);
  }
  // Watchers start over from a snapshot: each hears every document, and the removal of nothing else (the
  // console reloads on "replaced").
  for (auto& [id, watcher] : watchers_)
    watcher({DocumentChange{"*", "*", std::nullopt}});
}

}  // namespace platformpp::emulator
