// POST/DELETE /_emulator/voice/udp-faults on a router, without sockets: validation at every bound, and the
// faults reaching the unit.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/router.hpp"
#include "media_wire/rtp_packet.hpp"
#include "media_wire/transport_cipher.hpp"
#include "test_support.hpp"
#include "voice/forwarding_unit.hpp"
#include "voice/voice_media_routes.hpp"

namespace voice_media_routes_test {

using namespace platformpp::emulator;
namespace media_wire = platformpp::media_wire;
using namespace platformpp::emulator::test;
using platformpp::media_wire::TransportKey;
using platformpp::media_wire::TransportMode;
using platformpp::media_wire::TransportSealer;

namespace {

class CountingSink final : public MediaSink {
 public:
  void send_datagram(const MediaEndpoint&, std::span<const std::uint8_t>, std::int64_t delay_ms) override {
    ++count;
    max_delay = std::max(max_delay, delay_ms);
  }
  int count = 0;
  std::int64_t max_delay = 0;
};

struct Fixture {
  ForwardingUnit unit;
  CountingSink sink;
  Router router;
  media_wire::TransportKey key{};
  std::uint32_t ssrc = 0;
  std::unique_ptr<media_wire::TransportSealer> sealer;
  std::uint16_t sequence = 0;

  Fixture() {
    unit.set_sink(&sink);
    register_voice_media_routes(router, unit);
    ssrc = unit.allocate_ssrc();
    unit.add_session("a", ssrc, "1", "L");
    unit.set_media("a", {"127.0.0.1", 4000}, media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, key);
    unit.add_session("b", unit.allocate_ssrc(), "2", "L");
    unit.set_media("b", {"127.0.0.1", 4001}, media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, key);
    sealer = std::make_unique<media_wire::TransportSealer>(
        media_wire::TransportMode::AeadXChaCha20Poly1305Rtpsize, key);
  }

  HttpResponse call(const std::string& method, const std::string& body = {}) {
    const auto match = router.match(method, "/voice/udp-faults");
    REQUIRE(match.kind == Router::MatchKind::found);
    const auto request = make_request(method, "/_emulator/voice/udp-faults", body);
    return match.route->handler(RouteContext{request, match.params});
  }

  // A speaks `n` packets; how many datagrams the unit sent B.
  int speak(int n) {
    sink.count = 0;
    for (int i = 0; i < n; ++i) {
      std::vector<std::uint8_t> rtp(40), sealed(60);
      platformpp::media_wire::WriteRtpHeader(sequence++, 0, ssrc,
                                             std::span<std::uint8_t, 12>(rtp.data(), 12));
      sealed.resize(sealer->Seal(rtp, sealed));
      unit.on_datagram({"127.0.0.1", 4000}, sealed);
    }
    return sink.count;
  }
};

}  // namespace

TEST_CASE("POST /voice/udp-faults applies the faults and echoes them; DELETE clears them") {
  Fixture f;
  auto response =
      f.call("POST", R"({"loss_percent": 100, "jitter_ms": 10000, "seed": 18446744073709551615})");
  REQUIRE(response.status == 200);
  const auto body = parse(response.body);
  CHECK(body["loss_percent"].GetDouble() == 100);
  CHECK(body["reorder_percent"].GetDouble() == 0);
  CHECK(body["jitter_ms"].GetInt64() == 10000);
  CHECK(body["seed"].GetUint64() == 18446744073709551615ull);
  CHECK(f.speak(20) == 0);

  response = f.call("POST", R"({"jitter_ms": 30})");
  REQUIRE(response.status == 200);
  CHECK(parse(response.body)["loss_percent"].GetDouble() == 0);  // a new POST replaces, it does not merge
  CHECK(f.speak(50) == 50);
  CHECK(f.sink.max_delay > 0);
  CHECK(f.sink.max_delay <= 30);

  CHECK(f.call("DELETE").status == 204);
  f.sink.max_delay = 0;
  CHECK(f.speak(20) == 20);
  CHECK(f.sink.max_delay == 0);

  CHECK(f.call("POST", "{}").status == 200);  // no faults at all
  CHECK(f.speak(5) == 5);
}

TEST_CASE("POST /voice/udp-faults refuses values out of range by one") {
  Fixture f;
  CHECK(f.call("POST", R"({"loss_percent": 100})").status == 200);
  CHECK(f.call("POST", R"({"loss_percent": 100.001})").status == 400);
  CHECK(f.call("POST", R"({"loss_percent": 0})").status == 200);
  CHECK(f.call("POST", R"({"loss_percent": -0.001})").status == 400);
  CHECK(f.call("POST", R"({"reorder_percent": 100})").status == 200);
  CHECK(f.call("POST", R"({"reorder_percent": 101})").status == 400);
  CHECK(f.call("POST", R"({"reorder_percent": -1})").status == 400);
  CHECK(f.call("POST", R"({"jitter_ms": 10000})").status == 200);
  CHECK(f.call("POST", R"({"jitter_ms": 10001})").status == 400);
  CHECK(f.call("POST", R"({"jitter_ms": -1})").status == 400);
  CHECK(f.call("POST", R"({"jitter_ms": 1.5})").status == 400);
  CHECK(f.call("POST", R"({"seed": -1})").status == 400);
  CHECK(f.call("POST", R"({"seed": "1"})").status == 400);
  CHECK(f.call("POST", R"({"loss_percent": "5"})").status == 400);
  const auto response = f.call("POST", R"({"loss_percent": 101, "jitter_ms": -1})");
  REQUIRE(response.status == 400);
  const auto body = parse(response.body);
  CHECK(body["code"].GetInt() == 50035);
  CHECK(body["errors"].HasMember("loss_percent"));
  CHECK(body["errors"].HasMember("jitter_ms"));
  CHECK(f.call("POST", "not json").status == 400);
  // A refused POST changes nothing: the last accepted one (loss 0) holds.
  CHECK(f.call("POST", R"({"loss_percent": 0})").status == 200);
  CHECK(f.call("POST", R"({"loss_percent": 101})").status == 400);
  CHECK(f.speak(10) == 10);
}

}  // namespace voice_media_routes_test
