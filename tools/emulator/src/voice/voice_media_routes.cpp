#include "voice/voice_media_routes.hpp"

#include <string>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"

namespace platformpp::emulator {

namespace {

std::optional<double> read_percent(BodyFields& fields, const char* name) {
  auto value = fields.number(name, false, 0.0);
  if (value && *value > 100.0) {
    fields.add_issue(name, {"NUMBER_TYPE_MAX", "Value should be less than or equal to 100."});
    return std::nullopt;
  }
  return value;
}

HttpResponse set_udp_faults(ForwardingUnit& unit, const RouteContext& context) {
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  UdpFaults faults;
  if (const auto loss = read_percent(fields, "loss_percent")) faults.loss_percent = *loss;
  if (const auto reorder = read_percent(fields, "reorder_percent")) faults.reorder_percent = *reorder;
  if (const auto jitter = fields.integer("jitter_ms", false, 0, kVoiceJitterMaxMs))
    faults.jitter_ms = *jitter;
  // Any u64; BodyFields' integers stop at i64.
  if (const auto* seed = fields.value("seed", false)) {
    if (seed->IsUint64()) {
      faults.seed = seed->GetUint64();
    } else {
      fields.add_issue("seed", {"NUMBER_TYPE_COERCE", "Value is not an unsigned integer."});
    }
  }
  if (!errors.empty()) return invalid_form_body(errors);
  unit.set_faults(faults);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("loss_percent");
                              writer.Double(faults.loss_percent);
                              writer.Key("reorder_percent");
                              writer.Double(faults.reorder_percent);
                              writer.Key("jitter_ms");
                              writer.Int64(faults.jitter_ms);
                              writer.Key("seed");
                              writer.Uint64(faults.seed);
                              writer.EndObject();
                            }));
}

}  // namespace

void register_voice_media_routes(Router& admin_router, ForwardingUnit& unit) {
  admin_router.add("POST", "/voice/udp-faults",
                   [&unit](const RouteContext& context) { return set_udp_faults(unit, context); });
  admin_router.add("DELETE", "/voice/udp-faults", [&unit](const RouteContext&) {
    unit.clear_faults();
    return HttpResponse::empty(204);
  });
}

}  // namespace platformpp::emulator
