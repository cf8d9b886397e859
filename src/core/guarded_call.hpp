#pragma once
// Calls a handler on the network thread so that an exception from it is logged, never allowed to end the
// loop that called it (a reconnect loop, a read loop).

#include "core/logger.hpp"

#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace platformpp::core {

template <class F, class... Args>
void GuardedCall(Logger& logger, std::string_view component, const char* what, F& f, Args&&... args) {
  if (!f) return;
  try {
    f(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    logger.Error(std::string(component) + ": the " + what + " handler threw: " + e.what());
  } catch (...) {
    logger.Error(std::string(component) + ": the " + what + " handler threw");
  }
}

}  // namespace platformpp::core
