#include "ipc/ipc_frame.hpp"

namespace platformpp::ipc {
namespace {

// Byte by byte, so the result does not depend on the host's byte order or alignment.
void PutU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFu));
}

uint32_t GetU32(const char* in) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(in[i]);
  return value;
}

bool IsKnownOpcode(uint32_t opcode) {
  return opcode <= static_cast<uint32_t>(IpcOpcode::Pong);
}

}  // namespace

const char* IpcOpcodeName(IpcOpcode opcode) noexcept {
  switch (opcode) {
    case IpcOpcode::Handshake:
      return "HANDSHAKE";
    case IpcOpcode::Frame:
      return "FRAME";
    case IpcOpcode::Close:
      return "CLOSE";
    case IpcOpcode::Ping:
      return "PING";
    case IpcOpcode::Pong:
      return "PONG";
  }
  return "UNKNOWN";
}

std::string EncodeIpcFrame(IpcOpcode opcode, std::string_view json) {
  std::string out;
  out.reserve(kIpcHeaderBytes + json.size());
  PutU32(out, static_cast<uint32_t>(opcode));
  PutU32(out, static_cast<uint32_t>(json.size()));
  out.append(json);
  return out;
}

bool IpcFrameDecoder::Feed(std::string_view bytes) {
  if (Failed()) return false;
  buffer_.append(bytes);
  for (;;) {
    std::size_t available = buffer_.size() - consumed_;
    if (available < kIpcHeaderBytes) break;
    const char* header = buffer_.data() + consumed_;
    uint32_t opcode = GetU32(header);
    uint32_t length = GetU32(header + 4);
    if (!IsKnownOpcode(opcode)) {
      Fail("unknown opcode " + std::to_string(opcode));
      return false;
    }
    if (length > kMaxIpcFrameBytes) {
      Fail("frame of " + std::to_string(length) + " bytes is over the " + std::to_string(kMaxIpcFrameBytes) +
           "-byte limit");
      return false;
    }
    if (available - kIpcHeaderBytes < length) break;
    ready_.push_back({static_cast<IpcOpcode>(opcode), buffer_.substr(consumed_ + kIpcHeaderBytes, length)});
    consumed_ += kIpcHeaderBytes + length;
  }
  // Drop what was decoded: the buffer then holds at most one partial frame (bounded by the limit above).
  buffer_.erase(0, consumed_);
  consumed_ = 0;
  return true;
}

std::optional<IpcFrame> IpcFrameDecoder::Next() {
  if (ready_.empty()) return std::nullopt;
  IpcFrame frame = std::move(ready_.front());
  ready_.pop_front();
  return frame;
}

bool IpcFrameDecoder::Finish() {
  if (Failed()) return false;
  std::size_t left = Buffered();
  if (left == 0) return true;
  truncated_ = true;
  if (left < kIpcHeaderBytes) {
    Fail("stream ended inside a frame header (" + std::to_string(left) + " of " +
         std::to_string(kIpcHeaderBytes) + " bytes)");
  } else {
    uint32_t length = GetU32(buffer_.data() + consumed_ + 4);
    Fail("stream ended inside a frame: its header announced " + std::to_string(length) + " payload bytes, " +
         std::to_string(left - kIpcHeaderBytes) + " arrived");
  }
  return false;
}

void IpcFrameDecoder::Fail(std::string error) {
  error_ = std::move(error);
  buffer_.clear();
  buffer_.shrink_to_fit();
  consumed_ = 0;
}

}  // namespace platformpp::ipc
