// SocialState's relationships and their documents (core/state_changes.hpp): "relationships" holds what one
// user sees of the others; "game_relationships" the same in one application's game ("<app>:<user>"). Every
// document carries "v", its format version.
#include "social/social_state.hpp"

#include "core/document_json.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator {

namespace {

using document::check_format;
using document::document_json;
using document::keys_of;
using document::split_id;

void write_relationship(JsonWriter& writer, const std::string& other_id, const Relationship& relationship) {
  writer.StartObject();
  document::write_member(writer, "user_id", other_id);
  document::write_member(writer, "type", relationship.type);
  document::write_member(writer, "since_ms", relationship.since_ms);
  if (relationship.spam_request) document::write_member(writer, "spam_request", true);
  writer.EndObject();
}

std::pair<std::string, Relationship> read_relationship(const rapidjson::Value& value) {
  Relationship relationship;
  relationship.type = static_cast<int>(document::integer(value, "type"));
  relationship.since_ms = document::integer(value, "since_ms");
  relationship.spam_request = document::boolean_or(value, "spam_request", false);
  return {document::string(value, "user_id"), relationship};
}

// One user's side, {"relationships": [...]}; nullopt when they have none (the document is deleted).
template <class Others>
std::optional<std::string> relationships_json(const Others& others) {
  if (others.empty()) return std::nullopt;
  return document_json([&](JsonWriter& writer) {
    writer.Key("relationships");
    writer.StartArray();
    for (const auto& [other_id, relationship] : others)
      write_relationship(writer, other_id, relationship);
    writer.EndArray();
  });
}

template <class Others>
void read_relationships(const rapidjson::Value& body, Others& others) {
  for (const auto& value : document::array(body, "relationships").GetArray()) {
    auto [other_id, relationship] = read_relationship(value);
    others[other_id] = relationship;
  }
}

}  // namespace

void SocialState::touch(std::string_view kind, std::string_view id) {
  if (changes_ != nullptr) changes_->touch(kind, id);
}

std::string SocialState::game_relationships_id(std::string_view app_id, std::string_view user_id) {
  return std::string(app_id) + ":" + std::string(user_id);
}

void SocialState::set_relationship(std::string_view user_id, std::string_view other_id, int type,
                                   std::int64_t since_ms, bool spam_request) {
  touch(document_kind::kRelationships, user_id);
  auto& mine = relationships_[std::string(user_id)];
  if (type == 0) {
    if (const auto it = mine.find(other_id); it != mine.end()) mine.erase(it);
  } else {
    mine[std::string(other_id)] = Relationship{type, since_ms, spam_request};
  }
}

std::vector<std::pair<std::string, int>> SocialState::relationships_of(std::string_view user_id) const {
  std::vector<std::pair<std::string, int>> result;
  const auto it = relationships_.find(user_id);
  if (it == relationships_.end()) return result;
  for (const auto& [other_id, relationship] : it->second)
    result.emplace_back(other_id, relationship.type);
  return result;
}

const Relationship* SocialState::find_relationship(std::string_view user_id,
                                                   std::string_view other_id) const {
  const auto mine = relationships_.find(user_id);
  if (mine == relationships_.end()) return nullptr;
  const auto it = mine->second.find(other_id);
  return it == mine->second.end() ? nullptr : &it->second;
}

int SocialState::relationship_type(std::string_view user_id, std::string_view other_id) const {
  const auto* relationship = find_relationship(user_id, other_id);
  return relationship == nullptr ? 0 : relationship->type;
}

void SocialState::set_game_relationship(std::string_view app_id, std::string_view user_id,
                                        std::string_view other_id, int type, std::int64_t since_ms) {
  touch(document_kind::kGameRelationships, game_relationships_id(app_id, user_id));
  auto& mine = game_relationships_[std::string(app_id)][std::string(user_id)];
  if (type == 0) {
    if (const auto it = mine.find(other_id); it != mine.end()) mine.erase(it);
  } else {
    mine[std::string(other_id)] = Relationship{type, since_ms, false};
  }
}

