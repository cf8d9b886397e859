// The C ABI of answering interactions: the responder, the interactions endpoint and the bot's Gateway session
// (platformpp_c_interactions.h). Answers are built from the caller's JSON and checked here, before the C++
// responder sees them, so that a refusal comes back from the call with its paths.
#include "c_backend_support.hpp"

#include <platformpp/platformpp_c.h>

#include <platformpp/components.hpp>
#include <platformpp/interactions.hpp>
#include <platformpp/interactions_gateway.hpp>

#include "backend/component_json.hpp"
#include "core/validation_result.hpp"
#include "json/json.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace platformpp::c_api;
namespace pb = platformpp::backend;
using platformpp::ClientResult;
using platformpp::ErrorType;
using platformpp::FieldError;

namespace {

using AnswerOperation = Operation<platformpp_result_fn>;

namespace flags = platformpp::backend::message_flags;
static_assert(PLATFORMPP_MESSAGE_FLAG_EPHEMERAL == flags::Ephemeral);
static_assert(PLATFORMPP_MESSAGE_FLAG_SUPPRESS_EMBEDS == flags::SuppressEmbeds);
static_assert(PLATFORMPP_MESSAGE_FLAG_SUPPRESS_NOTIFICATIONS == flags::SuppressNotifications);
static_assert(PLATFORMPP_MESSAGE_FLAG_IS_COMPONENTS_V2 == flags::IsComponentsV2);

// The user_data of one registration (interaction, status or log callback). The C++ layer may hold a callback
// past its owner's destructor (an exchange still finishing on a network thread); C promises every
// user_data_free before destroy returns, on the caller's thread: the owner revokes it then.
class Registration {
 public:
  explicit Registration(std::shared_ptr<UserData> owned) : owned_(std::move(owned)) {}
  // False once revoked.
  bool Get(void** data) const {
    std::lock_guard lock(mutex_);
    if (!owned_) return false;
    *data = owned_->Get();
    return true;
  }
  void Revoke() noexcept {
    std::shared_ptr<UserData> released;
    {
      std::lock_guard lock(mutex_);
      released.swap(owned_);
    }
  }  // user_data_free runs here, unless a callback running right now still holds it

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<UserData> owned_;
};

// What the responders of one endpoint or Gateway session share with it: the boundary, the answers not yet
// ended (the C++ layer drops an answer's end when it is destroyed; C promises CLIENT_DESTROYED instead) and
// the user_data frees that a library thread may let go of (run on the caller's thread, see DeferredFrees).
class Answers {
 public:
  explicit Answers(std::shared_ptr<Boundary> boundary) : boundary_(std::move(boundary)) {}
  Answers(const Answers&) = delete;
  Answers& operator=(const Answers&) = delete;

  Boundary* GetBoundary() const noexcept { return boundary_.get(); }
  const std::shared_ptr<Boundary>& SharedBoundary() const noexcept { return boundary_; }
  const std::shared_ptr<DeferredFrees>& Frees() const noexcept { return frees_; }

  // False once the owner is destroyed.
  bool Add(const std::shared_ptr<AnswerOperation>& operation) {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    std::erase_if(pending_, [](const auto& weak) { return weak.expired(); });
    pending_.push_back(operation);
    return true;
  }

  // A registration whose user_data Close frees at the latest.
  std::shared_ptr<Registration> Register(std::shared_ptr<UserData> owned) {
    auto registration = std::make_shared<Registration>(std::move(owned));
    std::lock_guard lock(mutex_);
    std::erase_if(registrations_, [](const auto& weak) { return weak.expired(); });
    registrations_.push_back(registration);
    return registration;
  }

  // The owner is gone (no run_callbacks is left): every answer not yet ended ends with CLIENT_DESTROYED now,
  // and every registration's user_data is freed.
  void Close() noexcept {
    std::vector<std::weak_ptr<AnswerOperation>> due;
    std::vector<std::weak_ptr<Registration>> registrations;
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      due.swap(pending_);
      registrations.swap(registrations_);
    }
    for (auto& weak : registrations) {
      if (auto registration = weak.lock()) registration->Revoke();
    }
    boundary_->Close();
    const platformpp_client_result destroyed{
        ClientResult::Failure(ErrorType::ClientDestroyed, "interactions: the endpoint was destroyed")};
    for (auto& weak : due) {
      if (auto operation = weak.lock()) {
        if (auto done = operation->Claim()) done(&destroyed, operation->Data());
      }
    }
    frees_->Close();
  }

