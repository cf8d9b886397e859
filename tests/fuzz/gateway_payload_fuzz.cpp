// Gateway input as the socket delivers it: the bytes as one text message through the envelope parser (and
// the parsers of Hello, READY and op 9 on its `d`, and the dispatch's shared document), and as binary
// messages through one zlib-stream decoder (split at several points, as WebSocket frames would split it),
// every inflated message through the envelope parser too; and as the body of GET /gateway (its URL).
#include "gateway/dispatch.hpp"
#include "gateway/gateway_payload.hpp"
#include "gateway/zlib_stream.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace platformpp::gateway;

void ParseText(std::string_view text) {
  std::string error;
  std::optional<Envelope> envelope = ParseEnvelope(text, &error);
  if (!envelope) {
    if (error.empty()) __builtin_trap();
    return;
  }
  // `d` is a view into the text, or the parser's own "null" when the envelope has none (compared by content:
  // string literals need not share an address across translation units, and do not under ASan).
  bool inside = envelope->d.data() >= text.data() &&
                envelope->d.data() + envelope->d.size() <= text.data() + text.size();
  if (!inside && envelope->d != "null") __builtin_trap();
  (void)ParseHelloInterval(envelope->d);
  (void)ParseInvalidSessionResumable(envelope->d);
  if (auto ready = ParseReady(envelope->d); ready && ready->sessionId.empty()) __builtin_trap();
  // The dispatch's one document, as every feature reads it: an object or nothing, with a reason, and the same
  // document for each reader.
  const Dispatch dispatch(envelope->t, envelope->d, envelope->s.value_or(0));
  std::string dispatch_error;
  const auto* data = dispatch.Data(&dispatch_error);
  if (data == nullptr ? dispatch_error.empty() : (!data->IsObject() || dispatch.Data() != data))
    __builtin_trap();
  if (data != nullptr) {
    if (auto ready_from_document = ParseReady(*data);
        ready_from_document && ready_from_document->sessionId.empty())
      __builtin_trap();
  }
  // What the SDK builds is always within the limit, or refused.
  if (auto payload = BuildPayload(Opcode::PresenceUpdate, envelope->d); payload && payload->size() > 4096)
    __builtin_trap();
}

void Inflate(std::string_view input, std::size_t chunk) {
  constexpr std::size_t kLimit = std::size_t{64} << 10;
  ZlibStreamDecoder decoder(kLimit);
  std::string out;
  for (std::size_t at = 0; at < input.size(); at += chunk) {
    ZlibStreamDecoder::Result result = decoder.Feed(input.substr(at, chunk), out);
    if (result == ZlibStreamDecoder::Result::Message) {
      if (out.size() > kLimit) __builtin_trap();
      ParseText(out);
    } else if (result == ZlibStreamDecoder::Result::Failed) {
      if (decoder.Error().empty()) __builtin_trap();
      if (decoder.Feed("\x00\x00\xff\xff", out) != ZlibStreamDecoder::Result::Failed) __builtin_trap();
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  ParseText(input);
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{4096}})
    Inflate(input, chunk);
  // The same bytes as the body of GET /gateway: the URL it names, and the one the SDK then connects to.
  if (auto url = ParseGatewayUrl(input)) {
    if (url->empty()) __builtin_trap();
    for (const bool compress : {false, true}) {
      const std::string target = GatewayConnectUrl(*url, compress);
      if (target.find("v=10") == std::string::npos) __builtin_trap();
    }
  }
  return 0;
}
