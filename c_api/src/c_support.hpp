#pragma once
// What the C ABI's translation units share: the opaque structs behind the handles, the helpers that move
// strings, results and user_data across the boundary, and the Boundary that stops every exception there.
//
// No exception may reach C, and none may vanish: every entry point runs its C++ work inside a guard. An
// exception is logged at Error through the client's logger (its log callbacks and log file), naming the C
// function and the exception. An entry point that started an operation still completes it exactly once: its
// callback runs with PLATFORMPP_ERROR_TYPE_ABORTED inside the next platformpp_client_run_callbacks (or with
// CLIENT_DESTROYED inside platformpp_client_destroy), unless the C++ layer completed it first. Entry points
// without a client (handle getters and builders) report through their return value instead: NULL, "" where
// documented, or an activity that platformpp_client_update_rich_presence refuses, saying which setter failed.
#include <platformpp/platformpp_c.h>

#include <platformpp/client.hpp>

#include "client/client_access.hpp"
#include "core/game_thread.hpp"
#include "core/logger.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace platformpp::c_api {

// user_data_free calls of callbacks that the library may drop on one of its own threads (the voice thread
// drops the audio callbacks, the network thread may drop a call's last reference): queued here, they run on
// the caller's thread, in platformpp_client_run_callbacks or platformpp_client_destroy. Once closed (the
// client is gone), a free runs at once on the thread that releases the user_data.
class DeferredFrees {
 public:
  void Push(void* data, platformpp_user_data_free_fn free) noexcept {
    {
      std::lock_guard lock(mutex_);
      if (!closed_) {
        try {
          pending_.emplace_back(data, free);
          return;
        } catch (...) {  // out of memory: better now, on this thread, than never
        }
      }
    }
    free(data);
  }
  void Drain() noexcept { Run(false); }
  void Close() noexcept { Run(true); }

 private:
  void Run(bool close) noexcept {
    std::vector<std::pair<void*, platformpp_user_data_free_fn>> due;
    {
      std::lock_guard lock(mutex_);
      if (close) closed_ = true;
      due.swap(pending_);
    }
    for (auto& [data, free] : due)
      free(data);
  }

  std::mutex mutex_;
  std::vector<std::pair<void*, platformpp_user_data_free_fn>> pending_;
  bool closed_ = false;
};

// The client's queue of deferred frees, closed (its frees run) when the client is destroyed.
struct ClientFrees {
  std::shared_ptr<DeferredFrees> queue = std::make_shared<DeferredFrees>();
  ClientFrees() = default;
  ClientFrees(const ClientFrees&) = delete;
  ClientFrees& operator=(const ClientFrees&) = delete;
  ~ClientFrees() { queue->Close(); }
};

/// "std::length_error: basic_string::_M_create": the exception's type and message. May throw (out of memory).
std::string Describe(const std::exception_ptr& error);

/// An operation that an exception stopped at the boundary, waiting for its callback to run.
struct FailedOperation {
  /// Calls the callback with `result` and empty values, unless the C++ layer did already, and lets go of
  /// user_data (freed when nothing else holds it).
  void (*complete)(FailedOperation& self, const platformpp_client_result* result) = nullptr;
  std::shared_ptr<void> operation;  // the Operation, when it could be made; else what the caller gave:
  void (*callback)() = nullptr;     // the C callback (cast back by `complete`),
  void* data = nullptr;             // its user_data
  platformpp_user_data_free_fn free = nullptr;  // and user_data_free
  platformpp::ClientResult result;              // Aborted, naming the entry point and the exception
};

// One client's side of the boundary: where its exceptions are logged (the Client's logger) and where the
// operations they stopped wait for platformpp_client_run_callbacks. Shared with the client's call handles.
class Boundary {
 public:
  /// Makes, ahead of need, what reporting a failure needs; throws when even that is impossible.
  explicit Boundary(std::weak_ptr<platformpp::core::Logger> logger);
  Boundary(const Boundary&) = delete;
  Boundary& operator=(const Boundary&) = delete;

