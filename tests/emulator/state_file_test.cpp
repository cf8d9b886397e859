// The emulator's state file: created with its schema, documents written in one transaction and read back
// after reopening; what is not ours (not SQLite, another program's database, corrupt) refused with exit code
// 5 and a newer schema with 6, each file left byte for byte as it was.
#include "state/state_file.hpp"
#include "core/private_files.hpp"

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace state_file_test {

namespace fs = std::filesystem;
using platformpp::emulator::StateBatch;
using platformpp::emulator::StateFile;
using platformpp::emulator::StateFileError;
using platformpp::emulator::WalLimits;

// A private directory for one test's files, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() : path(platformpp::emulator::make_private_temp_directory("platformpp-state-")) {}
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Opening `path` is refused with `exit_code`, the message says `why`, and the file is unchanged.
void check_refused(const fs::path& path, int exit_code, const std::string& why) {
  const std::string before = read_bytes(path);
  try {
    StateFile::open(path.string());
    FAIL("opened " << path);
  } catch (const StateFileError& error) {
    CHECK(error.exit_code() == exit_code);
    CHECK_MESSAGE(std::string(error.what()).find(why) != std::string::npos, error.what());
  }
  CHECK(read_bytes(path) == before);
}

TEST_CASE("state file: created with its schema, written in one transaction, read back after reopening") {
  TempDir dir;
  const auto path = (dir.path / "state.db").string();
  {
    auto file = StateFile::open(path);
    CHECK(file->meta("schema_version") == std::to_string(StateFile::kSchemaVersion));
    CHECK(file->load_all().empty());
    StateBatch batch;
    batch.put.push_back({"user", "1", R"({"v":1,"username":"ada"})"});
    batch.put.push_back({"user", "2", R"({"v":1,"username":"bo"})"});
    batch.put.push_back({"lobby", "9", R"({"v":1})"});
    batch.meta["clock_ms"] = "1795000000000";
    file->write(batch);
    StateBatch second;
    second.put.push_back({"user", "2", R"({"v":1,"username":"bob"})"});  // replaced
    second.deleted.emplace_back("lobby", "9");
    file->write(second);
  }
  auto reopened = StateFile::open(path);
  const auto documents = reopened->load_all();
  REQUIRE(documents.size() == 2);
  CHECK(documents[0].kind == "user");
  CHECK(documents[0].id == "1");
  CHECK(documents[1].body == R"({"v":1,"username":"bob"})");
  CHECK(reopened->meta("clock_ms") == "1795000000000");
  CHECK(reopened->counts_by_kind() == std::map<std::string, std::int64_t>{{"user", 2}});

  // WAL: the journal mode is kept in the file.
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))) == "wal");
  sqlite3_finalize(statement);
  sqlite3_close(raw);

  reopened->clear();
  CHECK(reopened->load_all().empty());
  CHECK(reopened->meta("clock_ms") == "1795000000000");
}

