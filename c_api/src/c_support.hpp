#pragma once
// What the C ABI's translation units share: the opaque structs behind the handles and the helpers that move
// strings, results and user_data across the boundary.
#include <platformpp/platformpp_c.h>

#include <platformpp/client.hpp>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
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

}  // namespace platformpp::c_api

struct platformpp_client {
  // Declared before `client` so that it is destroyed after it: once the Client has joined its threads and
  // dropped every callback, the frees still queued run here, inside platformpp_client_destroy.
  platformpp::c_api::ClientFrees frees;
  platformpp::Client client;
  explicit platformpp_client(platformpp::ClientOptions options) : client(std::move(options)) {}
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

inline const char* EmptyOut(size_t* size) {
  if (size) *size = 0;
  return "";
}

// A C++ token-exchange callback that forwards to a C one (which may be NULL) and owns its user_data.
inline platformpp::Client::TokenExchangeCallback TokenExchange(platformpp_token_exchange_fn callback,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free) {
  return [callback, owned = Own(user_data, user_data_free)](
             platformpp::ClientResult result, std::string access, std::string refresh,
             platformpp::AuthorizationTokenType type, int32_t expiresIn, std::string scopes) {
    if (!callback) return;
    platformpp_client_result view{std::move(result)};
    callback(&view, access.c_str(), access.size(), refresh.c_str(), refresh.size(),
             static_cast<platformpp_authorization_token_type>(type), expiresIn, scopes.c_str(), scopes.size(),
             owned->Get());
  };
}

inline std::function<void(platformpp::ClientResult)> ResultOnly(platformpp_result_fn callback,
                                                                void* user_data,
                                                                platformpp_user_data_free_fn user_data_free) {
  return [callback, owned = Own(user_data, user_data_free)](platformpp::ClientResult result) {
    if (!callback) return;
    platformpp_client_result view{std::move(result)};
    callback(&view, owned->Get());
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

// Registers (or, for a NULL callback, clears) a callback that gets one id.
template <class Setter>
void SetUserIdCallback(platformpp_client* client, platformpp_user_id_fn callback, void* user_data,
                       platformpp_user_data_free_fn user_data_free, Setter set) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = Own(user_data, user_data_free);
    if (!callback) {
      set(nullptr);
      return;
    }
    set([callback, owned](uint64_t userId) { callback(userId, owned->Get()); });
  } catch (...) {
  }
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
platformpp_activity* NewActivity(const platformpp::Activity& activity);

}  // namespace platformpp::c_api