 private:
  std::shared_ptr<Boundary> boundary_;
  std::shared_ptr<DeferredFrees> frees_ = std::make_shared<DeferredFrees>();
  std::mutex mutex_;
  std::vector<std::weak_ptr<AnswerOperation>> pending_;
  std::vector<std::weak_ptr<Registration>> registrations_;
  bool closed_ = false;
};

// Reads a JSON array of component objects written by the caller; every broken rule of the text goes to
// `errors` at `path` (the C++ reader is lenient and would skip what it cannot read).
std::optional<std::vector<platformpp::Component>> ReadComponents(std::string_view text,
                                                                 const std::string& path,
                                                                 std::vector<FieldError>& errors) {
  if (text.empty()) return std::nullopt;
  platformpp::json::Document document;
  std::string error;
  if (!platformpp::json::Parse(text, document, &error)) {
    errors.push_back(FieldError{path, "JSON_INVALID", "not JSON: " + error});
    return std::nullopt;
  }
  if (!document.IsArray()) {
    errors.push_back(FieldError{path, "ARRAY_REQUIRED", "must be a JSON array of component objects"});
    return std::nullopt;
  }
  std::vector<platformpp::Component> components;
  size_t index = 0;
  for (const auto& item : document.GetArray()) {
    if (auto component = pb::ParseComponent(item)) {
      components.push_back(std::move(*component));
    } else {
      errors.push_back(FieldError{path + "." + std::to_string(index), "COMPONENT_INVALID",
                                  "not a component object (an object with an integer type)"});
    }
    ++index;
  }
  return components;
}

// Reads a JSON array of autocomplete choices, strictly (same reason as ReadComponents).
std::vector<pb::ApplicationCommandOptionChoice> ReadChoices(std::string_view text,
                                                            std::vector<FieldError>& errors) {
  namespace json = platformpp::json;
  std::vector<pb::ApplicationCommandOptionChoice> choices;
  json::Document document;
  std::string error;
  if (!json::Parse(text, document, &error)) {
    errors.push_back(FieldError{"data.choices", "JSON_INVALID", "not JSON: " + error});
    return choices;
  }
  if (!document.IsArray()) {
    errors.push_back(FieldError{"data.choices", "ARRAY_REQUIRED", "must be a JSON array of choices"});
    return choices;
  }
  size_t index = 0;
  for (const auto& item : document.GetArray()) {
    const std::string at = "data.choices." + std::to_string(index++);
    if (!item.IsObject()) {
      errors.push_back(FieldError{at, "OBJECT_REQUIRED", "a choice is an object with name and value"});
      continue;
    }
    pb::ApplicationCommandOptionChoice choice;
    if (auto name = json::GetString(item, "name")) {
      choice.name = std::string(*name);
    } else {
      errors.push_back(FieldError{at + ".name", "STRING_REQUIRED", "must be a string"});
    }
    const json::Value* value = json::Member(item, "value");
    if (value && value->IsString()) {
      choice.value = std::string(value->GetString(), value->GetStringLength());
    } else if (value && value->IsInt64()) {
      choice.value = value->GetInt64();
    } else if (value && value->IsNumber()) {
      choice.value = value->GetDouble();
    } else {
      errors.push_back(FieldError{at + ".value", "VALUE_REQUIRED", "must be a string or a number"});
    }
    if (const json::Value* localized = json::Member(item, "name_localizations")) {
      if (!localized->IsObject()) {
        errors.push_back(FieldError{at + ".name_localizations", "OBJECT_REQUIRED", "must be an object"});
      } else {
        for (const auto& member : localized->GetObject()) {
          if (!member.value.IsString()) {
            errors.push_back(FieldError{at + ".name_localizations." + member.name.GetString(),
                                        "STRING_REQUIRED", "must be a string"});
            continue;
          }
          choice.nameLocalizations[member.name.GetString()] = member.value.GetString();
        }
      }
    }
    choices.push_back(std::move(choice));
  }
  return choices;
}

