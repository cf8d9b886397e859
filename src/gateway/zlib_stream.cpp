#include "core/asio_prelude.hpp"

#include "gateway/zlib_stream.hpp"

#include <boost/beast/zlib/error.hpp>
#include <boost/beast/zlib/inflate_stream.hpp>

#include <algorithm>
#include <cstdint>

namespace platformpp::gateway {
namespace {

namespace zlib = boost::beast::zlib;

constexpr std::string_view kSyncFlushSuffix("\x00\x00\xff\xff", 4);

// RFC 1950: CM 8 (deflate), CINFO <= 7, FCHECK makes the pair a multiple of 31, no preset dictionary.
bool IsZlibHeader(unsigned char cmf, unsigned char flg) {
  return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0 && (flg & 0x20) == 0;
}

}  // namespace

struct ZlibStreamDecoder::State {
  zlib::inflate_stream inflate;
};

ZlibStreamDecoder::ZlibStreamDecoder(std::size_t maxMessageBytes)
    : state_(std::make_unique<State>()), maxMessageBytes_(maxMessageBytes) {}

ZlibStreamDecoder::~ZlibStreamDecoder() = default;

void ZlibStreamDecoder::Reset() {
  state_->inflate.reset();
  pending_.clear();
  headerDone_ = false;
  failed_ = false;
  error_.clear();
}

ZlibStreamDecoder::Result ZlibStreamDecoder::Fail(std::string error) {
  failed_ = true;
  error_ = std::move(error);
  pending_.clear();
  return Result::Failed;
}

ZlibStreamDecoder::Result ZlibStreamDecoder::Feed(std::string_view bytes, std::string& out) {
  if (failed_) return Result::Failed;
  if (pending_.size() + bytes.size() > maxMessageBytes_) {
    return Fail("a compressed message is over " + std::to_string(maxMessageBytes_) + " bytes");
  }
  pending_.append(bytes);
  if (pending_.size() < kSyncFlushSuffix.size() ||
      std::string_view(pending_).substr(pending_.size() - kSyncFlushSuffix.size()) != kSyncFlushSuffix) {
    return Result::NeedMore;
  }
  return Inflate(out);
}

ZlibStreamDecoder::Result ZlibStreamDecoder::Inflate(std::string& out) {
  std::string_view in = pending_;
  if (!headerDone_) {
    // The stream opens with a zlib header (the platform sends 78 9c); Beast inflates raw deflate, so it is
    // checked and skipped here. A stream without one is taken as raw deflate.
    if (in.size() >= 2 &&
        IsZlibHeader(static_cast<unsigned char>(in[0]), static_cast<unsigned char>(in[1]))) {
      in.remove_prefix(2);
    }
    headerDone_ = true;
  }
  out.clear();
  zlib::z_params zs;
  zs.next_in = in.data();
  zs.avail_in = in.size();
  std::size_t produced = 0;
  for (;;) {
    if (out.size() - produced < 1024) {
      std::size_t grow = std::max<std::size_t>(out.size(), 4096);
      if (produced >= maxMessageBytes_) {
        return Fail("an inflated message is over " + std::to_string(maxMessageBytes_) + " bytes");
      }
      out.resize(std::min(produced + grow, maxMessageBytes_ + 1));
    }
    zs.next_out = out.data() + produced;
    zs.avail_out = out.size() - produced;
    boost::system::error_code ec;
    state_->inflate.write(zs, zlib::Flush::sync, ec);
    produced = out.size() - zs.avail_out;
    if (produced > maxMessageBytes_) {
      return Fail("an inflated message is over " + std::to_string(maxMessageBytes_) + " bytes");
    }
    if (ec == zlib::error::end_of_stream) {
      // The server ended the stream; what it sent so far is still a message. Nothing may follow.
      failed_ = false;
      break;
    }
    if (ec && ec != zlib::error::need_buffers) return Fail("corrupt zlib stream: " + ec.message());
    if (zs.avail_in == 0 && zs.avail_out > 0) break;  // all input consumed, all output flushed
    if (ec == zlib::error::need_buffers && zs.avail_out > 0) break;
  }
  out.resize(produced);
  pending_.clear();
  return Result::Message;
}

}  // namespace platformpp::gateway
