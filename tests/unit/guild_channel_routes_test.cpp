// BackendClient's guild channel and voice routes against the HTTP stand-in: /channels/{channel}... and
// /guilds/{guild}/channels|voice-states with the bot's Authorization, the bodies on the wire,
// X-Audit-Log-Reason where a reason is given, the checks that keep a bad change in the process (each limit
// crossed by one), error answers mapped into ClientResult; and ParseChannel / ParseVoiceState on the docs'
// objects and on junk.
#include "backend_stand_in.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/guild_channels.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace guild_channel_routes_test {

using namespace platformpp;
using namespace platformpp::backend;
using platformpp::testing::HeaderOf;

namespace {

const std::string kApi = "https://api.test/api/v10";

// The platform's example guild text channel (developers/resources/channel.mdx), with an overwrite.
const char* const kDocsChannel = R"({
  "id": "41771983423143937", "guild_id": "41771983423143937", "name": "general", "type": 0, "position": 6,
  "permission_overwrites": [{"id": "41771983423143937", "type": 0, "allow": "1024", "deny": "2048"}],
  "rate_limit_per_user": 2, "nsfw": true, "topic": "24/7 chat about how to gank Mike #2",
  "last_message_id": "155117677105512449", "parent_id": "399942396007890945", "default_auto_archive_duration": 60
})";

// The platform's example voice state (developers/resources/voice.mdx).
const char* const kDocsVoiceState = R"({
  "channel_id": "157733188964188161", "user_id": "80351110224678912", "session_id": "90326bd25d71d39b9ef95b299e3872ff",
  "deaf": false, "mute": false, "self_deaf": false, "self_mute": true, "suppress": false,
  "request_to_speak_timestamp": "2021-03-31T18:45:31.297561+00:00"
})";

using Paths = std::vector<std::string>;

// The answers first: they outlive the client, whose destruction ends what is still pending into them.
struct Answers {
  std::vector<ClientResult> results;
  std::vector<Channel> channels;
};

struct Fixture : Answers, platformpp::testing::BackendOnStandIn {
  BackendClient::ChannelCallback KeepChannel() {
    return [this](ClientResult r, Channel channel) {
      results.push_back(std::move(r));
      channels.push_back(std::move(channel));
    };
  }
  BackendClient::ResultCallback Keep() {
    return [this](ClientResult r) { results.push_back(std::move(r)); };
  }
  // Runs `call`; true when it was sent (its checks let it through), else REQUIREs one ValidationError.
  template <class Call>
  bool Sent(Call call) {
    return platformpp::testing::SentOrRefused(standIn, backend, results, call);
  }
  std::vector<std::string> BrokenPaths() const { return platformpp::testing::BrokenPathsOf(results); }
};

std::string Repeat(const char* piece, int times) {
  std::string text;
  for (int i = 0; i < times; ++i)
    text += piece;
  return text;
}

}  // namespace

TEST_CASE("ParseChannel: the docs' channel; junk gives nullopt, wrong types keep defaults") {
  auto channel = ParseChannel(kDocsChannel);
  REQUIRE(channel);
  CHECK(channel->id == 41771983423143937ULL);
  CHECK(channel->guildId == 41771983423143937ULL);
  CHECK(channel->name == "general");
  CHECK(channel->type == channel_types::Text);
  CHECK(channel->position == 6);
  CHECK(channel->parentId == 399942396007890945ULL);
  CHECK(channel->rateLimitPerUser == 2);
  CHECK(channel->nsfw);
  CHECK(channel->topic == "24/7 chat about how to gank Mike #2");
  REQUIRE(channel->permissionOverwrites.size() == 1);
  CHECK(channel->permissionOverwrites[0].type == OverwriteType::Role);
  CHECK(channel->permissionOverwrites[0].allow == 1024);
  CHECK(channel->permissionOverwrites[0].deny == 2048);
  CHECK(channel->rawJson.find("default_auto_archive_duration") != std::string::npos);
  for (const char* junk : {"", "null", "[]", "{}", R"({"id":5.5})", "{", "\xff"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseChannel(junk));
  }
  CHECK_FALSE(ParseChannel(std::string(100000, '[')));
  auto odd = ParseChannel(
      R"({"id":"9","name":3,"parent_id":null,"permission_overwrites":[{"type":1},{"id":"5","type":1}],"nsfw":"y"})");
  REQUIRE(odd);
  CHECK(odd->name.empty());
  CHECK_FALSE(odd->parentId);
  REQUIRE(odd->permissionOverwrites.size() == 1);  // the overwrite without an id is skipped
  CHECK(odd->permissionOverwrites[0].type == OverwriteType::Member);
  CHECK_FALSE(odd->nsfw);
}