// A message of the caller's content, components and flags (unset where empty, so an update keeps them).
platformpp::backend::MessagePayload ReadMessage(const char* content, size_t content_size,
                                                const char* components_json, size_t components_json_size,
                                                uint64_t flags, std::vector<FieldError>& errors) {
  pb::MessagePayload message;
  if (content && content_size) message.content = std::string(content, content_size);
  if (flags) message.flags = flags;
  message.components = ReadComponents(
      std::string_view(components_json ? components_json : "", components_json ? components_json_size : 0),
      "data.components", errors);
  return message;
}

}  // namespace

struct platformpp_interaction_responder {
  pb::InteractionResponder responder;
  platformpp_interaction interaction;  // a copy: the getters read a platformpp_interaction
  std::shared_ptr<Answers> answers;
};

struct platformpp_interactions_endpoint {
  std::unique_ptr<pb::InteractionsEndpoint> endpoint;
  std::shared_ptr<Answers> answers;
  std::shared_ptr<Boundary> boundary;  // AddLogCallback's
  explicit platformpp_interactions_endpoint(pb::InteractionsEndpointOptions options)
      : endpoint(std::make_unique<pb::InteractionsEndpoint>(std::move(options))) {
    boundary = std::make_shared<Boundary>(pb::BackendAccess::LoggerOf(*endpoint));
    answers = std::make_shared<Answers>(boundary);
  }
  ~platformpp_interactions_endpoint() {
    endpoint->SetInteractionCallback(nullptr);  // its user_data_free runs before destroy returns
    endpoint.reset();                           // no run_callbacks after this: the rest end here
    answers->Close();
  }
  pb::InteractionsEndpoint& Transport() { return *endpoint; }
  platformpp_interactions_endpoint(const platformpp_interactions_endpoint&) = delete;
  platformpp_interactions_endpoint& operator=(const platformpp_interactions_endpoint&) = delete;
};

struct platformpp_interactions_gateway {
  std::unique_ptr<pb::InteractionsGateway> gateway;
  std::shared_ptr<Answers> answers;
  std::shared_ptr<Boundary> boundary;
  explicit platformpp_interactions_gateway(pb::InteractionsGatewayOptions options)
      : gateway(std::make_unique<pb::InteractionsGateway>(std::move(options))) {
    boundary = std::make_shared<Boundary>(pb::BackendAccess::LoggerOf(*gateway));
    answers = std::make_shared<Answers>(boundary);
  }
  ~platformpp_interactions_gateway() {
    gateway->SetInteractionCallback(nullptr);
    gateway->SetStatusCallback(nullptr);
    gateway.reset();
    answers->Close();
  }
  pb::InteractionsGateway& Transport() { return *gateway; }
  platformpp_interactions_gateway(const platformpp_interactions_gateway&) = delete;
  platformpp_interactions_gateway& operator=(const platformpp_interactions_gateway&) = delete;
};

