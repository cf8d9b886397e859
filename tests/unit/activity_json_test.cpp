// The activity wire shape (docs/social-protocol.md) both ways.
#include "social/activity_json.hpp"

#include <doctest/doctest.h>

namespace activity_json_test {

using namespace platformpp;

namespace {

json::Document ParseOrFail(const std::string& text) {
  json::Document doc;
  std::string error;
  REQUIRE_MESSAGE(json::Parse(text, doc, &error), error);
  return doc;
}

Activity FullActivity() {
  Activity a;
  a.SetName("Space Game");
  a.SetType(ActivityTypes::Competing);
  a.SetStatusDisplayType(StatusDisplayTypes::Details);
  a.SetState("In a match");
  a.SetStateUrl("https://example.com/state");
  a.SetDetails("Ranked 3v3");
  a.SetDetailsUrl("https://example.com/details");
  a.SetApplicationId(1234567890123456789ull);
  ActivityAssets assets;
  assets.SetLargeImage("map_1");
  assets.SetLargeText("Map \"one\"");
  assets.SetLargeUrl("https://example.com/l");
  assets.SetSmallImage("rank");
  assets.SetSmallText("Gold");
  assets.SetSmallUrl("http://example.com/s");
  assets.SetInviteCoverImage("cover");
  a.SetAssets(assets);
  ActivityTimestamps ts;
  ts.SetStart(1700000000123ull);
  ts.SetEnd(1700000999000ull);
  a.SetTimestamps(ts);
  ActivityParty party;
  party.SetId("party-1");
  party.SetCurrentSize(2);
  party.SetMaxSize(4);
  party.SetPrivacy(ActivityPartyPrivacy::Public);
  a.SetParty(party);
  ActivitySecrets secrets;
  secrets.SetJoin("join-secret");
  a.SetSecrets(secrets);
  a.SetSupportedPlatforms(static_cast<int32_t>(ActivityGamePlatforms::Desktop) |
                          static_cast<int32_t>(ActivityGamePlatforms::PS5));
  ActivityButton b1;
  b1.SetLabel("Watch");
  b1.SetUrl("https://example.com/watch");
  ActivityButton b2;
  b2.SetLabel("Site");
  b2.SetUrl("https://example.com/");
  a.AddButton(b1);
  a.AddButton(b2);
  return a;
}

}  // namespace

TEST_CASE("activity json: the wire member names of docs/social-protocol.md") {
  auto doc = ParseOrFail(social::ActivityToJson(FullActivity()));
  CHECK(json::GetString(doc, "name") == "Space Game");
  CHECK(json::GetInt(doc, "type") == 5);
  CHECK(json::GetInt(doc, "status_display_type") == 2);
  CHECK(json::GetString(doc, "state") == "In a match");
  CHECK(json::GetString(doc, "state_url") == "https://example.com/state");
  CHECK(json::GetString(doc, "details") == "Ranked 3v3");
  CHECK(json::GetString(doc, "details_url") == "https://example.com/details");
  CHECK(json::GetString(doc, "application_id") == "1234567890123456789");  // snowflakes are strings
  const auto& ts = doc["timestamps"];
  CHECK(ts["start"].GetUint64() == 1700000000123ull);
  CHECK(ts["end"].GetUint64() == 1700000999000ull);
  const auto& assets = doc["assets"];
  CHECK(json::GetString(assets, "large_image") == "map_1");
  CHECK(json::GetString(assets, "large_text") == "Map \"one\"");
  CHECK(json::GetString(assets, "invite_cover_image") == "cover");
  const auto& party = doc["party"];
  CHECK(json::GetString(party, "id") == "party-1");
  REQUIRE(party["size"].IsArray());
  CHECK(party["size"][0].GetInt() == 2);
  CHECK(party["size"][1].GetInt() == 4);
  CHECK(json::GetInt(party, "privacy") == 1);
  CHECK(json::GetString(doc["secrets"], "join") == "join-secret");
  REQUIRE(doc["buttons"].IsArray());
  CHECK(doc["buttons"].Size() == 2);
  CHECK(std::string(doc["buttons"][0].GetString()) == "Watch");
  CHECK(std::string(doc["metadata"]["button_urls"][1].GetString()) == "https://example.com/");
  CHECK(json::GetInt(doc, "supported_platforms") == 129);
}

TEST_CASE("activity json: unset optionals are left out") {
  Activity a;
  a.SetName("G");
  auto doc = ParseOrFail(social::ActivityToJson(a));
  for (const char* key :
       {"status_display_type", "state", "state_url", "details", "details_url", "application_id", "timestamps",
        "assets", "party", "secrets", "buttons", "metadata"}) {
    CAPTURE(key);
    CHECK(json::Member(doc, key) == nullptr);
  }
  CHECK(json::GetInt(doc, "type") == 0);
  CHECK(json::GetInt(doc, "supported_platforms") == 1);
}

TEST_CASE("activity json: round trip keeps every field") {
  Activity original = FullActivity();
  auto doc = ParseOrFail(social::ActivityToJson(original));
  auto parsed = social::ActivityFromJson(doc);
  REQUIRE(parsed);
  CHECK(parsed->Equals(original));
  CHECK(social::ActivityToJson(*parsed) == social::ActivityToJson(original));
  parsed->SetState("other");
  CHECK_FALSE(parsed->Equals(original));
}

TEST_CASE("activity json: reading is lenient about what friends' presences carry") {
  // Friends' presences have no secrets and button labels only (server-stripped); ids may be numbers.
  auto doc = ParseOrFail(
      R"({"name":"G","type":0,"application_id":42,"buttons":["A","B"],"party":{"id":"p","size":[1,"x"]},)"
      R"("timestamps":{"start":5},"state":7,"assets":null})");
  auto a = social::ActivityFromJson(doc);
  REQUIRE(a);
  CHECK(a->ApplicationId() == 42u);
  REQUIRE(a->GetButtons().size() == 2);
  CHECK(a->GetButtons()[1].Label() == "B");
  CHECK(a->GetButtons()[1].Url().empty());
  REQUIRE(a->Party());
  CHECK(a->Party()->Id() == "p");
  CHECK(a->Party()->MaxSize() == 0);  // malformed size ignored
  CHECK(a->Timestamps()->Start() == 5u);
  CHECK(a->Timestamps()->End() == 0u);
  CHECK_FALSE(a->State());  // mistyped: unset
  CHECK_FALSE(a->Assets());
  CHECK_FALSE(a->Secrets());

  auto ipcShape = ParseOrFail(R"({"name":"G","type":2,"buttons":[{"label":"L","url":"https://x.y"}]})");
  auto b = social::ActivityFromJson(ipcShape);
  REQUIRE(b);
  CHECK(b->Type() == ActivityTypes::Listening);
  REQUIRE(b->GetButtons().size() == 1);
  CHECK(b->GetButtons()[0].Url() == "https://x.y");
}

TEST_CASE("activity json: not an object or unknown type is refused") {
  CHECK_FALSE(social::ActivityFromJson(ParseOrFail("[]")));
  CHECK_FALSE(social::ActivityFromJson(ParseOrFail("null")));
  CHECK_FALSE(social::ActivityFromJson(ParseOrFail(R"({"name":"G","type":7})")));
  CHECK_FALSE(social::ActivityFromJson(ParseOrFail(R"({"name":"G","type":-1})")));
  CHECK(social::ActivityFromJson(ParseOrFail(R"({"name":"G","type":6})")));
}

TEST_CASE("activity json: status wire names") {
  CHECK(std::string(social::StatusToWire(StatusType::Online)) == "online");
  CHECK(std::string(social::StatusToWire(StatusType::Idle)) == "idle");
  CHECK(std::string(social::StatusToWire(StatusType::Dnd)) == "dnd");
  CHECK(std::string(social::StatusToWire(StatusType::Invisible)) == "invisible");
  CHECK(social::StatusFromWire("offline") == StatusType::Offline);
  CHECK(social::StatusFromWire("dnd") == StatusType::Dnd);
  CHECK(social::StatusFromWire("weird") == StatusType::Unknown);
}

TEST_CASE("an activity invite is a DM that carries an activity object; anything else is a chat message") {
  const auto invite = [](const char* text) {
    json::Document document;
    REQUIRE(json::Parse(text, document));
    return social::IsActivityInvite(document);
  };
  CHECK(invite(R"({"channel_id":"7","activity":{"type":1,"party_id":"p"}})"));
  CHECK(invite(R"({"channel_id":"7","lobby_id":null,"guild_id":null,"activity":{"type":3}})"));
  CHECK_FALSE(invite(R"({"channel_id":"7","content":"hi"})"));
  CHECK_FALSE(invite(R"({"channel_id":"7","activity":null})"));
  CHECK_FALSE(invite(R"({"channel_id":"7","activity":"join"})"));
  CHECK_FALSE(invite(R"({"channel_id":"5","lobby_id":"5","activity":{"type":1}})"));
  CHECK_FALSE(invite(R"({"channel_id":"9","guild_id":"8","activity":{"type":1}})"));
  CHECK_FALSE(invite("[]"));
}

}  // namespace activity_json_test
