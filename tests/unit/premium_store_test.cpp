// The premium store fed Gateway dispatches and answers directly (no sockets): one copy per id, the ordering
// rule between dispatches and answers (a dispatch after the request wins; a deleted entitlement never comes
// back), callbacks once per change (none for the first load), a later load's differences, a stale load,
// ownership at a time, and what is not the player's.
#include "premium/premium_store.hpp"
#include "client/client_core.hpp"
#include "json/timestamp.hpp"
#include "premium/premium_json.hpp"
#include "premium/premium_service.hpp"

#include <platformpp/client.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace premium_store_test {

using namespace platformpp;

namespace {

constexpr uint64_t kApp = 1234567890123456789ULL;
constexpr uint64_t kSelf = 1000;
constexpr uint64_t kOther = 1001;
constexpr uint64_t kSkuSub = 700;
constexpr uint64_t kSkuItem = 701;
constexpr uint64_t kT0 = 1'790'000'000'000ULL;  // a time in 2026, milliseconds

struct EntOptions {
  uint64_t sku = kSkuItem;
  uint64_t user = kSelf;
  uint64_t app = kApp;
  bool consumed = false;
  std::optional<uint64_t> startsAt = kT0;
  std::optional<uint64_t> endsAt;

  EntOptions& Sku(uint64_t v) { return sku = v, *this; }
  EntOptions& User(uint64_t v) { return user = v, *this; }
  EntOptions& App(uint64_t v) { return app = v, *this; }
  EntOptions& Consumed(bool v) { return consumed = v, *this; }
  EntOptions& Starts(uint64_t v) { return startsAt = v, *this; }
  EntOptions& Ends(uint64_t v) { return endsAt = v, *this; }
};
EntOptions O() {
  return EntOptions{};
}

std::string Time(const std::optional<uint64_t>& ms) {
  return ms ? "\"" + json::FormatTimestampMs(*ms) + "\"" : std::string("null");
}

std::string Ent(uint64_t id, EntOptions o = {}) {
  return R"({"id":")" + std::to_string(id) + R"(","sku_id":")" + std::to_string(o.sku) +
         R"(","application_id":")" + std::to_string(o.app) + R"(","user_id":")" + std::to_string(o.user) +
         R"(","guild_id":null,"type":1,"deleted":false,"consumed":)" + (o.consumed ? "true" : "false") +
         R"(,"starts_at":)" + Time(o.startsAt) + R"(,"ends_at":)" + Time(o.endsAt) + "}";
}

std::string Sub(uint64_t id, int status = 0, uint64_t periodEnd = kT0 + 30ULL * 86400000,
                uint64_t user = kSelf) {
  return R"({"id":")" + std::to_string(id) + R"(","user_id":")" + std::to_string(user) + R"(","sku_ids":[")" +
         std::to_string(kSkuSub) + R"("],"entitlement_ids":["1"],"renewal_sku_ids":[")" +
         std::to_string(kSkuSub) + R"("],"current_period_start":)" + Time(periodEnd - 30ULL * 86400000) +
         R"(,"current_period_end":)" + Time(periodEnd) + R"(,"status":)" + std::to_string(status) +
         R"(,"canceled_at":null})";
}

std::string Ready(uint64_t self = kSelf) {
  return R"({"v":10,"session_id":"s1","user":{"id":")" + std::to_string(self) +
         R"(","username":"player"},"relationships":[],"presences":[],"guilds":[],"lobbies":[]})";
}

template <class T>
T Parse(const std::string& text, std::optional<T> (*parse)(const json::Value&)) {
  json::Document document;
  REQUIRE(json::Parse(text, document));
  auto value = parse(document);
  REQUIRE(value);
  return *value;
}

