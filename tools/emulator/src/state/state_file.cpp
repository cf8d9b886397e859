#include "state/state_file.hpp"

#include <sqlite3.h>

#include <utility>

#include "core/private_files.hpp"

namespace platformpp::emulator {
namespace {

// The meta table's key for the layout version, and the marker that says the file is ours.
constexpr const char* kSchemaKey = "schema_version";
constexpr const char* kFormatKey = "format";
constexpr const char* kFormat = "platformpp-emulator-state";

// A prepared statement, finalized on every path.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("state file: ") + sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  // True while a row is there; throws on an error.
  bool step() {
    const int result = sqlite3_step(statement_);
    if (result == SQLITE_ROW) return true;
    if (result == SQLITE_DONE) return false;
    throw std::runtime_error(std::string("state file: ") + sqlite3_errmsg(db_));
  }
  void reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  [[nodiscard]] std::string text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return data == nullptr
               ? std::string()
               : std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
  }
  [[nodiscard]] std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

StateFileError not_a_state_file(const std::string& path, const std::string& why) {
  return {StateFile::kExitNotAStateFile, "state file " + path + ": " + why + "; it is left as it is"};
}

}  // namespace

StateFile::StateFile(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

StateFile::~StateFile() {
  // The thread and its connection first: the writer's is then the last, and its close checkpoints the rest
  // of the WAL into the database and removes it.
  checkpointer_.reset();
  sqlite3_close_v2(db_);
}

void StateFile::set_journal_mode(bool sync_full) {
  try {
    exec("PRAGMA journal_mode = WAL");
    // NORMAL in WAL mode: a committed transaction survives the process being killed; FULL would also
    // survive power loss, at an fsync per commit.
    exec(sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
  } catch (const std::runtime_error& e) {
    throw not_a_state_file(path_, e.what());
  }
}

void StateFile::exec(const char* sql) const {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error != nullptr ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw std::runtime_error("state file " + path_ + ": " + message);
  }
}

std::unique_ptr<StateFile> StateFile::open(const std::string& path, bool sync_full, WalLimits limits) {
  // A new file is the user's alone from the start: it holds tokens and keys. (On POSIX SQLite gives its WAL
  // and shared-memory files the database's permissions; on Windows they inherit the directory's, so a state
  // file belongs in a private directory there, as docs/emulator-state.md says.)
  create_private_file(path);
  sqlite3* db = nullptr;
  const int opened = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<StateFile> file(new StateFile(db, path));
  if (opened != SQLITE_OK) throw not_a_state_file(path, std::string("cannot open: ") + sqlite3_errmsg(db));
  sqlite3_busy_timeout(db, 2000);

  // The first read tells SQLite from anything else (SQLITE_NOTADB) and an empty file from a used one.
  std::int64_t tables = 0;
  bool has_meta = false;
  try {
    Statement statement(db, "SELECT name FROM sqlite_schema WHERE type = 'table'");
    while (statement.step()) {
      ++tables;
      has_meta = has_meta || statement.text(0) == "meta";
    }
  } catch (const std::runtime_error&) {
    throw not_a_state_file(path, std::string("not an SQLite database (") + sqlite3_errmsg(db) + ")");
  }
  if (tables > 0 && !has_meta) throw not_a_state_file(path, "an SQLite database of another program");
  if (tables > 0) {
    Statement check(db, "PRAGMA quick_check");
    const std::string verdict = check.step() ? check.text(0) : std::string("no answer");
    if (verdict != "ok") throw not_a_state_file(path, "corrupt (" + verdict + ")");
  }

  if (tables == 0) {
    file->set_journal_mode(sync_full);
    file->exec(
        "BEGIN;"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
        "CREATE TABLE documents (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL,"
        " PRIMARY KEY (kind, id)) WITHOUT ROWID;"
        "COMMIT;");
    StateBatch batch;
    batch.meta[kFormatKey] = kFormat;
    batch.meta[kSchemaKey] = std::to_string(kSchemaVersion);
    file->write(batch);
    file->checkpointer_ = std::make_unique<WalCheckpointer>(db, path, limits);
    return file;
  }

  if (file->meta(kFormatKey) != std::string(kFormat)) {
    throw not_a_state_file(path, "its meta table is not platformpp-emulator's");
  }
  const auto version_text = file->meta(kSchemaKey).value_or("");
  int version = 0;
  try {
    version = std::stoi(version_text);
  } catch (const std::exception&) {
    throw not_a_state_file(path, "its schema version '" + version_text + "' is not a number");
  }
  if (version > kSchemaVersion) {
    throw StateFileError(kExitNewerSchema,
                         "state file " + path + ": schema version " + std::to_string(version) +
                             " was written by a newer platformpp-emulator; this one knows up to " +
                             std::to_string(kSchemaVersion) + " (the file is left as it is)");
  }
  if (version < 1) throw not_a_state_file(path, "schema version " + version_text + " is not valid");
  // Only now that the file is known to be ours is anything in it changed.
  file->set_journal_mode(sync_full);
  if (version < kSchemaVersion) file->migrate(version);
  file->checkpointer_ = std::make_unique<WalCheckpointer>(db, path, limits);
  return file;
}

void StateFile::migrate(int from_version) {
  // One step per version, each in the same transaction as the version it leads to. None yet: version 1 is
  // the first layout.
  for (int version = from_version; version < kSchemaVersion; ++version) {
    StateBatch batch;
    batch.meta[kSchemaKey] = std::to_string(version + 1);
    write(batch);
  }
}

std::vector<StateDocument> StateFile::load_all() const {
  Statement statement(db_, "SELECT kind, id, body FROM documents ORDER BY kind, id");
  std::vector<StateDocument> documents;
  while (statement.step())
    documents.push_back({statement.text(0), statement.text(1), statement.text(2)});
  return documents;
}

std::optional<std::string> StateFile::meta(const std::string& key) const {
  Statement statement(db_, "SELECT value FROM meta WHERE key = ?1");
  statement.bind(1, key);
  if (!statement.step()) return std::nullopt;
  return statement.text(0);
}

std::map<std::string, std::int64_t> StateFile::counts_by_kind() const {
  Statement statement(db_, "SELECT kind, COUNT(*) FROM documents GROUP BY kind");
  std::map<std::string, std::int64_t> counts;
  while (statement.step())
    counts[statement.text(0)] = statement.integer(1);
  return counts;
}

void StateFile::write(const StateBatch& batch) {
  if (batch.empty()) return;
  exec("BEGIN IMMEDIATE");
  try {
    if (batch.replace_all) exec("DELETE FROM documents");
    Statement put(db_, "INSERT OR REPLACE INTO documents (kind, id, body) VALUES (?1, ?2, ?3)");
    for (const auto& document : batch.put) {
      put.bind(1, document.kind);
      put.bind(2, document.id);
      put.bind(3, document.body);
      put.step();
      put.reset();
    }
    Statement erase(db_, "DELETE FROM documents WHERE kind = ?1 AND id = ?2");
    for (const auto& [kind, id] : batch.deleted) {
      erase.bind(1, kind);
      erase.bind(2, id);
      erase.step();
      erase.reset();
    }
    Statement meta(db_, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
    for (const auto& [key, value] : batch.meta) {
      meta.bind(1, key);
      meta.bind(2, value);
      meta.step();
      meta.reset();
    }
    exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void StateFile::clear() {
  exec("DELETE FROM documents");
}

}  // namespace platformpp::emulator
