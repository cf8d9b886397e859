// IPC frames and their JSON, as the desktop client's socket delivers them: the decoder fed in several
// chunkings (all must agree, and re-encoding the frames must give back the input), every FRAME and CLOSE
// payload through the message parsers.
#include "ipc/ipc_frame.hpp"
#include "ipc/ipc_message.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace platformpp::ipc;

struct Outcome {
  std::vector<IpcFrame> frames;
  bool failed = false;
  bool clean = false;
};

Outcome Decode(std::string_view input, std::size_t chunk) {
  Outcome out;
  IpcFrameDecoder decoder;
  for (std::size_t at = 0; at < input.size(); at += chunk) {
    decoder.Feed(input.substr(at, chunk));
    while (auto frame = decoder.Next())
      out.frames.push_back(std::move(*frame));
  }
  out.clean = decoder.Finish();
  out.failed = decoder.Failed();
  if (out.clean == out.failed) __builtin_trap();
  if (decoder.Truncated() && !out.failed) __builtin_trap();
  if (out.failed && (decoder.Feed("x") || decoder.Next())) __builtin_trap();  // errors are sticky
  return out;
}

void ParsePayloads(const std::vector<IpcFrame>& frames) {
  for (const IpcFrame& frame : frames) {
    if (frame.payload.size() > kMaxIpcFrameBytes) __builtin_trap();
    if (frame.opcode == IpcOpcode::Close) {
      (void)ParseIpcClose(frame.payload);
    } else if (frame.opcode == IpcOpcode::Frame) {
      std::string error;
      auto message = ParseIpcMessage(frame.payload, &error);
      if (!message) {
        if (error.empty()) __builtin_trap();
        continue;
      }
      if (message->IsError()) (void)ParseIpcError(message->dataJson);
      if (message->evt && *message->evt == "READY") (void)ParseIpcReady(message->dataJson);
      if (message->nonce) {
        // What the SDK would send back with this nonce must be well-formed JSON.
        auto command = BuildIpcCommand(message->cmd, "{}", *message->nonce, message->evt);
        if (!command || !ParseIpcMessage(*command)) __builtin_trap();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Outcome whole = Decode(input, input.empty() ? 1 : input.size());
  std::string reencoded;
  for (const IpcFrame& frame : whole.frames)
    reencoded += EncodeIpcFrame(frame.opcode, frame.payload);
  if (input.substr(0, reencoded.size()) != reencoded) __builtin_trap();
  if (whole.clean && reencoded.size() != input.size()) __builtin_trap();

  for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{4096}}) {
    Outcome split = Decode(input, chunk);
    if (split.clean != whole.clean || split.frames.size() != whole.frames.size()) __builtin_trap();
    for (std::size_t i = 0; i < split.frames.size(); ++i) {
      if (split.frames[i].opcode != whole.frames[i].opcode ||
          split.frames[i].payload != whole.frames[i].payload)
        __builtin_trap();
    }
  }
  ParsePayloads(whole.frames);
  return 0;
}
