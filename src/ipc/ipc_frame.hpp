#pragma once
// The IPC wire framing (docs/ipc-protocol.md, "Frames"): uint32 opcode and uint32 payload length, both
// little-endian, then the JSON payload. No Asio here: the decoder is fed whatever byte chunks the socket
// delivers, so it is unit-tested and fuzzed without sockets.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::ipc {

enum class IpcOpcode : uint32_t { Handshake = 0, Frame = 1, Close = 2, Ping = 3, Pong = 4 };

/// Payload limit: known desktop clients refuse larger frames, and so do we.
inline constexpr std::size_t kMaxIpcFrameBytes = std::size_t{64} << 10;  // 64 KiB
inline constexpr std::size_t kIpcHeaderBytes = 8;

const char* IpcOpcodeName(IpcOpcode opcode) noexcept;

/// Header and payload in one buffer, ready to write. The caller keeps payloads within kMaxIpcFrameBytes.
std::string EncodeIpcFrame(IpcOpcode opcode, std::string_view json);

struct IpcFrame {
  IpcOpcode opcode = IpcOpcode::Frame;
  std::string payload;
};

/// Incremental decoder for one connection's byte stream. Errors are sticky: once Failed(), later input is
/// ignored and no frame is produced any more (frames completed before the bad header are still delivered).
class IpcFrameDecoder {
 public:
  /// Appends `bytes` and decodes every complete frame in them. False once the stream is in error: an unknown
  /// opcode or a length over kMaxIpcFrameBytes is refused as soon as its header is complete, before any of
  /// its payload is buffered.
  bool Feed(std::string_view bytes);
  /// The oldest decoded frame not yet taken.
  std::optional<IpcFrame> Next();

  /// The stream has ended. True when it ended between frames; false when it is in error or ended inside a
  /// frame (then Truncated(): a header, or a length that promised more bytes than arrived).
  bool Finish();

  bool Failed() const noexcept { return !error_.empty(); }
  bool Truncated() const noexcept { return truncated_; }
  /// Why the stream failed: no payload bytes, so it is safe to log.
  const std::string& Error() const noexcept { return error_; }
  /// Bytes of an incomplete frame held so far.
  std::size_t Buffered() const noexcept { return buffer_.size() - consumed_; }

 private:
  void Fail(std::string error);

  std::string buffer_;
  std::size_t consumed_ = 0;  // bytes of buffer_ already turned into frames
  std::deque<IpcFrame> ready_;
  std::string error_;
  bool truncated_ = false;
};

}  // namespace platformpp::ipc
