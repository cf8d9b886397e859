// The C ABI of voice calls, audio devices and audio settings. Nothing may throw across this boundary, and
// nothing thrown may vanish (see c_support.hpp); a call handle reports to its client's boundary. Every
// user_data here is owned through the client's DeferredFrees: the voice thread drops the audio callbacks and
// a call's callbacks may go with its last reference on the network thread, and user_data_free must still run
// on the caller's thread (see platformpp_c.h).
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>
#include <platformpp/call.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

using namespace platformpp::c_api;

struct platformpp_call {
  platformpp::Call call;
  std::shared_ptr<DeferredFrees> frees;  // the client's: call callbacks' user_data is freed through it
  std::shared_ptr<Boundary> boundary;    // the client's: where this handle's exceptions are reported
  mutable std::string epochCode;         // the last get_epoch_verification_code answer
};

namespace {

// A new handle to `call`, or NULL for a null Call. Throws when out of memory (the caller's guard reports it).
platformpp_call* NewCall(platformpp::Call call, const platformpp_client* client) {
  if (!call) return nullptr;
  return new platformpp_call{std::move(call), client->frees.queue, client->boundary, {}};
}

platformpp_call* CloneCall(const platformpp_call* call) {
  return new platformpp_call{call->call, call->frees, call->boundary, {}};
}

platformpp_audio_device DeviceView(const platformpp::AudioDevice& device) {
  return platformpp_audio_device{device.Id().c_str(), device.Id().size(), device.Name().c_str(),
                                 device.Name().size(), device.IsDefault() ? 1 : 0};
}

std::vector<platformpp_audio_device> DeviceViews(const std::vector<platformpp::AudioDevice>& devices) {
  std::vector<platformpp_audio_device> views;
  views.reserve(devices.size());
  for (const auto& device : devices)
    views.push_back(DeviceView(device));
  return views;
}

// Registers (or, for a NULL callback, clears) a call event callback of the C function `entry`; `make` wraps
// the C callback.
template <class Callback, class Make, class Setter>
void SetCallCallback(platformpp_call* call, const char* entry, Callback callback, void* user_data,
                     platformpp_user_data_free_fn user_data_free, Make make, Setter set) {
  if (!call) return Refuse(user_data, user_data_free);
  RegisterCallback(
      call->boundary.get(), entry, callback,
      [&] { return OwnDeferred(call->frees, user_data, user_data_free); }, set, make);
}

void GetDevices(platformpp_client* client, const char* entry, bool input,
                platformpp_audio_devices_fn callback, void* user_data,
                platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, client->frees.queue,
                 [&](const OperationPtr<platformpp_audio_devices_fn>& op) {
                   auto done = [op](const std::vector<platformpp::AudioDevice>& devices) {
                     auto listed = op->Claim();
                     if (!listed) return;
                     std::vector<platformpp_audio_device> views;
                     try {
                       views = DeviceViews(devices);
                     } catch (...) {
                       platformpp_client_result failed{op->Fail(std::current_exception())};
                       return CallFailed(listed, &failed, op->Data());
                     }
                     listed(views.empty() ? nullptr : views.data(), views.size(), op->Data());
                   };
                   if (input)
                     client->client.GetInputDevices(std::move(done));
                   else
                     client->client.GetOutputDevices(std::move(done));
                 });
}

void GetCurrentDevice(platformpp_client* client, const char* entry, bool input,
                      platformpp_audio_device_fn callback, void* user_data,
                      platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, client->frees.queue,
                 [&](const OperationPtr<platformpp_audio_device_fn>& op) {
                   auto done = [op](const platformpp::AudioDevice& device) {
                     auto current = op->Claim();
                     if (!current) return;
                     const platformpp_audio_device view = DeviceView(device);
                     current(&view, op->Data());
                   };
                   if (input)
                     client->client.GetCurrentInputDevice(std::move(done));
                   else
                     client->client.GetCurrentOutputDevice(std::move(done));
                 });
}

