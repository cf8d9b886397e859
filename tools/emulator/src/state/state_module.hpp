// The admin routes of the emulator's state (docs/emulator-state.md): what is stored (GET /_emulator/state),
// a snapshot out (GET /_emulator/state/export) and in (POST /_emulator/state/import), and a reset (POST
// /_emulator/state/reset). Import and reset end every Gateway session first: clients identify again into
// the new data.
#pragma once

#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "state/state_store.hpp"

namespace platformpp::emulator {

class StateModule : public FeatureModule {
 public:
  StateModule(ServiceContext& context, StateStore& store, GatewayModule& gateway);

 private:
  HttpResponse admin_summary(const RouteContext& context);
  HttpResponse admin_export(const RouteContext& context);
  HttpResponse admin_import(const RouteContext& context);
  HttpResponse admin_reset(const RouteContext& context);
  [[nodiscard]] std::string summary_json() const;

  StateStore& store_;
  GatewayModule& gateway_;
};

}  // namespace platformpp::emulator
