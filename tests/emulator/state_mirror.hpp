// A test's copy of what a state file would hold, kept the way the server keeps the file: each turn's changes
// taken and applied. Comparing it with every document saved whole finds a change a module did not name (the
// file would have lost it); loading it into a fresh service is a restart.
#pragma once

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/service_context.hpp"
#include "core/state_changes.hpp"

namespace platformpp::emulator::test {

class StateMirror {
 public:
  explicit StateMirror(StateChanges& changes) : changes_(changes) {
    changes_.start_recording();
    for (auto& document : changes_.save_all(true))
      documents_[{document.kind, document.id}] = *document.body;
  }

  // The end of a turn: what changed since the last call is applied.
  void sync() {
    for (auto& change : changes_.take()) {
      if (const auto* kind = changes_.find_kind(change.kind); kind != nullptr && !kind->persisted) continue;
      if (change.body) {
        documents_[{change.kind, change.id}] = std::move(*change.body);
      } else {
        documents_.erase({change.kind, change.id});
      }
    }
  }

  // Every document saved whole equals the mirror's, and the mirror holds nothing more: no change went
  // unnamed. (The clock's document is written with every change, so it is only compared after a sync.)
  void check_complete() {
    sync();
    std::map<std::pair<std::string, std::string>, std::string> whole;
    for (auto& document : changes_.save_all(true))
      whole[{document.kind, document.id}] = *document.body;
    whole.erase({std::string(kClockDocument), std::string(kClockDocument)});
    auto mirrored = documents_;
    mirrored.erase({std::string(kClockDocument), std::string(kClockDocument)});
    // (Plain loops over entries: clang-tidy's clang 14 cannot capture structured bindings in doctest's
    // message lambdas.)
    for (const auto& entry : whole) {
      const auto it = mirrored.find(entry.first);
      CHECK_MESSAGE(it != mirrored.end(),
                    "not named when created: " << entry.first.first << "/" << entry.first.second);
      if (it != mirrored.end()) {
        CHECK_MESSAGE(it->second == entry.second, "not named when changed: " << entry.first.first << "/"
                                                                             << entry.first.second
                                                                             << "\n  file: " << it->second
                                                                             << "\n  now:  " << entry.second);
      }
    }
    for (const auto& entry : mirrored) {
      CHECK_MESSAGE(whole.count(entry.first) == 1,
                    "not named when removed: " << entry.first.first << "/" << entry.first.second);
    }
  }

  // The documents as a state file would give them back at start.
  [[nodiscard]] std::vector<DocumentChange> documents() const {
    std::vector<DocumentChange> result;
    for (const auto& [key, body] : documents_)
      result.push_back(DocumentChange{key.first, key.second, body});
    return result;
  }
  [[nodiscard]] std::size_t count(const std::string& kind) const {
    std::size_t n = 0;
    for (const auto& entry : documents_)
      n += entry.first.first == kind ? 1 : 0;
    return n;
  }

 private:
  StateChanges& changes_;
  std::map<std::pair<std::string, std::string>, std::string> documents_;
};

// Loading `documents` into `changes` then saving everything again gives the same documents: nothing is lost
// or altered on the way through a restart.
inline void check_round_trip(const std::vector<DocumentChange>& documents, StateChanges& changes) {
  changes.load(documents);
  std::map<std::pair<std::string, std::string>, std::string> before, after;
  for (const auto& document : documents)
    before[{document.kind, document.id}] = *document.body;
  for (auto& document : changes.save_all(true))
    after[{document.kind, document.id}] = *document.body;
  for (const auto& entry : before) {
    const auto it = after.find(entry.first);
    CHECK_MESSAGE(it != after.end(), "lost on reload: " << entry.first.first << "/" << entry.first.second);
    if (it != after.end()) {
      CHECK_MESSAGE(it->second == entry.second,
                    "altered on reload: " << entry.first.first << "/" << entry.first.second << "\n  "
                                          << entry.second << "\n  " << it->second);
    }
  }
  CHECK(after.size() == before.size());
}

}  // namespace platformpp::emulator::test
