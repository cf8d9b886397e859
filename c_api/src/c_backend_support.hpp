#pragma once
// What the game server's C translation units share (platformpp_c_backend.cpp, platformpp_c_interactions.cpp):
// the handles both use and the registration of a log callback on a handle without a client.
#include "c_support.hpp"

#include <platformpp/backend.hpp>
#include <platformpp/interactions_endpoint.hpp>

#include "backend/backend_access.hpp"

#include <memory>
#include <utility>

struct platformpp_interaction {
  platformpp::backend::Interaction interaction;
};

struct platformpp_backend {
  std::shared_ptr<platformpp::c_api::Boundary> boundary;
  // Shared: an interactions endpoint or Gateway session sends late answers through it.
  std::shared_ptr<platformpp::backend::BackendClient> backend;
  explicit platformpp_backend(const platformpp::backend::BackendOptions& options)
      : backend(std::make_shared<platformpp::backend::BackendClient>(options)) {
    boundary =
        std::make_shared<platformpp::c_api::Boundary>(platformpp::backend::BackendAccess::LoggerOf(*backend));
  }
  ~platformpp_backend() { boundary->Close(); }  // before the BackendClient ends its pending operations
  platformpp_backend(const platformpp_backend&) = delete;
  platformpp_backend& operator=(const platformpp_backend&) = delete;
};

namespace platformpp::c_api {

// Registers a log callback on a handle without a client (a NULL handle or callback frees user_data).
template <class Handle, class Add>
void AddLogCallback(Handle* handle, const char* entry, platformpp_log_fn callback,
                    const platformpp_logging_severity& min_severity, void* user_data,
                    platformpp_user_data_free_fn user_data_free, Add&& add) noexcept {
  if (!handle || !callback) return Refuse(user_data, user_data_free);
  Guarded(
      handle->boundary.get(), entry,
      [&] {
        add(ForwardLog(callback, Own(user_data, user_data_free)),
            FromCEnum<platformpp::LoggingSeverity>(min_severity));
      },
      kNotRegistered);
}

}  // namespace platformpp::c_api
