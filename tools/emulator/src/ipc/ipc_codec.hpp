// RPC-over-IPC framing (docs/ipc-protocol.md, "Frames"): uint32 opcode + uint32 length, both little-endian,
// then `length` bytes of UTF-8 JSON. Socket-free so the decoder is unit-tested byte by byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::emulator {

enum class IpcOpcode : std::uint32_t { handshake = 0, frame = 1, close = 2, ping = 3, pong = 4 };

inline constexpr std::size_t kIpcHeaderSize = 8;
// Largest payload accepted (and sent): 64 KiB. Known clients refuse larger frames.
inline constexpr std::size_t kIpcMaxPayload = std::size_t{64} << 10;  // 64 KiB

struct IpcFrame {
  IpcOpcode opcode = IpcOpcode::frame;
  std::string payload;
};

// Header plus payload, ready to write.
std::string encode_ipc_frame(IpcOpcode opcode, std::string_view payload);

// Reassembles frames from a byte stream that arrives in arbitrary pieces. Errors are detected from the
// header alone (before the payload arrives) and are final: the connection must be closed.
class IpcFrameDecoder {
 public:
  enum class Error { none, unknown_opcode, too_large };

  void feed(std::string_view bytes);
  // The next complete frame, or nullopt when more bytes are needed or after an error.
  std::optional<IpcFrame> next();

  [[nodiscard]] Error error() const noexcept { return error_; }
  // Bytes of an incomplete frame held back: non-zero at end of stream means the peer lied about a length.
  [[nodiscard]] std::size_t buffered() const noexcept { return buffer_.size() - offset_; }

 private:
  std::string buffer_;
  std::size_t offset_ = 0;  // start of the first unconsumed byte in buffer_
  Error error_ = Error::none;
};

}  // namespace platformpp::emulator
