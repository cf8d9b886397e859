#include "core/state_changes.hpp"

#include <algorithm>

#include "core/json.hpp"

namespace platformpp::emulator {

void StateChanges::register_kind(DocumentKind kind) {
  if (find_kind(kind.name) != nullptr) throw std::logic_error("document kind registered twice: " + kind.name);
  kinds_.push_back(std::move(kind));
}

const DocumentKind* StateChanges::find_kind(std::string_view name) const {
  const auto it =
      std::find_if(kinds_.begin(), kinds_.end(), [&](const DocumentKind& kind) { return kind.name == name; });
  return it == kinds_.end() ? nullptr : &*it;
}

void StateChanges::touch(std::string_view kind, std::string_view id) {
  if (!recording_) return;
  const bool first = touched_.empty();
  if (auto it = touched_.find(std::pair{kind, id}); it == touched_.end()) {
    touched_.emplace(std::string(kind), std::string(id));
  }
  if (first && on_first_change_) on_first_change_();
}

void StateChanges::save_with_every_change(std::string_view kind, std::string_view id) {
  always_.emplace_back(std::string(kind), std::string(id));
}

std::vector<DocumentChange> StateChanges::take() {
  std::vector<DocumentChange> changes;
  if (touched_.empty()) return changes;
  for (const auto& key : always_)
    touched_.insert(key);
  auto touched = std::move(touched_);
  touched_.clear();
  changes.reserve(touched.size());
  for (const auto& [kind_name, id] : touched) {
    const auto* kind = find_kind(kind_name);
    if (kind == nullptr) throw std::logic_error("document of an unregistered kind touched: " + kind_name);
    changes.push_back(DocumentChange{kind_name, id, kind->save(id)});
  }
  return changes;
}

std::vector<DocumentChange> StateChanges::save_all(bool persisted_only) const {
  std::vector<DocumentChange> documents;
  for (const auto& kind : kinds_) {
    if (persisted_only && !kind.persisted) continue;
    for (const auto& id : kind.ids()) {
      if (auto body = kind.save(id)) documents.push_back(DocumentChange{kind.name, id, std::move(body)});
    }
  }
  return documents;
}

void StateChanges::load(const std::vector<DocumentChange>& documents) {
  std::vector<std::vector<const DocumentChange*>> by_kind(kinds_.size());
  for (const auto& document : documents) {
    const auto* kind = find_kind(document.kind);
    if (kind == nullptr || !kind->persisted) {
      throw std::invalid_argument("unknown document kind \"" + document.kind + "\"");
    }
    if (document.body) by_kind[static_cast<std::size_t>(kind - kinds_.data())].push_back(&document);
  }
  // In registration order, so that what a document refers to is there before it.
  for (std::size_t k = 0; k < kinds_.size(); ++k) {
    for (const auto* document : by_kind[k]) {
      rapidjson::Document body;
      if (!parse_json(*document->body, body) || !body.IsObject()) {
        throw std::invalid_argument("document " + document->kind + "/" + document->id +
                                    " is not a JSON object");
      }
      try {
        kinds_[k].load(document->id, body);
      } catch (const std::exception& e) {
        throw std::invalid_argument("document " + document->kind + "/" + document->id + ": " + e.what());
      }
    }
  }
  touched_.clear();
}

void StateChanges::clear_all() {
  for (const auto& kind : kinds_) {
    if (kind.clear) kind.clear();
  }
  touched_.clear();
}

}  // namespace platformpp::emulator
