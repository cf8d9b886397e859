// The C ABI over platformpp::Client. Nothing may throw across this boundary, and nothing thrown may vanish:
// every entry point runs its C++ work guarded (see c_support.hpp).
#include "c_support.hpp"
#include "enum_values.g.hpp"  // every C enumerator equals its C++ twin (c_api/enum_values.py)

#include <platformpp/platformpp_c.h>

#include <platformpp/client.hpp>
#include <platformpp/version.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>

using namespace platformpp::c_api;

namespace {

// Clients created and not yet destroyed, for platformpp_debug_live_client_count.
std::atomic<size_t> liveClients{0};

platformpp::Client::AuthorizationCallback AuthorizationDone(OperationPtr<platformpp_authorization_fn> op) {
  return [op = std::move(op)](platformpp::ClientResult result, const std::string& code,
                              const std::string& redirect) {
    auto callback = op->Claim();
    if (!callback) return;
    platformpp_client_result view{std::move(result)};
    callback(&view, code.c_str(), code.size(), redirect.c_str(), redirect.size(), op->Data());
  };
}

template <class Start>
void TokenOperation(platformpp_client* client, const char* entry, platformpp_token_exchange_fn callback,
                    void* user_data, platformpp_user_data_free_fn user_data_free, Start&& start) noexcept {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_token_exchange_fn>& op) { start(TokenExchange(op)); });
}

// Registers an event callback that takes only user_data (a NULL callback clears it with `clear`).
template <class Set, class Clear>
void SetEventCallback(platformpp_client* client, const char* entry, platformpp_event_fn callback,
                      void* user_data, platformpp_user_data_free_fn user_data_free, Set&& set,
                      Clear&& clear) noexcept {
  RegisterEventCallback(
      client, entry, callback, user_data, user_data_free,
      [&](auto callable) {
        if constexpr (std::is_same_v<decltype(callable), std::nullptr_t>) {
          clear();
        } else {
          set(std::move(callable));
        }
      },
      [](auto fn, auto owned) { return [fn, owned] { fn(owned->Get()); }; });
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

size_t platformpp_debug_live_client_count(void) {
  return liveClients.load(std::memory_order_acquire);
}

void platformpp_client_options_init(platformpp_client_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
  options->use_system_certificates = 1;
  options->ipc_enabled = 1;
}

platformpp_client* platformpp_client_create(const platformpp_client_options* options) {
  // No client yet to log to: NULL is the report.
  try {
    platformpp::ClientOptions cpp;
    if (options) {
      if (!KnownApiVersion(options->api_version)) return nullptr;
      std::string apiBase = ToString(options->api_base);
      if (!apiBase.empty()) cpp.apiBase = std::move(apiBase);
      cpp.caFile = ToString(options->ca_file);
      cpp.useSystemCertificates = options->use_system_certificates != 0;
      std::string webBase = ToString(options->web_base);
      if (!webBase.empty()) cpp.webBase = std::move(webBase);
      if (options->authorize_timeout_ms > 0) {
        cpp.authorizeTimeout = std::chrono::milliseconds(options->authorize_timeout_ms);
      }
      std::string ipcName = ToString(options->ipc_name);
      if (!ipcName.empty()) cpp.ipcName = std::move(ipcName);
      cpp.ipcDirectory = ToString(options->ipc_directory);
      cpp.ipcEnabled = options->ipc_enabled != 0;
      if (options->api_version >= 2) cpp.channelObfuscationOptIn = options->channel_obfuscation_opt_in != 0;
    }
    auto* client = new platformpp_client(std::move(cpp));
    liveClients.fetch_add(1, std::memory_order_acq_rel);
    return client;
  } catch (...) {
    return nullptr;
  }
}

void platformpp_client_destroy(platformpp_client* client) {
  if (!client) return;
  delete client;
  liveClients.fetch_sub(1, std::memory_order_acq_rel);  // after: the count reaches 0 once everything is gone
}

int32_t platformpp_client_wait_for_callbacks(platformpp_client* client, int32_t timeout_ms) {
  if (!client) return 0;
  return WaitForCallbacksAtBoundary(*client->boundary, __func__,
                                    [&] { return client->client.WaitForCallbacks(timeout_ms) ? 1 : 0; });
}

void platformpp_client_run_callbacks(platformpp_client* client) {
  if (!client) return;
  // A callback may destroy the client; Client::RunCallbacks copes, and so must we: touch nothing afterwards
  // but our own references to its boundary and its queue of deferred frees (closed and empty if it is gone).
  const std::shared_ptr<Boundary> boundary = client->boundary;
  const std::shared_ptr<DeferredFrees> frees = client->frees.queue;
  RunCallbacksAtBoundary(boundary, __func__, [&] { client->client.RunCallbacks(); });
  frees->Drain();
}

void platformpp_client_set_application_id(platformpp_client* client, uint64_t application_id) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.SetApplicationId(application_id); });
}

