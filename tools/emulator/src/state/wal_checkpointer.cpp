#include "state/wal_checkpointer.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

namespace platformpp::emulator {

WalCheckpointer::WalCheckpointer(sqlite3* writer, std::string path, WalLimits limits)
    : writer_(writer), path_(std::move(path)), limits_(limits) {
  // The pragma turns SQLite's own checkpoint off; the hook would replace it anyway (both set the one hook).
  sqlite3_exec(writer_, "PRAGMA wal_autocheckpoint = 0", nullptr, nullptr, nullptr);
  sqlite3_wal_hook(writer_, &WalCheckpointer::on_commit, this);
  if (limits_.background_thread) thread_ = std::thread([this] { run(); });
}

WalCheckpointer::~WalCheckpointer() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  sqlite3_wal_hook(writer_, nullptr, nullptr);
}

WalCheckpointer::Stats WalCheckpointer::stats() const {
  const std::lock_guard lock(mutex_);
  auto stats = stats_;
  stats.wal_pages = wal_pages_;
  return stats;
}

int WalCheckpointer::tail() const {
  const int copied = backfilled_generation_ == generation_ ? backfilled_ : 0;
  return std::max(0, wal_pages_ - copied);
}

bool WalCheckpointer::thread_due() const {
  if (finishing_ || running_) return false;
  const int remaining = tail();
  // Near the bound, whatever is new: the writer's share past it is then small.
  return remaining >= limits_.threshold_pages ||
         (remaining > 0 && wal_pages_ >= limits_.bound_pages - limits_.threshold_pages);
}

int WalCheckpointer::on_commit(void* self, sqlite3* db, const char* /*name*/, int pages) {
  static_cast<WalCheckpointer*>(self)->committed(db, pages);
  return SQLITE_OK;  // a failed checkpoint is no failed commit: the commit is in the WAL
}

// On the writer's thread, after each commit, with the WAL's size in pages.
void WalCheckpointer::committed(sqlite3* db, int pages) {
  bool wake = false;
  bool finish = false;
  std::uint64_t generation = 0;
  {
    const std::lock_guard lock(mutex_);
    if (pages < wal_pages_) {  // the writer found the WAL wholly checkpointed and started it over
      ++generation_;
      ++stats_.restarts;
    }
    wal_pages_ = pages;
    stats_.max_wal_pages = std::max(stats_.max_wal_pages, pages);
    if (pages >= limits_.bound_pages && tail() > 0) finishing_ = true;
    // While the thread's checkpoint runs, the writer's would only be refused (BUSY): the next commit.
    finish = finishing_ && !running_;
    running_ = running_ || finish;
    wake = thread_due();
    generation = generation_;
  }
  if (wake) wake_.notify_one();
  if (!finish) return;
  int log = 0;
  int copied = 0;
  const int rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
  const std::lock_guard lock(mutex_);
  running_ = false;
  if (rc != SQLITE_OK) return;  // another process's checkpoint, say: the next commit tries again
  ++stats_.writer;
  finishing_ = false;
  if (generation == generation_) {
    backfilled_ = copied;
    backfilled_generation_ = generation;
  }
}

void WalCheckpointer::run() {
  // A connection of this thread's own: SQLite connections are not shared between threads here.
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
  // A first read opens the WAL, without which a checkpoint has nothing to work on.
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, nullptr);
  std::unique_lock lock(mutex_);
  bool chase = false;
  while (rc == SQLITE_OK || rc == SQLITE_BUSY) {
    wake_.wait(lock, [&] { return stop_ || thread_due() || (chase && !finishing_ && !running_); });
    if (stop_) break;
    running_ = true;
    const auto generation = generation_;
    lock.unlock();
    int log = 0;
    int copied = 0;
    rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
    lock.lock();
    running_ = false;
    if (rc == SQLITE_OK) {
      ++stats_.background;
      if (generation == generation_) {
        backfilled_ = copied;
        backfilled_generation_ = generation;
      }
      // Once more for what was committed during the copy: that one is short, and may find the writer
      // between two commits, when the WAL is then wholly checkpointed and starts over.
      chase = !chase && copied < log;
    } else {
      chase = false;
      if (rc == SQLITE_BUSY) {  // another process's checkpoint
        wake_.wait_for(lock, std::chrono::milliseconds(10), [&] { return stop_; });
      }
    }
  }
  if (rc != SQLITE_OK && rc != SQLITE_BUSY && !stop_) {
    // Nothing is lost (the commits are in the WAL): the writer checkpoints at the bound instead.
    std::fprintf(stderr, "platformpp-emulator: state file %s: background checkpoints stopped: %s\n",
                 path_.c_str(), db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  }
  lock.unlock();
  sqlite3_close_v2(db);
}

}  // namespace platformpp::emulator
