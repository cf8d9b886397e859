// The state file's WAL checkpoints (state/wal_checkpointer): the thread copies the WAL into the database once
// the threshold is passed, and the writer finishes past the bound (at once without the thread, once the
// thread is idle with it), so the WAL starts over and stays bounded whether the thread keeps pace or does not
// run. The thread's share is waited for (up to 30 s), not timed: a loaded machine delays it, it does not
// change what it does.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "core/private_files.hpp"
#include "state/wal_checkpointer.hpp"

namespace wal_checkpointer_test {

using platformpp::emulator::WalCheckpointer;
using platformpp::emulator::WalLimits;

namespace {

// A WAL-mode database in a directory of its own, removed afterwards.
struct Database {
  std::filesystem::path dir;
  std::string path;
  sqlite3* db = nullptr;

  Database() {
    dir = platformpp::emulator::make_private_temp_directory("wal-checkpointer-");
    path = (dir / "state.db").string();
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    Exec("PRAGMA journal_mode = WAL");
    Exec("PRAGMA synchronous = NORMAL");
    Exec("CREATE TABLE t (x BLOB)");
  }
  ~Database() {
    sqlite3_close(db);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void Exec(const char* sql) { REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK); }
  // One commit of about one page.
  void Commit() { Exec("INSERT INTO t VALUES (randomblob(3000))"); }
};

}  // namespace

TEST_CASE(
    "WAL checkpointer: the thread copies past the threshold, the writer bounds the WAL past the bound") {
  Database database;
  {
    WalCheckpointer checkpointer(database.db, database.path, WalLimits{50, 400, true});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (checkpointer.stats().background == 0 && std::chrono::steady_clock::now() < deadline) {
      database.Commit();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    const auto stats = checkpointer.stats();
    MESSAGE("the thread's first checkpoint after " << stats.max_wal_pages << " pages");
    CHECK(stats.background > 0);
    // Past the bound the writer finishes once the thread is idle, and the WAL starts over: it stays bounded
    // over time (by how much it passes the bound meanwhile depends on how long the thread's copy takes).
    for (int i = 0; i < 1500; ++i)
      database.Commit();
    CHECK(checkpointer.stats().restarts > 0);
  }
  {
    // No thread: the writer alone keeps the bound, checkpointing once per bound. A database of its own: the
    // first one's WAL may have been left past this bound by the thread's last copy.
    Database fresh;
    WalCheckpointer writer_only(fresh.db, fresh.path, WalLimits{50, 400, false});
    for (int i = 0; i < 1500; ++i)
      fresh.Commit();
    const auto stats = writer_only.stats();
    CHECK(stats.background == 0);
    CHECK(stats.writer > 0);
    CHECK(stats.restarts > 0);
    CHECK(stats.max_wal_pages <= 400 + 8);  // a commit's pages (a row and its b-tree page) past the bound
  }
}

}  // namespace wal_checkpointer_test