uint64_t platformpp_client_get_application_id(const platformpp_client* client) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, uint64_t{0},
                   [&] { return client->client.GetApplicationId(); });
}

void platformpp_client_set_http_request_timeout(platformpp_client* client, int32_t milliseconds) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.SetHttpRequestTimeout(milliseconds); });
}

int32_t platformpp_client_get_http_request_timeout(const platformpp_client* client) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, 0,
                   [&] { return client->client.GetHttpRequestTimeout(); });
}

void platformpp_client_add_log_callback(platformpp_client* client, platformpp_log_fn callback,
                                        platformpp_logging_severity min_severity, void* user_data,
                                        platformpp_user_data_free_fn user_data_free) {
  if (!client || !callback) return Refuse(user_data, user_data_free);
  Guarded(
      client->boundary.get(), __func__,
      [&] {
        auto owned = Own(user_data, user_data_free);
        client->client.AddLogCallback(ForwardLog(callback, std::move(owned)),
                                      FromCEnum<platformpp::LoggingSeverity>(min_severity));
      },
      kNotRegistered);
}

int32_t platformpp_client_set_log_dir(platformpp_client* client, const char* path, size_t path_size,
                                      platformpp_logging_severity min_severity) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, 0, [&] {
    return client->client.SetLogDir(ToString(path, path_size),
                                    FromCEnum<platformpp::LoggingSeverity>(min_severity))
               ? 1
               : 0;
  });
}

void platformpp_client_fetch_current_user(platformpp_client* client,
                                          platformpp_authorization_token_type token_type, const char* token,
                                          size_t token_size, platformpp_fetch_current_user_fn callback,
                                          void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_fetch_current_user_fn>& op) {
                   client->client.FetchCurrentUser(
                       FromCEnum<platformpp::AuthorizationTokenType>(token_type), ToString(token, token_size),
                       [op](platformpp::ClientResult result, uint64_t id, const std::string& name) {
                         auto done = op->Claim();
                         if (!done) return;
                         platformpp_client_result view{std::move(result)};
                         done(&view, id, name.c_str(), name.size(), op->Data());
                       });
                 });
}

platformpp_authorization_code_verifier* platformpp_client_create_authorization_code_verifier(void) {
  try {  // no client to log to: NULL is the report
    return new platformpp_authorization_code_verifier{platformpp::Client::CreateAuthorizationCodeVerifier()};
  } catch (...) {
    return nullptr;
  }
}

void platformpp_authorization_code_verifier_destroy(platformpp_authorization_code_verifier* verifier) {
  delete verifier;
}

const char* platformpp_authorization_code_verifier_verifier(
    const platformpp_authorization_code_verifier* verifier, size_t* size) {
  return verifier ? StringOut(verifier->verifier.Verifier(), size) : EmptyOut(size);
}

const char* platformpp_authorization_code_verifier_challenge(
    const platformpp_authorization_code_verifier* verifier, size_t* size) {
  return verifier ? StringOut(verifier->verifier.Challenge().Challenge(), size) : EmptyOut(size);
}

platformpp_authentication_code_challenge_method platformpp_authorization_code_verifier_challenge_method(
    const platformpp_authorization_code_verifier* verifier) {
  return verifier ? static_cast<platformpp_authentication_code_challenge_method>(
                        verifier->verifier.Challenge().Method())
                  : PLATFORMPP_AUTHENTICATION_CODE_CHALLENGE_METHOD_S256;
}

void platformpp_client_get_token(platformpp_client* client, uint64_t application_id, const char* code,
                                 size_t code_size, const char* code_verifier, size_t code_verifier_size,
                                 const char* redirect_uri, size_t redirect_uri_size,
                                 platformpp_token_exchange_fn callback, void* user_data,
                                 platformpp_user_data_free_fn user_data_free) {
  TokenOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.GetToken(application_id, ToString(code, code_size),
                            ToString(code_verifier, code_verifier_size),
                            ToString(redirect_uri, redirect_uri_size), std::move(done));
  });
}

void platformpp_client_refresh_token(platformpp_client* client, uint64_t application_id,
                                     const char* refresh_token, size_t refresh_token_size,
                                     platformpp_token_exchange_fn callback, void* user_data,
                                     platformpp_user_data_free_fn user_data_free) {
  TokenOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.RefreshToken(application_id, ToString(refresh_token, refresh_token_size), std::move(done));
  });
}

void platformpp_client_revoke_token(platformpp_client* client, uint64_t application_id, const char* token,
                                    size_t token_size, platformpp_result_fn callback, void* user_data,
                                    platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.RevokeToken(application_id, ToString(token, token_size), std::move(done));
  });
}

