// VerifyWebhookEvent: the platform's Ed25519 signature over timestamp + body, the replay window crossed by
// one second each way, and the envelope of PINGs and events.
#include <platformpp/webhook_events.hpp>

#include "webhook_signer.hpp"

#include "backend/webhook_delivered_ids.hpp"

#include <doctest/doctest.h>
#include <sodium.h>

#include <array>
#include <chrono>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#ifdef _WIN32
// <windows.h> (Asio's, in a unity batch) defines `near` and `far` as nothing; this file names variables so.
#undef near
#undef far
#endif

namespace webhook_events_test {

using platformpp::backend::VerifyWebhookEvent;
using platformpp::backend::WebhookEvent;
using Clock = std::chrono::system_clock;

using webhook_test::Signer;

const Clock::time_point kNow = Clock::time_point(std::chrono::seconds(1'795'000'000));
const std::string kNowText = "1795000000";
const std::string kPing = R"({"version":1,"application_id":"1234567890123456789","type":0})";
const std::string kDeauthorized =
    R"({"version":1,"application_id":"1234567890123456789","type":1,"event":{"type":"APPLICATION_DEAUTHORIZED",)"
    R"("timestamp":"2026-11-18T08:53:20.000000+00:00","data":{"user":{"id":"42","username":"ada"}}}})";

TEST_CASE("webhook events: a signed PING is answered 204") {
  Signer platform;
  auto verdict =
      VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, kPing), kNowText, kPing, kNow);
  CHECK(verdict.status == 204);
  REQUIRE(verdict.event);
  CHECK(verdict.event->type == WebhookEvent::Type::Ping);
  CHECK(verdict.event->applicationId == 1234567890123456789ULL);
  CHECK(verdict.event->eventType.empty());
}

TEST_CASE("webhook events: a signed event is parsed, its data kept as JSON") {
  Signer platform;
  auto verdict = VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, kDeauthorized), kNowText,
                                    kDeauthorized, kNow);
  REQUIRE(verdict.status == 204);
  REQUIRE(verdict.event);
  CHECK(verdict.event->type == WebhookEvent::Type::Event);
  CHECK(verdict.event->eventType == "APPLICATION_DEAUTHORIZED");
  CHECK(verdict.event->timestamp == "2026-11-18T08:53:20.000000+00:00");
  CHECK(verdict.event->dataJson == R"({"user":{"id":"42","username":"ada"}})");
}

TEST_CASE("webhook events: forged, foreign, truncated and malformed signatures are refused with 401") {
  Signer platform;
  Signer other;
  const std::string signature = platform.Sign(kNowText, kDeauthorized);
  std::string forged = signature;
  forged[10] = forged[10] == '0' ? '1' : '0';
  CHECK(VerifyWebhookEvent(platform.PublicHex(), forged, kNowText, kDeauthorized, kNow).status == 401);
  CHECK(VerifyWebhookEvent(other.PublicHex(), signature, kNowText, kDeauthorized, kNow).status == 401);
  const std::string truncated = kDeauthorized.substr(0, kDeauthorized.size() - 1);
  auto verdict = VerifyWebhookEvent(platform.PublicHex(), signature, kNowText, truncated, kNow);
  CHECK(verdict.status == 401);
  CHECK_FALSE(verdict.event);
  CHECK(verdict.error == "the signature does not match");
  // The timestamp is part of what is signed: another one with the same signature fails.
  CHECK(VerifyWebhookEvent(platform.PublicHex(), signature, "1795000001", kDeauthorized, kNow).status == 401);
  CHECK(VerifyWebhookEvent(platform.PublicHex(), signature.substr(1), kNowText, kDeauthorized, kNow).status ==
        401);
  CHECK(VerifyWebhookEvent(platform.PublicHex(), "zz" + signature.substr(2), kNowText, kDeauthorized, kNow)
            .status == 401);
  CHECK(VerifyWebhookEvent("abc", signature, kNowText, kDeauthorized, kNow).status == 401);
  CHECK(VerifyWebhookEvent(platform.PublicHex(), signature, "", kDeauthorized, kNow).status == 401);
  CHECK(VerifyWebhookEvent(platform.PublicHex(), signature, "17950000x0", kDeauthorized, kNow).status == 401);
}

