// A user's connections (third-party accounts linked to the user's account) and GET /users/@me/connections,
// with the platform's retirements of two game-platform kinds that moved to the Social SDK and application
// identities: their Social-SDK-powered connections are never listed; the existing (legacy) ones stop being
// listed on a date by the fake clock: Riot Games with its legacy League of Legends connection from
// 2026-07-10, and one more kind from 2026-09-22. The seed does not name that kind, so the admin names it
// (PUT /_emulator/connection-types/{type}/social-sdk). Connections are seeded through the admin API (the
// platform's client links them; no API creates one) and kept in the state file, one document each
// ("user_connection", "<user>:<type>:<id>"), the September kind as one "connection_kind" document.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

#include "core/emulator_state.hpp"
#include "core/service_context.hpp"

namespace platformpp::emulator {

// 2026-07-10T00:00:00Z: Riot Games and League of Legends connections no longer listed.
inline constexpr std::int64_t kRiotConnectionsRetiredMs = 1783641600000;
// 2026-09-22T00:00:00Z: the other Social-SDK kind's existing connections no longer listed.
inline constexpr std::int64_t kSecondSocialSdkKindRetiredMs = 1790035200000;

struct UserConnection {
  std::string user_id;
  std::string type;  // the service ("xbox", "riotgames", ...)
  std::string id;    // the account's id on that service
  std::string name;
  bool verified = true;
  bool revoked = false;
  bool friend_sync = false;
  bool show_activity = true;
  bool two_way_link = false;
  int visibility = 1;               // 0 only the user, 1 everyone
  bool social_sdk_powered = false;  // made through the Social SDK and application identities: never listed
};

class UserConnectionsModule : public FeatureModule, public UserRemovalListener {
 public:
  explicit UserConnectionsModule(ServiceContext& context);

  // Whether GET /users/@me/connections lists `connection` at `now_ms`.
  [[nodiscard]] bool listed(const UserConnection& connection, std::int64_t now_ms) const;
  // The kind whose existing connections stop being listed on 2026-09-22; empty until the admin names it.
  [[nodiscard]] const std::string& second_social_sdk_kind() const { return second_kind_; }

  void user_removed(std::string_view user_id) override;

 private:
  void register_documents();
  HttpResponse api_list(const RouteContext& context);
  HttpResponse admin_add(const RouteContext& context);
  HttpResponse admin_delete(const RouteContext& context);
  HttpResponse admin_list_kinds(const RouteContext& context);
  HttpResponse admin_set_second_kind(const RouteContext& context);
  // The connection as the API answers it; `with_admin_fields` adds `social_sdk_powered` for the admin.
  [[nodiscard]] static std::string connection_json(const UserConnection& connection, bool with_admin_fields);
  // The date (ms) from which `type`'s existing connections are no longer listed, or 0 when never.
  [[nodiscard]] std::int64_t retired_from(std::string_view type) const;

  // (user id, type, account id) -> connection: a user has at most one connection per account of a service.
  std::map<std::tuple<std::string, std::string, std::string>, UserConnection> connections_;
  std::string second_kind_;
};

}  // namespace platformpp::emulator