void SetDevice(platformpp_client* client, const char* entry, bool input, const char* device_id,
               size_t device_id_size, platformpp_result_fn callback, void* user_data,
               platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, entry, callback, user_data, user_data_free, client->frees.queue,
                 [&](const OperationPtr<platformpp_result_fn>& op) {
                   if (input)
                     client->client.SetInputDevice(ToString(device_id, device_id_size), ResultOnly(op));
                   else
                     client->client.SetOutputDevice(ToString(device_id, device_id_size), ResultOnly(op));
                 });
}

// Guarded work of a call handle (NULL: `fallback` at once).
template <class R, class Body>
R CallGuarded(const platformpp_call* call, const char* entry, R fallback, Body&& body) noexcept {
  if (!call) return fallback;
  return GuardedOr(call->boundary.get(), entry, fallback, std::forward<Body>(body));
}

template <class Body>
void CallGuarded(platformpp_call* call, const char* entry, Body&& body) noexcept {
  if (!call) return;
  Guarded(call->boundary.get(), entry, std::forward<Body>(body));
}

// Guarded work of a client (NULL: `fallback` at once).
template <class R, class Body>
R ClientGuarded(const platformpp_client* client, const char* entry, R fallback, Body&& body) noexcept {
  if (!client) return fallback;
  return GuardedOr(client->boundary.get(), entry, fallback, std::forward<Body>(body));
}

template <class Body>
void ClientGuarded(platformpp_client* client, const char* entry, Body&& body) noexcept {
  if (!client) return;
  Guarded(client->boundary.get(), entry, std::forward<Body>(body));
}

template <size_t N, class Name>
const char* EnumName(int32_t value, Name name) {
  // Built once from the C++ names, so that both always agree.
  static const std::array<std::string, N> names = [name] {
    std::array<std::string, N> all;
    for (size_t i = 0; i < N; ++i)
      all[i] = name(static_cast<int32_t>(i));
    return all;
  }();
  const auto index = static_cast<int64_t>(value);
  return index >= 0 && index < static_cast<int64_t>(N) ? names[static_cast<size_t>(index)].c_str()
                                                       : "Unknown";
}

}  // namespace

extern "C" {

// --- Calls
// --------------------------------------------------------------------------------------------------

platformpp_call* platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id) {
  return ClientGuarded(client, __func__, static_cast<platformpp_call*>(nullptr),
                       [&] { return NewCall(client->client.StartCall(lobby_id), client); });
}

platformpp_call* platformpp_client_start_call_with_audio_callbacks(
    platformpp_client* client, uint64_t lobby_id, platformpp_user_audio_received_fn received,
    platformpp_user_audio_captured_fn captured, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  if (!client) {
    Refuse(user_data, user_data_free);
    return nullptr;
  }
  return GuardedOr(client->boundary.get(), __func__, static_cast<platformpp_call*>(nullptr), [&] {
    // Both callbacks share one owner: user_data is freed once the voice thread dropped the last of them.
    auto owned = OwnDeferred(client->frees.queue, user_data, user_data_free);
    platformpp::Client::UserAudioReceivedCallback receivedCb;
    platformpp::Client::UserAudioCapturedCallback capturedCb;
    if (received) {
      receivedCb = [received, owned](uint64_t userId, int16_t* data, uint64_t samplesPerChannel,
                                     int32_t sampleRate, uint64_t channels, bool& outShouldMute) {
        int32_t mute = outShouldMute ? 1 : 0;
        received(userId, data, samplesPerChannel, sampleRate, channels, &mute, owned->Get());
        outShouldMute = mute != 0;
      };
    }
    if (captured) {
      capturedCb = [captured, owned](int16_t* data, uint64_t samplesPerChannel, int32_t sampleRate,
                                     uint64_t channels) {
        captured(data, samplesPerChannel, sampleRate, channels, owned->Get());
      };
    }
    owned.reset();  // the callbacks hold it now (or nobody does, and the free is queued)
    return NewCall(
        client->client.StartCallWithAudioCallbacks(lobby_id, std::move(receivedCb), std::move(capturedCb)),
        client);
  });
}

void platformpp_client_end_call(platformpp_client* client, uint64_t channel_id, platformpp_notify_fn callback,
                                void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, client->frees.queue,
                 [&](const OperationPtr<platformpp_notify_fn>& op) {
                   client->client.EndCall(channel_id, [op] {
                     if (auto done = op->Claim()) done(op->Data());
                   });
                 });
}