Entitlement E(uint64_t id, EntOptions o = {}) {
  return Parse<Entitlement>(Ent(id, o), premium::ParseEntitlement);
}
Subscription S(uint64_t id, int status = 0, uint64_t periodEnd = kT0 + 30ULL * 86400000) {
  return Parse<Subscription>(Sub(id, status, periodEnd), premium::ParseSubscription);
}
Sku MakeSku(uint64_t id, SkuType type) {
  Sku sku;
  sku.id = id;
  sku.applicationId = kApp;
  sku.type = type;
  sku.name = "sku " + std::to_string(id);
  return sku;
}

struct Fixture {
  std::unique_ptr<client::ClientCore> core;
  std::vector<std::string> events;  // in delivery order
  std::vector<std::string> warnings;
  int64_t seq = 0;

  Fixture() {
    ClientOptions options;
    options.ipcEnabled = false;
    core = std::make_unique<client::ClientCore>(options);
    core->Runtime().applicationId.store(kApp);
    core->Log().AddCallback(
        [this](std::string message, LoggingSeverity severity) {
          if (severity >= LoggingSeverity::Warning) warnings.push_back(std::move(message));
        },
        LoggingSeverity::Verbose);
    auto& c = Store().callbacks;
    c.entitlementCreated.Set([this](Entitlement e) { events.push_back("created " + std::to_string(e.id)); });
    c.entitlementUpdated.Set([this](Entitlement e) { events.push_back("updated " + std::to_string(e.id)); });
    c.entitlementDeleted.Set([this](Entitlement e) {
      events.push_back("deleted " + std::to_string(e.id) + (e.deleted ? "" : " (not marked)"));
    });
    c.subscriptionCreated.Set(
        [this](const Subscription& s) { events.push_back("sub created " + std::to_string(s.id)); });
    c.subscriptionUpdated.Set(
        [this](const Subscription& s) { events.push_back("sub updated " + std::to_string(s.id)); });
    Feed("READY", Ready());
  }
  premium::PremiumStore& Store() { return core->Premium().Store(); }
  // As the Gateway does, to the store only (the service would load over HTTP after READY).
  bool Feed(std::string_view type, const std::string& data) {
    gateway::Dispatch dispatch{type, data, ++seq};
    return Store().OnDispatch(dispatch);
  }
  bool Load(premium::PremiumStore::Snapshot snapshot) {
    return Store().ApplyLoad(Store().BeginLoad(), std::move(snapshot));
  }
  std::vector<std::string> Drain() {
    core->RunCallbacks();
    return std::exchange(events, {});
  }
  std::vector<uint64_t> Ids() {
    std::vector<uint64_t> ids;
    for (const auto& e : Store().Entitlements())
      ids.push_back(e.id);
    return ids;
  }
};

using Events = std::vector<std::string>;
using Ids = std::vector<uint64_t>;

premium::PremiumStore::Snapshot Snap(std::vector<Entitlement> entitlements,
                                     std::vector<Subscription> subs = {}) {
  premium::PremiumStore::Snapshot s;
  s.skus = {MakeSku(kSkuSub, SkuType::Subscription), MakeSku(kSkuItem, SkuType::Durable)};
  s.entitlements = std::move(entitlements);
  s.subscriptions = std::move(subs);
  return s;
}

}  // namespace

TEST_CASE("before the first load the store is empty and owns nothing") {
  Fixture f;
  CHECK_FALSE(f.Store().Loaded());
  CHECK(f.Store().Skus().empty());
  CHECK(f.Store().Entitlements().empty());
  CHECK_FALSE(f.Store().Owns(kSkuItem, kT0));
}

TEST_CASE("READY is what makes the service load; other dispatches are not") {
  Fixture f;
  CHECK(f.Feed("READY", Ready()));
  CHECK_FALSE(f.Feed("ENTITLEMENT_CREATE", Ent(1)));
  CHECK_FALSE(f.Feed("RESUMED", "{}"));
  CHECK_FALSE(f.Feed("LOBBY_CREATE", "{}"));
}

