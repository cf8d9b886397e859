// A whole HTTP request through the emulator (EmulatorService::plan and complete, as the server calls them),
// against a fresh seeded world (emulator_world.hpp) per input. The input reads like a request:
//   line 1   "<auth> <METHOD> <target>", or "<auth> #<n>" for the n-th platform API route (any n: modulo
//            their count) with its own method, so that every route's body parser is one number away;
//            <auth> is B (the bot), U (alice's Bearer token), O (bob's), C (the app's client credentials,
//            Basic), anything else none; "{guild_id}", "{channel_id}"... in the target or the body name the
//            world's objects, "{bot_token}"... its secrets
//   headers  "Name: value" lines until an empty line (a JSON Content-Type is added to a body that starts
//            with '{' or '[' when none is given)
//   body     the rest: JSON, a form (the OAuth2 token endpoint) or multipart/form-data.
// Invariants: nothing crashes or throws; the answer is delivered (dropped or truncated only by an injected
// fault); its status is 2xx to 4xx (5xx only from a fault, 503 for the routes that need the network side);
// a JSON Content-Type comes with JSON; a 204 has no body.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emulator_world.hpp"
#include "json_mutator.hpp"

namespace {

using namespace platformpp_fuzz;

// The server's limits (server/beast_server.hpp): nothing larger reaches the service.
constexpr std::size_t kHeaderLimit = std::size_t{16} * 1024;
constexpr std::size_t kBodyLimit = std::size_t{1024} * 1024;

std::string_view next_line(std::string_view& input) {
  const auto end = input.find('\n');
  auto line = input.substr(0, end);
  input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return std::string(text);
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t at = 0; at < bytes.size(); at += 3) {
    std::uint32_t group = static_cast<std::uint8_t>(bytes[at]) << 16;
    if (at + 1 < bytes.size())
      group |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at + 1])) << 8;
    if (at + 2 < bytes.size()) group |= static_cast<std::uint8_t>(bytes[at + 2]);
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out.push_back(at + 1 < bytes.size() ? kAlphabet[(group >> 6) & 63] : '=');
    out.push_back(at + 2 < bytes.size() ? kAlphabet[group & 63] : '=');
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.size() < 2) return 0;
  const char auth = input[0];
  input.remove_prefix(1);
  const auto request_line = trimmed(next_line(input));

  auto world = std::make_unique<World>();
  HttpRequest request;
  request.client_address = "127.0.0.1";
  if (request_line.starts_with('#')) {
    const auto routes = world->service.api_routes();
    const auto n = std::strtoull(request_line.c_str() + 1, nullptr, 10) % routes.size();
    const auto space = routes[n].find(' ');
    request.method = routes[n].substr(0, space);
    request.target = world->expand("/api/v10" + routes[n].substr(space + 1));
  } else {
    const auto space = request_line.find(' ');
    if (space == std::string::npos) return 0;
    request.method = request_line.substr(0, space);
    request.target = world->expand(request_line.substr(space + 1));
  }
  std::size_t header_bytes = request.target.size();
  bool has_content_type = false;
  while (!input.empty()) {
    const auto line = next_line(input);
    if (line.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    auto name = trimmed(line.substr(0, colon));
    auto value = world->expand(trimmed(line.substr(colon + 1)));
    header_bytes += name.size() + value.size() + 4;
    if (iequals(name, "Content-Type")) has_content_type = true;
    request.headers.emplace_back(std::move(name), std::move(value));
  }
  request.body = world->expand(input);
  if (header_bytes > kHeaderLimit || request.body.size() > kBodyLimit) return 0;
  if (!has_content_type && !request.body.empty() && (request.body[0] == '{' || request.body[0] == '[')) {
    request.headers.emplace_back("Content-Type", "application/json");
  }
  switch (auth) {
    case 'B':
      request.headers.emplace_back("Authorization", "Bot " + world->bot_token);
      break;
    case 'U':
      request.headers.emplace_back("Authorization", "Bearer " + world->alice_token);
      break;
    case 'O':
      request.headers.emplace_back("Authorization", "Bearer " + world->bob_token);
      break;
    case 'C':
      // client_id:client_secret, base64: a request line cannot easily spell it.
      request.headers.emplace_back("Authorization",
                                   "Basic " + base64(world->ids["app_id"] + ":" + world->client_secret));
      break;
    default:
      break;
  }

  const auto plan = world->service.plan(request);
  const auto outcome = world->service.complete(request, plan);
  const bool fault = plan.fault.has_value();
  if (outcome.delivery != Outcome::Delivery::respond && !fault) __builtin_trap();
  if (outcome.delivery != Outcome::Delivery::drop && !response_is_sound(outcome.response, fault)) {
    std::fprintf(stderr, "unsound answer %d to %s %s: %s\n", outcome.response.status, request.method.c_str(),
                 request.target.c_str(), outcome.response.body.c_str());
    __builtin_trap();
  }
  // A route that waits on the network (a webhook URL's PING) gets its answer, and that answer is sound too.
  world->transport.deliver();
  if (const auto& deferred = outcome.response.deferred) {
    if (deferred->answer() && !response_is_sound(*deferred->answer(), false)) __builtin_trap();
  }
  world->service.end_turn();
  return 0;
}
