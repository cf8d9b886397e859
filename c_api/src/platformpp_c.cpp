// The C ABI over platformpp::Client. Nothing may throw across this boundary: every entry point catches.
#include <platformpp/platformpp_c.h>

#include <platformpp/client.hpp>
#include <platformpp/version.hpp>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

struct platformpp_client {
  platformpp::Client client;
  explicit platformpp_client(platformpp::ClientOptions options) : client(std::move(options)) {}
};

struct platformpp_client_result {
  platformpp::ClientResult result;
};

namespace {

std::string ToString(const char* ptr, size_t size) {
  return ptr && size ? std::string(ptr, size) : std::string();
}
std::string ToString(platformpp_string s) {
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

std::shared_ptr<UserData> Own(void* data, platformpp_user_data_free_fn free) {
  try {
    return std::make_shared<UserData>(data, free);
  } catch (...) {
    if (free) free(data);
    throw;
  }
}

char* CopyOut(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out) std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

}  // namespace

extern "C" {

void platformpp_version(int32_t* major, int32_t* minor, int32_t* patch) {
  if (major) *major = PLATFORMPP_VERSION_MAJOR;
  if (minor) *minor = PLATFORMPP_VERSION_MINOR;
  if (patch) *patch = PLATFORMPP_VERSION_PATCH;
}

const char* platformpp_version_string(void) {
  return PLATFORMPP_VERSION_STRING;
}

void platformpp_free(void* ptr) {
  std::free(ptr);
}

void platformpp_client_options_init(platformpp_client_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
  options->use_system_certificates = 1;
}

platformpp_client* platformpp_client_create(const platformpp_client_options* options) {
  try {
    platformpp::ClientOptions cpp;
    if (options) {
      if (options->api_version != PLATFORMPP_C_API_VERSION) return nullptr;
      std::string apiBase = ToString(options->api_base);
      if (!apiBase.empty()) cpp.apiBase = std::move(apiBase);
      cpp.caFile = ToString(options->ca_file);
      cpp.useSystemCertificates = options->use_system_certificates != 0;
    }
    return new platformpp_client(std::move(cpp));
  } catch (...) {
    return nullptr;
  }
}

void platformpp_client_destroy(platformpp_client* client) {
  delete client;
}

void platformpp_client_run_callbacks(platformpp_client* client) {
  if (!client) return;
  // A callback may destroy the client; Client::RunCallbacks copes, and so must we: touch nothing afterwards.
  try {
    client->client.RunCallbacks();
  } catch (...) {
    // A C callback cannot throw; a C++ exception escaping one here has nowhere to go.
  }
}

void platformpp_client_set_application_id(platformpp_client* client, uint64_t application_id) {
  if (client) client->client.SetApplicationId(application_id);
}

uint64_t platformpp_client_get_application_id(const platformpp_client* client) {
  return client ? client->client.GetApplicationId() : 0;
}

void platformpp_client_set_http_request_timeout(platformpp_client* client, int32_t milliseconds) {
  if (client) client->client.SetHttpRequestTimeout(milliseconds);
}

int32_t platformpp_client_get_http_request_timeout(const platformpp_client* client) {
  return client ? client->client.GetHttpRequestTimeout() : 0;
}

void platformpp_client_add_log_callback(platformpp_client* client, platformpp_log_fn callback,
                                        platformpp_logging_severity min_severity, void* user_data,
                                        platformpp_user_data_free_fn user_data_free) {
  if (!client || !callback) {
    if (user_data_free) user_data_free(user_data);
    return;
  }
  try {
    auto owned = Own(user_data, user_data_free);
    client->client.AddLogCallback(
        [callback, owned](std::string message, platformpp::LoggingSeverity severity) {
          callback(message.c_str(), message.size(), static_cast<platformpp_logging_severity>(severity),
                   owned->Get());
        },
        static_cast<platformpp::LoggingSeverity>(min_severity));
  } catch (...) {
  }
}

int32_t platformpp_client_set_log_dir(platformpp_client* client, const char* path, size_t path_size,
                                      platformpp_logging_severity min_severity) {
  if (!client) return 0;
  try {
    return client->client.SetLogDir(ToString(path, path_size),
                                    static_cast<platformpp::LoggingSeverity>(min_severity))
               ? 1
               : 0;
  } catch (...) {
    return 0;
  }
}

void platformpp_client_fetch_current_user(platformpp_client* client,
                                          platformpp_authorization_token_type token_type, const char* token,
                                          size_t token_size, platformpp_fetch_current_user_fn callback,
                                          void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) {
    if (user_data_free) user_data_free(user_data);
    return;
  }
  try {
    auto owned = Own(user_data, user_data_free);
    client->client.FetchCurrentUser(
        static_cast<platformpp::AuthorizationTokenType>(token_type), ToString(token, token_size),
        [callback, owned](platformpp::ClientResult result, uint64_t id, std::string name) {
          if (!callback) return;
          platformpp_client_result view{std::move(result)};
          callback(&view, id, name.c_str(), name.size(), owned->Get());
        });
  } catch (...) {
  }
}

platformpp_error_type platformpp_client_result_type(const platformpp_client_result* result) {
  return result ? static_cast<platformpp_error_type>(result->result.Type()) : PLATFORMPP_ERROR_TYPE_NONE;
}

int32_t platformpp_client_result_successful(const platformpp_client_result* result) {
  return !result || result->result.Successful() ? 1 : 0;
}

int32_t platformpp_client_result_status(const platformpp_client_result* result) {
  return result ? result->result.Status() : 0;
}

int32_t platformpp_client_result_error_code(const platformpp_client_result* result) {
  return result ? result->result.ErrorCode() : 0;
}

const char* platformpp_client_result_error(const platformpp_client_result* result, size_t* size) {
  static const char kEmpty[] = "";
  if (!result) {
    if (size) *size = 0;
    return kEmpty;
  }
  const std::string& error = result->result.Error();
  if (size) *size = error.size();
  return error.c_str();
}

int32_t platformpp_client_result_retryable(const platformpp_client_result* result) {
  return result && result->result.Retryable() ? 1 : 0;
}

float platformpp_client_result_retry_after(const platformpp_client_result* result) {
  return result ? result->result.RetryAfter() : 0.0f;
}

char* platformpp_client_result_to_string(const platformpp_client_result* result) {
  try {
    return CopyOut(result ? result->result.ToString() : std::string("None"));
  } catch (...) {
    return nullptr;
  }
}

platformpp_client_result* platformpp_client_result_clone(const platformpp_client_result* result) {
  if (!result) return nullptr;
  return new (std::nothrow) platformpp_client_result{result->result};
}

void platformpp_client_result_destroy(platformpp_client_result* result) {
  delete result;
}

}  // extern "C"