  /// Logs at Error that `error` stopped the C function `entry`, and what became of the call. Never throws.
  void Log(const char* entry, const std::exception_ptr& error, const char* consequence) noexcept;
  /// Logs `message` at Error. Never throws.
  void LogMessage(const std::string& message) noexcept;
  /// Aborted, saying that `error` stopped `entry` (a shorter result when even that cannot be made).
  platformpp::ClientResult Failure(const char* entry, const std::exception_ptr& error) const noexcept;
  /// `error` stopped `entry`, which had started an operation: logged, and its callback queued to run with
  /// Aborted. When the client is being destroyed, or not even that can be queued (out of memory), the
  /// callback runs now (with ClientDestroyed, or Aborted).
  void Fail(const char* entry, const std::exception_ptr& error, FailedOperation failed) noexcept;

  /// True when a failed operation waits for run_callbacks.
  bool Pending() const noexcept;
  /// platformpp_client_run_callbacks and wait_for_callbacks bracket their work with these: only the outermost
  /// call delivers failed operations, so that a callback's nested run_callbacks runs nothing, and a second
  /// thread's call while a first is inside is refused (logged; core/game_thread.hpp). EndDelivery only after
  /// a BeginDelivery that returned First.
  platformpp::core::GameThreadLatch::Entry BeginDelivery(const char* entry) noexcept;
  void EndDelivery() noexcept { delivery_.Leave(); }
  /// Runs the failed operations queued before the call, in order, with their results; stops when a callback
  /// destroyed the client (Close ran the rest).
  void Deliver() noexcept;
  /// The client is being destroyed: the queued operations end with ClientDestroyed, now, and so does any
  /// that fails later.
  void Close() noexcept;

 private:
  void Run(FailedOperation& failed, const platformpp::ClientResult& result) noexcept;

  std::weak_ptr<platformpp::core::Logger> logger_;
  platformpp::ClientResult destroyed_;  // made ahead: copies do not allocate
  platformpp::ClientResult aborted_;    // for when the failure's own result cannot be made
  mutable std::mutex mutex_;
  std::vector<FailedOperation> queue_;  // capacity reserved ahead
  bool closed_ = false;
  platformpp::core::GameThreadLatch delivery_;
};

// The C side of one operation: its callback and user_data, shared by the C++ layer's completion and the
// boundary's failure path. Whichever comes first claims the callback, so it runs exactly once; user_data is
// freed once, when the last holder lets go (through `frees` when set: voice operations may be dropped on a
// library thread, and user_data_free must run on the caller's).
template <class Fn>
class Operation {
 public:
  Operation(std::shared_ptr<Boundary> boundary, const char* entry, Fn callback, void* data,
            platformpp_user_data_free_fn free, std::shared_ptr<DeferredFrees> frees) noexcept
      : boundary_(std::move(boundary)),
        entry_(entry),
        callback_(callback),
        data_(data),
        free_(free),
        frees_(std::move(frees)) {}
  ~Operation() {
    if (!free_) return;
    if (frees_) {
      frees_->Push(data_, free_);
    } else {
      free_(data_);
    }
  }
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  /// The callback, to the first caller only: null after that (and when the caller gave none).
  Fn Claim() noexcept { return claimed_.exchange(true, std::memory_order_acq_rel) ? nullptr : callback_; }
  void* Data() const noexcept { return data_; }
  /// For a C++ completion that cannot hand its values over (an exception while building them): logs it and
  /// gives the result to run the claimed callback with (Aborted).
  platformpp::ClientResult Fail(const std::exception_ptr& error) const noexcept {
    boundary_->Log(entry_, error, "its callback runs with Aborted");
    return boundary_->Failure(entry_, error);
  }

 private:
  std::shared_ptr<Boundary> boundary_;
  const char* entry_;
  Fn callback_;
  void* data_;
  platformpp_user_data_free_fn free_;
  std::shared_ptr<DeferredFrees> frees_;
  std::atomic<bool> claimed_{false};
};

template <class Fn>
using OperationPtr = std::shared_ptr<Operation<Fn>>;