void platformpp_client_update_token(platformpp_client* client, platformpp_authorization_token_type token_type,
                                    const char* token, size_t token_size, platformpp_result_fn callback,
                                    void* user_data, platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.UpdateToken(FromCEnum<platformpp::AuthorizationTokenType>(token_type),
                               ToString(token, token_size), std::move(done));
  });
}

void platformpp_client_get_provisional_token(platformpp_client* client, uint64_t application_id,
                                             platformpp_authentication_external_auth_type external_auth_type,
                                             const char* external_auth_token, size_t external_auth_token_size,
                                             platformpp_token_exchange_fn callback, void* user_data,
                                             platformpp_user_data_free_fn user_data_free) {
  TokenOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.GetProvisionalToken(
        application_id, FromCEnum<platformpp::AuthenticationExternalAuthType>(external_auth_type),
        ToString(external_auth_token, external_auth_token_size), std::move(done));
  });
}

void platformpp_client_get_token_from_provisional_merge(
    platformpp_client* client, uint64_t application_id, const char* code, size_t code_size,
    const char* code_verifier, size_t code_verifier_size, const char* redirect_uri, size_t redirect_uri_size,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_token_exchange_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  TokenOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.GetTokenFromProvisionalMerge(
        application_id, ToString(code, code_size), ToString(code_verifier, code_verifier_size),
        ToString(redirect_uri, redirect_uri_size),
        FromCEnum<platformpp::AuthenticationExternalAuthType>(external_auth_type),
        ToString(external_auth_token, external_auth_token_size), std::move(done));
  });
}

void platformpp_client_exchange_child_token(platformpp_client* client, const char* parent_application_token,
                                            size_t parent_application_token_size,
                                            uint64_t child_application_id, platformpp_child_token_fn callback,
                                            void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(
      client->boundary, __func__, callback, user_data, user_data_free, nullptr,
      [&](const OperationPtr<platformpp_child_token_fn>& op) {
        client->client.ExchangeChildToken(
            ToString(parent_application_token, parent_application_token_size), child_application_id,
            [op](platformpp::ClientResult result, const std::string& access,
                 platformpp::AuthorizationTokenType type, int32_t expiresIn, const std::string& scopes) {
              auto done = op->Claim();
              if (!done) return;
              platformpp_client_result view{std::move(result)};
              done(&view, access.c_str(), access.size(),
                   static_cast<platformpp_authorization_token_type>(type), expiresIn, scopes.c_str(),
                   scopes.size(), op->Data());
            });
      });
}

void platformpp_client_update_provisional_account_display_name(platformpp_client* client, const char* name,
                                                               size_t name_size,
                                                               platformpp_result_fn callback, void* user_data,
                                                               platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.UpdateProvisionalAccountDisplayName(ToString(name, name_size), std::move(done));
  });
}

void platformpp_client_unmerge_into_provisional_account(
    platformpp_client* client, uint64_t application_id,
    platformpp_authentication_external_auth_type external_auth_type, const char* external_auth_token,
    size_t external_auth_token_size, platformpp_result_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  ResultOperation(client, __func__, callback, user_data, user_data_free, [&](auto done) {
    client->client.UnmergeIntoProvisionalAccount(
        application_id, FromCEnum<platformpp::AuthenticationExternalAuthType>(external_auth_type),
        ToString(external_auth_token, external_auth_token_size), std::move(done));
  });
}

void platformpp_authorization_args_init(platformpp_authorization_args* args) {
  if (!args) return;
  std::memset(args, 0, sizeof *args);
  args->api_version = PLATFORMPP_C_API_VERSION;
  args->integration_type = -1;
}

void platformpp_client_authorize(platformpp_client* client, const platformpp_authorization_args* args,
                                 platformpp_authorization_fn callback, void* user_data,
                                 platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, nullptr,
                 [&](const OperationPtr<platformpp_authorization_fn>& op) {
                   if (!args || !KnownApiVersion(args->api_version)) {
                     // nullobj gives the C++ API's own validation error, delivered inside run_callbacks.
                     client->client.Authorize(platformpp::AuthorizationArgs::nullobj, AuthorizationDone(op));
                     return;
                   }
                   platformpp::AuthorizationArgs cpp;
                   cpp.SetClientId(args->client_id);
                   cpp.SetScopes(ToString(args->scopes));
                   if (args->state.size) cpp.SetState(ToString(args->state));
                   if (args->nonce.size) cpp.SetNonce(ToString(args->nonce));
                   if (args->code_challenge.size) {
                     platformpp::AuthorizationCodeChallenge challenge;
                     challenge.SetChallenge(ToString(args->code_challenge));
                     cpp.SetCodeChallenge(std::move(challenge));
                   }
                   if (args->integration_type == 0 || args->integration_type == 1) {
                     cpp.SetIntegrationType(static_cast<platformpp::IntegrationType>(args->integration_type));
                   }
                   if (args->custom_scheme_param.size)
                     cpp.SetCustomSchemeParam(ToString(args->custom_scheme_param));
                   client->client.Authorize(std::move(cpp), AuthorizationDone(op));
                 });
}