namespace {

// Checks and hands over one answer (see the header): `build(errors)` makes the response from the caller's
// arguments, noting what it could not read.
template <class Build>
platformpp_client_result* Answer(platformpp_interaction_responder* responder, const char* entry,
                                 platformpp_result_fn done, void* user_data,
                                 platformpp_user_data_free_fn user_data_free, Build&& build) noexcept {
  if (!responder) {
    Refuse(user_data, user_data_free);
    return nullptr;
  }
  Answers& answers = *responder->answers;
  std::shared_ptr<AnswerOperation> operation;
  try {
    const pb::Interaction& interaction = responder->interaction.interaction;
    std::vector<FieldError> errors;
    pb::InteractionResponse response = build(errors);
    if (errors.empty())
      errors = pb::CheckInteractionResponse(response, interaction.type, interaction.attachmentSizeLimit);
    if (!errors.empty()) {
      Refuse(user_data, user_data_free);
      return new platformpp_client_result{platformpp::core::ValidationResult(std::move(errors))};
    }
    operation = std::make_shared<AnswerOperation>(answers.SharedBoundary(), entry, done, user_data,
                                                  user_data_free, answers.Frees());
    if (!answers.Add(operation)) {
      operation->Claim();  // never runs: the owner is gone (user_data goes with `operation`)
      return new platformpp_client_result{
          ClientResult::Failure(ErrorType::ClientDestroyed, "interactions: the endpoint was destroyed")};
    }
    responder->responder.Respond(std::move(response), [operation](ClientResult result) {
      auto callback = operation->Claim();
      if (!callback) return;
      const platformpp_client_result view{std::move(result)};
      callback(&view, operation->Data());
    });
    return new platformpp_client_result{};
  } catch (...) {
    // NULL is the report (out of memory): the done callback will not run.
    answers.GetBoundary()->Log(entry, std::current_exception(), "it returns NULL; done does not run");
    if (operation) {
      operation->Claim();
    } else {
      Refuse(user_data, user_data_free);
    }
    return nullptr;
  }
}

// The C++ interaction callback that lends the C one a view of the interaction and its responder.
auto ForwardInteraction(platformpp_interaction_fn fn, std::shared_ptr<UserData> owned,
                        std::shared_ptr<Answers> answers) {
  auto registration = answers->Register(std::move(owned));
  return [fn, registration, answers = std::move(answers)](const pb::Interaction& interaction,
                                                          pb::InteractionResponder responder) {
    void* data = nullptr;
    if (!registration->Get(&data)) return;
    platformpp_interaction_responder view{std::move(responder), platformpp_interaction{interaction}, answers};
    fn(&view.interaction, &view, data);
  };
}

// The C++ log callback of a handle's registration (see Registration).
platformpp::LogCallback ForwardLog(platformpp_log_fn fn, std::shared_ptr<Registration> registration) {
  return [fn, registration = std::move(registration)](const std::string& message,
                                                      platformpp::LoggingSeverity severity) {
    void* data = nullptr;
    if (registration->Get(&data))
      fn(message.c_str(), message.size(), static_cast<platformpp_logging_severity>(severity), data);
  };
}

// AddLogCallback of either transport.
template <class Handle>
void AddRevocableLogCallback(Handle* handle, const char* entry, platformpp_log_fn callback,
                             const platformpp_logging_severity& min_severity, void* user_data,
                             platformpp_user_data_free_fn user_data_free) noexcept {
  if (!handle || !callback) return Refuse(user_data, user_data_free);
  Guarded(
      handle->boundary.get(), entry,
      [&] {
        auto registration = handle->answers->Register(Own(user_data, user_data_free));
        handle->Transport().AddLogCallback(ForwardLog(callback, std::move(registration)),
                                           FromCEnum<platformpp::LoggingSeverity>(min_severity));
      },
      kNotRegistered);
}

pb::InteractionsEndpointOptions EndpointOptions(const platformpp_interactions_endpoint_options& options) {
  pb::InteractionsEndpointOptions cpp;
  cpp.publicKeyHex = ToString(options.public_key_hex);
  if (std::string address = ToString(options.address); !address.empty()) cpp.address = std::move(address);
  cpp.port = static_cast<uint16_t>(options.port);
  if (std::string path = ToString(options.path); !path.empty()) cpp.path = std::move(path);
  cpp.tlsCertificateChainFile = ToString(options.tls_certificate_chain_file);
  cpp.tlsPrivateKeyFile = ToString(options.tls_private_key_file);
  if (options.defer_after_ms > 0) cpp.deferAfter = std::chrono::milliseconds(options.defer_after_ms);
  cpp.autoDefer = options.auto_defer != 0;
  cpp.deferEphemeral = options.defer_ephemeral != 0;
  if (options.backend) cpp.backend = options.backend->backend;
  return cpp;
}

// run_callbacks of either transport, then the frees a library thread handed over.
template <class Handle>
void RunCallbacksOf(Handle* handle, const char* entry, void (*run)(Handle*)) {
  std::shared_ptr<Answers> answers = handle->answers;
  Guarded(
      answers->GetBoundary(), entry, [&] { run(handle); },
      "a callback threw; the ones after it run at the next run_callbacks");
  answers->Frees()->Drain();
}

// The interaction callback of an endpoint or a Gateway session handle; `target` names the handle's C++
// object (InteractionsEndpoint or InteractionsGateway, which share the callback's shape).
template <typename Handle, typename Target>
void SetInteractionCallbackOf(Handle* handle, Target Handle::*target, const char* where,
                              platformpp_interaction_fn callback, void* user_data,
                              platformpp_user_data_free_fn user_data_free) {
  if (!handle) return Refuse(user_data, user_data_free);
  auto& cpp = *(handle->*target);
  RegisterCallback(
      handle->boundary.get(), where, callback, [&] { return Own(user_data, user_data_free); },
      [&](auto callable) {
        if constexpr (std::is_same_v<decltype(callable), std::nullptr_t>) {
          cpp.SetInteractionCallback(nullptr);
        } else {
          cpp.SetInteractionCallback(std::move(callable));
        }
      },
      [&](auto fn, auto owned) { return ForwardInteraction(fn, std::move(owned), handle->answers); });
}

}  // namespace