TEST_CASE("webhook events: a timestamp 5 minutes away is accepted, one second more is a replay") {
  Signer platform;
  for (int64_t offset : {-300, 300}) {
    const std::string at = std::to_string(1'795'000'000 + offset);
    CHECK(VerifyWebhookEvent(platform.PublicHex(), platform.Sign(at, kPing), at, kPing, kNow).status == 204);
  }
  for (int64_t offset : {-301, 301}) {
    const std::string at = std::to_string(1'795'000'000 + offset);
    auto verdict = VerifyWebhookEvent(platform.PublicHex(), platform.Sign(at, kPing), at, kPing, kNow);
    CHECK(verdict.status == 401);
    CHECK(verdict.error == "the timestamp is too far from now");
  }
  // The largest timestamp a header can hold is refused, not overflowed.
  const std::string far = "9223372036854775807";
  CHECK(VerifyWebhookEvent(platform.PublicHex(), platform.Sign(far, kPing), far, kPing, kNow).status == 401);
}

TEST_CASE("webhook events: a signed body that is not a webhook event is answered 400") {
  Signer platform;
  for (const std::string& body :
       {std::string("not json"), std::string("[]"), std::string(R"({"type":0})"),
        std::string(R"({"application_id":"1","type":7})"), std::string(R"({"application_id":"1","type":1})"),
        std::string(R"({"application_id":"1","type":1,"event":{"timestamp":"t"}})")}) {
    CAPTURE(body);
    auto verdict =
        VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, body), kNowText, body, kNow);
    CHECK(verdict.status == 400);
    CHECK_FALSE(verdict.event);
  }
}

// A signed event with `type` and `data` (JSON text, or nothing), verified.
WebhookEvent Verified(const Signer& platform, const std::string& type, const std::string& data,
                      const std::string& timestamp = "2026-11-18T08:53:20.000000+00:00") {
  std::string body = R"({"version":1,"application_id":"1234567890123456789","type":1,"event":{"type":")" +
                     type + R"(","timestamp":")" + timestamp + "\"" +
                     (data.empty() ? "" : ",\"data\":" + data) + "}}";
  auto verdict =
      VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, body), kNowText, body, kNow);
  REQUIRE(verdict.status == 204);
  REQUIRE(verdict.event);
  return *verdict.event;
}

template <class T>
const T& As(const WebhookEvent& event) {
  REQUIRE(std::holds_alternative<T>(event.data));
  return std::get<T>(event.data);
}

const std::string kUser = R"({"id":"42","username":"ada","global_name":"Ada"})";

TEST_CASE("webhook events: APPLICATION_AUTHORIZED, user install and guild install") {
  Signer platform;
  auto user = Verified(platform, "APPLICATION_AUTHORIZED",
                       R"({"integration_type":1,"user":)" + kUser + R"(,"scopes":["identify","openid"]})");
  const auto& authorized = As<platformpp::backend::ApplicationAuthorized>(user);
  CHECK(authorized.integrationType == 1);
  CHECK(authorized.user.id == 42);
  CHECK(authorized.user.username == "ada");
  CHECK(authorized.user.globalName == "Ada");
  CHECK(authorized.user.rawJson == kUser);
  CHECK(authorized.scopes == std::vector<std::string>{"identify", "openid"});
  CHECK_FALSE(authorized.guildId);

  auto guild = Verified(platform, "APPLICATION_AUTHORIZED",
                        R"({"integration_type":0,"user":{"id":"7"},"scopes":[],"guild":{"id":"99"}})");
  const auto& inGuild = As<platformpp::backend::ApplicationAuthorized>(guild);
  CHECK(inGuild.integrationType == 0);
  CHECK(inGuild.guildId == 99u);
  CHECK(inGuild.user.globalName.empty());
  // integration_type is optional.
  auto bare = Verified(platform, "APPLICATION_AUTHORIZED", R"({"user":{"id":"7"}})");
  CHECK_FALSE(As<platformpp::backend::ApplicationAuthorized>(bare).integrationType);
}

TEST_CASE("webhook events: APPLICATION_DEAUTHORIZED carries the user") {
  Signer platform;
  auto event = Verified(platform, "APPLICATION_DEAUTHORIZED", R"({"user":)" + kUser + "}");
  CHECK(As<platformpp::backend::ApplicationDeauthorized>(event).user.id == 42);
}