// The failed completion of each callback shape: the result, and the empty values the header documents for
// a failure ("" strings, never NULL; empty arrays as NULL with 0). Typedefs of one shape share an overload
// (platformpp_join_secret_fn and platformpp_string_result_fn, platformpp_lobby_id_result_fn and
// platformpp_message_id_result_fn).
inline void CallFailed(platformpp_result_fn callback, const platformpp_client_result* result, void* data) {
  callback(result, data);
}
inline void CallFailed(platformpp_token_exchange_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, "", 0, "", 0, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, 0, "", 0, data);
}
inline void CallFailed(platformpp_child_token_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, "", 0, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, 0, "", 0, data);
}
inline void CallFailed(platformpp_fetch_current_user_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, 0, "", 0, data);
}
inline void CallFailed(platformpp_authorization_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, "", 0, "", 0, data);
}
inline void CallFailed(platformpp_string_result_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, "", 0, data);
}
inline void CallFailed(platformpp_lobby_id_result_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, 0, data);
}
inline void CallFailed(platformpp_user_guilds_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, nullptr, 0, data);
}
inline void CallFailed(platformpp_guild_channels_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, nullptr, 0, data);
}
inline void CallFailed(platformpp_messages_fn callback, const platformpp_client_result* result, void* data) {
  callback(result, nullptr, 0, data);
}
inline void CallFailed(platformpp_user_message_summaries_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, nullptr, 0, data);
}
inline void CallFailed(platformpp_entitlements_result_fn callback, const platformpp_client_result* result,
                       void* data) {
  callback(result, nullptr, 0, data);
}
// Voice completions without a result: they run with what "nothing" looks like to them.
inline void CallFailed(platformpp_notify_fn callback, const platformpp_client_result*, void* data) {
  callback(data);
}
inline void CallFailed(platformpp_audio_devices_fn callback, const platformpp_client_result*, void* data) {
  callback(nullptr, 0, data);
}
inline void CallFailed(platformpp_audio_device_fn callback, const platformpp_client_result*, void* data) {
  const platformpp_audio_device none{"", 0, "", 0, 0};
  callback(&none, data);
}
inline void CallFailed(platformpp_call_verification_code_fn callback, const platformpp_client_result*,
                       void* data) {
  callback("", 0, data);
}
// Game server (platformpp_c_backend.cpp): an empty profile.
void CallFailed(platformpp_game_stats_profile_fn callback, const platformpp_client_result* result,
                void* data);

template <class Fn>
void CompleteFailed(FailedOperation& failed, const platformpp_client_result* result) {
  if (failed.operation) {
    auto* operation = static_cast<Operation<Fn>*>(failed.operation.get());
    std::shared_ptr<void> keep = std::move(failed.operation);  // user_data goes with the last holder
    if (Fn callback = operation->Claim()) CallFailed(callback, result, operation->Data());
    return;
  }
  struct FreeAfter {  // also when a C++ caller's callback throws
    platformpp_user_data_free_fn free;
    void* data;
    ~FreeAfter() {
      if (free) free(data);
    }
  } freeAfter{std::exchange(failed.free, nullptr), failed.data};
  if (failed.callback) CallFailed(reinterpret_cast<Fn>(failed.callback), result, failed.data);
}

/// Starts an operation of the C function `entry` whose C `callback` must run exactly once: `start(op)`
/// hands `op` (which owns user_data) to the C++ layer. If making `op` or `start` throws, the boundary logs
/// it and completes the operation with Aborted (unless the C++ layer completed it first). `frees`: see
/// Operation.
template <class Fn, class Start>
void StartOperation(const std::shared_ptr<Boundary>& boundary, const char* entry, Fn callback, void* data,
                    platformpp_user_data_free_fn free, const std::shared_ptr<DeferredFrees>& frees,
                    Start&& start) noexcept {
  FailedOperation failed;
  failed.complete = &CompleteFailed<Fn>;
  try {
    auto op = std::make_shared<Operation<Fn>>(boundary, entry, callback, data, free, frees);
    failed.operation = op;
    start(op);
    return;
  } catch (...) {
    if (!failed.operation) {  // not even the Operation could be made: the failure owns what the caller gave
      failed.callback = reinterpret_cast<void (*)()>(callback);
      failed.data = data;
      failed.free = free;
    }
    boundary->Fail(entry, std::current_exception(), std::move(failed));
  }
}

/// Runs `body` for the C function `entry`; an exception is logged through `boundary` (when there is one),
/// and `fallback` returned instead.
template <class R, class Body>
R GuardedOr(Boundary* boundary, const char* entry, R fallback, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    if (boundary) boundary->Log(entry, std::current_exception(), "it returns its failure value");
    return fallback;
  }
}

/// The same for a call that returns nothing; `consequence` says what became of it.
template <class Body>
void Guarded(Boundary* boundary, const char* entry, Body&& body,
             const char* consequence = "the call returns early") noexcept {
  try {
    body();
  } catch (...) {
    if (boundary) boundary->Log(entry, std::current_exception(), consequence);
  }
}

