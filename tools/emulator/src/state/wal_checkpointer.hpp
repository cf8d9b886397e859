// The state file's WAL checkpoints, off the emulator's thread (docs/emulator-state.md, "Durability at low
// cost"). SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 pages: it copies the WAL
// into the database and fsyncs both, on the emulator's thread, while every answer of the turn waits (9 to
// 170 ms each under the load benchmark, the slowest commits by far). Here the writer's connection only
// reports the WAL's size after each commit (its wal hook); a thread with a connection of its own runs PASSIVE
// checkpoints, which never wait for the writer nor make it wait.
//
// The bound: the WAL starts over from its beginning only when a writer finds it wholly checkpointed, which
// under a steady stream of commits a checkpoint on another thread seldom manages (there is always one more
// commit). So within `threshold_pages` of `bound_pages` the thread copies whatever is new, keeping the
// part not yet in the database small, and past the bound it starts no more checkpoints: the writer finishes,
// right after a commit, once the thread is idle. That costs it the last few pages and the fsyncs, and the
// WAL starts over with its next commit. (If the thread cannot run at all, the writer does it all, once per
// bound instead of SQLite's once per 1,000 pages.)
//
// Durability is unchanged: a commit is durable once in the WAL (synchronous=NORMAL: across a killed
// process), whoever copies it into the database later, and SQLite recovers the WAL when the file is next
// opened.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

struct sqlite3;

namespace platformpp::emulator {

struct WalLimits {
  int threshold_pages = 1000;  // the thread checkpoints once this many pages are not yet in the database
  int bound_pages = 4000;      // the writer finishes the checkpoint past this many pages in the WAL
  // Off: no thread; the writer checkpoints at the bound, the fallback of a thread that cannot run. Tests
  // use it to check the bound without depending on how the thread keeps pace.
  bool background_thread = true;
};

class WalCheckpointer {
 public:
  struct Stats {
    std::uint64_t background = 0;  // the thread's checkpoints (each copied something)
    std::uint64_t writer = 0;      // the writer's, past the bound
    std::uint64_t restarts = 0;    // times the WAL started over from its beginning
    int wal_pages = 0;             // after the last commit (stats() reads it off)
    int max_wal_pages = 0;
  };

  // Takes over `writer`'s wal hook (SQLite's automatic checkpoint off) and starts the thread (unless
  // `limits` turn it off), which opens `path` itself. The writer connection must outlive this object.
  WalCheckpointer(sqlite3* writer, std::string path, WalLimits limits);
  // Stops and joins the thread (its connection closed), leaving the rest of the WAL to the writer's close.
  ~WalCheckpointer();
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  [[nodiscard]] Stats stats() const;

 private:
  static int on_commit(void* self, sqlite3* db, const char* name, int pages);
  void committed(sqlite3* db, int pages);
  void run();
  // Pages of the WAL not yet copied into the database, as far as is known. Under mutex_.
  [[nodiscard]] int tail() const;
  // Whether the thread has a checkpoint to run. Under mutex_.
  [[nodiscard]] bool thread_due() const;

  sqlite3* writer_;
  std::string path_;
  WalLimits limits_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  int wal_pages_ = 0;                        // after the writer's last commit
  std::uint64_t generation_ = 0;             // WAL restarts seen by the writer
  bool running_ = false;                     // a checkpoint is running (the thread's or the writer's)
  bool finishing_ = false;                   // past the bound: the writer checkpoints next, the thread waits
  int backfilled_ = 0;                       // copied into the database by the last checkpoint...
  std::uint64_t backfilled_generation_ = 0;  // ...of this generation of the WAL
  Stats stats_;

  std::thread thread_;  // last: started once the rest is ready (none without background_thread)
};

}  // namespace platformpp::emulator