TEST_CASE("the first load fills the store without callbacks; SKUs keep the platform's order") {
  Fixture f;
  REQUIRE(f.Load(Snap({E(2), E(1, O().Sku(kSkuSub))}, {S(50)})));
  CHECK(f.Drain().empty());
  CHECK(f.Store().Loaded());
  auto skus = f.Store().Skus();
  REQUIRE(skus.size() == 2);
  CHECK(skus[0].id == kSkuSub);
  CHECK(f.Store().FindSku(kSkuItem)->type == SkuType::Durable);
  CHECK_FALSE(f.Store().FindSku(9));
  CHECK(f.Ids() == Ids{1, 2});
  REQUIRE(f.Store().Subscriptions().size() == 1);
  CHECK(f.Store().Owns(kSkuSub, kT0));
  CHECK(f.warnings.empty());
}

TEST_CASE("ENTITLEMENT_CREATE announces once; UPDATE announces a change, not a repeat") {
  Fixture f;
  f.Load(Snap({}));
  f.Feed("ENTITLEMENT_CREATE", Ent(1));
  CHECK(f.Drain() == Events{"created 1"});
  f.Feed("ENTITLEMENT_CREATE", Ent(1));  // the same state again (a migration of nothing)
  f.Feed("ENTITLEMENT_UPDATE", Ent(1));
  CHECK(f.Drain().empty());
  CHECK(f.Store().Owns(kSkuItem, kT0));
  f.Feed("ENTITLEMENT_UPDATE", Ent(1, O().Consumed(true)));
  CHECK(f.Drain() == Events{"updated 1"});
  CHECK(f.Ids() == Ids{1});
  CHECK_FALSE(f.Store().Owns(kSkuItem, kT0));  // consumed: no longer owned
}

TEST_CASE("a migration's ENTITLEMENT_CREATE of a known id is an update of the same copy") {
  Fixture f;
  f.Load(Snap({E(1, O().Sku(kSkuSub).Ends(kT0 + 1000))}));
  f.Feed("ENTITLEMENT_CREATE", Ent(1, O().Sku(kSkuSub)));
  CHECK(f.Drain() == Events{"updated 1"});
  CHECK(f.Ids() == Ids{1});
  CHECK_FALSE(f.Store().Entitlements()[0].endsAt);
}

TEST_CASE("a purchase answer and its ENTITLEMENT_CREATE give one copy and one callback, in either order") {
  SUBCASE("answer first") {
    Fixture f;
    f.Load(Snap({}));
    uint64_t generation = f.Store().Generation();
    f.Store().ApplyEntitlements({E(5)}, generation);
    CHECK(f.Drain() == Events{"created 5"});
    f.Feed("ENTITLEMENT_CREATE", Ent(5));
    CHECK(f.Drain().empty());
    CHECK(f.Ids() == Ids{5});
  }
  SUBCASE("dispatch first") {
    Fixture f;
    f.Load(Snap({}));
    uint64_t generation = f.Store().Generation();  // the request is sent
    f.Feed("ENTITLEMENT_CREATE", Ent(5));
    CHECK(f.Drain() == Events{"created 5"});
    f.Store().ApplyEntitlements({E(5)}, generation);
    CHECK(f.Drain().empty());
    CHECK(f.Ids() == Ids{5});
  }
  SUBCASE("an answer older than an update does not bring the old state back") {
    Fixture f;
    f.Load(Snap({}));
    uint64_t generation = f.Store().Generation();
    f.Feed("ENTITLEMENT_CREATE", Ent(5));
    f.Feed("ENTITLEMENT_UPDATE", Ent(5, O().Consumed(true)));
    f.Store().ApplyEntitlements({E(5)}, generation);
    CHECK(f.Drain() == Events{"created 5", "updated 5"});
    CHECK(f.Store().Entitlements()[0].consumed);
  }
}