/// platformpp_{client,backend}_run_callbacks: `run` (the C++ object's RunCallbacks) inside the boundary's
/// delivery bracket, then, for the outermost call, the operations an exception stopped. `boundary` is a copy:
/// a callback may destroy the object, and only it is touched afterwards.
template <class Run>
void RunCallbacksAtBoundary(const std::shared_ptr<Boundary>& boundary, const char* entry,
                            Run&& run) noexcept {
  using Entry = platformpp::core::GameThreadLatch::Entry;
  const Entry delivery = boundary->BeginDelivery(entry);
  if (delivery == Entry::Refused) return;  // another thread is inside: logged, nothing runs here
  Guarded(boundary.get(), entry, std::forward<Run>(run),
          "a callback threw; the ones after it run at the next run_callbacks");
  if (delivery == Entry::First) {
    boundary->Deliver();  // the operations an exception stopped, with Aborted
    boundary->EndDelivery();
  }
}

/// platformpp_{client,backend}_wait_for_callbacks: 1 at once when a failed operation waits, else `wait` (the
/// C++ object's WaitForCallbacks); 0 when another thread is inside (logged).
template <class Wait>
int32_t WaitForCallbacksAtBoundary(Boundary& boundary, const char* entry, Wait&& wait) noexcept {
  using Entry = platformpp::core::GameThreadLatch::Entry;
  const Entry delivery = boundary.BeginDelivery(entry);
  if (delivery == Entry::Refused) return 0;
  const int32_t ready = boundary.Pending() ? 1 : GuardedOr(&boundary, entry, 0, std::forward<Wait>(wait));
  if (delivery == Entry::First) boundary.EndDelivery();
  return ready;
}

inline constexpr const char* kNotRegistered = "nothing was registered (user_data is freed)";

}  // namespace platformpp::c_api

struct platformpp_client {
  // Declared before `client` so that they are destroyed after it: once the Client has joined its threads and
  // dropped every callback, the frees still queued run here, inside platformpp_client_destroy.
  platformpp::c_api::ClientFrees frees;
  std::shared_ptr<platformpp::c_api::Boundary> boundary;
  platformpp::Client client;
  explicit platformpp_client(platformpp::ClientOptions options) : client(std::move(options)) {
    boundary =
        std::make_shared<platformpp::c_api::Boundary>(platformpp::client::ClientAccess::LoggerOf(client));
  }
  ~platformpp_client() { boundary->Close(); }  // before the Client goes: its callbacks may still use it
  platformpp_client(const platformpp_client&) = delete;
  platformpp_client& operator=(const platformpp_client&) = delete;
};

struct platformpp_client_result {
  platformpp::ClientResult result;
};

struct platformpp_user_handle {
  platformpp::UserHandle user;
  std::string username, displayName;
  std::optional<std::string> avatar, tag;
  mutable std::string avatarUrl;  // the last avatar_url answer
};

struct platformpp_authorization_code_verifier {
  platformpp::AuthorizationCodeVerifier verifier;
};

namespace platformpp::c_api {

// Whether an option struct's api_version is one this library reads: any from 1 to PLATFORMPP_C_API_VERSION
// (the fields a version added are read only when the struct is of that version or later).
inline bool KnownApiVersion(int32_t version) {
  return version >= 1 && version <= PLATFORMPP_C_API_VERSION;
}

inline std::string ToString(const char* ptr, size_t size) {
  return ptr && size ? std::string(ptr, size) : std::string();
}
inline std::string ToString(platformpp_string s) {
  return ToString(s.ptr, s.size);
}

// Owns a caller's user_data and frees it exactly once, when the last callback that could use it is gone.
class UserData {
 public:
  UserData(void* data, platformpp_user_data_free_fn free) : data_(data), free_(free) {}
  ~UserData() {
    if (free_) free_(data_);
  }
  UserData(const UserData&) = delete;
  UserData& operator=(const UserData&) = delete;
  void* Get() const noexcept { return data_; }

 private:
  void* data_;
  platformpp_user_data_free_fn free_;
};

inline std::shared_ptr<UserData> Own(void* data, platformpp_user_data_free_fn free) {
  try {
    return std::make_shared<UserData>(data, free);
  } catch (...) {
    if (free) free(data);
    throw;
  }
}

// Owns a caller's user_data like UserData, but hands its free to a DeferredFrees queue (see there).
class DeferredUserData {
 public:
  DeferredUserData(std::shared_ptr<DeferredFrees> frees, void* data, platformpp_user_data_free_fn free)
      : frees_(std::move(frees)), data_(data), free_(free) {}
  ~DeferredUserData() {
    if (free_) frees_->Push(data_, free_);
  }
  DeferredUserData(const DeferredUserData&) = delete;
  DeferredUserData& operator=(const DeferredUserData&) = delete;
  void* Get() const noexcept { return data_; }

