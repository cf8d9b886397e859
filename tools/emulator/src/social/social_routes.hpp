// Pieces of the social features (social_routes.cpp) shared with the Gateway and the IPC stand-in.
#pragma once

#include <string>
#include <vector>

namespace platformpp::emulator {

// Activity types a game may set (playing, listening, watching, competing); others are never fanned out.
[[nodiscard]] bool activity_type_allowed(int type);

// Concatenates JSON arrays of activities into the one array friends see: no `secrets`, `buttons` reduced to
// their labels and no `metadata.button_urls` (secrets and URLs stay with the server).
[[nodiscard]] std::string public_activities_json(const std::vector<std::string>& activity_arrays);

}  // namespace platformpp::emulator