TEST_CASE("ParseVoiceState: the docs' voice state; junk gives nullopt") {
  auto state = ParseVoiceState(kDocsVoiceState);
  REQUIRE(state);
  CHECK(state->userId == 80351110224678912ULL);
  CHECK(state->channelId == 157733188964188161ULL);
  CHECK(state->guildId == 0);
  CHECK(state->selfMute);
  CHECK_FALSE(state->selfDeaf);
  CHECK(state->sessionId == "90326bd25d71d39b9ef95b299e3872ff");
  CHECK(state->requestToSpeakTimestamp == "2021-03-31T18:45:31.297561+00:00");
  CHECK_FALSE(state->member);
  auto withMember = ParseVoiceState(
      R"({"guild_id":"3","user_id":"7","channel_id":null,"member":{"user":{"id":"7","username":"u"},"roles":[]}})");
  REQUIRE(withMember);
  CHECK(withMember->guildId == 3);
  CHECK_FALSE(withMember->channelId);
  REQUIRE(withMember->member);
  CHECK(withMember->member->user->id == 7);
  for (const char* junk : {"", "null", "[]", "{}", R"({"channel_id":"1"})"}) {
    CAPTURE(junk);
    CHECK_FALSE(ParseVoiceState(junk));
  }
}

TEST_CASE("GetChannel, CreateGuildChannel, ModifyChannel, DeleteChannel: routes, bodies, reasons, answers") {
  Fixture f;
  f.backend.GetChannel(41771983423143937ULL, f.KeepChannel());
  ChannelChanges create;
  create.name = "race-chat";
  create.type = channel_types::Text;
  create.topic = "laps";
  create.parentId = 77;
  create.rateLimitPerUser = 30;
  create.nsfw = false;
  create.permissionOverwrites = std::vector<PermissionOverwrite>{{3003, OverwriteType::Role, 0, 1024},
                                                                 {7, OverwriteType::Member, 2048, 0}};
  f.backend.CreateGuildChannel(3003, create, f.KeepChannel(), "season 3");
  ChannelChanges clear;
  clear.topic = "";
  clear.parentId = 0;
  clear.position = 2;
  f.backend.ModifyChannel(41, clear, f.KeepChannel());
  f.backend.DeleteChannel(41, f.KeepChannel(), "cleanup");
  REQUIRE(f.standIn.requests.size() == 4);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "GET");
  CHECK(r[0].url == kApi + "/channels/41771983423143937");
  CHECK(r[0].body.empty());
  CHECK(r[1].method == "POST");
  CHECK(r[1].url == kApi + "/guilds/3003/channels");
  CHECK(r[1].contentType == "application/json");
  CHECK(r[1].body ==
        R"({"name":"race-chat","type":0,"topic":"laps","parent_id":"77","rate_limit_per_user":30,)"
        R"("nsfw":false,"permission_overwrites":[{"id":"3003","type":0,"allow":0,"deny":1024},)"
        R"({"id":"7","type":1,"allow":2048,"deny":0}]})");
  CHECK(HeaderOf(r[1], "X-Audit-Log-Reason") == "season%203");
  CHECK(r[2].method == "PATCH");
  CHECK(r[2].url == kApi + "/channels/41");
  CHECK(r[2].body == R"({"topic":null,"position":2,"parent_id":null})");
  CHECK(HeaderOf(r[2], "X-Audit-Log-Reason").empty());
  CHECK(r[3].method == "DELETE");
  CHECK(r[3].url == kApi + "/channels/41");
  CHECK(HeaderOf(r[3], "X-Audit-Log-Reason") == "cleanup");
  for (const auto& request : r)
    CHECK(HeaderOf(request, "Authorization") == "Bot bot-secret");
  f.standIn.Answer(0, 200, kDocsChannel);
  f.standIn.Answer(1, 201, kDocsChannel);
  f.standIn.Answer(2, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(3, 200, R"({"not":"a channel"})");
  CHECK(f.results.empty());  // callbacks run only inside RunCallbacks
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 4);
  CHECK(f.results[0].Successful());
  CHECK(f.channels[0].name == "general");
  CHECK(f.results[1].Successful());
  CHECK(f.results[2].Status() == 403);
  CHECK(f.results[2].ErrorCode() == 50013);
  CHECK(f.channels[2].id == 0);  // a default channel on failure
  CHECK(f.results[3].Type() == ErrorType::HTTPError);
  CHECK(f.results[3].Error().find("malformed response") != std::string::npos);
  f.backend.RunCallbacks();
  CHECK(f.results.size() == 4);  // each ends once
}

