#include "http/fault_injector.hpp"

namespace platformpp::emulator {

std::string FaultInjector::add(Fault fault) {
  fault.id = "fault-" + std::to_string(next_id_++);
  fault.remaining = fault.count;
  faults_.push_back(std::move(fault));
  return faults_.back().id;
}

std::optional<Fault> FaultInjector::take_match(std::string_view method, std::string_view path) {
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (!it->route.matches(method, path)) continue;
    Fault taken = *it;
    if (it->count > 0 && --it->remaining <= 0) faults_.erase(it);
    return taken;
  }
  return std::nullopt;
}

}  // namespace platformpp::emulator
