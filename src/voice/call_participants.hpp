#pragma once
// Who is in one call, as the player's Client sees it. Two sources report it, over two connections, in any
// order relative to each other:
//   - the platform's voice states: the lobby's `voice_states` known when the call starts (Seed), then
//     LOBBY_VOICE_STATE_UPDATE on the main Gateway;
//   - the voice server: op 11 Clients Connect (the users already there when we connect, then each newcomer),
//     op 5 Speaking, op 13 Client Disconnect.
// Rule: a user is in the call while one source says so and neither has said they left. A voice server
// session that ends while the platform still has the user in the call (one replaced by a new session) does
// not count as a leave; once both sources have seen a leave, the next join from either starts a new stay. So
// each stay of a user is added once and removed once, whatever the order of the two sources, and a late
// message of one source cannot bring back a user the other saw leave. The changes returned are the callbacks
// to post, in order.
//
// Plain data, no locks, no threads: CallSession owns one under its mutex.

#include "lobby/lobby_json.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace platformpp::voice {

class CallParticipants {
 public:
  struct Change {
    enum class Kind { Added, Removed, VoiceState, Speaking };
    Kind kind;
    uint64_t userId;
    bool speaking = false;  ///< Speaking: on or off
    bool operator==(const Change&) const = default;
  };
  using Changes = std::vector<Change>;

  explicit CallParticipants(uint64_t selfId) : selfId_(selfId) {}

  /// The lobby's voice states when the call starts. Fills only users no dispatch has spoken of since the
  /// call was registered (those dispatches are newer than or equal to the snapshot). The player's own
  /// voice state is skipped: it comes with this call's own join.
  void Seed(const std::vector<lobby::VoiceStateRecord>& states, Changes& out);
  /// The lobby's whole `voice_states` as a later lobby object said it (READY, LOBBY_CREATE, LOBBY_UPDATE):
  /// the listed users are in the call, those the voice states had in it and that are not listed left. A
  /// user known to the voice server only stays: its op 11 may be newer than the list.
  void Sync(const std::vector<lobby::VoiceStateRecord>& states, Changes& out);
  /// LOBBY_VOICE_STATE_UPDATE (the player's own included).
  void OnVoiceState(const lobby::VoiceStateRecord& state, bool inCall, Changes& out);
  /// Op 11 (one user of it). The player's own id is ignored.
  void OnVoiceServerConnect(uint64_t userId, Changes& out);
  /// Op 13.
  void OnVoiceServerDisconnect(uint64_t userId, Changes& out);
  /// Op 5 (others) or the player's own transmit gate (self). Speaking is reported for participants only;
  /// the voice server naming someone speaking also says they are connected to it.
  void OnSpeaking(uint64_t userId, bool speaking, Changes& out);

  bool Contains(uint64_t userId) const;
  /// Ascending ids.
  std::vector<uint64_t> Ids() const;
  /// The user's voice state: nullopt for a non-participant, and for a participant whose voice state has
  /// not arrived yet (known to the voice server only).
  std::optional<lobby::VoiceStateRecord> VoiceState(uint64_t userId) const;
  bool Speaking(uint64_t userId) const;

 private:
  enum class Says { Nothing, In, Out };
  struct Entry {
    Says platform = Says::Nothing;     // the voice states
    Says voiceServer = Says::Nothing;  // ops 11, 5 and 13
    std::optional<lobby::VoiceStateRecord> state;
    bool participant = false;
    bool speaking = false;
  };

  /// Applies the rule to `entry` and reports a join or a leave.
  void Settle(uint64_t userId, Entry& entry, Changes& out);

  const uint64_t selfId_;
  // Users who left stay (as Out) so that a late message from the other source cannot bring them back; at
  // most the users ever seen in this call.
  std::map<uint64_t, Entry> users_;
};

}  // namespace platformpp::voice
