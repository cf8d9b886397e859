#include "voice/call_participants.hpp"

#include <algorithm>

namespace platformpp::voice {

using Kind = CallParticipants::Change::Kind;

void CallParticipants::Settle(uint64_t userId, Entry& entry, Changes& out) {
  // In while one source says so and neither has said the user left.
  const bool in = (entry.platform == Says::In || entry.voiceServer == Says::In) &&
                  entry.platform != Says::Out && entry.voiceServer != Says::Out;
  if (in == entry.participant) return;
  entry.participant = in;
  if (in) {
    out.push_back({Kind::Added, userId});
    if (entry.state) out.push_back({Kind::VoiceState, userId});
    return;
  }
  if (entry.speaking) {
    entry.speaking = false;
    out.push_back({Kind::Speaking, userId, false});
  }
  out.push_back({Kind::Removed, userId});
  out.push_back({Kind::VoiceState, userId});
}

void CallParticipants::Seed(const std::vector<lobby::VoiceStateRecord>& states, Changes& out) {
  for (const lobby::VoiceStateRecord& state : states) {
    if (state.userId == 0 || state.userId == selfId_) continue;
    Entry& entry = users_[state.userId];
    if (entry.platform != Says::Nothing) continue;  // a dispatch since the call began knows better
    entry.platform = Says::In;
    entry.state = state;
    Settle(state.userId, entry, out);
  }
}

void CallParticipants::Sync(const std::vector<lobby::VoiceStateRecord>& states, Changes& out) {
  std::vector<uint64_t> gone;
  for (const auto& [id, entry] : users_) {
    const bool listed = std::any_of(states.begin(), states.end(),
                                    [id = id](const lobby::VoiceStateRecord& s) { return s.userId == id; });
    if (entry.platform == Says::In && !listed) gone.push_back(id);
  }
  for (uint64_t id : gone) {
    lobby::VoiceStateRecord state;
    state.userId = id;
    OnVoiceState(state, false, out);
  }
  for (const lobby::VoiceStateRecord& state : states)
    OnVoiceState(state, true, out);
}

void CallParticipants::OnVoiceState(const lobby::VoiceStateRecord& state, bool inCall, Changes& out) {
  if (state.userId == 0) return;
  Entry& entry = users_[state.userId];
  if (!inCall) {
    entry.platform = Says::Out;
    entry.state.reset();
    Settle(state.userId, entry, out);
    return;
  }
  // Both sources saw the user leave: this is a new join, which the voice server has yet to report.
  if (entry.platform == Says::Out && entry.voiceServer == Says::Out) entry.voiceServer = Says::Nothing;
  entry.platform = Says::In;
  const bool changed = !entry.state || !(*entry.state == state);
  entry.state = state;
  const bool wasParticipant = entry.participant;
  Settle(state.userId, entry, out);
  // A join reports its voice state itself; a participant whose voice state changed (or first arrived,
  // after the voice server introduced them) reports it here.
  if (wasParticipant && changed) out.push_back({Kind::VoiceState, state.userId});
}

void CallParticipants::OnVoiceServerConnect(uint64_t userId, Changes& out) {
  if (userId == 0 || userId == selfId_) return;
  Entry& entry = users_[userId];
  if (entry.voiceServer == Says::In) return;
  // Both sources saw the user leave: a new join, which the platform has yet to report.
  if (entry.platform == Says::Out && entry.voiceServer == Says::Out) entry.platform = Says::Nothing;
  entry.voiceServer = Says::In;
  Settle(userId, entry, out);
}

void CallParticipants::OnVoiceServerDisconnect(uint64_t userId, Changes& out) {
  if (userId == 0 || userId == selfId_) return;
  auto it = users_.find(userId);
  if (it == users_.end()) return;
  Entry& entry = it->second;
  // Gone from the voice server: no more audio from them, so no longer speaking.
  if (entry.speaking) {
    entry.speaking = false;
    out.push_back({Kind::Speaking, userId, false});
  }
  // While the platform's voice state has the user in the call, a voice session of theirs that ended (one
  // replaced by a new session, say) does not take them out: their voice state's end will. Otherwise the
  // voice server's word stands, against a late voice state of the same stay as well.
  entry.voiceServer = entry.platform == Says::In ? Says::Nothing : Says::Out;
  Settle(userId, entry, out);
}

void CallParticipants::OnSpeaking(uint64_t userId, bool speaking, Changes& out) {
  if (userId == 0) return;
  if (userId == selfId_) {
    // The player's own transmit gate: reported whatever the voice states say.
    Entry& self = users_[userId];
    if (self.speaking == speaking) return;
    self.speaking = speaking;
    out.push_back({Kind::Speaking, userId, speaking});
    return;
  }
  // The voice server naming someone speaking says they are connected to it.
  if (speaking) OnVoiceServerConnect(userId, out);
  auto it = users_.find(userId);
  if (it == users_.end()) return;
  Entry& entry = it->second;
  if (!entry.participant || entry.speaking == speaking) return;
  entry.speaking = speaking;
  out.push_back({Kind::Speaking, userId, speaking});
}

bool CallParticipants::Contains(uint64_t userId) const {
  auto it = users_.find(userId);
  return it != users_.end() && it->second.participant;
}

std::vector<uint64_t> CallParticipants::Ids() const {
  std::vector<uint64_t> ids;
  for (const auto& [id, entry] : users_)
    if (entry.participant) ids.push_back(id);
  return ids;
}

std::optional<lobby::VoiceStateRecord> CallParticipants::VoiceState(uint64_t userId) const {
  auto it = users_.find(userId);
  if (it == users_.end() || !it->second.participant) return std::nullopt;
  return it->second.state;
}

bool CallParticipants::Speaking(uint64_t userId) const {
  auto it = users_.find(userId);
  return it != users_.end() && it->second.speaking;
}

}  // namespace platformpp::voice