void platformpp_client_end_calls(platformpp_client* client, platformpp_notify_fn callback, void* user_data,
                                 platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  StartOperation(client->boundary, __func__, callback, user_data, user_data_free, client->frees.queue,
                 [&](const OperationPtr<platformpp_notify_fn>& op) {
                   client->client.EndCalls([op] {
                     if (auto done = op->Claim()) done(op->Data());
                   });
                 });
}

platformpp_call* platformpp_client_get_call(platformpp_client* client, uint64_t channel_id) {
  return ClientGuarded(client, __func__, static_cast<platformpp_call*>(nullptr),
                       [&] { return NewCall(client->client.GetCall(channel_id), client); });
}

size_t platformpp_client_get_calls(platformpp_client* client, platformpp_call** calls, size_t capacity) {
  const char* entry = __func__;
  return ClientGuarded(client, entry, size_t{0}, [&] {
    auto all = client->client.GetCalls();
    for (size_t i = 0; calls && i < capacity && i < all.size(); ++i) {
      // A handle that cannot be made is a NULL slot (as documented), and reported.
      calls[i] = GuardedOr(client->boundary.get(), entry, static_cast<platformpp_call*>(nullptr),
                           [&] { return NewCall(all[i], client); });
    }
    return all.size();
  });
}

void platformpp_call_destroy(platformpp_call* call) {
  delete call;
}

platformpp_call* platformpp_call_clone(const platformpp_call* call) {
  return CallGuarded(call, __func__, static_cast<platformpp_call*>(nullptr), [&] { return CloneCall(call); });
}

uint64_t platformpp_call_get_channel_id(const platformpp_call* call) {
  return CallGuarded(call, __func__, uint64_t{0}, [&] { return call->call.GetChannelId(); });
}

uint64_t platformpp_call_get_guild_id(const platformpp_call* call) {
  return CallGuarded(call, __func__, uint64_t{0}, [&] { return call->call.GetGuildId(); });
}

platformpp_call_status platformpp_call_get_status(const platformpp_call* call) {
  return CallGuarded(call, __func__, PLATFORMPP_CALL_STATUS_DISCONNECTED,
                     [&] { return static_cast<platformpp_call_status>(call->call.GetStatus()); });
}

size_t platformpp_call_get_participants(const platformpp_call* call, uint64_t* ids, size_t capacity) {
  return CallGuarded(call, __func__, size_t{0}, [&] {
    auto all = call->call.GetParticipants();
    for (size_t i = 0; ids && i < capacity && i < all.size(); ++i)
      ids[i] = all[i];
    return all.size();
  });
}

int32_t platformpp_call_get_voice_state(const platformpp_call* call, uint64_t user_id, int32_t* self_mute,
                                        int32_t* self_deaf) {
  return CallGuarded(call, __func__, 0, [&] {
    auto state = call->call.GetVoiceStateHandle(user_id);
    if (!state) return 0;
    if (self_mute) *self_mute = state->SelfMute() ? 1 : 0;
    if (self_deaf) *self_deaf = state->SelfDeaf() ? 1 : 0;
    return 1;
  });
}

void platformpp_call_set_status_changed_callback(platformpp_call* call,
                                                 platformpp_call_status_changed_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, __func__, callback, user_data, user_data_free,
      [](platformpp_call_status_changed_fn cb, const std::shared_ptr<DeferredUserData>& owned) {
        return [cb, owned](platformpp::Call::Status status, platformpp::Call::Error error, int32_t detail) {
          cb(static_cast<platformpp_call_status>(status), static_cast<platformpp_call_error>(error), detail,
             owned->Get());
        };
      },
      [call](platformpp::Call::OnStatusChanged cb) { call->call.SetStatusChangedCallback(std::move(cb)); });
}

void platformpp_call_set_participant_changed_callback(platformpp_call* call,
                                                      platformpp_call_participant_changed_fn callback,
                                                      void* user_data,
                                                      platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, __func__, callback, user_data, user_data_free,
      [](platformpp_call_participant_changed_fn cb, const std::shared_ptr<DeferredUserData>& owned) {
        return [cb, owned](uint64_t userId, bool added) { cb(userId, added ? 1 : 0, owned->Get()); };
      },
      [call](platformpp::Call::OnParticipantChanged cb) {
        call->call.SetParticipantChangedCallback(std::move(cb));
      });
}

