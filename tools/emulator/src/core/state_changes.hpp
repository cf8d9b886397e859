// The emulator's platform data as documents (docs/emulator-state.md): each module registers the kinds of
// entity it owns (how one is written as JSON, read back, listed and forgotten) and names each document it
// changes. At the end of the event loop's turn the changes are taken once: the state file writes them in one
// transaction and the web console streams them. Modules stay the only owners of their data; this is the
// second representation they keep up to date.
#pragma once

#include <rapidjson/document.h>

#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::emulator {

// One kind of entity ("user", "lobby", ...), as its owning module writes and reads it.
struct DocumentKind {
  std::string name;
  // The document's JSON now, or nullopt if it no longer exists (then it is deleted).
  std::function<std::optional<std::string>(const std::string& id)> save;
  // Adds the entity from its saved JSON (at start, or from an imported snapshot). Throws
  // std::invalid_argument when the document is malformed.
  std::function<void(const std::string& id, const rapidjson::Value& body)> load;
  // Every id, for exports and the console's first view.
  std::function<std::vector<std::string>()> ids;
  // Forgets every entity of the kind (reset, import).
  std::function<void()> clear;
  // False for what lives only while the emulator runs (who is online, calls in progress): streamed to the
  // console like the rest, never written to the state file nor exported; `load` and `clear` may be empty.
  bool persisted = true;
};

// One document after a turn's changes: its body, or none when it was deleted.
struct DocumentChange {
  std::string kind;
  std::string id;
  std::optional<std::string> body;
};

class StateChanges {
 public:
  // Kinds are loaded in the order they are registered: a module registers after those it depends on.
  void register_kind(DocumentKind kind);
  [[nodiscard]] const std::vector<DocumentKind>& kinds() const noexcept { return kinds_; }
  [[nodiscard]] const DocumentKind* find_kind(std::string_view name) const;

  // Changes are recorded once someone takes them at the end of each turn (the server does; a test driving a
  // service directly need not): until then touch() does nothing.
  void start_recording() noexcept { recording_ = true; }
  [[nodiscard]] bool recording() const noexcept { return recording_; }
  // The document (kind, id) was created, changed or removed during this turn. Cheap: a set insertion.
  void touch(std::string_view kind, std::string_view id);
  // Written with every batch of changes, whatever else changed (the clock and the id generator: they move
  // on every request, and a document per id generated would be wasteful).
  void save_with_every_change(std::string_view kind, std::string_view id);
  [[nodiscard]] bool pending() const noexcept { return !touched_.empty(); }
  // Called when the first change after a take() is touched: the server schedules the end of the turn.
  void set_on_first_change(std::function<void()> callback) { on_first_change_ = std::move(callback); }

  // The changes since the last call, each document saved as it is now.
  std::vector<DocumentChange> take();
  // Every document of every kind, in registration order (the console's first view); `persisted_only` for
  // exports.
  [[nodiscard]] std::vector<DocumentChange> save_all(bool persisted_only = false) const;
  // Reads documents into their modules; unknown kinds and malformed documents throw std::invalid_argument
  // naming them. Loading marks nothing as changed.
  void load(const std::vector<DocumentChange>& documents);
  // Every kind forgets its entities; nothing is marked as changed (the caller rewrites the file).
  void clear_all();
  // Forgets what was touched (after load: what was read is what is stored).
  void discard_pending() { touched_.clear(); }

 private:
  std::vector<DocumentKind> kinds_;
  // Orders (kind, id) pairs of strings and of views alike, so a touch allocates only when it is new.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      const std::string_view a_kind(a.first), b_kind(b.first);
      return a_kind != b_kind ? a_kind < b_kind : std::string_view(a.second) < std::string_view(b.second);
    }
  };
  std::set<std::pair<std::string, std::string>, KeyLess> touched_;
  std::vector<std::pair<std::string, std::string>> always_;
  std::function<void()> on_first_change_;
  bool recording_ = false;
};

}  // namespace platformpp::emulator