TEST_CASE("a load sent before a dispatch keeps the dispatch's copy") {
  Fixture f;
  f.Load(Snap({E(1, O().Sku(kSkuSub))}));
  auto ticket = f.Store().BeginLoad();
  // The subscription ends while the load is in flight; the load's answer still shows it indefinite.
  f.Feed("ENTITLEMENT_UPDATE", Ent(1, O().Sku(kSkuSub).Ends(kT0 + 5000)));
  f.Feed("ENTITLEMENT_CREATE", Ent(2));  // bought meanwhile: not in the answer
  CHECK(f.Drain() == Events{"updated 1", "created 2"});
  REQUIRE(f.Store().ApplyLoad(ticket, Snap({E(1, O().Sku(kSkuSub))})));
  CHECK(f.Drain().empty());
  CHECK(f.Ids() == Ids{1, 2});
  CHECK(f.Store().Entitlements()[0].endsAt == kT0 + 5000);
  CHECK_FALSE(f.Store().Owns(kSkuSub, kT0 + 5000));
}

TEST_CASE("an entitlement deleted while a load or purchase is in flight does not come back") {
  Fixture f;
  f.Load(Snap({E(1), E(2)}));
  auto ticket = f.Store().BeginLoad();
  uint64_t generation = f.Store().Generation();
  f.Feed("ENTITLEMENT_DELETE", Ent(1));
  CHECK(f.Drain() == Events{"deleted 1"});
  REQUIRE(f.Store().ApplyLoad(ticket, Snap({E(1), E(2)})));
  f.Store().ApplyEntitlements({E(1)}, generation);
  CHECK(f.Drain().empty());
  CHECK(f.Ids() == Ids{2});
  f.Feed("ENTITLEMENT_DELETE", Ent(1));   // a repeat: nothing left to delete
  f.Feed("ENTITLEMENT_DELETE", Ent(77));  // never known
  CHECK(f.Drain().empty());
}

TEST_CASE("a later load (after a session that was not resumed) announces what changed meanwhile") {
  Fixture f;
  f.Load(Snap({E(1), E(2), E(3, O().Sku(kSkuSub))}, {S(50)}));
  CHECK(f.Drain().empty());
  f.Feed("READY", Ready());  // the same player: the store is kept until the load answers
  CHECK(f.Ids() == Ids{1, 2, 3});
  REQUIRE(f.Load(Snap({E(2, O().Consumed(true)), E(3, O().Sku(kSkuSub)), E(4)}, {S(50, 2)})));
  CHECK(f.Drain() == Events{"updated 2", "created 4", "deleted 1", "sub updated 50"});
  CHECK(f.Ids() == Ids{2, 3, 4});
  CHECK(f.Store().Subscriptions()[0].status == SubscriptionStatus::Ending);
}

TEST_CASE("a load overtaken by a later one changes nothing") {
  Fixture f;
  auto first = f.Store().BeginLoad();
  auto second = f.Store().BeginLoad();
  CHECK_FALSE(f.Store().ApplyLoad(first, Snap({E(1)})));
  CHECK_FALSE(f.Store().Loaded());
  CHECK(f.Ids().empty());
  CHECK(f.Store().ApplyLoad(second, Snap({E(2)})));
  CHECK(f.Ids() == Ids{2});
}

TEST_CASE("another player's READY forgets the last player's state, and their load is quiet") {
  Fixture f;
  f.Load(Snap({E(1)}, {S(50)}));
  auto stale = f.Store().BeginLoad();
  f.Feed("READY", Ready(kOther));
  CHECK(f.Ids().empty());
  CHECK(f.Store().Subscriptions().empty());
  CHECK_FALSE(f.Store().Loaded());
  CHECK_FALSE(f.Store().ApplyLoad(stale, Snap({E(1)})));  // sent for the last player
  REQUIRE(f.Load(Snap({E(9, O().User(kOther))})));
  CHECK(f.Drain().empty());
  CHECK(f.Ids() == Ids{9});
}

