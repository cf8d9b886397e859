// IPC bytes into the emulator's desktop-client stand-in (frames, handshake, RPC commands), as its socket
// hands them over, against a fresh seeded world (emulator_world.hpp) per input. The first byte picks the
// form of the rest:
//   'r' / 'R'  raw bytes: the stream itself, fed in pieces of (second byte % 16) + 1 bytes (0: at once), so
//              that frame reassembly is fuzzed too
//   'f' / 'F'  one frame per line: an opcode digit, then the payload ("{app_id}", "{alice_id}"... expanded),
//              framed here so that the fuzzer spends its time on the JSON rather than on lengths
// Upper case first sends a valid handshake for the world's application (commands are reached at once).
// Invariants: nothing crashes or throws; everything the emulator sends is whole frames, each a FRAME, CLOSE
// or PONG; a FRAME's payload is a JSON object with a cmd, a CLOSE's is {code, message} with a documented code
// (never 1011, the internal error a caught exception gives); nothing comes after CLOSE.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "emulator_world.hpp"
#include "fuzz_lines.hpp"
#include "ipc/ipc_codec.hpp"
#include "ipc/ipc_peer.hpp"
#include "json_mutator.hpp"

namespace {

using namespace platformpp_fuzz;

[[noreturn]] void violated(const char* what, std::string_view detail) {
  std::fprintf(stderr, "IPC invariant violated: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  __builtin_trap();
}

struct CheckingIpcPeer final : IpcPeer {
  void send(std::string bytes) override {
    if (closed || close_sent) violated("bytes after CLOSE", bytes);
    IpcFrameDecoder decoder;
    decoder.feed(bytes);
    const auto frame = decoder.next();
    if (!frame || decoder.buffered() != 0 || decoder.next()) violated("not one whole frame", bytes);
    switch (frame->opcode) {
      case IpcOpcode::pong:
        return;
      case IpcOpcode::frame: {
        rapidjson::Document payload;
        if (!parse_json(frame->payload, payload) || !payload.IsObject() || !payload.HasMember("cmd")) {
          violated("FRAME without a JSON object with cmd", frame->payload);
        }
        return;
      }
      case IpcOpcode::close: {
        rapidjson::Document payload;
        if (!parse_json(frame->payload, payload) || !payload.IsObject() || !payload.HasMember("code") ||
            !payload["code"].IsInt() || !payload.HasMember("message") || !payload["message"].IsString()) {
          violated("CLOSE without {code, message}", frame->payload);
        }
        const int code = payload["code"].GetInt();
        // 4000 invalid client id, 4004 invalid version, WebSocket's 1002 protocol error, 1007 invalid
        // payload and 1009 too large; 1011 (internal error) only follows an exception inside the module.
        if (code != 4000 && code != 4004 && code != 1002 && code != 1007 && code != 1009) {
          violated("CLOSE with an undocumented code", frame->payload);
        }
        close_sent = true;
        return;
      }
      default:
        violated("an opcode the emulator never sends", bytes);
    }
  }
  void close() override { closed = true; }

  bool closed = false;
  bool close_sent = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.size() < 2) return 0;
  const char form = input[0];
  input.remove_prefix(1);
  auto world = std::make_unique<World>();
  auto& service = world->service;
  CheckingIpcPeer peer;
  const auto id = service.ipc_connected(peer);
  if (form == 'R' || form == 'F') {
    service.ipc_received(
        id, encode_ipc_frame(IpcOpcode::handshake, R"({"v":1,"client_id":")" + world->ids["app_id"] + "\"}"));
  }
  if (form == 'r' || form == 'R') {
    const std::size_t piece = static_cast<std::uint8_t>(input[0]) % 16;
    input.remove_prefix(1);
    while (!input.empty() && !peer.closed) {
      const auto n = piece == 0 ? input.size() : std::min(piece, input.size());
      service.ipc_received(id, input.substr(0, n));
      input.remove_prefix(n);
    }
  } else {
    std::string stream;
    while (!input.empty()) {
      const auto line = next_line(input);
      if (line.empty()) continue;
      const auto opcode = static_cast<std::uint32_t>(line[0] - '0');
      const auto payload = world->expand(line.substr(1));
      if (opcode <= 4) {
        stream += encode_ipc_frame(static_cast<IpcOpcode>(opcode), payload);
      } else {
        // Another opcode: the header by hand (encode_ipc_frame knows only the valid ones).
        const auto length = static_cast<std::uint32_t>(payload.size());
        for (const std::uint32_t word : {opcode, length})
          for (int shift = 0; shift < 32; shift += 8)
            stream.push_back(static_cast<char>((word >> shift) & 0xFF));
        stream += payload;
      }
    }
    service.ipc_received(id, stream);
  }
  if (!peer.closed) service.ipc_disconnected(id);
  if (service.ipc_connection_count() != 0) violated("a connection outlived its disconnection", {});
  world->transport.deliver();
  service.end_turn();
  return 0;
}
