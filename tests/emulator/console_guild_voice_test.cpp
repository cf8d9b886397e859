// The live-only "guild_voice" document the web console's guild view shows (docs/emulator-state.md, "Live web
// console"): who is connected to which of a guild's voice channels, muted or deafened, and since when each
// channel's voice session runs. Each join, mute, move and leave is named in its turn (a mirror kept from the
// changes equals everything saved whole), the voice token is left out, and the kind is never part of what a
// state file keeps.
#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "state_mirror.hpp"
#include "voice_guild_fixture.hpp"

namespace console_guild_voice_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;
using namespace platformpp::emulator::test::voice_bits;

namespace {

constexpr std::string_view kKind = "guild_voice";

// The console's copy of the "guild_voice" documents: the first view, then each turn's changes.
class VoiceMirror {
 public:
  explicit VoiceMirror(StateChanges& changes) : changes_(changes) {
    changes_.start_recording();
    for (auto& document : changes_.save_all())
      if (document.kind == kKind) documents_[document.id] = *document.body;
  }

  // The end of a turn: its changes applied; the mirror equals the documents saved whole.
  void sync() {
    for (auto& change : changes_.take()) {
      if (change.kind != kKind) continue;
      if (change.body) {
        documents_[change.id] = *change.body;
      } else {
        documents_.erase(change.id);
      }
    }
    std::map<std::string, std::string> whole;
    for (auto& document : changes_.save_all())
      if (document.kind == kKind) whole[document.id] = *document.body;
    CHECK(whole == documents_);
  }

  [[nodiscard]] std::optional<rapidjson::Document> get(const std::string& guild_id) const {
    const auto it = documents_.find(guild_id);
    if (it == documents_.end()) return std::nullopt;
    return parse(it->second);
  }

 private:
  StateChanges& changes_;
  std::map<std::string, std::string> documents_;
};

}  // namespace

TEST_CASE("console guild_voice: joins, mutes, moves and leaves are named in their turn; no token; not kept") {
  VoiceGuild e(kConnect | kSpeak);
  RecordingGatewayPeer bot_peer, alice_peer;
  const auto bot = e.connect_bot(bot_peer, kGuilds | kGuildVoiceStates);
  const auto alice = e.connect_user(alice_peer, e.alice);
  VoiceMirror mirror(e.service.changes());
  mirror.sync();
  CHECK_FALSE(mirror.get(e.guild_id));  // nobody connected: no document

  e.op4(alice, e.voice);
  mirror.sync();
  auto document = mirror.get(e.guild_id);
  REQUIRE(document);
  CHECK(str((*document)["guild_id"]) == e.guild_id);
  REQUIRE((*document)["channels"].Size() == 1);
  const auto& lounge = (*document)["channels"][0];
  CHECK(str(lounge["channel_id"]) == e.voice);
  CHECK(lounge["voice_start_time"].GetInt64() == VoiceGuild::kStart / 1000);
  REQUIRE(lounge["members"].Size() == 1);
  CHECK(str(lounge["members"][0]["user_id"]) == e.alice);
  CHECK_FALSE(lounge["members"][0]["self_mute"].GetBool());
  CHECK(lounge["members"][0].FindMember("token") == lounge["members"][0].MemberEnd());  // a secret

  // A mute alone is a change of its own.
  e.op4(alice, e.voice, true, false);
  mirror.sync();
  CHECK((*mirror.get(e.guild_id))["channels"][0]["members"][0]["self_mute"].GetBool());

  // The bot joins the stage: one channel more, as audience.
  e.op4(bot, e.stage);
  mirror.sync();
  document = mirror.get(e.guild_id);
  REQUIRE((*document)["channels"].Size() == 2);
  bool audience = false;
  for (const auto& channel : (*document)["channels"].GetArray())
    if (str(channel["channel_id"]) == e.stage) audience = channel["members"][0]["suppress"].GetBool();
  CHECK(audience);

  // Alice moves to the stage: the Lounge is gone from the document.
  e.op4(alice, e.stage);
  mirror.sync();
  document = mirror.get(e.guild_id);
  REQUIRE((*document)["channels"].Size() == 1);
  CHECK((*document)["channels"][0]["members"].Size() == 2);

  // Leaving (channel null) and a session's end: the document goes with the last one.
  e.op4(bot, "null");
  mirror.sync();
  CHECK((*mirror.get(e.guild_id))["channels"][0]["members"].Size() == 1);
  e.service.gateway_disconnected(alice, 1000);
  mirror.sync();
  CHECK_FALSE(mirror.get(e.guild_id));

  // Never written to a state file: an export has no "guild_voice" while someone is connected.
  RecordingGatewayPeer again;
  e.op4(e.connect_user(again, e.alice), e.voice);
  mirror.sync();
  CHECK(mirror.get(e.guild_id));
  const auto* kind = e.service.changes().find_kind(kKind);
  REQUIRE(kind != nullptr);
  CHECK_FALSE(kind->persisted);
  StateMirror kept(e.service.changes());
  CHECK(kept.count(std::string(kKind)) == 0);
}

}  // namespace console_guild_voice_test
