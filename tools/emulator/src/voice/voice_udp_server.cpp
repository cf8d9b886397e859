// The one translation unit of the forwarding unit that instantiates Boost.Asio's templates.
#include "server/asio_prelude.hpp"

#include "voice/voice_udp_server.hpp"

#ifndef _WIN32
#include <arpa/inet.h>  // inet_ntop (Windows: <ws2tcpip.h>, which Asio includes)
#endif

#include <algorithm>
#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace platformpp::emulator {

namespace {

namespace net = boost::asio;
using udp = net::ip::udp;
using Clock = std::chrono::steady_clock;

// Datagrams read per readiness notification before going back to the reactor: fewer wake-ups under load.
constexpr int kReadBurst = 64;
constexpr std::size_t kMaxDatagram = 65536;
constexpr std::size_t kSlotCapacity = 1500;  // an MTU: a larger datagram is rare
constexpr std::uint32_t kPreparedSlots = 256;
constexpr int kReceiveBuffer = 256 * 1024;  // asked of the kernel, which doubles it for its bookkeeping

// Memory for the handlers of one kind of operation: a few fixed blocks, reused. Asio 1.74 recycles one block
// per thread, which two kinds of operations in turn (receive, timer) keep missing; with these, steady-state
// forwarding allocates nothing. Shared with the allocators: an operation destroyed with the io_context after
// the server still has its memory.
class HandlerMemory {
 public:
  void* allocate(std::size_t size) {
    if (size <= kBlockSize) {
      for (auto& block : blocks_) {
        if (block.in_use) continue;
        block.in_use = true;
        return block.storage;
      }
    }
    return ::operator new(size);  // more operations in flight than blocks: rare, and still correct
  }
  void deallocate(void* pointer) {
    for (auto& block : blocks_) {
      if (pointer != block.storage) continue;
      block.in_use = false;
      return;
    }
    ::operator delete(pointer);
  }

 private:
  static constexpr std::size_t kBlockSize = 512;
  struct Block {
    alignas(std::max_align_t) unsigned char storage[kBlockSize];
    bool in_use = false;
  };
  std::array<Block, 8> blocks_{};
};

template <class T>
class HandlerAllocator {
 public:
  using value_type = T;
  explicit HandlerAllocator(std::shared_ptr<HandlerMemory> memory) noexcept : memory_(std::move(memory)) {}
  template <class U>
  HandlerAllocator(const HandlerAllocator<U>& other) noexcept : memory_(other.memory_) {}
  T* allocate(std::size_t n) { return static_cast<T*>(memory_->allocate(sizeof(T) * n)); }
  void deallocate(T* pointer, std::size_t) noexcept { memory_->deallocate(pointer); }
  template <class U>
  bool operator==(const HandlerAllocator<U>& other) const noexcept {
    return memory_ == other.memory_;
  }
  template <class U>
  bool operator!=(const HandlerAllocator<U>& other) const noexcept {
    return memory_ != other.memory_;
  }

 private:
  template <class U>
  friend class HandlerAllocator;
  std::shared_ptr<HandlerMemory> memory_;
};

// A handler whose operation's memory comes from `memory` (Asio asks for it through allocator_type).
template <class Handler>
struct PooledHandler {
  using allocator_type = HandlerAllocator<Handler>;
  allocator_type get_allocator() const noexcept { return allocator_type(memory); }
  template <class... Args>
  void operator()(Args&&... args) {
    handler(std::forward<Args>(args)...);
  }
  std::shared_ptr<HandlerMemory> memory;
  Handler handler;
};

template <class Handler>
PooledHandler<Handler> pooled(const std::shared_ptr<HandlerMemory>& memory, Handler handler) {
  return PooledHandler<Handler>{memory, std::move(handler)};
}

}  // namespace

struct VoiceUdpServer::Impl {
  struct Delayed {
    Clock::time_point due;
    std::uint64_t order = 0;  // FIFO among datagrams due at the same time
    udp::endpoint to;
    std::uint32_t slot = 0;
    std::uint32_t size = 0;
  };
  // A min-heap on (due, order) through std::push_heap, which builds max-heaps.
  static bool later(const Delayed& a, const Delayed& b) {
    return a.due != b.due ? a.due > b.due : a.order > b.order;
  }

