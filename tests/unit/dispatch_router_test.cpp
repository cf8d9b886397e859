// The dispatch table: a dispatch reaches only the features that claimed its event, in the order they were
// added; a second owner of one meaning is refused; and the Client's own table keeps one owner per meaning,
// with voice reading the lobby store's changes instead of LOBBY_* dispatches.
#include "gateway/dispatch_router.hpp"
#include "client/client_core.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace dispatch_router_test {

using namespace platformpp;
using gateway::DispatchClaim;

namespace {

constexpr DispatchClaim kStore[] = {{"READY", "users"}, {"USER_UPDATE", "user"}};
constexpr DispatchClaim kPresence[] = {{"READY", "parties"}, {"MESSAGE_CREATE", "activity invite"}};
constexpr DispatchClaim kMessages[] = {{"MESSAGE_CREATE", "direct message"}};

void Route(const gateway::DispatchRouter& router, std::string_view type) {
  gateway::Dispatch dispatch{type, "{}", 1};
  router.Route(dispatch);
}

}  // namespace

TEST_CASE("a dispatch reaches the features that claimed its event, in the order they were added") {
  std::vector<std::string> heard;
  gateway::DispatchRouter router;
  const auto hear = [&](const char* feature) {
    return [&heard, feature](const gateway::Dispatch& d) {
      heard.push_back(feature + (" " + std::string(d.type)));
    };
  };
  router.Add("store", kStore, hear("store"));
  router.Add("presence", kPresence, hear("presence"));
  router.Add("messages", kMessages, hear("messages"));
  Route(router, "READY");
  Route(router, "MESSAGE_CREATE");
  Route(router, "USER_UPDATE");
  Route(router, "TYPING_START");  // nobody's
  CHECK(heard == std::vector<std::string>{"store READY", "presence READY", "presence MESSAGE_CREATE",
                                          "messages MESSAGE_CREATE", "store USER_UPDATE"});
  CHECK(router.Features() == std::vector<std::string_view>{"store", "presence", "messages"});
  CHECK(router.Events() == std::vector<std::string_view>{"MESSAGE_CREATE", "READY", "USER_UPDATE"});
  CHECK(gateway::FindClaim(kStore, "USER_UPDATE") == 1);
  CHECK_FALSE(gateway::FindClaim(kStore, "USER"));
}

TEST_CASE("a second owner of an event's meaning is refused, and leaves the table as it was") {
  gateway::DispatchRouter router;
  int calls = 0;
  router.Add("presence", kPresence, [&](const gateway::Dispatch&) { ++calls; });
  constexpr DispatchClaim kRival[] = {{"USER_UPDATE", "user"}, {"MESSAGE_CREATE", "activity invite"}};
  CHECK_THROWS_WITH_AS(router.Add("rival", kRival, [](const gateway::Dispatch&) {}),
                       "rival claims MESSAGE_CREATE for \"activity invite\", which presence owns",
                       std::logic_error);
  CHECK(router.OwnersOf("USER_UPDATE").empty());  // nothing of the refused feature was added
  CHECK(router.Features() == std::vector<std::string_view>{"presence"});
  constexpr DispatchClaim kTwice[] = {{"USER_UPDATE", "user"}, {"USER_UPDATE", "user name"}};
  CHECK_THROWS_AS(router.Add("twice", kTwice, [](const gateway::Dispatch&) {}), std::logic_error);
  Route(router, "MESSAGE_CREATE");
  CHECK(calls == 1);
}

TEST_CASE("the Client's table: one owner per meaning, and voice follows the lobby store") {
  ClientOptions options;
  options.ipcEnabled = false;
  client::ClientCore core(options);  // builds the table: a shared meaning would throw here
  const gateway::DispatchRouter& table = core.DispatchTable();
  CHECK(table.Features() == std::vector<std::string_view>{"social", "presence", "lobbies", "messages",
                                                          "voice", "voice_status", "premium"});
  for (std::string_view event : table.Events()) {
    auto owners = table.OwnersOf(event);
    for (std::size_t i = 0; i < owners.size(); ++i) {
      for (std::size_t j = i + 1; j < owners.size(); ++j) {
        INFO(event);
        CHECK(owners[i].meaning != owners[j].meaning);
        CHECK(owners[i].feature != owners[j].feature);
      }
    }
    // Lobby events are the store's alone, but for the voice server, which only a call reads.
    if (event.substr(0, 6) == "LOBBY_" && event.substr(0, 14) != "LOBBY_MESSAGE_") {
      INFO(event);
      REQUIRE(owners.size() == 1);
      CHECK(owners[0].feature == (event == "LOBBY_VOICE_SERVER_UPDATE" ? "voice" : "lobbies"));
    }
  }
  CHECK(table.OwnersOf("LOBBY_VOICE_STATE_UPDATE").size() == 1);
  CHECK(table.OwnersOf("PRESENCE_UPDATE").size() == 2);  // the user's presence; a friend's party
  CHECK(table.OwnersOf("GUILD_CREATE").empty());         // not a Social SDK event
}

}  // namespace dispatch_router_test