TEST_CASE("ChannelChanges: name 1..100, topic 1024, slowmode 0..21600, type, position, overwrite ids") {
  Fixture f;
  auto modify = [&](const ChannelChanges& changes) {
    return f.Sent([&] { f.backend.ModifyChannel(41, changes, f.KeepChannel()); });
  };
  auto create = [&](const ChannelChanges& changes) {
    return f.Sent([&] { f.backend.CreateGuildChannel(3003, changes, f.KeepChannel()); });
  };
  ChannelChanges name;
  name.name = std::string(100, 'n');
  CHECK(modify(name));
  name.name = Repeat("\xC3\xA9", 100);  // 100 characters, 200 bytes
  CHECK(modify(name));
  name.name = std::string(101, 'n');
  CHECK_FALSE(modify(name));
  CHECK(f.BrokenPaths() == Paths{"name"});
  name.name = "n";
  CHECK(modify(name));
  name.name = "";
  CHECK_FALSE(modify(name));
  CHECK(f.BrokenPaths() == Paths{"name"});
  name.name = "\xff";
  CHECK_FALSE(modify(name));
  CHECK_FALSE(create(ChannelChanges{}));  // creating needs a name
  CHECK(f.BrokenPaths() == Paths{"name"});
  CHECK(modify(ChannelChanges{}));  // modifying does not
  ChannelChanges topic;
  topic.topic = std::string(1024, 't');
  CHECK(modify(topic));
  topic.topic = std::string(1025, 't');
  CHECK_FALSE(modify(topic));
  CHECK(f.BrokenPaths() == Paths{"topic"});
  ChannelChanges slow;
  slow.rateLimitPerUser = 21600;
  CHECK(modify(slow));
  slow.rateLimitPerUser = 0;
  CHECK(modify(slow));
  slow.rateLimitPerUser = 21601;
  CHECK_FALSE(modify(slow));
  CHECK(f.BrokenPaths() == Paths{"rate_limit_per_user"});
  slow.rateLimitPerUser = -1;
  CHECK_FALSE(modify(slow));
  ChannelChanges type;
  type.type = channel_types::Media;
  CHECK(modify(type));
  type.type = 1;  // a DM: not a guild channel type
  CHECK_FALSE(modify(type));
  CHECK(f.BrokenPaths() == Paths{"type"});
  ChannelChanges position;
  position.position = 0;
  CHECK(modify(position));
  position.position = -1;
  CHECK_FALSE(modify(position));
  CHECK(f.BrokenPaths() == Paths{"position"});
  ChannelChanges overwrites;
  overwrites.permissionOverwrites = std::vector<PermissionOverwrite>{{5, OverwriteType::Role, 0, 0}, {}};
  CHECK_FALSE(modify(overwrites));
  CHECK(f.BrokenPaths() == Paths{"permission_overwrites.1.id"});
  CHECK_FALSE(f.Sent([&] { f.backend.GetChannel(0, f.KeepChannel()); }));
  CHECK(f.BrokenPaths() == Paths{"channelId"});
  CHECK_FALSE(f.Sent([&] { f.backend.DeleteChannel(41, f.KeepChannel(), std::string(513, 'r')); }));
  CHECK(f.BrokenPaths() == Paths{"reason"});
}