TEST_CASE("webhook events: ENTITLEMENT_CREATE carries the whole entitlement, read as the SDK reads it") {
  Signer platform;
  const std::string entitlement =
      R"({"id":"1001","sku_id":"2002","application_id":"1234567890123456789","user_id":"42","type":1,)"
      R"("deleted":false,"consumed":false,"starts_at":null,"ends_at":null,"gifter_user_id":"77"})";
  auto event = Verified(platform, "ENTITLEMENT_CREATE", entitlement);
  const auto& created = As<platformpp::backend::EntitlementCreate>(event);
  CHECK(created.entitlement.id == 1001);
  CHECK(created.entitlement.skuId == 2002);
  CHECK(created.entitlement.applicationId == 1234567890123456789u);
  CHECK(created.entitlement.userId == 42u);
  CHECK(created.entitlement.guildId == 0u);
  CHECK(created.entitlement.type == platformpp::EntitlementType::Purchase);
  CHECK_FALSE(created.entitlement.deleted);
  CHECK_FALSE(created.entitlement.consumed);
  CHECK_FALSE(created.entitlement.startsAt);
  CHECK_FALSE(created.entitlement.endsAt);
  CHECK(created.entitlement.ActiveAt(1));
  // What Entitlement does not hold stays readable in the raw object.
  CHECK(created.rawJson == entitlement);

  // A guild's subscription entitlement with its end: ISO 8601 read into Unix milliseconds.
  auto ending =
      Verified(platform, "ENTITLEMENT_CREATE",
               R"({"id":"1","sku_id":"2","application_id":"3","guild_id":"5","type":8,)"
               R"("starts_at":"2026-11-18T08:53:20Z","ends_at":"2026-12-18T08:53:20Z","consumed":true})");
  const auto& guild = As<platformpp::backend::EntitlementCreate>(ending).entitlement;
  CHECK(guild.guildId == 5u);
  CHECK(guild.userId == 0u);
  CHECK(guild.type == platformpp::EntitlementType::ApplicationSubscription);
  CHECK(guild.startsAt == 1'794'992'000'000u);
  CHECK(guild.endsAt == 1'797'584'000'000u);
  CHECK(guild.consumed);
}

TEST_CASE("webhook events: an ENTITLEMENT_CREATE the entitlement reader refuses arrives raw") {
  Signer platform;
  // Each lacks or spoils one thing ParseEntitlement needs; the signed event is still delivered, untyped.
  for (const std::string data : {
           R"({"id":"1","sku_id":"2","type":1})",                                        // no application_id
           R"({"id":"1","application_id":"3","type":1})",                                // no sku_id
           R"({"id":"1","sku_id":"2","application_id":"3"})",                            // no type
           R"({"id":"1","sku_id":"2","application_id":"3","type":1,"ends_at":"soon"})",  // not ISO 8601
           R"({"id":"1","sku_id":"2","application_id":"3","type":1,"consumed":"no"})",   // not a boolean
       }) {
    CAPTURE(data);
    auto event = Verified(platform, "ENTITLEMENT_CREATE", data);
    CHECK(As<platformpp::backend::UnknownWebhookEvent>(event).rawJson == data);
  }
}

TEST_CASE("webhook events: QUEST_USER_ENROLLMENT is kept raw") {
  Signer platform;
  auto event = Verified(platform, "QUEST_USER_ENROLLMENT", R"({"quest_id":"3","user_id":"42"})");
  CHECK(As<platformpp::backend::QuestUserEnrollment>(event).rawJson == R"({"quest_id":"3","user_id":"42"})");
}

