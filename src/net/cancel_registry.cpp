#include "net/cancel_registry.hpp"

#include <vector>

namespace platformpp::net {

void CancelRegistry::Link(ScopedCancel& entry) {
  entry.prev_ = nullptr;
  entry.next_ = head_;
  if (head_) head_->prev_ = &entry;
  head_ = &entry;
  entry.linked_ = true;
}

void CancelRegistry::Unlink(ScopedCancel& entry) {
  if (!entry.linked_) return;
  if (entry.prev_) {
    entry.prev_->next_ = entry.next_;
  } else {
    head_ = entry.next_;
  }
  if (entry.next_) entry.next_->prev_ = entry.prev_;
  entry.linked_ = false;
}

void CancelRegistry::CancelAll() {
  // Unlinked first: a cancel only posts completions, but the entries must not be cancelled twice.
  std::vector<ScopedCancel*> entries;
  for (ScopedCancel* entry = head_; entry; entry = entry->next_)
    entries.push_back(entry);
  for (ScopedCancel* entry : entries)
    Unlink(*entry);
  for (ScopedCancel* entry : entries)
    entry->cancel_();
}

}  // namespace platformpp::net
