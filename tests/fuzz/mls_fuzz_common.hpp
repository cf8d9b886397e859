#pragma once
// Shared by the MLS fuzz targets: a parse must either throw mls::Error or give a value that encodes back
// to exactly the bytes it came from (the codec is canonical: minimal lengths, every field kept).
#include "mls/bytes.hpp"
#include "mls/tls_codec.hpp"

#include <cstddef>
#include <cstdint>

namespace mls_fuzz {

inline void RequireSame(platformpp::mls::ByteView a, platformpp::mls::ByteView b) {
  if (a.size() != b.size()) __builtin_trap();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) __builtin_trap();
}

}  // namespace mls_fuzz