void platformpp_call_set_speaking_status_changed_callback(platformpp_call* call,
                                                          platformpp_call_speaking_status_changed_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, __func__, callback, user_data, user_data_free,
      [](platformpp_call_speaking_status_changed_fn cb, const std::shared_ptr<DeferredUserData>& owned) {
        return [cb, owned](uint64_t userId, bool speaking) { cb(userId, speaking ? 1 : 0, owned->Get()); };
      },
      [call](platformpp::Call::OnSpeakingStatusChanged cb) {
        call->call.SetSpeakingStatusChangedCallback(std::move(cb));
      });
}

void platformpp_call_set_voice_state_changed_callback(platformpp_call* call, platformpp_user_id_fn callback,
                                                      void* user_data,
                                                      platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, __func__, callback, user_data, user_data_free,
      [](platformpp_user_id_fn cb, const std::shared_ptr<DeferredUserData>& owned) {
        return [cb, owned](uint64_t userId) { cb(userId, owned->Get()); };
      },
      [call](platformpp::Call::OnVoiceStateChanged cb) {
        call->call.SetOnVoiceStateChangedCallback(std::move(cb));
      });
}

void platformpp_call_set_self_mute(platformpp_call* call, int32_t mute) {
  CallGuarded(call, __func__, [&] { call->call.SetSelfMute(mute != 0); });
}

int32_t platformpp_call_get_self_mute(const platformpp_call* call) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetSelfMute() ? 1 : 0; });
}

void platformpp_call_set_self_deaf(platformpp_call* call, int32_t deaf) {
  CallGuarded(call, __func__, [&] { call->call.SetSelfDeaf(deaf != 0); });
}

int32_t platformpp_call_get_self_deaf(const platformpp_call* call) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetSelfDeaf() ? 1 : 0; });
}

void platformpp_call_set_local_mute(platformpp_call* call, uint64_t user_id, int32_t mute) {
  CallGuarded(call, __func__, [&] { call->call.SetLocalMute(user_id, mute != 0); });
}

int32_t platformpp_call_get_local_mute(const platformpp_call* call, uint64_t user_id) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetLocalMute(user_id) ? 1 : 0; });
}

void platformpp_call_set_participant_volume(platformpp_call* call, uint64_t user_id, float volume) {
  CallGuarded(call, __func__, [&] { call->call.SetParticipantVolume(user_id, volume); });
}

float platformpp_call_get_participant_volume(const platformpp_call* call, uint64_t user_id) {
  return CallGuarded(call, __func__, 100.0f, [&] { return call->call.GetParticipantVolume(user_id); });
}

void platformpp_call_set_audio_mode(platformpp_call* call, platformpp_audio_mode_type audio_mode) {
  // Checked here: a value outside the enum must not reach the C++ enum class.
  const int32_t mode = CEnumValue(audio_mode);
  if (mode != PLATFORMPP_AUDIO_MODE_TYPE_VAD && mode != PLATFORMPP_AUDIO_MODE_TYPE_PTT) return;
  CallGuarded(call, __func__, [&] { call->call.SetAudioMode(static_cast<platformpp::AudioModeType>(mode)); });
}

platformpp_audio_mode_type platformpp_call_get_audio_mode(const platformpp_call* call) {
  return CallGuarded(call, __func__, PLATFORMPP_AUDIO_MODE_TYPE_UNINIT,
                     [&] { return static_cast<platformpp_audio_mode_type>(call->call.GetAudioMode()); });
}

void platformpp_call_set_ptt_active(platformpp_call* call, int32_t active) {
  CallGuarded(call, __func__, [&] { call->call.SetPTTActive(active != 0); });
}

int32_t platformpp_call_get_ptt_active(const platformpp_call* call) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetPTTActive() ? 1 : 0; });
}

void platformpp_call_set_ptt_release_delay(platformpp_call* call, uint32_t release_delay_ms) {
  CallGuarded(call, __func__, [&] { call->call.SetPTTReleaseDelay(release_delay_ms); });
}