TEST_CASE("webhook events: lobby message create, update and delete") {
  Signer platform;
  const std::string message = R"({"id":"11","type":0,"content":"gg","lobby_id":"22","channel_id":"33",)"
                              R"("author":)" +
                              kUser + R"(,"metadata":{"k":"v"},"flags":65536,"application_id":"44"})";
  auto created = Verified(platform, "LOBBY_MESSAGE_CREATE", message);
  const auto& create = As<platformpp::backend::LobbyMessageCreate>(created).message;
  CHECK(create.id == 11);
  CHECK(create.lobbyId == 22);
  CHECK(create.channelId == 33);
  CHECK(create.content == "gg");
  CHECK(create.author.id == 42);
  CHECK(create.metadata == platformpp::Metadata{{"k", "v"}});
  CHECK(create.flags == 65536);
  CHECK(create.applicationId == 44u);
  CHECK_FALSE(create.editedTimestamp);

  auto updated = Verified(platform, "LOBBY_MESSAGE_UPDATE",
                          R"({"id":"11","lobby_id":"22","content":"gg wp","author":{"id":"42"},)"
                          R"("edited_timestamp":"2026-11-18T08:54:00+00:00"})");
  const auto& update = As<platformpp::backend::LobbyMessageUpdate>(updated).message;
  CHECK(update.content == "gg wp");
  CHECK(update.editedTimestamp == "2026-11-18T08:54:00+00:00");
  CHECK(update.channelId == 0);

  auto deleted = Verified(platform, "LOBBY_MESSAGE_DELETE", R"({"id":"11","lobby_id":"22"})");
  CHECK(As<platformpp::backend::LobbyMessageDelete>(deleted).id == 11);
  CHECK(As<platformpp::backend::LobbyMessageDelete>(deleted).lobbyId == 22);
}

TEST_CASE("webhook events: game direct message create, update and delete") {
  Signer platform;
  auto created = Verified(platform, "GAME_DIRECT_MESSAGE_CREATE",
                          R"({"id":"11","type":0,"content":"hi","channel_id":"33","author":)" + kUser +
                              R"(,"flags":0,"application_id":"44"})");
  const auto& create = As<platformpp::backend::GameDirectMessageCreate>(created).message;
  CHECK(create.id == 11);
  CHECK(create.channelId == 33);
  CHECK(create.content == "hi");
  CHECK(create.applicationId == 44u);
  CHECK_FALSE(create.lobbyId);
  // An SDK DM between provisional accounts names its channel only in the `channel` object.
  auto sdkDm =
      Verified(platform, "GAME_DIRECT_MESSAGE_UPDATE",
               R"({"id":"12","content":"edited","channel":{"id":"34","type":1},"author":{"id":"42"},)"
               R"("lobby_id":"55","edited_timestamp":"2026-11-18T08:54:00+00:00"})");
  const auto& update = As<platformpp::backend::GameDirectMessageUpdate>(sdkDm).message;
  CHECK(update.channelId == 34);
  CHECK(update.lobbyId == 55u);
  CHECK(update.editedTimestamp == "2026-11-18T08:54:00+00:00");
  // The emulator sends {id, channel_id}; the platform the whole message.
  auto deleted = Verified(platform, "GAME_DIRECT_MESSAGE_DELETE", R"({"id":"11","channel_id":"33"})");
  CHECK(As<platformpp::backend::GameDirectMessageDelete>(deleted).channelId == 33);
  auto deletedWhole = Verified(platform, "GAME_DIRECT_MESSAGE_DELETE",
                               R"({"id":"11","content":"x","channel":{"id":"33"},"author":{"id":"42"}})");
  CHECK(As<platformpp::backend::GameDirectMessageDelete>(deletedWhole).id == 11);
}

TEST_CASE("webhook events: unknown events, and known ones missing what their type needs, stay raw") {
  Signer platform;
  auto unknown = Verified(platform, "ENTITLEMENT_UPDATE", R"({"id":"1"})");
  CHECK(unknown.eventType == "ENTITLEMENT_UPDATE");
  CHECK(As<platformpp::backend::UnknownWebhookEvent>(unknown).rawJson == R"({"id":"1"})");
  for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
           {"APPLICATION_DEAUTHORIZED", R"({"user":{"username":"no id"}})"},
           {"APPLICATION_AUTHORIZED", R"({"user":"42"})"},
           {"ENTITLEMENT_CREATE", R"({"id":"1"})"},
           {"LOBBY_MESSAGE_CREATE", R"({"id":"1","lobby_id":"0","author":{"id":"2"}})"},
           {"LOBBY_MESSAGE_DELETE", R"({"id":"1"})"},
           {"GAME_DIRECT_MESSAGE_CREATE", R"({"id":"1","author":{"id":"2"}})"},
           {"GAME_DIRECT_MESSAGE_DELETE", R"({"id":"x","channel_id":"3"})"},
           {"APPLICATION_DEAUTHORIZED", ""}}) {
    const std::string& type = entry.first;
    const std::string& data = entry.second;
    CAPTURE(type);
    CAPTURE(data);
    auto event = Verified(platform, type, data);
    CHECK(As<platformpp::backend::UnknownWebhookEvent>(event).rawJson == data);
  }
  // The typed parser on its own, for events stored and read back.
  CHECK(std::holds_alternative<platformpp::backend::ApplicationDeauthorized>(
      platformpp::backend::ParseWebhookEventData("APPLICATION_DEAUTHORIZED", R"({"user":{"id":"1"}})")));
  CHECK(std::holds_alternative<platformpp::backend::UnknownWebhookEvent>(
      platformpp::backend::ParseWebhookEventData("APPLICATION_DEAUTHORIZED", "{not json")));
}

