#include "soak_world.hpp"

#include <cstdio>

namespace soak {
namespace {
thread_local bool tInsidePump = false;
}  // namespace

void Findings::Add(const std::string& kind, const std::string& example) {
  ++counts_[kind];
  auto& list = examples_[kind];
  if (list.size() < 5) list.push_back(example);
}

void Findings::Print() const {
  for (const auto& [kind, count] : counts_) {
    std::printf("FINDING %s: %d\n", kind.c_str(), count);
    for (const auto& example : examples_.at(kind))
      std::printf("    %s\n", example.c_str());
  }
}

Ledger::PumpScope::PumpScope() {
  tInsidePump = true;
}
Ledger::PumpScope::~PumpScope() {
  tInsidePump = false;
}

void Ledger::Check(const char* what) {
  if (std::this_thread::get_id() != gameThread_) findings_.Add("callback on another thread", what);
  if (!tInsidePump) findings_.Add("callback outside RunCallbacks", what);
}

uint64_t Ledger::Begin(const std::string& what) {
  const auto id = next_++;
  pending_.emplace(id, what);
  return id;
}

void Ledger::Ended(uint64_t id) {
  if (pending_.erase(id) == 0) findings_.Add("operation ended twice", std::to_string(id));
}

std::size_t Ledger::Pending() const {
  return pending_.size();
}

std::vector<std::string> Ledger::PendingNames() const {
  std::vector<std::string> names;
  for (const auto& [id, what] : pending_)
    names.push_back(what);
  return names;
}

}  // namespace soak
