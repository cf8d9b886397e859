// OAuth2 scope lists: space-separated on the wire, vectors in the state.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace platformpp::emulator {

// Splits space-separated scopes, dropping empty pieces.
std::vector<std::string> split_scopes(std::string_view text);
std::string join_scopes(const std::vector<std::string>& scopes);

}  // namespace platformpp::emulator
