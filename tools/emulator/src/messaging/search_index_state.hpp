// Which guilds are "not yet indexed" for Search Guild Messages: an admin switch (the platform indexes a guild
// on its own schedule; a test turns the state on to see the 202 and 110000). Kept as documents of the kind
// "guild_search_index", one per guild not indexed (search_index_state.cpp): an indexed guild has none.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

class StateChanges;

namespace document_kind {
inline constexpr std::string_view kGuildSearchIndex = "guild_search_index";  // id: the guild's
}  // namespace document_kind

class SearchIndexState {
 public:
  // Registers the document kind and from then on names every change.
  void register_documents(StateChanges& changes);
  // The documents indexed so far when the guild is not indexed yet; nullopt when it is (the default).
  [[nodiscard]] std::optional<std::int64_t> not_indexed(std::string_view guild_id) const;
  // Marks the guild indexed, or not yet (with the documents indexed so far).
  void set(const std::string& guild_id, bool indexed, std::int64_t documents_indexed);

 private:
  StateChanges* changes_ = nullptr;
  std::map<std::string, std::int64_t, std::less<>> not_indexed_;  // guild id -> documents indexed
};

}  // namespace platformpp::emulator
