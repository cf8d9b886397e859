// Known answers for the voice wire code that the SDK and the emulator share (transport_cipher, rtp_packet,
// ip_discovery; issue 17, item 6). A bug there is on both sides of every integration test, so these vectors
// were computed outside the project from the platform's description (summed up in docs/voice-protocol.md,
// "IP discovery", "RTP", "Transport encryption") and the RFCs: tests/data/voice-kat/README.md says how each
// file was made. Nothing here derives an expected value from the code under test.
#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "media_wire/ip_discovery.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"

namespace voice_wire_kat_test {

namespace media_wire = platformpp::media_wire;

namespace {

rapidjson::Document LoadVectors(const std::string& name) {
  const std::string path = std::string(PLATFORMPP_VOICE_KAT_DIR) + "/" + name;
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  rapidjson::Document document;
  document.Parse(text.str().c_str());
  if (document.HasParseError() || !document.IsObject())
    throw std::runtime_error(path + ": not a JSON object");
  return document;
}

std::string_view Text(const rapidjson::Value& value) {
  if (!value.IsString()) throw std::runtime_error("a vector field is not a string");
  return {value.GetString(), value.GetStringLength()};
}

// Hex digits, with spaces between fields allowed (the hand-laid files group bytes by field).
std::vector<uint8_t> Bytes(const rapidjson::Value& value) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error(std::string("not a hex digit: ") + c);
  };
  std::vector<uint8_t> out;
  int high = -1;
  for (char c : Text(value)) {
    if (c == ' ') continue;
    if (high < 0) {
      high = digit(c);
    } else {
      out.push_back(static_cast<uint8_t>(high * 16 + digit(c)));
      high = -1;
    }
  }
  if (high >= 0) throw std::runtime_error("odd number of hex digits");
  return out;
}

std::string ToHex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

media_wire::TransportKey Key(const rapidjson::Value& value) {
  const auto bytes = Bytes(value);
  REQUIRE(bytes.size() == media_wire::kTransportKeySize);
  media_wire::TransportKey key{};
  std::copy(bytes.begin(), bytes.end(), key.begin());
  return key;
}

media_wire::TransportMode Mode(const rapidjson::Value& value) {
  const auto mode = media_wire::ParseTransportMode(Text(value));
  REQUIRE(mode.has_value());
  return *mode;
}

// The header fields a vector states (rtp.json's `expect`, transport.json's `header`) against
// media_wire::ParseRtpHeader.
void CheckHeader(const rapidjson::Value& expect, const std::optional<media_wire::RtpHeader>& parsed) {
  REQUIRE(parsed.has_value());
  CHECK(parsed->marker == expect["marker"].GetBool());
  CHECK(parsed->payloadType == expect["payload_type"].GetUint());
  CHECK(parsed->sequence == expect["sequence"].GetUint());
  CHECK(parsed->timestamp == expect["timestamp"].GetUint());
  CHECK(parsed->ssrc == expect["ssrc"].GetUint());
  CHECK(parsed->clearSize == expect["clear_size"].GetUint());
  CHECK(parsed->extensionBodySize == expect["extension_body_size"].GetUint());
}

media_wire::OpenResult OpenOnce(const rapidjson::Value& vector, std::span<const uint8_t> packet,
                                std::string* plainHex) {
  media_wire::TransportOpener opener(Mode(vector["mode"]), Key(vector["key"]));
  std::vector<uint8_t> out(packet.size());
  std::size_t written = 0;
  const auto result = opener.Open(packet, out, written);
  if (plainHex) *plainHex = ToHex(std::span(out).first(written));
  return result;
}

const rapidjson::Value* FindVector(const rapidjson::Value& vectors, std::string_view name) {
  for (const auto& vector : vectors.GetArray())
    if (Text(vector["name"]) == name) return &vector;
  return nullptr;
}

}  // namespace

TEST_CASE("voice KAT: every transport vector opens to its RTP packet") {
  const auto document = LoadVectors("transport.json");
  const auto& vectors = document["vectors"];
  REQUIRE(vectors.Size() >= 14);
  for (const auto& vector : vectors.GetArray()) {
    INFO(Text(vector["name"]));
    const auto sealed = Bytes(vector["sealed"]);
    std::string plain;
    CHECK(OpenOnce(vector, sealed, &plain) == media_wire::OpenResult::Ok);
    CHECK(plain == Text(vector["rtp"]));
  }
}

TEST_CASE("voice KAT: every transport vector's RTP packet seals to the exact bytes") {
  const auto document = LoadVectors("transport.json");
  for (const auto& vector : document["vectors"].GetArray()) {
    INFO(Text(vector["name"]));
    const auto rtp = Bytes(vector["rtp"]);
    media_wire::TransportSealer sealer(Mode(vector["mode"]), Key(vector["key"]));
    sealer.SetNextNonce(vector["counter"].GetUint());
    std::vector<uint8_t> out(rtp.size() + media_wire::kTransportOverhead);
    CHECK(sealer.Seal(rtp, out) == out.size());
    CHECK(ToHex(out) == Text(vector["sealed"]));
  }
}