uint32_t platformpp_call_get_ptt_release_delay(const platformpp_call* call) {
  return CallGuarded(call, __func__, uint32_t{0}, [&] { return call->call.GetPTTReleaseDelay(); });
}

void platformpp_call_set_vad_threshold(platformpp_call* call, int32_t automatic, float threshold) {
  CallGuarded(call, __func__, [&] { call->call.SetVADThreshold(automatic != 0, threshold); });
}

int32_t platformpp_call_get_vad_threshold_automatic(const platformpp_call* call) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetVADThresholdAutomatic() ? 1 : 0; });
}

float platformpp_call_get_vad_threshold(const platformpp_call* call) {
  return CallGuarded(call, __func__, -60.0f, [&] { return call->call.GetVADThreshold(); });
}

int32_t platformpp_call_get_e2ee_active(const platformpp_call* call) {
  return CallGuarded(call, __func__, 0, [&] { return call->call.GetE2eeActive() ? 1 : 0; });
}

size_t platformpp_call_get_epoch_authenticator(const platformpp_call* call, uint8_t* authenticator,
                                               size_t capacity) {
  return CallGuarded(call, __func__, size_t{0}, [&] {
    const std::vector<uint8_t> bytes = call->call.GetEpochAuthenticator();
    if (authenticator && !bytes.empty())
      std::memcpy(authenticator, bytes.data(), std::min(capacity, bytes.size()));
    return bytes.size();
  });
}

size_t platformpp_call_get_media_statistics(const platformpp_call* call,
                                            platformpp_call_media_statistics* statistics,
                                            size_t statistics_size) {
  platformpp_call_media_statistics out{};
  if (call) {
    Guarded(
        call->boundary.get(), __func__,
        [&] {
          const platformpp::CallMediaStatistics s = call->call.GetMediaStatistics();
          out = {s.framesSent,      s.framesEncrypted, s.framesWithheld,      s.packetsReceived,
                 s.framesDecrypted, s.framesInClear,   s.framesUndecryptable, s.framesLost,
                 s.framesConcealed, s.framesDecoded};
        },
        "it writes zeros");
  }
  if (statistics) std::memcpy(statistics, &out, std::min(statistics_size, sizeof out));
  return sizeof out;
}

const char* platformpp_call_get_epoch_verification_code(const platformpp_call* call, size_t* size) {
  if (!call) return EmptyOut(size);
  return GuardedOr(call->boundary.get(), __func__, EmptyOut(size), [&] {
    call->epochCode = call->call.GetEpochVerificationCode();
    return StringOut(call->epochCode, size);
  });
}

void platformpp_call_get_pairwise_verification_code(platformpp_call* call, uint64_t user_id,
                                                    platformpp_call_verification_code_fn callback,
                                                    void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  if (!call) return Refuse(user_data, user_data_free);
  // The callback may be dropped on the library's worker thread: its user_data is freed through the
  // client's deferred frees, on the caller's thread.
  StartOperation(call->boundary, __func__, callback, user_data, user_data_free, call->frees,
                 [&](const OperationPtr<platformpp_call_verification_code_fn>& op) {
                   call->call.GetPairwiseVerificationCode(user_id, [op](const std::string& code) {
                     if (auto done = op->Claim()) done(code.c_str(), code.size(), op->Data());
                   });
                 });
}

void platformpp_call_set_e2ee_status_changed_callback(platformpp_call* call,
                                                      platformpp_call_e2ee_status_changed_fn callback,
                                                      void* user_data,
                                                      platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, __func__, callback, user_data, user_data_free,
      [](platformpp_call_e2ee_status_changed_fn cb, const std::shared_ptr<DeferredUserData>& owned) {
        return [cb, owned](bool active) { cb(active ? 1 : 0, owned->Get()); };
      },
      [call](platformpp::Call::OnE2eeStatusChanged cb) {
        call->call.SetE2eeStatusChangedCallback(std::move(cb));
      });
}

// Static names, made once; no client to log to, so "Unknown" is the report when even that fails.
const char* platformpp_call_status_to_string(platformpp_call_status status) {
  try {
    return EnumName<7>(CEnumValue(status), [](int32_t i) {
      return platformpp::Call::StatusToString(static_cast<platformpp::Call::Status>(i));
    });
  } catch (...) {
    return "Unknown";
  }
}