TEST_CASE("webhook events: the event id is SHA-256 of type, timestamp and compact data") {
  Signer platform;
  auto a = Verified(platform, "APPLICATION_DEAUTHORIZED", R"({"user": {"id": "42"}})");
  // The same event re-sent (the platform's retry) has the same id, whatever the whitespace.
  auto retry = Verified(platform, "APPLICATION_DEAUTHORIZED", R"({"user":{"id":"42"}})");
  CHECK(a.eventId.size() == 64);
  CHECK(a.eventId == retry.eventId);
  std::string joined =
      "APPLICATION_DEAUTHORIZED\n2026-11-18T08:53:20.000000+00:00\n{\"user\":{\"id\":\"42\"}}";
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(joined.data()), joined.size());
  std::array<char, 2 * crypto_hash_sha256_BYTES + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  CHECK(a.eventId == hex.data());
  CHECK(Verified(platform, "APPLICATION_DEAUTHORIZED", R"({"user":{"id":"43"}})").eventId != a.eventId);
  CHECK(Verified(platform, "APPLICATION_DEAUTHORIZED", R"({"user":{"id":"42"}})", "2026-11-18T08:53:21Z")
            .eventId != a.eventId);
  CHECK(Verified(platform, "APPLICATION_AUTHORIZED", R"({"user":{"id":"42"}})").eventId != a.eventId);
}

TEST_CASE("webhook events: a body nested deeper than 64 levels is refused with 400, not recursed into") {
  Signer platform;
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string body =
      R"({"version":1,"application_id":"1","type":1,"event":{"type":"X","data":{"a":)" + deep + "}}}";
  auto verdict =
      VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, body), kNowText, body, kNow);
  CHECK(verdict.status == 400);
  // 64 levels in all are accepted.
  std::string fits = R"({"version":1,"application_id":"1","type":1,"event":{"type":"X","data":)" +
                     std::string(62, '[') + std::string(62, ']') + "}}";
  CHECK(
      VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, fits), kNowText, fits, kNow).status ==
      204);
  std::string over = R"({"version":1,"application_id":"1","type":1,"event":{"type":"X","data":)" +
                     std::string(63, '[') + std::string(63, ']') + "}}";
  CHECK(
      VerifyWebhookEvent(platform.PublicHex(), platform.Sign(kNowText, over), kNowText, over, kNow).status ==
      400);
}

TEST_CASE("webhook events: delivered ids are remembered for their window, and at most their capacity") {
  using Ids = platformpp::backend::WebhookDeliveredIds;
  Ids ids(std::chrono::seconds(3600), 3);
  CHECK(ids.FirstTime("a", kNow));
  CHECK_FALSE(ids.FirstTime("a", kNow + std::chrono::seconds(3600)));
  // Forgotten one second after its hour.
  CHECK(ids.FirstTime("a", kNow + std::chrono::seconds(3601)));
  CHECK(ids.FirstTime("b", kNow + std::chrono::seconds(3601)));
  CHECK(ids.FirstTime("c", kNow + std::chrono::seconds(3601)));
  CHECK(ids.Size() == 3);
  // A fourth forgets the oldest.
  CHECK(ids.FirstTime("d", kNow + std::chrono::seconds(3602)));
  CHECK(ids.Size() == 3);
  CHECK(ids.FirstTime("a", kNow + std::chrono::seconds(3602)));
  CHECK_FALSE(ids.FirstTime("c", kNow + std::chrono::seconds(3602)));
}

}  // namespace webhook_events_test