TEST_CASE("voice KAT: the clear part the SDK authenticates is the one docs/voice-protocol.md describes") {
  const auto document = LoadVectors("transport.json");
  for (const auto& vector : document["vectors"].GetArray()) {
    INFO(Text(vector["name"]));
    const auto rtp = Bytes(vector["rtp"]);
    const auto sealed = Bytes(vector["sealed"]);
    CheckHeader(vector["header"], media_wire::ParseRtpHeader(rtp));
    // The sealed packet starts with the same header, in the clear.
    CheckHeader(vector["header"], media_wire::ParseRtpHeader(sealed));
    // The vector's own consistency: its last 4 bytes are the counter, big-endian, as in bytes 0..3 of the
    // nonce.
    const uint32_t counter = vector["counter"].GetUint();
    const std::string suffix = ToHex(std::span(sealed).last(media_wire::kTransportNonceSuffixSize));
    CHECK(suffix == std::string(Text(vector["nonce"])).substr(0, 8));
    CHECK(std::stoul(suffix, nullptr, 16) == counter);
  }
}

TEST_CASE("voice KAT: a changed byte in each region of a vector is refused") {
  const auto document = LoadVectors("transport.json");
  for (const auto& vector : document["vectors"].GetArray()) {
    const auto sealed = Bytes(vector["sealed"]);
    const std::size_t clear = vector["header"]["clear_size"].GetUint();
    // A byte of the SSRC (clear, authenticated), the first encrypted byte, the first tag byte, the nonce's
    // last.
    for (const std::size_t at :
         {std::size_t{8}, clear, sealed.size() - media_wire::kTransportOverhead, sealed.size() - 1}) {
      INFO(Text(vector["name"]), " byte ", at);
      auto changed = sealed;
      changed[at] ^= 0x01;
      CHECK(OpenOnce(vector, changed, nullptr) == media_wire::OpenResult::AuthenticationFailed);
    }
  }
}

TEST_CASE("voice KAT: one sealer counts up to the last nonce, big-endian, in both modes") {
  const auto document = LoadVectors("transport.json");
  for (const char* mode : {"aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"}) {
    INFO(mode);
    const auto* first = FindVector(document["vectors"], std::string(mode) + "/csrc_extension_near_wrap");
    const auto* second = FindVector(document["vectors"], std::string(mode) + "/last_nonce");
    REQUIRE(first);
    REQUIRE(second);
    REQUIRE((*first)["counter"].GetUint() == 0xFFFFFFFEu);
    REQUIRE((*second)["counter"].GetUint() == 0xFFFFFFFFu);
    media_wire::TransportSealer sealer(Mode((*first)["mode"]), Key((*first)["key"]));
    sealer.SetNextNonce(0xFFFFFFFEu);
    for (const auto* vector : {first, second}) {
      const auto rtp = Bytes((*vector)["rtp"]);
      std::vector<uint8_t> out(rtp.size() + media_wire::kTransportOverhead);
      REQUIRE(sealer.Seal(rtp, out) == out.size());
      CHECK(ToHex(out) == Text((*vector)["sealed"]));
    }
  }
}

TEST_CASE("voice KAT: RTP headers laid out from RFC 3550 and RFC 8285") {
  const auto document = LoadVectors("rtp.json");
  const auto& packets = document["packets"];
  REQUIRE(packets.Size() >= 17);
  for (const auto& packet : packets.GetArray()) {
    INFO(Text(packet["name"]));
    const auto bytes = Bytes(packet["hex"]);
    CHECK(media_wire::IsRtcp(bytes) == packet["rtcp"].GetBool());
    const auto parsed = media_wire::ParseRtpHeader(bytes);
    const auto& expect = packet["expect"];
    if (expect.IsNull()) {
      CHECK_FALSE(parsed.has_value());
      continue;
    }
    CheckHeader(expect, parsed);
    if (packet.HasMember("write_header") && packet["write_header"].GetBool()) {
      std::array<uint8_t, media_wire::kRtpFixedHeaderSize> written{};
      media_wire::WriteRtpHeader(static_cast<uint16_t>(expect["sequence"].GetUint()),
                                 expect["timestamp"].GetUint(), expect["ssrc"].GetUint(), written);
      CHECK(ToHex(written) == ToHex(std::span(bytes).first(media_wire::kRtpFixedHeaderSize)));
    }
  }
}

TEST_CASE("voice KAT: IP discovery request and answers laid out as docs/voice-protocol.md describes") {
  const auto document = LoadVectors("ip_discovery.json");
  const auto& request = document["request"];
  CHECK(ToHex(media_wire::IpDiscoveryRequest(request["ssrc"].GetUint())) == ToHex(Bytes(request["hex"])));

  const auto& responses = document["responses"];
  REQUIRE(responses.Size() >= 11);
  for (const auto& response : responses.GetArray()) {
    INFO(Text(response["name"]));
    const auto parsed =
        media_wire::ParseIpDiscoveryResponse(Bytes(response["hex"]), response["ssrc"].GetUint());
    const auto& expect = response["expect"];
    if (expect.IsNull()) {
      CHECK_FALSE(parsed.has_value());
      continue;
    }
    REQUIRE(parsed.has_value());
    CHECK(parsed->address == Text(expect["address"]));
    CHECK(parsed->port == expect["port"].GetUint());
  }
}

}  // namespace voice_wire_kat_test
