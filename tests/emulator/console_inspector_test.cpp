// The web console's inspector (console/console_stream.hpp): the event log's lines, live, to the pages that
// ask for them. The log's observer is there only while a page listens; a page gets at most a window of
// unacknowledged frames, and what waits behind them is bounded (lines and bytes), the oldest dropped and
// counted. In process, through the service, with a feed whose frames the test keeps.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "console/console_stream.hpp"
#include "service_bench.hpp"
#include "test_support.hpp"

namespace console_inspector_test {

using namespace platformpp::emulator;
using namespace platformpp::emulator::test;

namespace {

// A page: the frames the feed sent it, parsed.
struct Page {
  std::vector<std::string> frames;
  std::unique_ptr<InspectorFeed> feed;

  explicit Page(InspectorHub& hub, InspectorLimits limits = {})
      : feed(std::make_unique<InspectorFeed>(
            hub, [this](std::string frame) { frames.push_back(std::move(frame)); }, limits)) {}

  rapidjson::Document frame(std::size_t i) const {
    REQUIRE(i < frames.size());
    return parse(frames[i]);
  }
  // The "events" frames, parsed.
  std::vector<rapidjson::Document> events() const {
    std::vector<rapidjson::Document> out;
    for (const auto& text : frames) {
      auto frame = parse(text);
      if (std::string_view(frame["type"].GetString()) == "events") out.push_back(std::move(frame));
    }
    return out;
  }
  // Every line of every "events" frame, as its "text" member (lines pushed by the test) or its kind.
  std::vector<std::string> texts() const {
    std::vector<std::string> out;
    for (const auto& frame : events()) {
      for (const auto& line : frame["lines"].GetArray())
        out.emplace_back(line.HasMember("text") ? line["text"].GetString() : line["kind"].GetString());
    }
    return out;
  }
};

// A log line as the event log writes them, with `text` in it.
std::string line(const std::string& text) {
  return R"({"seq":1,"kind":"gateway","text":")" + text + R"("})";
}

std::uint64_t batch_of(const rapidjson::Document& frame) {
  return frame["batch"].GetUint64();
}

}  // namespace

TEST_CASE("the inspector's observer is on the event log only while a page listens") {
  ServiceBench bench;
  auto& log = bench.service.event_log();
  auto& hub = bench.service.inspector();
  CHECK_FALSE(log.enabled());
  Page first(hub);
  Page second(hub);
  CHECK_FALSE(log.enabled());  // a page that has not asked costs nothing
  CHECK(first.feed->handle(R"({"inspect":true})"));
  CHECK(log.enabled());
  CHECK(hub.listeners() == 1);
  auto hello = first.frame(0);
  CHECK(std::string_view(hello["type"].GetString()) == "inspector");
  CHECK(hello["active"].GetBool());
  CHECK_FALSE(hello["continuous"].GetBool());  // nothing read the log before: earlier connections unseen
  second.feed->start();
  CHECK(second.frame(0)["continuous"].GetBool());
  CHECK(hub.listeners() == 2);
  second.feed->start();  // twice: still one listener
  CHECK(hub.listeners() == 2);

  // Both see an HTTP exchange, with whom it authenticated and its answer.
  const auto user = bench.user("inspected");
  for (const auto* page : {&first, &second}) {
    const auto frames = page->events();
    REQUIRE_FALSE(frames.empty());
    const auto& last = frames.back()["lines"].GetArray()[frames.back()["lines"].Size() - 1];
    CHECK(std::string_view(last["kind"].GetString()) == "http");
    CHECK(std::string_view(last["target"].GetString()) == "/_emulator/users");
    CHECK(last["status"].GetInt() == 200);
    CHECK(std::string_view(last["response"]["id"].GetString()) == user);
  }

  CHECK(first.feed->handle(R"({"inspect":false})"));
  CHECK(std::string_view(first.frame(first.frames.size() - 1)["type"].GetString()) == "inspector");
  CHECK_FALSE(first.frame(first.frames.size() - 1)["active"].GetBool());
  CHECK(log.enabled());  // the second page still listens
  const auto seen_by_first = first.frames.size();
  bench.user("unseen.by.first");
  CHECK(first.frames.size() == seen_by_first);
  second.feed.reset();  // a page that goes away leaves the hub
  CHECK(hub.listeners() == 0);
  CHECK_FALSE(log.enabled());
}

TEST_CASE("the inspector's page gets no secret the event log would not write") {
  ServiceBench bench;
  const auto app = bench.app("Secretive");
  const auto user = bench.user("secretive.player");
  const auto token = bench.token(user, app.id);
  Page page(bench.service.inspector());
  page.feed->start();
  bench.as("Bearer " + token, "GET", "/users/@me");
  bench.call("POST", "/_emulator/tokens",
             R"({"user_id":")" + user + R"(","app_id":")" + app.id + R"(","scopes":"openid"})");
  REQUIRE(page.events().size() >= 2);
  for (const auto& frame : page.frames) {
    CHECK_MESSAGE(frame.find(token) == std::string::npos, frame);
    CHECK_MESSAGE(frame.find(app.bot_token) == std::string::npos, frame);
  }
  CHECK(page.frames.back().find("[redacted#") != std::string::npos);
}

TEST_CASE("the inspector sends at most its window of unacknowledged frames, then batches what waited") {
  ServiceBench bench;
  InspectorLimits limits;
  limits.window = 2;
  Page page(bench.service.inspector(), limits);
  page.feed->start();
  const auto before = page.frames.size();
  page.feed->push(line("a"));
  page.feed->push(line("b"));
  CHECK(page.frames.size() == before + 2);  // one frame each while the window allows
  CHECK(page.feed->unacknowledged() == 2);
  page.feed->push(line("c"));
  page.feed->push(line("d"));
  page.feed->push(line("e"));
  CHECK(page.frames.size() == before + 2);
  CHECK(page.feed->queued_lines() == 3);

  CHECK(page.feed->handle(R"({"ack":5})"));  // not sent yet: changes nothing
  CHECK(page.frames.size() == before + 2);
  CHECK(page.feed->handle(R"({"ack":1})"));
  REQUIRE(page.frames.size() == before + 3);
  const auto events = page.events();
  CHECK(batch_of(events.back()) == 3);
  CHECK(events.back()["dropped"].GetUint64() == 0);
  CHECK(page.texts() == std::vector<std::string>{"a", "b", "c", "d", "e"});  // in order, all three at once
  CHECK(page.feed->queued_lines() == 0);
  CHECK(page.feed->queued_bytes() == 0);
  page.feed->acknowledge(1);  // again: nothing
  CHECK(page.feed->unacknowledged() == 2);
  page.feed->acknowledge(3);  // frames 2 and 3 at once
  CHECK(page.feed->unacknowledged() == 0);

  // A frame holds at most batch_lines lines; what is left goes in the next, window permitting.
  InspectorLimits small;
  small.window = 1;
  small.batch_lines = 2;
  Page sliced(bench.service.inspector(), small);
  sliced.feed->start();
  sliced.feed->push(line("0"));
  for (const auto* text : {"1", "2", "3", "4", "5"})
    sliced.feed->push(line(text));
  CHECK(sliced.events().size() == 1);
  for (std::uint64_t batch = 1; batch <= 3; ++batch)
    sliced.feed->acknowledge(batch);
  const auto frames = sliced.events();
  REQUIRE(frames.size() == 4);
  CHECK(frames[1]["lines"].Size() == 2);
  CHECK(frames[3]["lines"].Size() == 1);
  CHECK(sliced.texts() == std::vector<std::string>{"0", "1", "2", "3", "4", "5"});

  CHECK_FALSE(page.feed->handle("not json"));
  CHECK_FALSE(page.feed->handle(R"({"ack":"1"})"));
  CHECK_FALSE(page.feed->handle(R"({"ack":-1})"));
  CHECK_FALSE(page.feed->handle(R"([1])"));
  CHECK_FALSE(page.feed->handle(R"({"inspect":"yes"})"));
}

TEST_CASE("a slow page's queue is bounded: one line over the limit drops the oldest, and the page is told") {
  ServiceBench bench;
  InspectorLimits limits;
  limits.window = 1;
  limits.max_lines = 3;
  Page page(bench.service.inspector(), limits);
  page.feed->start();
  page.feed->push(line("sent"));  // in flight, unacknowledged: the page is slow
  for (const auto* text : {"q1", "q2", "q3"})
    page.feed->push(line(text));
  CHECK(page.feed->queued_lines() == 3);  // at the limit: nothing dropped
  CHECK(page.feed->dropped() == 0);
  page.feed->push(line("q4"));  // one over
  CHECK(page.feed->queued_lines() == 3);
  CHECK(page.feed->dropped() == 1);
  page.feed->acknowledge(1);
  const auto frames = page.events();
  REQUIRE(frames.size() == 2);
  CHECK(frames[0]["dropped"].GetUint64() == 0);
  CHECK(frames[1]["dropped"].GetUint64() == 1);  // the one before this frame's first line
  CHECK(page.texts() == std::vector<std::string>{"sent", "q2", "q3", "q4"});
  page.feed->acknowledge(2);
  page.feed->push(line("later"));
  CHECK(page.events().back()["dropped"].GetUint64() == 0);  // told once

  // Bytes likewise: a queue of exactly max_bytes is kept, one byte more drops the oldest line.
  const auto size = line("xx").size();
  InspectorLimits bytes;
  bytes.window = 1;
  bytes.max_bytes = 2 * size + line("filler").size();
  Page tight(bench.service.inspector(), bytes);
  tight.feed->start();
  tight.feed->push(line("filler"));  // in flight
  tight.feed->push(line("b1"));
  tight.feed->push(line("b2"));
  tight.feed->push(line("cccccc"));  // exactly at the bound: 2 * size + len(filler)
  CHECK(tight.feed->queued_bytes() == bytes.max_bytes);
  CHECK(tight.feed->dropped() == 0);
  tight.feed->acknowledge(1);
  tight.feed->acknowledge(2);
  CHECK(tight.feed->queued_lines() == 0);
  tight.feed->push(line("in.flight"));
  tight.feed->push(line("d1"));
  tight.feed->push(line("d2"));
  tight.feed->push(line("eeeeeee"));  // one byte over
  CHECK(tight.feed->dropped() == 1);
  CHECK(tight.feed->queued_lines() == 2);
  CHECK(tight.feed->queued_bytes() == size + line("eeeeeee").size());
  // A line longer than the whole bound is dropped alone, and counted.
  tight.feed->push(line(std::string(bytes.max_bytes, 'z')));
  CHECK(tight.feed->dropped() == 2);
  CHECK(tight.feed->queued_lines() == 2);
  tight.feed->acknowledge(3);
  CHECK(tight.events().back()["dropped"].GetUint64() == 2);

  // Stopping forgets what waited; a new start reports from scratch.
  page.feed->push(line("x"));
  page.feed->push(line("y"));
  page.feed->stop();
  CHECK(page.feed->queued_lines() == 0);
  page.feed->start();
  page.feed->push(line("z"));
  CHECK(page.texts().back() == "z");
  CHECK(page.events().back()["dropped"].GetUint64() == 0);
}

}  // namespace console_inspector_test
