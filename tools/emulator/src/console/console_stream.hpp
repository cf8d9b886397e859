// What the web console's live socket (/_emulator/ui/live) sends: a snapshot of every document, then each
// committed turn's changes, as JSON text. Kinds that hold secrets are left out, and applications and lobbies
// lose theirs (client secret, bot token, signing key; the join secret): the page shows the platform's data,
// never a credential.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/state_changes.hpp"

namespace platformpp::emulator {

// {"type":"snapshot","documents":[{"kind","id","body"}...]}
[[nodiscard]] std::string console_snapshot_json(const StateChanges& changes);
// {"type":"changes","changes":[{"kind","id","body" or null}...]}; nullopt when nothing in them is shown.
[[nodiscard]] std::optional<std::string> console_changes_json(const std::vector<DocumentChange>& changes);
// The admin token in the page's first message, {"admin_token": "..."}; empty when the message is not that.
[[nodiscard]] std::string console_admin_token(std::string_view message);
// Whether the changes are a replacement of everything (an import or a reset): the page needs a new snapshot.
[[nodiscard]] bool console_changes_replace_all(const std::vector<DocumentChange>& changes);

}  // namespace platformpp::emulator
