// What makes "acknowledged" mean "durable" (docs/emulator-state.md): every write that tells a peer something
// happened (an HTTP answer, a Gateway dispatch, an IPC frame, a webhook event) goes through the gate. While
// the current event-loop turn has changes not yet committed, writes are held, in order; at the end of the
// turn (posted behind the handlers already queued, so one transaction covers them all) the changes are
// committed and the held writes go out. Without a state file nothing is held: the end of the turn only feeds
// the console. Asio-free: the server gives it a way to post.
#pragma once

#include <deque>
#include <functional>
#include <utility>

#include "service/emulator_service.hpp"

namespace platformpp::emulator {

class TurnGate {
 public:
  using Post = std::function<void(std::function<void()>)>;
  // `on_failure` is told when the state file cannot be written: the server stops (what was held is never
  // sent, since it would acknowledge what is not durable).
  TurnGate(EmulatorService& service, Post post, std::function<void(const std::exception&)> on_failure)
      : service_(service), post_(std::move(post)), on_failure_(std::move(on_failure)) {
    service_.set_on_first_change([this] { schedule(); });
  }
  ~TurnGate() { service_.set_on_first_change(nullptr); }
  TurnGate(const TurnGate&) = delete;
  TurnGate& operator=(const TurnGate&) = delete;

  // Whether a write now would have to wait for this turn's commit (else the caller may write at once, without
  // wrapping the write for send: the common case in memory mode, once per Gateway frame).
  [[nodiscard]] bool holding() const {
    return service_.state_store().durable() && (!held_.empty() || service_.turn_has_changes());
  }

  // Runs `write` now if nothing it could acknowledge is uncommitted, else once this turn is committed.
  void send(std::function<void()> write) {
    if (closed_) return;
    if (!holding()) {
      write();
      return;
    }
    held_.push_back(std::move(write));
    schedule();
  }

  [[nodiscard]] bool closed() const noexcept { return closed_; }

  // The server is stopping: nothing more is sent or scheduled (the io_context is going away).
  void close() noexcept {
    closed_ = true;
    held_.clear();
  }

 private:
  void schedule() {
    if (scheduled_ || closed_) return;
    scheduled_ = true;
    post_([this] { end_turn(); });
  }

  void end_turn() {
    scheduled_ = false;
    try {
      service_.end_turn();
    } catch (const std::exception& e) {
      closed_ = true;
      held_.clear();
      on_failure_(e);
      return;
    }
    auto held = std::move(held_);
    held_.clear();
    for (auto& write : held)
      write();
  }

  EmulatorService& service_;
  Post post_;
  std::function<void(const std::exception&)> on_failure_;
  std::deque<std::function<void()>> held_;
  bool scheduled_ = false;
  bool closed_ = false;
};

}  // namespace platformpp::emulator
