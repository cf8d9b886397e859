#include "messaging/search_index_state.hpp"

#include "core/document_json.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

std::optional<std::int64_t> SearchIndexState::not_indexed(std::string_view guild_id) const {
  const auto it = not_indexed_.find(guild_id);
  return it == not_indexed_.end() ? std::nullopt : std::optional(it->second);
}

void SearchIndexState::set(const std::string& guild_id, bool indexed, std::int64_t documents_indexed) {
  if (changes_ != nullptr) changes_->touch(document_kind::kGuildSearchIndex, guild_id);
  if (indexed) {
    not_indexed_.erase(guild_id);
  } else {
    not_indexed_[guild_id] = documents_indexed;
  }
}

void SearchIndexState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(DocumentKind{std::string(document_kind::kGuildSearchIndex),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto documents = not_indexed(id);
                                       if (!documents) return std::nullopt;
                                       return document::document_json([&](JsonWriter& writer) {
                                         document::write_member(writer, "documents_indexed", *documents);
                                       });
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       document::check_format(body);
                                       not_indexed_[id] = document::integer_or(body, "documents_indexed", 0);
                                     },
                                     [this] { return document::keys_of(not_indexed_); },
                                     [this] { not_indexed_.clear(); }});
}

}  // namespace platformpp::emulator
