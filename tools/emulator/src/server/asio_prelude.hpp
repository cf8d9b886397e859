// Include first in every translation unit that uses Boost.Asio or Boost.Beast.
// Why: Boost 1.74's Asio uses std::exchange/std::forward through <utility> without including it, which GCC 12
// in C++20 mode no longer pulls in transitively.
#pragma once

#include <utility>