extern "C" {

/* The responder. */

platformpp_interaction_responder* platformpp_interaction_responder_clone(
    const platformpp_interaction_responder* responder) {
  return CloneHandle(responder);
}

void platformpp_interaction_responder_destroy(platformpp_interaction_responder* responder) {
  delete responder;
}

const platformpp_interaction* platformpp_interaction_responder_interaction(
    const platformpp_interaction_responder* responder) {
  return responder ? &responder->interaction : nullptr;
}

int32_t platformpp_interaction_responder_answered(const platformpp_interaction_responder* responder) {
  return responder && responder->responder.Answered() ? 1 : 0;
}

int32_t platformpp_interaction_responder_deferred(const platformpp_interaction_responder* responder) {
  return responder && responder->responder.Deferred() ? 1 : 0;
}

platformpp_client_result* platformpp_interaction_responder_respond_message(
    platformpp_interaction_responder* responder, const char* content, size_t content_size,
    const char* components_json, size_t components_json_size, uint64_t flags, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free, [&](std::vector<FieldError>& errors) {
    return pb::InteractionResponse::Message(
        ReadMessage(content, content_size, components_json, components_json_size, flags, errors));
  });
}

platformpp_client_result* platformpp_interaction_responder_update_message(
    platformpp_interaction_responder* responder, const char* content, size_t content_size,
    const char* components_json, size_t components_json_size, uint64_t flags, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free, [&](std::vector<FieldError>& errors) {
    return pb::InteractionResponse::Update(
        ReadMessage(content, content_size, components_json, components_json_size, flags, errors));
  });
}

platformpp_client_result* platformpp_interaction_responder_defer_message(
    platformpp_interaction_responder* responder, int32_t ephemeral, platformpp_result_fn done,
    void* user_data, platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free,
                [&](std::vector<FieldError>&) { return pb::InteractionResponse::Deferred(ephemeral != 0); });
}

platformpp_client_result* platformpp_interaction_responder_defer_update(
    platformpp_interaction_responder* responder, platformpp_result_fn done, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free,
                [&](std::vector<FieldError>&) { return pb::InteractionResponse::DeferredUpdate(); });
}

platformpp_client_result* platformpp_interaction_responder_modal(
    platformpp_interaction_responder* responder, const char* custom_id, size_t custom_id_size,
    const char* title, size_t title_size, const char* components_json, size_t components_json_size,
    platformpp_result_fn done, void* user_data, platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free, [&](std::vector<FieldError>& errors) {
    auto components = ReadComponents(
        std::string_view(components_json ? components_json : "", components_json ? components_json_size : 0),
        "data.components", errors);
    return pb::InteractionResponse::Modal(ToString(custom_id, custom_id_size), ToString(title, title_size),
                                          components.value_or(std::vector<platformpp::Component>{}));
  });
}

platformpp_client_result* platformpp_interaction_responder_autocomplete(
    platformpp_interaction_responder* responder, const char* choices_json, size_t choices_json_size,
    platformpp_result_fn done, void* user_data, platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free, [&](std::vector<FieldError>& errors) {
    return pb::InteractionResponse::Autocomplete(ReadChoices(
        std::string_view(choices_json ? choices_json : "", choices_json ? choices_json_size : 0), errors));
  });
}

platformpp_client_result* platformpp_interaction_responder_launch_activity(
    platformpp_interaction_responder* responder, platformpp_result_fn done, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  return Answer(responder, __func__, done, user_data, user_data_free,
                [&](std::vector<FieldError>&) { return pb::InteractionResponse::LaunchActivity(); });
}