const char* platformpp_call_error_to_string(platformpp_call_error error) {
  try {
    return EnumName<6>(CEnumValue(error), [](int32_t i) {
      return platformpp::Call::ErrorToString(static_cast<platformpp::Call::Error>(i));
    });
  } catch (...) {
    return "Unknown";
  }
}

// --- Devices and settings
// -----------------------------------------------------------------------------------

void platformpp_client_get_input_devices(platformpp_client* client, platformpp_audio_devices_fn callback,
                                         void* user_data, platformpp_user_data_free_fn user_data_free) {
  GetDevices(client, __func__, true, callback, user_data, user_data_free);
}

void platformpp_client_get_output_devices(platformpp_client* client, platformpp_audio_devices_fn callback,
                                          void* user_data, platformpp_user_data_free_fn user_data_free) {
  GetDevices(client, __func__, false, callback, user_data, user_data_free);
}

void platformpp_client_get_current_input_device(platformpp_client* client,
                                                platformpp_audio_device_fn callback, void* user_data,
                                                platformpp_user_data_free_fn user_data_free) {
  GetCurrentDevice(client, __func__, true, callback, user_data, user_data_free);
}

void platformpp_client_get_current_output_device(platformpp_client* client,
                                                 platformpp_audio_device_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  GetCurrentDevice(client, __func__, false, callback, user_data, user_data_free);
}

void platformpp_client_set_input_device(platformpp_client* client, const char* device_id,
                                        size_t device_id_size, platformpp_result_fn callback, void* user_data,
                                        platformpp_user_data_free_fn user_data_free) {
  SetDevice(client, __func__, true, device_id, device_id_size, callback, user_data, user_data_free);
}

void platformpp_client_set_output_device(platformpp_client* client, const char* device_id,
                                         size_t device_id_size, platformpp_result_fn callback,
                                         void* user_data, platformpp_user_data_free_fn user_data_free) {
  SetDevice(client, __func__, false, device_id, device_id_size, callback, user_data, user_data_free);
}

void platformpp_client_set_device_change_callback(platformpp_client* client,
                                                  platformpp_device_change_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  const char* entry = __func__;
  RegisterDeferredEventCallback(
      client, entry, callback, user_data, user_data_free,
      [&](platformpp::Client::DeviceChangeCallback cb) {
        client->client.SetDeviceChangeCallback(std::move(cb));
      },
      [&](auto fn, auto owned) {
        return [boundary = client->boundary, entry, fn, owned](
                   const std::vector<platformpp::AudioDevice>& inputs,
                   const std::vector<platformpp::AudioDevice>& outputs) {
          std::vector<platformpp_audio_device> in, out;
          try {
            in = DeviceViews(inputs);
            out = DeviceViews(outputs);
          } catch (...) {
            boundary->Log(entry, std::current_exception(), "a device change could not be handed over");
            return;
          }
          fn(in.empty() ? nullptr : in.data(), in.size(), out.empty() ? nullptr : out.data(), out.size(),
             owned->Get());
        };
      });
}

void platformpp_client_set_input_volume(platformpp_client* client, float input_volume) {
  ClientGuarded(client, __func__, [&] { client->client.SetInputVolume(input_volume); });
}

float platformpp_client_get_input_volume(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0.0f, [&] { return client->client.GetInputVolume(); });
}

void platformpp_client_set_output_volume(platformpp_client* client, float output_volume) {
  ClientGuarded(client, __func__, [&] { client->client.SetOutputVolume(output_volume); });
}

float platformpp_client_get_output_volume(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0.0f, [&] { return client->client.GetOutputVolume(); });
}

void platformpp_client_set_self_mute_all(platformpp_client* client, int32_t mute) {
  ClientGuarded(client, __func__, [&] { client->client.SetSelfMuteAll(mute != 0); });
}

int32_t platformpp_client_get_self_mute_all(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0, [&] { return client->client.GetSelfMuteAll() ? 1 : 0; });
}

void platformpp_client_set_self_deaf_all(platformpp_client* client, int32_t deaf) {
  ClientGuarded(client, __func__, [&] { client->client.SetSelfDeafAll(deaf != 0); });
}

