// Webhook events as documents (core/state_changes.hpp), without a file or a network: a test transport answers
// each POST by hand. Every change to an application's configuration and to the outbox is named (a mirror kept
// turn by turn equals everything saved whole); a fresh service loaded with the documents keeps the
// configuration, shows the same outbox (a delivery in flight at the stop now pending, its attempt marked
// interrupted), retries the pending events with the same bytes, and does not reuse a delivery id, not even
// that of a PING which was in flight and is not kept.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hand_transport.hpp"
#include "service_bench.hpp"
#include "state_mirror.hpp"
#include "test_support.hpp"
#include "webhook/webhook_transport.hpp"

namespace webhook_state_documents_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

struct Emulator : ServiceBench {
  HandTransport transport;

  Emulator() { service.set_webhook_transport(&transport); }
  ~Emulator() { service.set_webhook_transport(nullptr); }
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  // An ENTITLEMENT_CREATE event: the admin purchase of `sku` for `user`.
  void buy(const std::string& app_id, const std::string& user, const std::string& sku) {
    call("POST", "/_emulator/applications/" + app_id + "/purchases",
         R"({"user_id":")" + user + R"(","sku_id":")" + sku + R"("})");
  }
  // PUT webhook-events: the answer waits for the PING (the last POST).
  std::shared_ptr<DeferredResponse> put_url(const std::string& app_id, const std::string& url) {
    const auto response =
        raw("PUT", "/_emulator/applications/" + app_id + "/webhook-events",
            R"({"url":")" + url + R"(","retry_base_ms":1,"event_types":["ENTITLEMENT_CREATE"]})");
    REQUIRE(response.deferred);
    REQUIRE(transport.event_type(transport.sent.size() - 1).empty());
    return response.deferred;
  }
  rapidjson::Document outbox(const std::string& app_id) {
    return parse(call("GET", "/_emulator/applications/" + app_id + "/webhook-events").body);
  }
};

std::vector<std::string> field_of_each(const rapidjson::Value& deliveries, const char* name) {
  std::vector<std::string> values;
  for (const auto& delivery : deliveries.GetArray())
    values.push_back(str(delivery[name]));
  return values;
}

}  // namespace

