// What the admin routes share that act on live WebSocket connections (the Gateway's /_emulator/gateway/*,
// the voice gateway's /_emulator/voice/*): a body, empty or a JSON object, whose fields select connections
// and give the route's own arguments, and the answer {"connections": N}.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/http_message.hpp"
#include "core/json_body.hpp"
#include "core/router.hpp"

namespace platformpp::emulator {

// The connections a body's fields select (problems recorded through `fields`).
using ConnectionSelector = std::function<std::vector<std::uint64_t>(BodyFields& fields)>;

// Reads the body, selects the connections, reads the route's own fields (`read_fields`, if any), then runs
// `act` on each selected connection and answers {"connections": N}. A bad body, then bad selection fields,
// then bad fields of the route's own are answered as such (400, 415) before anything acts.
HttpResponse act_on_connections(const RouteContext& context, const ConnectionSelector& select,
                                const std::function<void(BodyFields& fields)>& read_fields,
                                const std::function<void(std::uint64_t id)>& act);

// What the close routes read: {code (1000-4999), reason? (at most 123 bytes)}, as a close frame carries.
struct CloseRequest {
  int code = 0;
  std::string reason;
};
CloseRequest read_close_request(BodyFields& fields);

}  // namespace platformpp::emulator