size_t platformpp_component_premium_button_json(uint64_t sku_id, char* buffer, size_t size) {
  if (size > 0 && buffer) buffer[0] = '\0';
  if (sku_id == 0) return 0;
  return GuardedOr(nullptr, __func__, size_t{0}, [&] {
    // Written by the SDK's own component writer, so the wire shape has one source.
    rapidjson::StringBuffer text;
    pb::ComponentWriter writer(text);
    pb::WriteComponent(writer, platformpp::Component::PremiumButton(sku_id));
    const size_t length = text.GetSize();
    if (buffer && size > 0) {
      const size_t copied = std::min(length, size - 1);
      std::memcpy(buffer, text.GetString(), copied);
      buffer[copied] = '\0';
    }
    return length;
  });
}

/* The interactions endpoint. */

void platformpp_interactions_endpoint_options_init(platformpp_interactions_endpoint_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
  options->auto_defer = 1;
}

platformpp_interactions_endpoint* platformpp_interactions_endpoint_create(
    const platformpp_interactions_endpoint_options* options) {
  // No handle yet to log to: NULL is the report.
  try {
    if (!options || !KnownApiVersion(options->api_version)) return nullptr;
    if (options->port < 0 || options->port > 65535 || options->defer_after_ms < 0) return nullptr;
    return new platformpp_interactions_endpoint(EndpointOptions(*options));
  } catch (...) {
    return nullptr;
  }
}

void platformpp_interactions_endpoint_destroy(platformpp_interactions_endpoint* endpoint) {
  delete endpoint;
}

void platformpp_interactions_endpoint_set_interaction_callback(platformpp_interactions_endpoint* endpoint,
                                                               platformpp_interaction_fn callback,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free) {
  SetInteractionCallbackOf(endpoint, &platformpp_interactions_endpoint::endpoint, __func__, callback,
                           user_data, user_data_free);
}

void platformpp_interactions_endpoint_add_log_callback(platformpp_interactions_endpoint* endpoint,
                                                       platformpp_log_fn callback,
                                                       platformpp_logging_severity min_severity,
                                                       void* user_data,
                                                       platformpp_user_data_free_fn user_data_free) {
  AddRevocableLogCallback(endpoint, __func__, callback, min_severity, user_data, user_data_free);
}

platformpp_client_result* platformpp_interactions_endpoint_start(platformpp_interactions_endpoint* endpoint) {
  if (!endpoint) return nullptr;
  return GuardedOr(endpoint->boundary.get(), __func__, static_cast<platformpp_client_result*>(nullptr),
                   [&] { return new platformpp_client_result{endpoint->endpoint->Start()}; });
}

void platformpp_interactions_endpoint_stop(platformpp_interactions_endpoint* endpoint) {
  if (!endpoint) return;
  Guarded(endpoint->boundary.get(), __func__, [&] { endpoint->endpoint->Stop(); });
}

int32_t platformpp_interactions_endpoint_running(const platformpp_interactions_endpoint* endpoint) {
  return endpoint && endpoint->endpoint->Running() ? 1 : 0;
}

int32_t platformpp_interactions_endpoint_port(const platformpp_interactions_endpoint* endpoint) {
  return endpoint ? static_cast<int32_t>(endpoint->endpoint->Port()) : 0;
}

void platformpp_interactions_endpoint_run_callbacks(platformpp_interactions_endpoint* endpoint) {
  if (!endpoint) return;
  RunCallbacksOf<platformpp_interactions_endpoint>(
      endpoint, __func__, [](platformpp_interactions_endpoint* e) { e->endpoint->RunCallbacks(); });
}

int32_t platformpp_interactions_endpoint_wait_for_callbacks(platformpp_interactions_endpoint* endpoint,
                                                            int32_t timeout_ms) {
  if (!endpoint) return 0;
  const int32_t delivered = GuardedOr(endpoint->boundary.get(), __func__, 0, [&] {
    return endpoint->endpoint->WaitForCallbacks(timeout_ms) ? 1 : 0;
  });
  endpoint->answers->Frees()->Drain();
  return delivered;
}

/* Interactions over the bot's Gateway session. */

void platformpp_interactions_gateway_options_init(platformpp_interactions_gateway_options* options) {
  if (!options) return;
  std::memset(options, 0, sizeof *options);
  options->api_version = PLATFORMPP_C_API_VERSION;
  options->intents = 1;
  options->auto_defer = 1;
}