TEST_CASE(
    "webhook events: the configuration and the outbox survive a restart, and pending events are retried") {
  Emulator first;
  const auto alice = first.user("alice");
  const auto app = first.app_json("Game");
  const auto app_id = str(app["id"]);
  const auto skus = parse(first
                              .call("POST", "/_emulator/applications/" + app_id + "/skus",
                                    R"({"skus":[{"name":"Sword","type":2},{"name":"Shield","type":2},)"
                                    R"({"name":"Helmet","type":2},{"name":"Boots","type":2}]})")
                              .body);
  std::vector<std::string> sku;
  for (const auto& entry : skus["skus"].GetArray())
    sku.push_back(str(entry["id"]));
  StateMirror mirror(first.service.changes());

  // The URL is taken once its PING is answered 204; until then nothing of it is kept but the used id.
  const std::string url = "http://127.0.0.1:9/events";
  auto put = first.put_url(app_id, url);
  mirror.check_complete();
  CHECK(mirror.count("webhook_config") == 0);
  CHECK(mirror.count("webhook_delivery") == 0);
  first.transport.answer(0, 204);
  REQUIRE(put->answer());
  CHECK(put->answer()->status == 200);
  mirror.check_complete();
  CHECK(mirror.count("webhook_config") == 1);
  CHECK(mirror.count("webhook_delivery") == 1);  // the PING, as history

  // Another URL whose PING fails leaves the first in place.
  put = first.put_url(app_id, "http://127.0.0.1:9/other");
  mirror.check_complete();
  first.transport.answer(1, 500);
  REQUIRE(put->answer());
  CHECK(put->answer()->status == 400);
  mirror.check_complete();

  // Three events: one delivered, one refused (pending: a retry 1 ms later), one in flight.
  first.buy(app_id, alice, sku[0]);
  mirror.check_complete();
  first.transport.answer(2, 204);
  mirror.check_complete();
  first.buy(app_id, alice, sku[1]);
  mirror.check_complete();
  first.transport.answer(3, 500);
  mirror.check_complete();
  first.buy(app_id, alice, sku[2]);
  REQUIRE(first.transport.sent.size() == 5);
  CHECK(first.transport.event_type(4) == "ENTITLEMENT_CREATE");
  mirror.check_complete();
  // And a PING in flight at the stop: not kept, but its id is not given again.
  first.put_url(app_id, "http://127.0.0.1:9/third");
  mirror.check_complete();
  CHECK(mirror.count("webhook_delivery") == 5);

  const auto before = first.outbox(app_id);
  REQUIRE(before["deliveries"].Size() == 6);
  CHECK(field_of_each(before["deliveries"], "state") ==
        std::vector<std::string>{"delivered", "failed", "delivered", "pending", "sending", "sending"});
  const auto pending_body = first.transport.sent[3].post.body;
  const auto in_flight_body = first.transport.sent[4].post.body;

  Emulator restarted;
  check_round_trip(mirror.documents(), restarted.service.changes());

  // The same configuration and outbox; the event in flight is pending now, its attempt marked interrupted.
  const auto after = restarted.outbox(app_id);
  CHECK(str(after["url"]) == url);
  CHECK(after["retry_base_ms"].GetInt() == 1);
  CHECK(after["event_types"].Size() == 1);
  auto ids = field_of_each(before["deliveries"], "id");
  ids.pop_back();  // the PING in flight
  CHECK(field_of_each(after["deliveries"], "id") == ids);
  CHECK(field_of_each(after["deliveries"], "state") ==
        std::vector<std::string>{"delivered", "failed", "delivered", "pending", "pending"});
  CHECK(str(after["deliveries"][4]["attempts"][0]["error"]).find("interrupted") == 0);
  CHECK(after["deliveries"][3]["attempts"][0]["status"].GetInt() == 500);

  // The restarted emulator retries both once they are due, with the same bytes, and names what it changed.
  StateMirror resumed(restarted.service.changes());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the refused one is due 1 ms after its answer
  restarted.service.gateway_tick();
  REQUIRE(restarted.transport.sent.size() == 2);
  CHECK(restarted.transport.sent[0].post.body == pending_body);
  CHECK(restarted.transport.sent[1].post.body == in_flight_body);
  resumed.check_complete();
  restarted.transport.answer(0, 204);
  restarted.transport.answer(1, 204);
  resumed.check_complete();
  const auto retried = restarted.outbox(app_id);
  CHECK(field_of_each(retried["deliveries"], "state") ==
        std::vector<std::string>{"delivered", "failed", "delivered", "delivered", "delivered"});
  CHECK(retried["deliveries"][3]["attempts"].Size() == 2);
  CHECK(retried["deliveries"][4]["attempts"].Size() == 2);

  // A new event gets an id no delivery had, the unkept PING's included.
  restarted.buy(app_id, alice, sku[3]);
  REQUIRE(restarted.transport.sent.size() == 3);
  resumed.check_complete();
  restarted.transport.answer(2, 204);
  resumed.check_complete();
  const auto newest_outbox = restarted.outbox(app_id);
  const auto& newest = newest_outbox["deliveries"];
  CHECK(std::stoull(str(newest[newest.Size() - 1]["id"])) ==
        std::stoull(str(before["deliveries"][5]["id"])) + 1);
}

TEST_CASE("webhook documents: damaged ones are refused, naming them") {
  Emulator emulator;
  auto& changes = emulator.service.changes();
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"webhook_config", "1",
                                                    R"({"v":1,"url":"http://example.com/x",)"
                                                    R"("retry_base_ms":1})"}}),
                       doctest::Contains("webhook_config/1: \"url\" is not a webhook events URL"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"webhook_delivery", "3",
                                                    R"({"v":1,"app_id":"1",)"
                                                    R"("event_type":"PING",)"
                                                    R"("url":"http://127.0.0.1:9/x",)"
                                                    R"("retry_base_ms":1,"max_attempts":1,)"
                                                    R"("state":"pending","attempts":[],)"
                                                    R"("body":"{}","next_attempt_at_ms":0})"}}),
                       doctest::Contains("webhook_delivery/3: an unanswered PING is not kept"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(changes.load({DocumentChange{"webhook_outbox", "counters", R"({"v":1})"}}),
                       doctest::Contains("webhook_outbox/counters: missing \"next_delivery_id\""),
                       std::invalid_argument);
}

}  // namespace webhook_state_documents_test
