// The activity shape every feature shares: what the Gateway (op 3, Identify's presence) and the desktop
// client (IPC SET_ACTIVITY) accept and stamp, and what friends are shown of it in PRESENCE_UPDATE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/emulator_state.hpp"
#include "core/json.hpp"

namespace platformpp::emulator {

// Activity types a game may set (playing, listening, watching, competing); others are never fanned out.
[[nodiscard]] bool activity_type_allowed(int type);

// What the platform adds to an activity a client sets (Gateway op 3, Identify's presence, IPC SET_ACTIVITY):
// the application it belongs to (the session's, whatever the client claimed), its name when the client gave
// none (the application's), an id and created_at (the fake clock, ms).
void stamp_activity(rapidjson::Value& activity, rapidjson::Document::AllocatorType& allocator,
                    const Application* app, std::string_view app_id, std::size_t index, std::int64_t now_ms);

// Concatenates JSON arrays of activities into the one array friends see: no `secrets`, `buttons` reduced to
// their labels and no `metadata.button_urls` (secrets and URLs stay with the server). With `only_app`, only
// that application's activities (what a game friend, who knows the user through that game, sees).
[[nodiscard]] std::string public_activities_json(const std::vector<std::string>& activity_arrays,
                                                 std::string_view only_app = {});

}  // namespace platformpp::emulator
