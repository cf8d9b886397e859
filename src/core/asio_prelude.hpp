#pragma once
// Include this before any Boost.Asio or Boost.Beast header: Boost 1.74 with GCC 12 in C++20 uses
// std::exchange and friends without including <utility> itself.

#include <utility>
