#include "auth/scopes.hpp"

namespace platformpp::emulator {

std::vector<std::string> split_scopes(std::string_view text) {
  std::vector<std::string> scopes;
  while (!text.empty()) {
    const auto space = text.find(' ');
    if (space != 0) scopes.emplace_back(text.substr(0, space));
    if (space == std::string_view::npos) break;
    text.remove_prefix(space + 1);
  }
  return scopes;
}

std::string join_scopes(const std::vector<std::string>& scopes) {
  std::string joined;
  for (const auto& scope : scopes) {
    if (!joined.empty()) joined += ' ';
    joined += scope;
  }
  return joined;
}

}  // namespace platformpp::emulator