TEST_CASE("ownership at a time: started, not ended, not consumed, not deleted") {
  Fixture f;
  f.Load(
      Snap({E(1, O().Sku(kSkuSub).Starts(kT0).Ends(kT0 + 1000)), E(2, O().Sku(kSkuItem).Starts(kT0 + 500))}));
  CHECK_FALSE(f.Store().Owns(kSkuSub, kT0 - 1));
  CHECK(f.Store().Owns(kSkuSub, kT0));
  CHECK(f.Store().Owns(kSkuSub, kT0 + 999));
  CHECK_FALSE(f.Store().Owns(kSkuSub, kT0 + 1000));  // ends_at is exclusive
  CHECK_FALSE(f.Store().Owns(kSkuItem, kT0 + 499));
  CHECK(f.Store().Owns(kSkuItem, kT0 + 500));
  CHECK_FALSE(f.Store().Owns(12345, kT0 + 500));
  // A second, indefinite entitlement for the same SKU keeps it owned after the first ends.
  f.Feed("ENTITLEMENT_CREATE", Ent(3, O().Sku(kSkuSub).Starts(kT0 + 1000)));
  CHECK(f.Store().Owns(kSkuSub, kT0 + 1000));
}

TEST_CASE("another application's or another player's entitlements are not the player's") {
  Fixture f;
  f.Load(Snap({E(1, O().App(42)), E(2, O().User(kOther)), E(3)}));
  CHECK(f.Ids() == Ids{3});
  f.Feed("ENTITLEMENT_CREATE", Ent(4, O().App(42)));
  f.Feed("ENTITLEMENT_CREATE", Ent(5, O().User(kOther)));
  f.Feed("SUBSCRIPTION_CREATE", Sub(51, 0, kT0, kOther));
  f.Store().ApplyEntitlements({E(6, O().User(kOther))}, f.Store().Generation());
  CHECK(f.Drain().empty());
  CHECK(f.Ids() == Ids{3});
  CHECK(f.Store().Subscriptions().empty());
  CHECK(f.warnings.empty());
}

TEST_CASE("subscriptions: created, then renewal and cancel as updates, with no entitlement callback") {
  Fixture f;
  f.Load(Snap({}));
  f.Feed("SUBSCRIPTION_CREATE", Sub(50));
  f.Feed("ENTITLEMENT_CREATE", Ent(1, O().Sku(kSkuSub)));
  CHECK(f.Drain() == Events{"sub created 50", "created 1"});
  f.Feed("SUBSCRIPTION_UPDATE", Sub(50, 0, kT0 + 60ULL * 86400000));  // renewal: the period moves on
  CHECK(f.Drain() == Events{"sub updated 50"});
  f.Feed("SUBSCRIPTION_UPDATE", Sub(50, 0, kT0 + 60ULL * 86400000));  // nothing changed
  CHECK(f.Drain().empty());
  f.Feed("SUBSCRIPTION_UPDATE", Sub(50, 2, kT0 + 60ULL * 86400000));  // canceled: ENDING, still owned
  CHECK(f.Drain() == Events{"sub updated 50"});
  CHECK(f.Store().Owns(kSkuSub, kT0 + 59ULL * 86400000));
  REQUIRE(f.Store().Subscriptions().size() == 1);
  CHECK(f.Store().Subscriptions()[0].status == SubscriptionStatus::Ending);
}

TEST_CASE("malformed dispatches change nothing and are logged without their content") {
  Fixture f;
  f.Load(Snap({E(1)}));
  f.Feed("ENTITLEMENT_CREATE", R"({"id":"2","sku_id":"secret-sku"})");
  f.Feed("ENTITLEMENT_UPDATE", "[1,2]");
  f.Feed("SUBSCRIPTION_UPDATE", R"({"id":"3"})");
  f.Feed("ENTITLEMENT_DELETE", "not json");
  CHECK(f.Drain().empty());
  CHECK(f.Ids() == Ids{1});
  CHECK(f.warnings.size() == 4);
  for (const auto& warning : f.warnings)
    CHECK(warning.find("secret-sku") == std::string::npos);
}

}  // namespace premium_store_test