void platformpp_client_abort_authorize(platformpp_client* client) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.AbortAuthorize(); });
}

void platformpp_client_set_url_opener(platformpp_client* client, platformpp_url_opener_fn opener,
                                      void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  Guarded(
      client->boundary.get(), __func__,
      [&] {
        auto owned = Own(user_data, user_data_free);
        if (!opener) {
          client->client.SetUrlOpener(nullptr);
          return;  // `owned` frees user_data here
        }
        client->client.SetUrlOpener([opener, owned](const std::string& url) {
          return opener(url.c_str(), url.size(), owned->Get()) != 0;
        });
      },
      kNotRegistered);
}

int32_t platformpp_client_is_authenticated(const platformpp_client* client) {
  if (!client) return 0;
  return GuardedOr(client->boundary.get(), __func__, 0,
                   [&] { return client->client.IsAuthenticated() ? 1 : 0; });
}

void platformpp_client_connect(platformpp_client* client) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.Connect(); });
}

void platformpp_client_disconnect(platformpp_client* client) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.Disconnect(); });
}

platformpp_client_status platformpp_client_get_status(const platformpp_client* client) {
  if (!client) return PLATFORMPP_CLIENT_STATUS_DISCONNECTED;
  return GuardedOr(client->boundary.get(), __func__, PLATFORMPP_CLIENT_STATUS_DISCONNECTED,
                   [&] { return static_cast<platformpp_client_status>(client->client.GetStatus()); });
}

void platformpp_client_set_status_changed_callback(platformpp_client* client,
                                                   platformpp_status_changed_fn callback, void* user_data,
                                                   platformpp_user_data_free_fn user_data_free) {
  RegisterEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](platformpp::Client::StatusChangedCallback cb) {
        client->client.SetStatusChangedCallback(std::move(cb));
      },
      [](auto fn, auto owned) {
        return
            [fn, owned](platformpp::Client::Status status, platformpp::Client::Error error, int32_t detail) {
              fn(static_cast<platformpp_client_status>(status), static_cast<platformpp_client_error>(error),
                 detail, owned->Get());
            };
      });
}

void platformpp_client_register_authorize_request_callback(platformpp_client* client,
                                                           platformpp_event_fn callback, void* user_data,
                                                           platformpp_user_data_free_fn user_data_free) {
  SetEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](platformpp::Client::AuthorizeRequestCallback cb) {
        client->client.RegisterAuthorizeRequestCallback(std::move(cb));
      },
      [&] { client->client.RemoveAuthorizeRequestCallback(); });
}

void platformpp_client_remove_authorize_request_callback(platformpp_client* client) {
  if (!client) return;
  Guarded(client->boundary.get(), __func__, [&] { client->client.RemoveAuthorizeRequestCallback(); });
}

void platformpp_client_set_token_expiration_callback(platformpp_client* client, platformpp_event_fn callback,
                                                     void* user_data,
                                                     platformpp_user_data_free_fn user_data_free) {
  SetEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](std::function<void()> cb) { client->client.SetTokenExpirationCallback(std::move(cb)); },
      [&] { client->client.SetTokenExpirationCallback(nullptr); });
}

// Static strings: made once; no client to log to, so "" (which Authorize refuses) is the report.
const char* platformpp_client_get_default_communication_scopes(void) {
  try {
    static const std::string scopes = platformpp::Client::GetDefaultCommunicationScopes();
    return scopes.c_str();
  } catch (...) {
    return "";
  }
}

const char* platformpp_client_get_default_presence_scopes(void) {
  try {
    static const std::string scopes = platformpp::Client::GetDefaultPresenceScopes();
    return scopes.c_str();
  } catch (...) {
    return "";
  }
}

// Results: reading one allocates nothing (and so throws nothing), except to_string.

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
  return result ? StringOut(result->result.Error(), size) : EmptyOut(size);
}

const char* platformpp_client_result_oauth_error(const platformpp_client_result* result, size_t* size) {
  return result ? StringOut(result->result.OAuthError(), size) : EmptyOut(size);
}

int32_t platformpp_client_result_retryable(const platformpp_client_result* result) {
  return result && result->result.Retryable() ? 1 : 0;
}

float platformpp_client_result_retry_after(const platformpp_client_result* result) {
  return result ? result->result.RetryAfter() : 0.0f;
}

char* platformpp_client_result_to_string(const platformpp_client_result* result) {
  try {  // out of memory: NULL is the report
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
