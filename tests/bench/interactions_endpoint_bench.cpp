// The interactions endpoint's work per interaction once the request is read: the signature check with the
// application's key in hex (VerifyInteraction: hex decoding, Ed25519, the timestamp window), the parse into
// the typed Interaction, and the dispatch through the callback queue to the game's callback, as the endpoint
// does it; against a bare libsodium crypto_sign_verify_detached of the same bytes with the key already
// decoded, measured in the same process. Prints the ratio last. The HTTP exchange itself is not measured.
#include "core/callback_queue.hpp"

#include <platformpp/interactions_endpoint.hpp>

#include <sodium.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp;
using namespace platformpp::backend;
using Clock = std::chrono::steady_clock;

namespace {

const int kInteractions = platformpp::bench::Sized(20'000, 500);
const int kRounds = platformpp::bench::Sized(5, 1);

// A slash command with a subcommand, options, resolved objects and a member: a typical interaction.
const std::string kBody =
    R"({"id":"1311111111111111111","application_id":"1222222222222222222","type":2,"token":"aW50ZXJhY3Rpb246MTMxMTExMTExMTExMTExMTExMTpYeXo","version":1,)"
    R"("guild_id":"1333333333333333333","channel_id":"1344444444444444444","channel":{"id":"1344444444444444444","type":0,"name":"general"},)"
    R"("member":{"user":{"id":"1355555555555555555","username":"player","global_name":"Player One"},"roles":["1366666666666666666"],)"
    R"("permissions":"2248473465835073","nick":null,"joined_at":"2025-01-01T00:00:00+00:00"},"locale":"en-US","guild_locale":"en-US",)"
    R"("app_permissions":"2248473465835073","entitlements":[],"authorizing_integration_owners":{"0":"1333333333333333333"},)"
    R"("context":0,"attachment_size_limit":10485760,"data":{"id":"1377777777777777777","name":"stats","type":1,)"
    R"("options":[{"name":"player","type":1,"options":[{"name":"who","type":6,"value":"1355555555555555555"},{"name":"season","type":4,"value":12}]}],)"
    R"("resolved":{"users":{"1355555555555555555":{"id":"1355555555555555555","username":"player"}},)"
    R"("members":{"1355555555555555555":{"roles":[],"permissions":"8"}}}}})";

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main() {
  if (sodium_init() < 0) return 1;
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secret{};
  crypto_sign_keypair(key.data(), secret.data());
  std::array<char, 2 * crypto_sign_PUBLICKEYBYTES + 1> keyHex{};
  sodium_bin2hex(keyHex.data(), keyHex.size(), key.data(), key.size());

  const auto now = std::chrono::system_clock::now();
  const std::string timestamp =
      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
  const std::string message = timestamp + kBody;
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  crypto_sign_detached(signature.data(), nullptr, reinterpret_cast<const unsigned char*>(message.data()),
                       message.size(), secret.data());
  std::array<char, 2 * crypto_sign_BYTES + 1> signatureHex{};
  sodium_bin2hex(signatureHex.data(), signatureHex.size(), signature.data(), signature.size());

  uint64_t verified = 0;
  uint64_t dispatched = 0;
  std::vector<double> bare, sdk;
  for (int round = 0; round < kRounds; ++round) {
    auto start = Clock::now();
    for (int i = 0; i < kInteractions; ++i) {
      verified += crypto_sign_verify_detached(signature.data(),
                                              reinterpret_cast<const unsigned char*>(message.data()),
                                              message.size(), key.data()) == 0;
    }
    bare.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kInteractions);

    auto queue = std::make_shared<core::CallbackQueue>();
    auto handler = [&dispatched](const Interaction& interaction) { dispatched += interaction.id != 0; };
    start = Clock::now();
    for (int i = 0; i < kInteractions; ++i) {
      InteractionVerification verdict =
          VerifyInteraction(keyHex.data(), signatureHex.data(), timestamp, kBody, now);
      if (verdict.status != 200) {
        std::printf("error: the signed interaction was refused: %s\n", verdict.error.c_str());
        return 1;
      }
      queue->Push([&handler, interaction = std::move(*verdict.interaction)](core::CallbackMode mode) {
        if (mode == core::CallbackMode::Deliver) handler(interaction);
      });
      queue->Drain();
    }
    sdk.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kInteractions);
    queue->Shutdown();
  }
  const uint64_t expected = static_cast<uint64_t>(kRounds) * kInteractions;
  if (verified != expected || dispatched != expected) {
    std::printf("error: %llu verified, %llu dispatched, expected %llu each\n",
                static_cast<unsigned long long>(verified), static_cast<unsigned long long>(dispatched),
                static_cast<unsigned long long>(expected));
    return 1;
  }
  const double b = Median(bare);
  const double s = Median(sdk);
  std::printf("interaction body: %zu bytes\n", kBody.size());
  std::printf("bare crypto_sign_verify_detached:           %.2f us per interaction (median of %d)\n", b,
              kRounds);
  std::printf("endpoint verify + parse + dispatch:         %.2f us per interaction (median of %d)\n", s,
              kRounds);
  std::printf("ratio: %.2fx\n", s / b);
  return 0;
}
