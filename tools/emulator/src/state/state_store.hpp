// The emulator's state as a whole (docs/emulator-state.md): the modules' documents (core/state_changes.hpp),
// the state file when there is one (--state), and who watches the changes (the web console). The server
// ends each event-loop turn with commit(): the turn's changes are written in one transaction, and only
// then does it let out that turn's answers and dispatches. Also what the admin state routes do: counts,
// export, import, reset.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/state_changes.hpp"
#include "state/state_file.hpp"

namespace platformpp::emulator {

// A snapshot written by a newer emulator (its schema_version is above StateFile::kSchemaVersion): refused as
// a newer state file is (exit 6 at --import).
class NewerSnapshotError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class StateStore {
 public:
  explicit StateStore(StateChanges& changes);
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;

  // Keeps the state file (already opened: StateFile::open) and loads what it holds into the modules. Throws
  // StateFileError (exit code 5) when a document cannot be read: a user's data is never dropped to get
  // past it.
  void attach(std::unique_ptr<StateFile> file);
  // Whether changes are written to a file (else they live in memory only).
  [[nodiscard]] bool durable() const noexcept { return file_ != nullptr; }
  [[nodiscard]] const StateFile* file() const noexcept { return file_.get(); }
  // A value of the file's meta table (none in memory mode), and setting one at once.
  [[nodiscard]] std::optional<std::string> meta(const std::string& key) const;
  void set_meta(const std::string& key, const std::string& value);

  // The end of a turn: the changes since the last commit are written in one transaction (throws
  // std::runtime_error if the file cannot be written), then watchers hear of them.
  void commit();

  // Watchers of the changes, each called after the commit that made them durable.
  using Watcher = std::function<void(const std::vector<DocumentChange>& changes)>;
  std::uint64_t watch(Watcher watcher);
  void unwatch(std::uint64_t id);

  // Documents per kind (the modules' own count, in either mode).
  [[nodiscard]] std::map<std::string, std::int64_t> counts() const;
  // Every kept document and the clock as one JSON document (secrets included: it is a snapshot to restore).
  [[nodiscard]] std::string export_json() const;
  // The documents of a snapshot made by export_json; throws std::invalid_argument when it is not one.
  [[nodiscard]] static std::vector<DocumentChange> parse_snapshot(std::string_view snapshot);
  // Replaces everything with these documents. Throws std::invalid_argument (and changes nothing) when one
  // cannot be read.
  void replace_all(const std::vector<DocumentChange>& documents);
  // Forgets every document but the clock's.
  void reset();

 private:
  // Rewrites the file with everything the modules hold now, in one transaction, and tells watchers.
  void rewrite();

  StateChanges& changes_;
  std::unique_ptr<StateFile> file_;
  std::map<std::uint64_t, Watcher> watchers_;
  std::uint64_t next_watcher_ = 1;
};

}  // namespace platformpp::emulator