TEST_CASE("ModifyGuildChannelPositions and the overwrite calls: bodies, reasons, checks") {
  Fixture f;
  std::vector<ChannelPosition> moves{
      {41, 0, std::nullopt, std::nullopt}, {42, 3, 0, std::nullopt}, {43, std::nullopt, 77, true}};
  f.backend.ModifyGuildChannelPositions(3003, moves, f.Keep(), "tidy");
  f.backend.EditChannelPermissions(41, PermissionOverwrite{7, OverwriteType::Member, 1024, 2048}, f.Keep(),
                                   "mute the spammer");
  f.backend.DeleteChannelPermission(41, 7, f.Keep());
  REQUIRE(f.standIn.requests.size() == 3);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "PATCH");
  CHECK(r[0].url == kApi + "/guilds/3003/channels");
  CHECK(r[0].body == R"([{"id":"41","position":0},{"id":"42","position":3,"parent_id":null},)"
                     R"({"id":"43","parent_id":"77","lock_permissions":true}])");
  CHECK(HeaderOf(r[0], "X-Audit-Log-Reason") == "tidy");
  CHECK(r[1].method == "PUT");
  CHECK(r[1].url == kApi + "/channels/41/permissions/7");
  CHECK(r[1].body == R"({"type":1,"allow":"1024","deny":"2048"})");
  CHECK(HeaderOf(r[1], "X-Audit-Log-Reason") == "mute%20the%20spammer");
  CHECK(r[2].method == "DELETE");
  CHECK(r[2].url == kApi + "/channels/41/permissions/7");
  CHECK(r[2].body.empty());
  f.standIn.Answer(0, 204, "");
  f.standIn.Answer(1, 403, R"({"code":50013,"message":"Missing Permissions"})");
  f.standIn.Answer(2, 204, "");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 3);
  CHECK(f.results[0].Successful());
  CHECK(f.results[1].ErrorCode() == 50013);
  CHECK(f.results[2].Successful());
  CHECK_FALSE(f.Sent([&] { f.backend.ModifyGuildChannelPositions(3003, {}, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"positions"});
  CHECK_FALSE(f.Sent([&] {
    f.backend.ModifyGuildChannelPositions(
        3003, {{0, 1, std::nullopt, std::nullopt}, {5, -1, std::nullopt, std::nullopt}}, f.Keep());
  }));
  CHECK(f.BrokenPaths() == Paths{"0.id", "1.position"});
  CHECK_FALSE(f.Sent([&] { f.backend.EditChannelPermissions(41, PermissionOverwrite{}, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"overwriteId"});
  CHECK_FALSE(f.Sent([&] { f.backend.DeleteChannelPermission(0, 0, f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"channelId", "overwriteId"});
}

TEST_CASE(
    "Voice: voice state routes; the status of 500 characters sent, 501 kept in the process, empty clears") {
  std::vector<VoiceState> states;
  Fixture f;  // after what its pending calls end into
  auto keepState = [&](ClientResult r, VoiceState state) {
    f.results.push_back(std::move(r));
    states.push_back(std::move(state));
  };
  f.backend.GetCurrentUserVoiceState(3003, keepState);
  f.backend.GetUserVoiceState(3003, 80351110224678912ULL, keepState);
  const std::string status = Repeat("\xF0\x9F\x8F\x81", 500);  // 500 characters (flags), 2000 bytes
  f.backend.SetVoiceChannelStatus(157, status, f.Keep(), "race night");
  f.backend.SetVoiceChannelStatus(157, "", f.Keep());
  REQUIRE(f.standIn.requests.size() == 4);
  const auto& r = f.standIn.requests;
  CHECK(r[0].method == "GET");
  CHECK(r[0].url == kApi + "/guilds/3003/voice-states/@me");
  CHECK(r[1].url == kApi + "/guilds/3003/voice-states/80351110224678912");
  CHECK(r[2].method == "PUT");
  CHECK(r[2].url == kApi + "/channels/157/voice-status");
  CHECK(r[2].body == R"({"status":")" + status + R"("})");
  CHECK(HeaderOf(r[2], "X-Audit-Log-Reason") == "race%20night");
  CHECK(r[3].body == R"({"status":null})");
  f.standIn.Answer(0, 200, kDocsVoiceState);
  f.standIn.Answer(1, 404, R"({"code":10065,"message":"Unknown Voice State"})");
  f.standIn.Answer(2, 204, "");
  f.standIn.Answer(3, 204, "");
  f.backend.RunCallbacks();
  REQUIRE(f.results.size() == 4);
  CHECK(f.results[0].Successful());
  CHECK(states[0].selfMute);
  CHECK(f.results[1].ErrorCode() == 10065);
  CHECK(states[1].userId == 0);
  CHECK(f.results[2].Successful());
  CHECK(f.results[3].Successful());
  CHECK_FALSE(
      f.Sent([&] { f.backend.SetVoiceChannelStatus(157, Repeat("\xF0\x9F\x8F\x81", 501), f.Keep()); }));
  CHECK(f.BrokenPaths() == Paths{"status"});
  CHECK_FALSE(f.Sent([&] { f.backend.SetVoiceChannelStatus(157, std::string(501, 's'), f.Keep()); }));
  CHECK(f.Sent([&] { f.backend.SetVoiceChannelStatus(157, std::string(500, 's'), f.Keep()); }));
  CHECK_FALSE(f.Sent([&] { f.backend.SetVoiceChannelStatus(157, "\xC3", f.Keep()); }));
  CHECK(CheckVoiceChannelStatus("").empty());
  CHECK_FALSE(f.Sent([&] { f.backend.GetUserVoiceState(0, 0, keepState); }));
  CHECK(f.BrokenPaths() == Paths{"guildId", "userId"});
}

}  // namespace guild_channel_routes_test