TEST_CASE("state file: what is not a state file is refused with exit code 5 and left as it is") {
  TempDir dir;
  const auto text = dir.path / "notes.txt";
  write_bytes(text, std::string("these are a developer's notes, not a database\n") + std::string(4096, 'x'));
  check_refused(text, StateFile::kExitNotAStateFile, "not an SQLite database");

  // Another program's SQLite database.
  const auto foreign = dir.path / "other.db";
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(foreign.string().c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(raw);
  check_refused(foreign, StateFile::kExitNotAStateFile, "another program");

  // One with a meta table that is not ours.
  const auto lookalike = dir.path / "lookalike.db";
  REQUIRE(sqlite3_open(lookalike.string().c_str(), &raw) == SQLITE_OK);
  REQUIRE(sqlite3_exec(raw, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(raw);
  check_refused(lookalike, StateFile::kExitNotAStateFile, "not platformpp-emulator's");
}

TEST_CASE("state file: a corrupt file is refused with exit code 5") {
  TempDir dir;
  const auto path = dir.path / "state.db";
  {
    auto file = StateFile::open(path.string());
    StateBatch batch;
    for (int i = 0; i < 200; ++i)
      batch.put.push_back({"message", std::to_string(i), std::string(200, 'm')});
    file->write(batch);
    sqlite3* raw = nullptr;  // fold the WAL into the main file, so that the damage below hits the data
    REQUIRE(sqlite3_open(path.string().c_str(), &raw) == SQLITE_OK);
    REQUIRE(sqlite3_exec(raw, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(raw);
  }
  std::string bytes = read_bytes(path);
  REQUIRE(bytes.size() > 8192);
  // Every B-tree page's header (4 KiB pages; the first page is the file's header and the schema).
  for (std::size_t page = 4096; page + 8 <= bytes.size(); page += 4096)
    for (std::size_t i = page; i < page + 8; ++i)
      bytes[i] = static_cast<char>(0xA5);
  write_bytes(path, bytes);
  fs::remove(path.string() + "-wal");
  fs::remove(path.string() + "-shm");
  check_refused(path, StateFile::kExitNotAStateFile, "corrupt");
}

TEST_CASE("state file: a newer schema is refused with exit code 6, naming both versions") {
  TempDir dir;
  const auto path = dir.path / "state.db";
  {
    auto file = StateFile::open(path.string());
    StateBatch batch;
    batch.meta["schema_version"] = std::to_string(StateFile::kSchemaVersion + 1);
    file->write(batch);
  }
  check_refused(
      path, StateFile::kExitNewerSchema,
      "schema version " + std::to_string(StateFile::kSchemaVersion + 1) + " was written by a newer");
  check_refused(path, StateFile::kExitNewerSchema,
                "knows up to " + std::to_string(StateFile::kSchemaVersion));
}

TEST_CASE("state file: the WAL is checkpointed by the file's own thread while commits go on") {
  TempDir dir;
  const auto path = (dir.path / "state.db").string();
  const auto wal = path + "-wal";
  // Small limits, so that a few thousand commits cross them many times.
  const WalLimits limits{100, 400};
  std::size_t written = 0;
  {
    auto file = StateFile::open(path, false, limits);
    std::error_code ec;
    const auto start_size = fs::file_size(path, ec);
    // A document of its own per commit (about a page), until the thread has checkpointed a few times and
    // the WAL has started over.
    while (written < 20000) {
      StateBatch batch;
      batch.put.push_back({"message", std::to_string(written), std::string(3000, 'm')});
      file->write(batch);
      ++written;
      const auto stats = file->checkpoint_stats();
      if (written >= 2000 && stats.background >= 3 && stats.restarts >= 1) break;
    }
    const auto stats = file->checkpoint_stats();
    // How far the WAL grows past the bound here is what this loop commits while one checkpoint of the
    // thread's runs, its fsyncs included: a few pages on an idle machine, nearly everything written under
    // heavy disk load. So the bound is checked by the next test, without the thread.
    MESSAGE(written << " commits; checkpoints by the thread " << stats.background << ", by the writer "
                    << stats.writer << "; the WAL started over " << stats.restarts << " times, at most "
                    << stats.max_wal_pages << " pages");
    CHECK(stats.background >= 3);
    CHECK(stats.restarts >= 1);
    // The documents reached the database file itself while commits went on.
    CHECK(fs::file_size(path) > start_size + std::uintmax_t{500} * 4096);
  }
  // A clean close leaves everything in the database, and no WAL.
  CHECK_FALSE(fs::exists(wal));
  auto reopened = StateFile::open(path);
  CHECK(reopened->load_all().size() == written);
}

TEST_CASE("state file: past the bound the writer checkpoints, and the WAL starts over at its next commit") {
  TempDir dir;
  const auto path = (dir.path / "state.db").string();
  const auto wal = path + "-wal";
  // No thread: the writer alone, as when the thread cannot run. Every step is then the writer's own.
  const WalLimits limits{100, 400, false};
  constexpr std::uintmax_t kFrame = 4096 + 24;  // a WAL page and its frame header
  constexpr std::size_t kCommits = 2000;        // over 4,000 pages in all: the bound is crossed ten times
  int largest_step = 0;                         // the most pages one commit added to the WAL
  {
    auto file = StateFile::open(path, false, limits);
    std::error_code ec;
    const auto start_size = fs::file_size(path, ec);
    int before = 0;
    for (std::size_t i = 0; i < kCommits; ++i) {
      StateBatch batch;
      batch.put.push_back({"message", std::to_string(i), std::string(3000, 'm')});
      file->write(batch);
      const int pages = file->checkpoint_stats().wal_pages;
      largest_step = std::max(largest_step, pages - before);  // negative where the WAL started over
      before = pages;
    }
    const auto stats = file->checkpoint_stats();
    MESSAGE(kCommits << " commits; checkpoints by the writer " << stats.writer << "; the WAL started over "
                     << stats.restarts << " times, at most " << stats.max_wal_pages
                     << " pages; one commit adds at most " << largest_step);
    CHECK(stats.background == 0);
    CHECK(stats.writer >= 9);
    // Each checkpoint of the writer's copies the whole WAL, so the next commit starts it over.
    CHECK(stats.restarts >= stats.writer - 1);
    CHECK(stats.restarts <= stats.writer);
    // The first commit at or past the bound checkpoints: the WAL ends at most one commit past it.
    REQUIRE(largest_step > 0);
    CHECK(stats.max_wal_pages >= limits.bound_pages);
    CHECK(stats.max_wal_pages < limits.bound_pages + largest_step);
    CHECK(fs::file_size(wal) <= static_cast<std::uintmax_t>(limits.bound_pages + largest_step) * kFrame + 32);
    CHECK(fs::file_size(path) > start_size + std::uintmax_t{1000} * 4096);
  }
  CHECK_FALSE(fs::exists(wal));
  auto reopened = StateFile::open(path);
  CHECK(reopened->load_all().size() == kCommits);
}

}  // namespace state_file_test
