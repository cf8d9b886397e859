// The emulator's target-users CSV reader (Create Channel Invite's and Update Target Users' target_users_file)
// fed any bytes, with a small user limit. Nothing may crash or throw; every id read is a canonical snowflake
// found in the input, once; a file with invalid lines has no failure of the job's and vice versa; the list
// written back reads as the same ids.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "guild/target_users_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace platformpp::emulator;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto file = parse_target_users_csv(input, 16);
  if (!file.invalid_lines.empty() && file.failure) __builtin_trap();
  if (file.invalid_lines.size() > kTargetUsersReportedLines + 1) __builtin_trap();
  std::set<std::string_view> seen;
  for (const auto& id : file.user_ids) {
    if (id.empty() || id.size() > 20 || id.front() == '0') __builtin_trap();
    for (const char c : id) {
      if (c < '0' || c > '9') __builtin_trap();
    }
    if (!seen.insert(id).second) __builtin_trap();
    if (input.find(id) == std::string_view::npos) __builtin_trap();
  }
  if (file.rows < file.user_ids.size()) __builtin_trap();
  if (!file.failure && file.invalid_lines.empty()) {
    const auto again = parse_target_users_csv(target_users_csv(file.user_ids), 16);
    if (again.user_ids != file.user_ids || again.failure || !again.invalid_lines.empty()) __builtin_trap();
  }
  return 0;
}
