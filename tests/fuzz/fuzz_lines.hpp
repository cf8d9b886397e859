// Reading a fuzz input line by line: the emulator targets' inputs are a few header lines, then a body.
#pragma once

#include <string_view>

/// The input's first line (without its '\n'), removed from `input`; all of it when there is no '\n'.
inline std::string_view next_line(std::string_view& input) {
  const auto end = input.find('\n');
  const auto line = input.substr(0, end);
  input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
  return line;
}