  explicit Impl(net::io_context& io) : socket(io), timer(io) {
    // Delayed datagrams up to kPreparedSlots in flight never allocate; past that the slots grow once.
    queue.reserve(kPreparedSlots);
    free_slots.reserve(kPreparedSlots);
    slots.resize(kPreparedSlots);
    for (std::uint32_t slot = kPreparedSlots; slot-- > 0;) {
      slots[slot].reserve(kSlotCapacity);
      free_slots.push_back(slot);
    }
  }

  udp::socket socket;
  net::steady_timer timer;
  ForwardingUnit* unit = nullptr;
  std::vector<std::uint8_t> buffer = std::vector<std::uint8_t>(kMaxDatagram);
  udp::endpoint sender;
  MediaEndpoint from;  // reused: its string keeps its capacity
  std::array<char, INET6_ADDRSTRLEN> address_text{};
  std::shared_ptr<HandlerMemory> handler_memory = std::make_shared<HandlerMemory>();
  bool receiving = false;

  // Delayed datagrams: their bytes live in reused slots, the queue holds where and when.
  std::vector<Delayed> queue;
  std::vector<std::vector<std::uint8_t>> slots;
  std::vector<std::uint32_t> free_slots;
  std::uint64_t next_order = 0;
  Clock::time_point armed_for = Clock::time_point::max();
  Counters counters;

  std::optional<udp::endpoint> resolve(const MediaEndpoint& to) {
    boost::system::error_code ec;
    // inet_pton, no allocation; an address with ':' is IPv6.
    const auto address = to.address.find(':') == std::string::npos
                             ? net::ip::address(net::ip::make_address_v4(to.address.c_str(), ec))
                             : net::ip::address(net::ip::make_address_v6(to.address.c_str(), ec));
    if (ec || to.port == 0) return std::nullopt;
    return udp::endpoint(address, to.port);
  }

  void send_now(const udp::endpoint& to, std::span<const std::uint8_t> data) {
    boost::system::error_code ec;
    socket.send_to(net::buffer(data.data(), data.size()), to, 0, ec);
    if (ec) {
      ++counters.send_failed;  // would block (buffer full), or the peer is unreachable: lost, like UDP
    } else {
      ++counters.sent;
    }
  }

  void receive() {
    if (!socket.is_open()) return;
    receiving = true;
    socket.async_receive_from(net::buffer(buffer), sender,
                              pooled(handler_memory, [this](boost::system::error_code ec, std::size_t n) {
                                // Aborted: closed, perhaps destroyed (touch nothing).
                                if (ec != net::error::operation_aborted) on_received(ec, n);
                              }));
  }

  void on_received(boost::system::error_code ec, std::size_t n) {
    receiving = false;
    if (!socket.is_open()) return;
    if (!ec) deliver(n);
    // Then whatever else is already queued, without a round trip through the reactor.
    for (int i = 1; i < kReadBurst && socket.is_open(); ++i) {
      boost::system::error_code read_ec;
      const std::size_t more = socket.receive_from(net::buffer(buffer), sender, 0, read_ec);
      if (read_ec) break;  // would block: empty
      deliver(more);
    }
    receive();  // also after an error (e.g. an ICMP report): the socket still serves every other session
  }

  void deliver(std::size_t n) {
    ++counters.received;
    if (unit == nullptr) return;
    const auto address = sender.address();
    if (address.is_v4()) {
      const auto bytes = address.to_v4().to_bytes();
      ::inet_ntop(AF_INET, bytes.data(), address_text.data(), address_text.size());
    } else {
      const auto bytes = address.to_v6().to_bytes();
      ::inet_ntop(AF_INET6, bytes.data(), address_text.data(), address_text.size());
    }
    from.address.assign(address_text.data());
    from.port = sender.port();
    unit->on_datagram(from, std::span<const std::uint8_t>(buffer.data(), n));
  }

  void schedule(const udp::endpoint& to, std::span<const std::uint8_t> data, std::int64_t delay_ms) {
    std::uint32_t slot = 0;
    if (free_slots.empty()) {
      slot = static_cast<std::uint32_t>(slots.size());
      slots.emplace_back().reserve(kSlotCapacity);
    } else {
      slot = free_slots.back();
      free_slots.pop_back();
    }
    slots[slot].assign(data.begin(), data.end());
    const auto due = Clock::now() + std::chrono::milliseconds(delay_ms);
    queue.push_back(Delayed{due, next_order++, to, slot, static_cast<std::uint32_t>(data.size())});
    std::push_heap(queue.begin(), queue.end(), later);
    if (due < armed_for) arm(due);
  }

