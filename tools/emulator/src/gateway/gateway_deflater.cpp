#include "gateway/gateway_deflater.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace platformpp::emulator {

namespace zlib = boost::beast::zlib;

// Level 1: a Gateway message is small JSON that level 1 compresses almost as well as 6, at a fraction of the
// CPU. Memory level 6 (an 8 Ki-entry hash) rather than 8: a full flush clears the hash, once per message.
GatewayDeflater::GatewayDeflater(std::size_t compress_from) : compress_from_(compress_from) {
  stream_.reset(1, 15, 6, zlib::Strategy::normal);
}

std::string GatewayDeflater::deflate(std::string_view text) {
  std::string out;
  if (text.size() < compress_from_) {
    out.reserve(text.size() + 10);
    append_stored(out, text);
    return out;
  }
  zlib::z_params zs;
  zs.next_in = text.data();
  zs.avail_in = text.size();
  std::array<char, 4096> chunk{};
  do {
    zs.next_out = chunk.data();
    zs.avail_out = chunk.size();
    boost::beast::error_code ec;
    stream_.write(zs, zlib::Flush::full, ec);
    out.append(chunk.data(), chunk.size() - zs.avail_out);
    if (ec) break;  // need_buffers: nothing more to flush
  } while (zs.avail_out == 0 || zs.avail_in > 0);
  return out;
}

void GatewayDeflater::append_stored(std::string& out, std::string_view bytes) {
  // A stored block at a byte boundary: a header byte (not final, type 00, padding), LEN and its complement
  // (little-endian), then the bytes as they are. The last, empty one is zlib's sync marker.
  const auto block = [&out](std::string_view data) {
    append_stored_header(out, data.size());
    out.append(data);
  };
  while (!bytes.empty()) {
    const auto size = std::min(bytes.size(), kMaxStoredBlock);
    block(bytes.substr(0, size));
    bytes.remove_prefix(size);
  }
  block({});
}

void GatewayDeflater::append_stored_header(std::string& out, std::size_t size) {
  const auto length = static_cast<std::uint16_t>(size);
  const auto complement = static_cast<std::uint16_t>(~length);
  out.push_back('\0');
  out.push_back(static_cast<char>(length & 0xff));
  out.push_back(static_cast<char>(length >> 8));
  out.push_back(static_cast<char>(complement & 0xff));
  out.push_back(static_cast<char>(complement >> 8));
}

GatewayDeflater& thread_gateway_deflater() {
  thread_local GatewayDeflater deflater;
  return deflater;
}

}  // namespace platformpp::emulator
