// VerifyWebhookEvent: the platform's Ed25519 signature over timestamp + body, the replay window crossed by
// one second each way, and the envelope of PINGs and events.
#include <platformpp/webhook_events.hpp>

#include <doctest/doctest.h>
#include <sodium.h>

#include <array>
#include <chrono>
#include <string>

namespace webhook_events_test {

using platformpp::backend::VerifyWebhookEvent;
using platformpp::backend::WebhookEvent;
using Clock = std::chrono::system_clock;

// The platform's side: an application key pair, and requests signed with it.
struct Signer {
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> publicKey{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secretKey{};
  Signer() {
    REQUIRE(sodium_init() >= 0);
    crypto_sign_keypair(publicKey.data(), secretKey.data());
  }
  std::string PublicHex() const {
    std::array<char, 2 * crypto_sign_PUBLICKEYBYTES + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), publicKey.data(), publicKey.size());
    return hex.data();
  }
  std::string Sign(const std::string& timestamp, const std::string& body) const {
    const std::string message = timestamp + body;
    std::array<unsigned char, crypto_sign_BYTES> signature{};
    crypto_sign_detached(signature.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()),
                         message.size(), secretKey.data());
    std::array<char, 2 * crypto_sign_BYTES + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), signature.data(), signature.size());
    return hex.data();
  }
};

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

}  // namespace webhook_events_test
