// The emulator's state file (--state FILE, docs/emulator-state.md): one SQLite database in WAL mode holding
// each module's entities as JSON documents by kind and id, and a few meta values (the schema version first).
// This class is the file alone: opening or creating it, refusing what is not ours or is too new, forward
// migrations of the table layout, loading everything, and writing one batch of changes per transaction.
// What goes in the documents is each module's business.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "state/wal_checkpointer.hpp"

struct sqlite3;

namespace platformpp::emulator {

// Why a state file cannot be used, and the emulator's exit code for it: 5 not a state file, unreadable or
// corrupt; 6 written by a newer emulator. A user's data is never reset to get past either.
class StateFileError : public std::runtime_error {
 public:
  StateFileError(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  [[nodiscard]] int exit_code() const noexcept { return exit_code_; }

 private:
  int exit_code_;
};

struct StateDocument {
  std::string kind;
  std::string id;
  std::string body;  // JSON
};

// One turn's writes: documents put (inserted or replaced) or deleted, and meta values set.
struct StateBatch {
  std::vector<StateDocument> put;
  std::vector<std::pair<std::string, std::string>> deleted;  // (kind, id)
  std::map<std::string, std::string> meta;
  bool replace_all = false;  // every document is deleted first (an import, a reset)
  [[nodiscard]] bool empty() const noexcept {
    return put.empty() && deleted.empty() && meta.empty() && !replace_all;
  }
};

class StateFile {
 public:
  // The table layout this emulator writes. Older files are migrated forward when opened.
  static constexpr int kSchemaVersion = 1;
  static constexpr int kExitNotAStateFile = 5;
  static constexpr int kExitNewerSchema = 6;

  // Opens `path`, creating it (mode 0600) when missing. Throws StateFileError when the file is not SQLite, is
  // another program's database, fails SQLite's integrity check or has a newer schema. `sync_full` makes
  // every commit wait for the disk (survives power loss, not only a killed process; slower). The WAL is
  // checkpointed on a thread of the file's own (state/wal_checkpointer.hpp), within `limits`.
  static std::unique_ptr<StateFile> open(const std::string& path, bool sync_full = false,
                                         WalLimits limits = {});
  ~StateFile();
  StateFile(const StateFile&) = delete;
  StateFile& operator=(const StateFile&) = delete;

  // Every document, by kind then id.
  [[nodiscard]] std::vector<StateDocument> load_all() const;
  [[nodiscard]] std::optional<std::string> meta(const std::string& key) const;
  [[nodiscard]] std::map<std::string, std::int64_t> counts_by_kind() const;
  // One transaction: all of it is durable once this returns (WAL, synchronous=NORMAL: across a killed
  // process), or none of it is (throws std::runtime_error).
  void write(const StateBatch& batch);
  // Deletes every document (meta stays).
  void clear();

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  // Who has checkpointed the WAL so far, and how long it grew.
  [[nodiscard]] WalCheckpointer::Stats checkpoint_stats() const { return checkpointer_->stats(); }

 private:
  StateFile(sqlite3* db, std::string path);
  void exec(const char* sql) const;
  void set_journal_mode(bool sync_full);
  void migrate(int from_version);

  sqlite3* db_;
  std::string path_;
  std::unique_ptr<WalCheckpointer> checkpointer_;  // once the file is known to be ours
};

}  // namespace platformpp::emulator