platformpp_interactions_gateway* platformpp_interactions_gateway_create(
    const platformpp_interactions_gateway_options* options) {
  try {
    if (!options || !KnownApiVersion(options->api_version) || !options->backend) return nullptr;
    if (options->defer_after_ms < 0) return nullptr;
    pb::InteractionsGatewayOptions cpp;
    cpp.backend = options->backend->backend;
    cpp.intents = options->intents;
    if (options->defer_after_ms > 0) cpp.deferAfter = std::chrono::milliseconds(options->defer_after_ms);
    cpp.autoDefer = options->auto_defer != 0;
    cpp.deferEphemeral = options->defer_ephemeral != 0;
    return new platformpp_interactions_gateway(std::move(cpp));
  } catch (...) {
    return nullptr;
  }
}

void platformpp_interactions_gateway_destroy(platformpp_interactions_gateway* gateway) {
  delete gateway;
}

void platformpp_interactions_gateway_set_interaction_callback(platformpp_interactions_gateway* gateway,
                                                              platformpp_interaction_fn callback,
                                                              void* user_data,
                                                              platformpp_user_data_free_fn user_data_free) {
  SetInteractionCallbackOf(gateway, &platformpp_interactions_gateway::gateway, __func__, callback, user_data,
                           user_data_free);
}

void platformpp_interactions_gateway_set_status_callback(platformpp_interactions_gateway* gateway,
                                                         platformpp_status_changed_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free) {
  if (!gateway) return Refuse(user_data, user_data_free);
  RegisterCallback(
      gateway->boundary.get(), __func__, callback, [&] { return Own(user_data, user_data_free); },
      [&](auto callable) {
        if constexpr (std::is_same_v<decltype(callable), std::nullptr_t>) {
          gateway->gateway->SetStatusCallback(nullptr);
        } else {
          gateway->gateway->SetStatusCallback(std::move(callable));
        }
      },
      [](auto fn, auto owned) {
        return [fn, owned](platformpp::ClientStatus status, platformpp::ClientError error, int32_t detail) {
          fn(static_cast<platformpp_client_status>(status), static_cast<platformpp_client_error>(error),
             detail, owned->Get());
        };
      });
}

void platformpp_interactions_gateway_add_log_callback(platformpp_interactions_gateway* gateway,
                                                      platformpp_log_fn callback,
                                                      platformpp_logging_severity min_severity,
                                                      void* user_data,
                                                      platformpp_user_data_free_fn user_data_free) {
  AddRevocableLogCallback(gateway, __func__, callback, min_severity, user_data, user_data_free);
}

platformpp_client_result* platformpp_interactions_gateway_start(platformpp_interactions_gateway* gateway) {
  if (!gateway) return nullptr;
  return GuardedOr(gateway->boundary.get(), __func__, static_cast<platformpp_client_result*>(nullptr),
                   [&] { return new platformpp_client_result{gateway->gateway->Connect()}; });
}

void platformpp_interactions_gateway_stop(platformpp_interactions_gateway* gateway) {
  if (!gateway) return;
  Guarded(gateway->boundary.get(), __func__, [&] { gateway->gateway->Disconnect(); });
}

platformpp_client_status platformpp_interactions_gateway_get_status(
    const platformpp_interactions_gateway* gateway) {
  return gateway ? static_cast<platformpp_client_status>(gateway->gateway->Status())
                 : PLATFORMPP_CLIENT_STATUS_DISCONNECTED;
}

void platformpp_interactions_gateway_run_callbacks(platformpp_interactions_gateway* gateway) {
  if (!gateway) return;
  RunCallbacksOf<platformpp_interactions_gateway>(
      gateway, __func__, [](platformpp_interactions_gateway* g) { g->gateway->RunCallbacks(); });
}

int32_t platformpp_interactions_gateway_wait_for_callbacks(platformpp_interactions_gateway* gateway,
                                                           int32_t timeout_ms) {
  if (!gateway) return 0;
  const int32_t delivered = GuardedOr(gateway->boundary.get(), __func__, 0,
                                      [&] { return gateway->gateway->WaitForCallbacks(timeout_ms) ? 1 : 0; });
  gateway->answers->Frees()->Drain();
  return delivered;
}

}  // extern "C"