int32_t platformpp_client_get_self_deaf_all(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0, [&] { return client->client.GetSelfDeafAll() ? 1 : 0; });
}

void platformpp_client_set_no_audio_input_threshold(platformpp_client* client, float dbfs_threshold) {
  ClientGuarded(client, __func__, [&] { client->client.SetNoAudioInputThreshold(dbfs_threshold); });
}

void platformpp_client_set_no_audio_input_callback(platformpp_client* client,
                                                   platformpp_no_audio_input_fn callback, void* user_data,
                                                   platformpp_user_data_free_fn user_data_free) {
  RegisterDeferredEventCallback(
      client, __func__, callback, user_data, user_data_free,
      [&](platformpp::Client::NoAudioInputCallback cb) {
        client->client.SetNoAudioInputCallback(std::move(cb));
      },
      [](auto fn, auto owned) {
        return [fn, owned](bool inputDetected) { fn(inputDetected ? 1 : 0, owned->Get()); };
      });
}

void platformpp_client_set_echo_cancellation(platformpp_client* client, int32_t on) {
  ClientGuarded(client, __func__, [&] { client->client.SetEchoCancellation(on != 0); });
}

int32_t platformpp_client_get_echo_cancellation(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0, [&] { return client->client.GetEchoCancellation() ? 1 : 0; });
}

void platformpp_client_set_noise_suppression(platformpp_client* client, int32_t on) {
  ClientGuarded(client, __func__, [&] { client->client.SetNoiseSuppression(on != 0); });
}

int32_t platformpp_client_get_noise_suppression(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0, [&] { return client->client.GetNoiseSuppression() ? 1 : 0; });
}

void platformpp_client_set_automatic_gain_control(platformpp_client* client, int32_t on) {
  ClientGuarded(client, __func__, [&] { client->client.SetAutomaticGainControl(on != 0); });
}

int32_t platformpp_client_get_automatic_gain_control(const platformpp_client* client) {
  return ClientGuarded(client, __func__, 0, [&] { return client->client.GetAutomaticGainControl() ? 1 : 0; });
}

int32_t platformpp_client_set_engine_managed_audio_session(platformpp_client* client,
                                                           int32_t is_engine_managed) {
  return ClientGuarded(client, __func__, 0, [&] {
    return client->client.SetEngineManagedAudioSession(is_engine_managed != 0) ? 1 : 0;
  });
}

void platformpp_client_set_aec_dump(platformpp_client* client, int32_t on) {
  ClientGuarded(client, __func__, [&] { client->client.SetAecDump(on != 0); });
}

int32_t platformpp_client_set_voice_log_dir(platformpp_client* client, const char* path, size_t path_size,
                                            platformpp_logging_severity min_severity) {
  return ClientGuarded(client, __func__, 0, [&] {
    return client->client.SetVoiceLogDir(ToString(path, path_size),
                                         FromCEnum<platformpp::LoggingSeverity>(min_severity))
               ? 1
               : 0;
  });
}

void platformpp_client_add_voice_log_callback(platformpp_client* client, platformpp_log_fn callback,
                                              platformpp_logging_severity min_severity, void* user_data,
                                              platformpp_user_data_free_fn user_data_free) {
  if (!client || !callback) return Refuse(user_data, user_data_free);
  Guarded(
      client->boundary.get(), __func__,
      [&] {
        auto owned = OwnDeferred(client->frees.queue, user_data, user_data_free);
        client->client.AddVoiceLogCallback(ForwardLog(callback, std::move(owned)),
                                           FromCEnum<platformpp::LoggingSeverity>(min_severity));
      },
      kNotRegistered);
}

void platformpp_client_set_thread_priority(platformpp_client* client, platformpp_client_thread thread,
                                           int32_t priority) {
  // Checked here: a value outside the enum must not reach the C++ enum class.
  const int32_t which = CEnumValue(thread);
  if (which != PLATFORMPP_CLIENT_THREAD_CLIENT && which != PLATFORMPP_CLIENT_THREAD_VOICE &&
      which != PLATFORMPP_CLIENT_THREAD_NETWORK)
    return;
  ClientGuarded(client, __func__, [&] {
    client->client.SetThreadPriority(static_cast<platformpp::Client::Thread>(which), priority);
  });
}

}  // extern "C"
