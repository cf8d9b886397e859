// The boundary between the C ABI and the C++ layer: see c_support.hpp.
#include "c_support.hpp"

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#define PLATFORMPP_C_HAS_CXXABI 1
#endif

#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <typeinfo>

namespace platformpp::c_api {

namespace {

// Room for this many failed operations between two run_callbacks without allocating: queueing a failure
// must work when memory is what ran out.
constexpr size_t kReservedFailures = 16;

// "std::bad_alloc" rather than "St9bad_alloc" where the ABI can say.
std::string TypeName(const std::type_info& type) {
#ifdef PLATFORMPP_C_HAS_CXXABI
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                              std::free);
  if (status == 0 && name) return std::string(name.get());
#endif
  return type.name();
}

}  // namespace

std::string Describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    std::string type = TypeName(typeid(e));
    std::string what = e.what();
    return what.empty() || what == type ? type : type + ": " + what;
  } catch (...) {
#ifdef PLATFORMPP_C_HAS_CXXABI
    if (const std::type_info* type = abi::__cxa_current_exception_type()) return TypeName(*type);
#endif
    return "an exception of unknown type";
  }
}

Boundary::Boundary(std::weak_ptr<platformpp::core::Logger> logger)
    : logger_(std::move(logger)),
      destroyed_(platformpp::ClientResult::Failure(platformpp::ErrorType::ClientDestroyed,
                                                   "the Client was destroyed")),
      aborted_(platformpp::ClientResult::Failure(platformpp::ErrorType::Aborted,
                                                 "an exception inside the library stopped the operation")) {
  queue_.reserve(kReservedFailures);
}

void Boundary::LogMessage(const std::string& message) noexcept {
  try {
    if (auto logger = logger_.lock()) logger->Error(message);
  } catch (...) {  // out of memory for the message itself: nothing is left to report it with
  }
}

void Boundary::Log(const char* entry, const std::exception_ptr& error, const char* consequence) noexcept {
  try {
    LogMessage(std::string(entry) + ": " + Describe(error) + "; " + consequence);
  } catch (...) {
  }
}

platformpp::ClientResult Boundary::Failure(const char* entry,
                                           const std::exception_ptr& error) const noexcept {
  try {
    return platformpp::ClientResult::Failure(platformpp::ErrorType::Aborted,
                                             std::string(entry) + ": " + Describe(error));
  } catch (...) {
    return aborted_;
  }
}

void Boundary::Fail(const char* entry, const std::exception_ptr& error, FailedOperation failed) noexcept {
  Log(entry, error, "its callback runs with Aborted");
  failed.result = Failure(entry, error);
  bool closed = false;
  {
    std::lock_guard lock(mutex_);
    closed = closed_;
    if (!closed) {
      try {
        queue_.push_back(std::move(failed));  // within the reserve: no allocation
        return;
      } catch (...) {  // beyond it, and out of memory: `failed` is untouched
      }
    }
  }
  // The client is being destroyed (this is inside platformpp_client_destroy, or a callback it runs), or not
  // even the queue could grow: the callback runs now rather than never.
  Run(failed, closed ? destroyed_ : failed.result);
}

bool Boundary::Pending() const noexcept {
  std::lock_guard lock(mutex_);
  return !queue_.empty();
}

platformpp::core::GameThreadLatch::Entry Boundary::BeginDelivery(const char* entry) noexcept {
  const auto result = delivery_.Enter();
  if (result == platformpp::core::GameThreadLatch::Entry::Refused) {
    if (auto logger = logger_.lock()) platformpp::core::LogRefusal(delivery_, *logger, entry);
  }
  return result;
}

void Boundary::Deliver() noexcept {
  size_t budget = 0;
  {
    std::lock_guard lock(mutex_);
    budget = queue_.size();  // what callbacks queue meanwhile waits for the next run_callbacks
  }
  for (; budget > 0; --budget) {
    FailedOperation next;
    {
      std::lock_guard lock(mutex_);
      if (closed_ || queue_.empty()) return;
      next = std::move(queue_.front());
      queue_.erase(queue_.begin());  // keeps the reserve
    }
    Run(next, next.result);
  }
}

void Boundary::Close() noexcept {
  std::vector<FailedOperation> due;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    due.swap(queue_);
  }
  for (auto& failed : due)
    Run(failed, destroyed_);
}

void Boundary::Run(FailedOperation& failed, const platformpp::ClientResult& result) noexcept {
  platformpp_client_result view{result};
  try {
    failed.complete(failed, &view);
  } catch (...) {  // a C++ caller's callback threw: it ran, and there is nowhere else to report it
    Log("platformpp_client_run_callbacks", std::current_exception(), "a callback threw");
  }
}

}  // namespace platformpp::c_api