 private:
  std::shared_ptr<DeferredFrees> frees_;
  void* data_;
  platformpp_user_data_free_fn free_;
};

inline std::shared_ptr<DeferredUserData> OwnDeferred(std::shared_ptr<DeferredFrees> frees, void* data,
                                                     platformpp_user_data_free_fn free) {
  try {
    return std::make_shared<DeferredUserData>(std::move(frees), data, free);
  } catch (...) {
    if (free) free(data);
    throw;
  }
}

inline const char* StringOut(const std::string& text, size_t* size) {
  if (size) *size = text.size();
  return text.c_str();
}

// An optional text out: NULL and size 0 when it is absent (nullopt_t: a field the binding never has).
inline const char* OptionalOut(std::nullopt_t, size_t* size) {
  if (size) *size = 0;
  return nullptr;
}
inline const char* OptionalOut(const std::optional<std::string>& value, size_t* size) {
  if (!value) return OptionalOut(std::nullopt, size);
  return StringOut(*value, size);
}

// A view of `text` for a callback's argument: valid while `text` is.
inline platformpp_string View(const std::string& text) noexcept {
  return platformpp_string{text.c_str(), text.size()};
}

// A C enum argument as its C++ twin. C passes any int for an enum, but in C++ a C enum's values are only
// those its enumerators span (0 to 0x7FFFFFFF here), so loading -1 from it is undefined: it is read as its
// bytes. The C++ enums have a fixed underlying type and take any value.
template <class From>
int32_t CEnumValue(const From& value) noexcept {
  static_assert(std::is_enum_v<From> && sizeof(From) == sizeof(int32_t), "a C enum of the ABI");
  int32_t raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}
template <class To, class From>
To FromCEnum(const From& value) noexcept {
  return static_cast<To>(CEnumValue(value));
}

inline const char* EmptyOut(size_t* size) {
  if (size) *size = 0;
  return "";
}

// C++ completions that forward to a C callback (which may be NULL) through its Operation.

inline platformpp::Client::TokenExchangeCallback TokenExchange(
    OperationPtr<platformpp_token_exchange_fn> op) {
  return [op = std::move(op)](platformpp::ClientResult result, const std::string& access,
                              const std::string& refresh, platformpp::AuthorizationTokenType type,
                              int32_t expiresIn, const std::string& scopes) {
    auto callback = op->Claim();
    if (!callback) return;
    platformpp_client_result view{std::move(result)};
    callback(&view, access.c_str(), access.size(), refresh.c_str(), refresh.size(),
             static_cast<platformpp_authorization_token_type>(type), expiresIn, scopes.c_str(), scopes.size(),
             op->Data());
  };
}

inline std::function<void(platformpp::ClientResult)> ResultOnly(OperationPtr<platformpp_result_fn> op) {
  return [op = std::move(op)](platformpp::ClientResult result) {
    auto callback = op->Claim();
    if (!callback) return;
    platformpp_client_result view{std::move(result)};
    callback(&view, op->Data());
  };
}

// user_data of a call refused for a NULL client.
inline void Refuse(void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (user_data_free) user_data_free(user_data);
}

inline char* CopyOut(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out) std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

inline platformpp_user_handle MakeUser(const platformpp::UserHandle& user) {
  return platformpp_user_handle{user,          user.Username(),        user.DisplayName(),
                                user.Avatar(), user.PrimaryGuildTag(), {}};
}

// Registers an event callback, or clears it (set(nullptr)) for a NULL one: `own()` takes the caller's
// user_data (Own or OwnDeferred), `adapt(callback, owned)` makes the C++ callable that calls `callback` with
// that user_data last. The one way every event of the C ABI is registered, so that each frees its user_data
// once and stops exceptions at the boundary alike.
template <class CallbackFn, class OwnFn, class Setter, class Adapt>
void RegisterCallback(Boundary* boundary, const char* entry, CallbackFn callback, OwnFn&& own, Setter&& set,
                      Adapt&& adapt) {
  Guarded(
      boundary, entry,
      [&] {
        auto owned = own();
        if (!callback) {
          set(nullptr);
          return;  // `owned` lets user_data go here
        }
        set(adapt(callback, std::move(owned)));
      },
      kNotRegistered);
}

// RegisterCallback for an event of `client`, its user_data freed when the registration ends.
template <class CallbackFn, class Setter, class Adapt>
void RegisterEventCallback(platformpp_client* client, const char* entry, CallbackFn callback, void* user_data,
                           platformpp_user_data_free_fn user_data_free, Setter&& set, Adapt&& adapt) {
  if (!client) return Refuse(user_data, user_data_free);
  RegisterCallback(
      client->boundary.get(), entry, callback, [&] { return Own(user_data, user_data_free); }, set, adapt);
}

// The same for the events the voice engine raises off the game thread: the free of a replaced registration
// waits for the next run_callbacks (see DeferredFrees).
template <class CallbackFn, class Setter, class Adapt>
void RegisterDeferredEventCallback(platformpp_client* client, const char* entry, CallbackFn callback,
                                   void* user_data, platformpp_user_data_free_fn user_data_free, Setter&& set,
                                   Adapt&& adapt) {
  if (!client) return Refuse(user_data, user_data_free);
  RegisterCallback(
      client->boundary.get(), entry, callback,
      [&] { return OwnDeferred(client->frees.queue, user_data, user_data_free); }, set, adapt);
}

// Copies a handle for the caller (NULL stays NULL; out of memory: NULL is the report).
template <class Handle>
Handle* CloneHandle(const Handle* handle) noexcept {
  if (!handle) return nullptr;
  try {
    return new Handle(*handle);
  } catch (...) {
    return nullptr;
  }
}

// The C++ log callback that hands each line to a C one, with `owned`'s user_data.
template <class Owned>
auto ForwardLog(platformpp_log_fn callback, Owned owned) {
  return
      [callback, owned = std::move(owned)](const std::string& message, platformpp::LoggingSeverity severity) {
        callback(message.c_str(), message.size(), static_cast<platformpp_logging_severity>(severity),
                 owned->Get());
      };
}

// Registers (or, for a NULL callback, clears) a callback that gets one id.
template <class Setter>
void SetUserIdCallback(platformpp_client* client, const char* entry, platformpp_user_id_fn callback,
                       void* user_data, platformpp_user_data_free_fn user_data_free, Setter set) {
  RegisterEventCallback(client, entry, callback, user_data, user_data_free, set, [](auto fn, auto owned) {
    return [fn, owned](uint64_t userId) { fn(userId, owned->Get()); };
  });
}

// A result-only operation of `client`: `start(done)` calls the C++ method with the completion `done`.
template <class Start>
void ResultOperation(platformpp_client* client, const char* entry, platformpp_result_fn callback,
                     void* user_data, platformpp_user_data_free_fn user_data_free, Start&& start) noexcept {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_result_fn>& op) { start(ResultOnly(op)); });
}