  // One timer for the whole queue, set for its earliest datagram (re-arming cancels the previous wait).
  void arm(Clock::time_point due) {
    armed_for = due;
    timer.expires_at(due);
    timer.async_wait(pooled(handler_memory, [this](boost::system::error_code ec) {
      if (ec == net::error::operation_aborted || !socket.is_open()) return;
      armed_for = Clock::time_point::max();
      flush_due();
    }));
  }

  void flush_due() {
    const auto now = Clock::now();
    while (!queue.empty() && queue.front().due <= now) {
      std::pop_heap(queue.begin(), queue.end(), later);
      const Delayed item = queue.back();
      queue.pop_back();
      send_now(item.to, std::span(slots[item.slot].data(), item.size));
      free_slots.push_back(item.slot);
    }
    if (!queue.empty()) arm(queue.front().due);
  }

  void close() {
    boost::system::error_code ec;
    if (unit != nullptr) unit->set_sink(nullptr);
    unit = nullptr;
    timer.cancel();
    socket.close(ec);
    receiving = false;
    for (const auto& item : queue)
      free_slots.push_back(item.slot);
    queue.clear();
    armed_for = Clock::time_point::max();
  }
};

VoiceUdpServer::VoiceUdpServer(boost::asio::io_context& io, const std::string& host)
    : impl_(std::make_unique<Impl>(io)) {
  try {
    const auto address =
        host == "localhost" ? net::ip::make_address("127.0.0.1") : net::ip::make_address(host);
    const udp::endpoint endpoint(address, 0);
    impl_->socket.open(endpoint.protocol());
    impl_->socket.bind(endpoint);
    // Never block the I/O thread: a full send buffer loses the datagram, as a congested network would.
    impl_->socket.non_blocking(true);
    // A receive queue bounded in time, as a router's is: when the service thread falls behind (a starved CI
    // machine), what waits is dropped, not delayed by seconds. A 4 MiB queue (the kernel granted 8) held
    // seconds of a 100-player soak's media in front of every IP discovery request, whose answers then came
    // after the SDK's 5 s budget: calls failed to connect again and again for minutes (docs/fault-soak.md).
    // This one holds about 600 media datagrams (measured: voice_udp_server_test.cpp), half a second of a
    // 25-person call's 1,250 a second, past the 100 ms stops of a VM's vCPU; a discovery request lost to it
    // is sent again a second later.
    impl_->socket.set_option(net::socket_base::receive_buffer_size(kReceiveBuffer));
    // The sends fan out (a 25-person call is ~30,000 datagrams a second): room for their bursts.
    impl_->socket.set_option(net::socket_base::send_buffer_size(4 * 1024 * 1024));
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot open the voice UDP socket on " + host + ": " + e.code().message());
  }
}

VoiceUdpServer::~VoiceUdpServer() {
  close();
}

std::uint16_t VoiceUdpServer::port() const noexcept {
  boost::system::error_code ec;
  const auto endpoint = impl_->socket.local_endpoint(ec);
  return ec ? 0 : endpoint.port();
}

void VoiceUdpServer::start(ForwardingUnit& unit) {
  impl_->unit = &unit;
  unit.set_sink(this);
  if (!impl_->receiving) impl_->receive();
}

void VoiceUdpServer::close() {
  impl_->close();
}

void VoiceUdpServer::send_datagram(const MediaEndpoint& to, std::span<const std::uint8_t> data,
                                   std::int64_t delay_ms) {
  if (!impl_->socket.is_open()) return;
  const auto endpoint = impl_->resolve(to);
  if (!endpoint) {
    ++impl_->counters.send_failed;
    return;
  }
  if (delay_ms <= 0) {
    impl_->send_now(*endpoint, data);
  } else {
    impl_->schedule(*endpoint, data, delay_ms);
  }
}

VoiceUdpServer::Counters VoiceUdpServer::counters() const noexcept {
  return impl_->counters;
}

}  // namespace platformpp::emulator