const Relationship* SocialState::find_game_relationship(std::string_view app_id, std::string_view user_id,
                                                        std::string_view other_id) const {
  const auto app = game_relationships_.find(app_id);
  if (app == game_relationships_.end()) return nullptr;
  const auto mine = app->second.find(user_id);
  if (mine == app->second.end()) return nullptr;
  const auto it = mine->second.find(other_id);
  return it == mine->second.end() ? nullptr : &it->second;
}

std::vector<std::pair<std::string, Relationship>> SocialState::game_relationships_of(
    std::string_view app_id, std::string_view user_id) const {
  std::vector<std::pair<std::string, Relationship>> result;
  const auto app = game_relationships_.find(app_id);
  if (app == game_relationships_.end()) return result;
  const auto mine = app->second.find(user_id);
  if (mine == app->second.end()) return result;
  result.assign(mine->second.begin(), mine->second.end());
  return result;
}

std::vector<std::pair<std::string, std::string>> SocialState::game_friends_of(
    std::string_view user_id) const {
  std::vector<std::pair<std::string, std::string>> result;
  for (const auto& [app_id, users] : game_relationships_) {
    const auto mine = users.find(user_id);
    if (mine == users.end()) continue;
    for (const auto& [other_id, relationship] : mine->second)
      if (relationship.type == relationship_type::kFriend) result.emplace_back(app_id, other_id);
  }
  return result;
}

std::vector<std::string> SocialState::game_relationship_apps(std::string_view user_id,
                                                             std::string_view other_id) const {
  std::vector<std::string> result;
  for (const auto& [app_id, users] : game_relationships_) {
    if (find_game_relationship(app_id, user_id, other_id) != nullptr ||
        find_game_relationship(app_id, other_id, user_id) != nullptr) {
      result.push_back(app_id);
    }
  }
  return result;
}

void SocialState::user_removed(std::string_view id) {
  touch(document_kind::kRelationships, id);
  if (const auto it = relationships_.find(id); it != relationships_.end()) relationships_.erase(it);
  for (auto& [user_id, others] : relationships_) {
    if (const auto it = others.find(id); it != others.end()) {
      others.erase(it);
      touch(document_kind::kRelationships, user_id);
    }
  }
  for (auto& [app_id, users] : game_relationships_) {
    if (const auto it = users.find(id); it != users.end()) {
      users.erase(it);
      touch(document_kind::kGameRelationships, game_relationships_id(app_id, id));
    }
    for (auto& [user_id, others] : users) {
      if (const auto it = others.find(id); it != others.end()) {
        others.erase(it);
        touch(document_kind::kGameRelationships, game_relationships_id(app_id, user_id));
      }
    }
  }
}

void SocialState::register_documents(StateChanges& changes) {
  changes_ = &changes;
  changes.register_kind(DocumentKind{std::string(document_kind::kRelationships),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto it = relationships_.find(id);
                                       if (it == relationships_.end()) return std::nullopt;
                                       return relationships_json(it->second);
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       read_relationships(body, relationships_[id]);
                                     },
                                     [this] { return keys_of(relationships_); },
                                     [this] { relationships_.clear(); }});
  changes.register_kind(DocumentKind{std::string(document_kind::kGameRelationships),
                                     [this](const std::string& id) -> std::optional<std::string> {
                                       const auto parts = split_id(id, 2);
                                       const auto app = game_relationships_.find(parts[0]);
                                       if (app == game_relationships_.end()) return std::nullopt;
                                       const auto mine = app->second.find(parts[1]);
                                       if (mine == app->second.end()) return std::nullopt;
                                       return relationships_json(mine->second);
                                     },
                                     [this](const std::string& id, const rapidjson::Value& body) {
                                       check_format(body);
                                       const auto parts = split_id(id, 2);
                                       read_relationships(body, game_relationships_[parts[0]][parts[1]]);
                                     },
                                     [this] {
                                       std::vector<std::string> ids;
                                       for (const auto& [app_id, users] : game_relationships_) {
                                         for (const auto& entry : users)
                                           ids.push_back(game_relationships_id(app_id, entry.first));
                                       }
                                       return ids;
                                     },
                                     [this] { game_relationships_.clear(); }});
}

}  // namespace platformpp::emulator
