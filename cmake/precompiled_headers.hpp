// The headers nearly every translation unit of the library and the emulator parses: precompiled once per
// target (PLATFORMPP_PRECOMPILED_HEADERS), which saves each unit about a second of parsing, a sixth of its
// compile time. Only the standard library and RapidJSON: a precompiled Asio or Beast would be larger to load
// than most units are to compile, and the few units that use them instantiate most of their cost anyway.
// Nothing may rely on it: the clang-tidy tree builds without it, so a missing #include still fails there.
#include <utility>  // before any Asio header, which Boost 1.74 needs under GCC 12's C++20

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <variant>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
