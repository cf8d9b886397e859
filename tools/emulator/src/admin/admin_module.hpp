// The admin API's own routes under /_emulator: GET /health, seeding applications, users and tokens
// (POST /apps, /users, /tokens, DELETE /tokens/{token}) and the fake clock (GET/POST /clock). The features'
// admin routes live with the features.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "core/service_context.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

class AdminModule : public FeatureModule {
 public:
  // `clock_moved` runs after POST /clock moved the fake clock (the composition sweeps idle lobbies then).
  // `webhooks` hears of a user's last token of an application deleted (APPLICATION_DEAUTHORIZED).
  AdminModule(ServiceContext& context, std::function<void()> clock_moved, WebhookModule& webhooks);

  // Counts accepted connections (reported by /health, so tests can see keep-alive reuse).
  void note_connection_accepted() noexcept { ++connections_accepted_; }

 private:
  HttpResponse admin_health(const RouteContext& context);
  HttpResponse admin_create_app(const RouteContext& context);
  HttpResponse admin_create_user(const RouteContext& context);
  HttpResponse admin_create_token(const RouteContext& context);
  HttpResponse admin_revoke_token(const RouteContext& context);
  HttpResponse admin_get_clock(const RouteContext& context);
  HttpResponse admin_set_clock(const RouteContext& context);

  std::function<void()> clock_moved_;
  WebhookModule& webhooks_;
  std::chrono::steady_clock::time_point started_at_ = std::chrono::steady_clock::now();
  std::uint64_t connections_accepted_ = 0;
};

}  // namespace platformpp::emulator
