// The target-users file of a guild invite (Create Channel Invite's and Update Target Users'
// `target_users_file`): a CSV file of one column of user ids, and the CSV Get Target Users answers. A public
// parser of network input: it has a fuzz target (tests/fuzz/emulator_target_users_csv_fuzz.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

// Our limit on the users of one file (the platform names none): more fail the job.
inline constexpr std::size_t kTargetUsersMax = 100000;
// The invalid lines a refusal describes at most (the rest are summed up in one more message).
inline constexpr std::size_t kTargetUsersReportedLines = 100;

// What a target-users file says.
struct TargetUsersFile {
  // The user ids, in file order, each once (the platform ignores duplicates).
  std::vector<std::string> user_ids{};
  // The data lines read (duplicates included): what the processing time counts.
  std::size_t rows = 0;
  // Lines whose value is not a user id, as the platform words them ("Line 5: invalid user ID format"): the
  // upload is refused with them (400), at most kTargetUsersReportedLines of them.
  std::vector<std::string> invalid_lines{};
  // A file the job cannot process (not UTF-8 text, no user ids, more than `max_users`): the job fails with
  // this message.
  std::optional<std::string> failure{};
};

// Reads a target-users file: lines ended by LF or CRLF, a UTF-8 byte order mark skipped, blank lines skipped,
// a value trimmed of spaces and of one pair of double quotes. A first line that is not digits is a header
// (any name: the platform's guide uploads files without one, and files with a header of their own). Every
// other line must be a user id: a snowflake written canonically (decimal digits, no leading zero, not 0,
// within 64 bits).
[[nodiscard]] TargetUsersFile parse_target_users_csv(std::string_view text,
                                                     std::size_t max_users = kTargetUsersMax);

// The file Get Target Users answers: the header `user_id`, then one id a line, each line ended by LF.
[[nodiscard]] std::string target_users_csv(const std::vector<std::string>& user_ids);

}  // namespace platformpp::emulator