// Borrowed C pairs -> Metadata; NULL with count 0 is empty.
inline platformpp::Metadata ToMetadata(const platformpp_string_pair* pairs, size_t count) {
  platformpp::Metadata metadata;
  for (size_t i = 0; pairs && i < count; ++i)
    metadata[ToString(pairs[i].key)] = ToString(pairs[i].value);
  return metadata;
}

// Metadata kept alive for C views of it (pointers into `strings`).
struct MetadataView {
  std::vector<std::pair<std::string, std::string>> strings;
  std::vector<platformpp_string_pair> pairs;

  MetadataView() = default;
  explicit MetadataView(const platformpp::Metadata& metadata) : strings(metadata.begin(), metadata.end()) {
    pairs.reserve(strings.size());
    for (const auto& [key, value] : strings)
      pairs.push_back(platformpp_string_pair{{key.c_str(), key.size()}, {value.c_str(), value.size()}});
  }
  MetadataView(const MetadataView&) = delete;
  MetadataView& operator=(const MetadataView&) = delete;
  // Moving the vectors hands over their buffers; the strings stay where they are, so `pairs` stays valid.
  MetadataView(MetadataView&& other) noexcept = default;
};

/// A new activity handle (the caller's to destroy), or NULL when out of memory.
platformpp_activity* NewActivity(const platformpp::Activity& activity) noexcept;

}  // namespace platformpp::c_api
