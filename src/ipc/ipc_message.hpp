#pragma once
// The JSON inside IPC frames (docs/ipc-protocol.md, "Handshake", "Commands and events"): commands the SDK
// sends, the replies and events the desktop client sends back, the handshake, CLOSE payloads and ERROR data.
// No Asio here. Parse errors name what is wrong, never the payload's content (replies may carry authorization
// codes).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::ipc {

/// One FRAME payload from the desktop client: a command reply (nonce set) or an event (cmd "DISPATCH").
struct IpcMessage {
  std::string cmd;
  std::optional<std::string> evt;    ///< absent when missing or null
  std::optional<std::string> nonce;  ///< absent when missing or null
  std::string dataJson;              ///< `data` re-serialised; empty when missing or null

  bool IsDispatch() const noexcept { return cmd == "DISPATCH"; }
  bool IsError() const noexcept { return evt && *evt == "ERROR"; }
};

/// Parses a FRAME payload. Errors: not JSON, not an object, nested deeper than 64 levels, `cmd` missing or
/// not a string, `evt` or `nonce` neither a string nor null.
std::optional<IpcMessage> ParseIpcMessage(std::string_view payload, std::string* error = nullptr);

/// The data of the READY dispatch: `{v, config: {...}, user: {...}}`.
struct IpcReady {
  int version = 0;
  std::string configJson;  ///< empty when absent
  std::string userJson;    ///< empty when absent
};
/// Parses READY's `data`. Errors: not a JSON object.
std::optional<IpcReady> ParseIpcReady(std::string_view dataJson, std::string* error = nullptr);

/// A CLOSE payload `{code, message}`, or the `data` of an `evt: "ERROR"` reply (same shape).
struct IpcErrorInfo {
  int64_t code = 0;
  std::string message;  ///< empty when absent
};
/// Errors: not a JSON object, or `code` missing or not an integer.
std::optional<IpcErrorInfo> ParseIpcClose(std::string_view payload, std::string* error = nullptr);
std::optional<IpcErrorInfo> ParseIpcError(std::string_view dataJson, std::string* error = nullptr);

/// `{"cmd": cmd, "args": args, "evt": evt (when set), "nonce": nonce}`. `argsJson` must be a JSON object
/// (empty means `{}`); anything else is refused (nullopt, `error` says why) so that a caller's malformed JSON
/// never reaches the wire.
std::optional<std::string> BuildIpcCommand(std::string_view cmd, std::string_view argsJson,
                                           std::string_view nonce, std::optional<std::string_view> evt = {},
                                           std::string* error = nullptr);

/// The HANDSHAKE payload `{"v": 1, "client_id": clientId}`.
std::string BuildIpcHandshake(std::string_view clientId);

}  // namespace platformpp::ipc
