#include "ipc/ipc_codec.hpp"

namespace platformpp::emulator {

namespace {

void put_u32_le(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8)
    out.push_back(static_cast<char>((value >> shift) & 0xFFU));
}

std::uint32_t get_u32_le(const char* bytes) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

bool known_opcode(std::uint32_t opcode) {
  return opcode <= static_cast<std::uint32_t>(IpcOpcode::pong);
}

}  // namespace

std::string encode_ipc_frame(IpcOpcode opcode, std::string_view payload) {
  std::string out;
  out.reserve(kIpcHeaderSize + payload.size());
  put_u32_le(out, static_cast<std::uint32_t>(opcode));
  put_u32_le(out, static_cast<std::uint32_t>(payload.size()));
  out.append(payload);
  return out;
}

void IpcFrameDecoder::feed(std::string_view bytes) {
  if (error_ != Error::none) return;
  // Drop what has been consumed before growing, so a long-lived connection's buffer stays small.
  if (offset_ > 0) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<IpcFrame> IpcFrameDecoder::next() {
  if (error_ != Error::none || buffered() < kIpcHeaderSize) return std::nullopt;
  const char* header = buffer_.data() + offset_;
  const auto opcode = get_u32_le(header);
  const auto length = get_u32_le(header + 4);
  if (!known_opcode(opcode)) {
    error_ = Error::unknown_opcode;
    return std::nullopt;
  }
  if (length > kIpcMaxPayload) {
    error_ = Error::too_large;
    return std::nullopt;
  }
  if (buffered() - kIpcHeaderSize < length) return std::nullopt;
  IpcFrame frame;
  frame.opcode = static_cast<IpcOpcode>(opcode);
  frame.payload.assign(header + kIpcHeaderSize, length);
  offset_ += kIpcHeaderSize + length;
  if (offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  }
  return frame;
}

}  // namespace platformpp::emulator
