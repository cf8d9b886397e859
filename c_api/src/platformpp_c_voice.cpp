// The C ABI of voice calls, audio devices and audio settings. Nothing may throw across this boundary: every
// entry point catches. Every user_data here is owned through the client's DeferredFrees: the voice thread
// drops the audio callbacks and a call's callbacks may go with its last reference on the network thread, and
// user_data_free must still run on the caller's thread (see platformpp_c.h).
#include "c_support.hpp"

#include <platformpp/platformpp_c.h>
#include <platformpp/call.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <new>
#include <string>
#include <vector>

using namespace platformpp::c_api;

struct platformpp_call {
  platformpp::Call call;
  std::shared_ptr<DeferredFrees> frees;  // the client's: call callbacks' user_data is freed through it
  mutable std::string epochCode;         // the last get_epoch_verification_code answer
};

namespace {

platformpp_call* NewCall(platformpp::Call call, std::shared_ptr<DeferredFrees> frees) {
  if (!call) return nullptr;
  return new (std::nothrow) platformpp_call{std::move(call), std::move(frees), {}};
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

// Registers (or, for a NULL callback, clears) a call event callback; `make` wraps the C callback.
template <class Callback, class Make, class Setter>
void SetCallCallback(platformpp_call* call, Callback callback, void* user_data,
                     platformpp_user_data_free_fn user_data_free, Make make, Setter set) {
  if (!call) return Refuse(user_data, user_data_free);
  try {
    auto owned = OwnDeferred(call->frees, user_data, user_data_free);
    if (!callback) {
      set(nullptr);
      return;  // `owned` goes now: its free runs at the next run_callbacks
    }
    set(make(callback, std::move(owned)));
  } catch (...) {
  }
}

void GetDevices(platformpp_client* client, bool input, platformpp_audio_devices_fn callback, void* user_data,
                platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto done = [callback, owned = OwnDeferred(client->frees.queue, user_data, user_data_free)](
                    std::vector<platformpp::AudioDevice> devices) {
      if (!callback) return;
      auto views = DeviceViews(devices);
      callback(views.empty() ? nullptr : views.data(), views.size(), owned->Get());
    };
    if (input)
      client->client.GetInputDevices(std::move(done));
    else
      client->client.GetOutputDevices(std::move(done));
  } catch (...) {
  }
}

void GetCurrentDevice(platformpp_client* client, bool input, platformpp_audio_device_fn callback,
                      void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto done = [callback, owned = OwnDeferred(client->frees.queue, user_data, user_data_free)](
                    platformpp::AudioDevice device) {
      if (!callback) return;
      const platformpp_audio_device view = DeviceView(device);
      callback(&view, owned->Get());
    };
    if (input)
      client->client.GetCurrentInputDevice(std::move(done));
    else
      client->client.GetCurrentOutputDevice(std::move(done));
  } catch (...) {
  }
}

void SetDevice(platformpp_client* client, bool input, const char* device_id, size_t device_id_size,
               platformpp_result_fn callback, void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto done = [callback, owned = OwnDeferred(client->frees.queue, user_data, user_data_free)](
                    platformpp::ClientResult result) {
      if (!callback) return;
      platformpp_client_result view{std::move(result)};
      callback(&view, owned->Get());
    };
    if (input)
      client->client.SetInputDevice(ToString(device_id, device_id_size), std::move(done));
    else
      client->client.SetOutputDevice(ToString(device_id, device_id_size), std::move(done));
  } catch (...) {
  }
}

template <size_t N, class Enum, class Name>
const char* EnumName(Enum value, Name name) {
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
  if (!client) return nullptr;
  try {
    return NewCall(client->client.StartCall(lobby_id), client->frees.queue);
  } catch (...) {
    return nullptr;
  }
}

platformpp_call* platformpp_client_start_call_with_audio_callbacks(
    platformpp_client* client, uint64_t lobby_id, platformpp_user_audio_received_fn received,
    platformpp_user_audio_captured_fn captured, void* user_data,
    platformpp_user_data_free_fn user_data_free) {
  if (!client) {
    Refuse(user_data, user_data_free);
    return nullptr;
  }
  try {
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
        client->frees.queue);
  } catch (...) {
    return nullptr;
  }
}

void platformpp_client_end_call(platformpp_client* client, uint64_t channel_id, platformpp_notify_fn callback,
                                void* user_data, platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    client->client.EndCall(channel_id,
                           [callback, owned = OwnDeferred(client->frees.queue, user_data, user_data_free)] {
                             if (callback) callback(owned->Get());
                           });
  } catch (...) {
  }
}

void platformpp_client_end_calls(platformpp_client* client, platformpp_notify_fn callback, void* user_data,
                                 platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    client->client.EndCalls([callback, owned = OwnDeferred(client->frees.queue, user_data, user_data_free)] {
      if (callback) callback(owned->Get());
    });
  } catch (...) {
  }
}

platformpp_call* platformpp_client_get_call(platformpp_client* client, uint64_t channel_id) {
  if (!client) return nullptr;
  try {
    return NewCall(client->client.GetCall(channel_id), client->frees.queue);
  } catch (...) {
    return nullptr;
  }
}

size_t platformpp_client_get_calls(platformpp_client* client, platformpp_call** calls, size_t capacity) {
  if (!client) return 0;
  try {
    auto all = client->client.GetCalls();
    for (size_t i = 0; calls && i < capacity && i < all.size(); ++i)
      calls[i] = NewCall(all[i], client->frees.queue);
    return all.size();
  } catch (...) {
    return 0;
  }
}

void platformpp_call_destroy(platformpp_call* call) {
  delete call;
}

platformpp_call* platformpp_call_clone(const platformpp_call* call) {
  return call ? NewCall(call->call, call->frees) : nullptr;
}

uint64_t platformpp_call_get_channel_id(const platformpp_call* call) {
  return call ? call->call.GetChannelId() : 0;
}

uint64_t platformpp_call_get_guild_id(const platformpp_call* call) {
  return call ? call->call.GetGuildId() : 0;
}

platformpp_call_status platformpp_call_get_status(const platformpp_call* call) {
  return call ? static_cast<platformpp_call_status>(call->call.GetStatus())
              : PLATFORMPP_CALL_STATUS_DISCONNECTED;
}

size_t platformpp_call_get_participants(const platformpp_call* call, uint64_t* ids, size_t capacity) {
  if (!call) return 0;
  try {
    auto all = call->call.GetParticipants();
    for (size_t i = 0; ids && i < capacity && i < all.size(); ++i)
      ids[i] = all[i];
    return all.size();
  } catch (...) {
    return 0;
  }
}

int32_t platformpp_call_get_voice_state(const platformpp_call* call, uint64_t user_id, int32_t* self_mute,
                                        int32_t* self_deaf) {
  if (!call) return 0;
  try {
    auto state = call->call.GetVoiceStateHandle(user_id);
    if (!state) return 0;
    if (self_mute) *self_mute = state->SelfMute() ? 1 : 0;
    if (self_deaf) *self_deaf = state->SelfDeaf() ? 1 : 0;
    return 1;
  } catch (...) {
    return 0;
  }
}

void platformpp_call_set_status_changed_callback(platformpp_call* call,
                                                 platformpp_call_status_changed_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, callback, user_data, user_data_free,
      [](platformpp_call_status_changed_fn cb, std::shared_ptr<DeferredUserData> owned) {
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
      call, callback, user_data, user_data_free,
      [](platformpp_call_participant_changed_fn cb, std::shared_ptr<DeferredUserData> owned) {
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
      call, callback, user_data, user_data_free,
      [](platformpp_call_speaking_status_changed_fn cb, std::shared_ptr<DeferredUserData> owned) {
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
      call, callback, user_data, user_data_free,
      [](platformpp_user_id_fn cb, std::shared_ptr<DeferredUserData> owned) {
        return [cb, owned](uint64_t userId) { cb(userId, owned->Get()); };
      },
      [call](platformpp::Call::OnVoiceStateChanged cb) {
        call->call.SetOnVoiceStateChangedCallback(std::move(cb));
      });
}

void platformpp_call_set_self_mute(platformpp_call* call, int32_t mute) {
  if (call) call->call.SetSelfMute(mute != 0);
}

int32_t platformpp_call_get_self_mute(const platformpp_call* call) {
  return call && call->call.GetSelfMute() ? 1 : 0;
}

void platformpp_call_set_self_deaf(platformpp_call* call, int32_t deaf) {
  if (call) call->call.SetSelfDeaf(deaf != 0);
}

int32_t platformpp_call_get_self_deaf(const platformpp_call* call) {
  return call && call->call.GetSelfDeaf() ? 1 : 0;
}

void platformpp_call_set_local_mute(platformpp_call* call, uint64_t user_id, int32_t mute) {
  if (!call) return;
  try {
    call->call.SetLocalMute(user_id, mute != 0);
  } catch (...) {
  }
}

int32_t platformpp_call_get_local_mute(const platformpp_call* call, uint64_t user_id) {
  return call && call->call.GetLocalMute(user_id) ? 1 : 0;
}

void platformpp_call_set_participant_volume(platformpp_call* call, uint64_t user_id, float volume) {
  if (!call) return;
  try {
    call->call.SetParticipantVolume(user_id, volume);
  } catch (...) {
  }
}

float platformpp_call_get_participant_volume(const platformpp_call* call, uint64_t user_id) {
  return call ? call->call.GetParticipantVolume(user_id) : 100.0f;
}

void platformpp_call_set_audio_mode(platformpp_call* call, platformpp_audio_mode_type audio_mode) {
  // Checked here: a value outside the enum must not reach the C++ enum class.
  if (call && (audio_mode == PLATFORMPP_AUDIO_MODE_TYPE_VAD || audio_mode == PLATFORMPP_AUDIO_MODE_TYPE_PTT))
    call->call.SetAudioMode(static_cast<platformpp::AudioModeType>(audio_mode));
}

platformpp_audio_mode_type platformpp_call_get_audio_mode(const platformpp_call* call) {
  return call ? static_cast<platformpp_audio_mode_type>(call->call.GetAudioMode())
              : PLATFORMPP_AUDIO_MODE_TYPE_UNINIT;
}

void platformpp_call_set_ptt_active(platformpp_call* call, int32_t active) {
  if (call) call->call.SetPTTActive(active != 0);
}

int32_t platformpp_call_get_ptt_active(const platformpp_call* call) {
  return call && call->call.GetPTTActive() ? 1 : 0;
}

void platformpp_call_set_ptt_release_delay(platformpp_call* call, uint32_t release_delay_ms) {
  if (call) call->call.SetPTTReleaseDelay(release_delay_ms);
}

uint32_t platformpp_call_get_ptt_release_delay(const platformpp_call* call) {
  return call ? call->call.GetPTTReleaseDelay() : 0;
}

void platformpp_call_set_vad_threshold(platformpp_call* call, int32_t automatic, float threshold) {
  if (call) call->call.SetVADThreshold(automatic != 0, threshold);
}

int32_t platformpp_call_get_vad_threshold_automatic(const platformpp_call* call) {
  return call && call->call.GetVADThresholdAutomatic() ? 1 : 0;
}

float platformpp_call_get_vad_threshold(const platformpp_call* call) {
  return call ? call->call.GetVADThreshold() : -60.0f;
}

int32_t platformpp_call_get_e2ee_active(const platformpp_call* call) {
  return call && call->call.GetE2eeActive() ? 1 : 0;
}

size_t platformpp_call_get_epoch_authenticator(const platformpp_call* call, uint8_t* authenticator,
                                               size_t capacity) {
  if (!call) return 0;
  try {
    const std::vector<uint8_t> bytes = call->call.GetEpochAuthenticator();
    if (authenticator && !bytes.empty())
      std::memcpy(authenticator, bytes.data(), std::min(capacity, bytes.size()));
    return bytes.size();
  } catch (...) {
    return 0;
  }
}

const char* platformpp_call_get_epoch_verification_code(const platformpp_call* call, size_t* size) {
  if (!call) return EmptyOut(size);
  try {
    call->epochCode = call->call.GetEpochVerificationCode();
    return StringOut(call->epochCode, size);
  } catch (...) {
    return EmptyOut(size);
  }
}

void platformpp_call_get_pairwise_verification_code(platformpp_call* call, uint64_t user_id,
                                                    platformpp_call_verification_code_fn callback,
                                                    void* user_data,
                                                    platformpp_user_data_free_fn user_data_free) {
  if (!call) return Refuse(user_data, user_data_free);
  try {
    // The callback may be dropped on the library's worker thread: its user_data is freed through the
    // client's deferred frees, on the caller's thread.
    call->call.GetPairwiseVerificationCode(
        user_id, [callback, owned = OwnDeferred(call->frees, user_data, user_data_free)](std::string code) {
          if (callback) callback(code.c_str(), code.size(), owned->Get());
        });
  } catch (...) {
  }
}

void platformpp_call_set_e2ee_status_changed_callback(platformpp_call* call,
                                                      platformpp_call_e2ee_status_changed_fn callback,
                                                      void* user_data,
                                                      platformpp_user_data_free_fn user_data_free) {
  SetCallCallback(
      call, callback, user_data, user_data_free,
      [](platformpp_call_e2ee_status_changed_fn cb, std::shared_ptr<DeferredUserData> owned) {
        return [cb, owned](bool active) { cb(active ? 1 : 0, owned->Get()); };
      },
      [call](platformpp::Call::OnE2eeStatusChanged cb) {
        call->call.SetE2eeStatusChangedCallback(std::move(cb));
      });
}

const char* platformpp_call_status_to_string(platformpp_call_status status) {
  try {
    return EnumName<7>(status, [](int32_t i) {
      return platformpp::Call::StatusToString(static_cast<platformpp::Call::Status>(i));
    });
  } catch (...) {
    return "Unknown";
  }
}

const char* platformpp_call_error_to_string(platformpp_call_error error) {
  try {
    return EnumName<6>(error, [](int32_t i) {
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
  GetDevices(client, true, callback, user_data, user_data_free);
}

void platformpp_client_get_output_devices(platformpp_client* client, platformpp_audio_devices_fn callback,
                                          void* user_data, platformpp_user_data_free_fn user_data_free) {
  GetDevices(client, false, callback, user_data, user_data_free);
}

void platformpp_client_get_current_input_device(platformpp_client* client,
                                                platformpp_audio_device_fn callback, void* user_data,
                                                platformpp_user_data_free_fn user_data_free) {
  GetCurrentDevice(client, true, callback, user_data, user_data_free);
}

void platformpp_client_get_current_output_device(platformpp_client* client,
                                                 platformpp_audio_device_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free) {
  GetCurrentDevice(client, false, callback, user_data, user_data_free);
}

void platformpp_client_set_input_device(platformpp_client* client, const char* device_id,
                                        size_t device_id_size, platformpp_result_fn callback, void* user_data,
                                        platformpp_user_data_free_fn user_data_free) {
  SetDevice(client, true, device_id, device_id_size, callback, user_data, user_data_free);
}

void platformpp_client_set_output_device(platformpp_client* client, const char* device_id,
                                         size_t device_id_size, platformpp_result_fn callback,
                                         void* user_data, platformpp_user_data_free_fn user_data_free) {
  SetDevice(client, false, device_id, device_id_size, callback, user_data, user_data_free);
}

void platformpp_client_set_device_change_callback(platformpp_client* client,
                                                  platformpp_device_change_fn callback, void* user_data,
                                                  platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = OwnDeferred(client->frees.queue, user_data, user_data_free);
    if (!callback) {
      client->client.SetDeviceChangeCallback(nullptr);
      return;
    }
    client->client.SetDeviceChangeCallback([callback, owned](std::vector<platformpp::AudioDevice> inputs,
                                                             std::vector<platformpp::AudioDevice> outputs) {
      auto in = DeviceViews(inputs);
      auto out = DeviceViews(outputs);
      callback(in.empty() ? nullptr : in.data(), in.size(), out.empty() ? nullptr : out.data(), out.size(),
               owned->Get());
    });
  } catch (...) {
  }
}

void platformpp_client_set_input_volume(platformpp_client* client, float input_volume) {
  if (client) client->client.SetInputVolume(input_volume);
}

float platformpp_client_get_input_volume(const platformpp_client* client) {
  return client ? client->client.GetInputVolume() : 0.0f;
}

void platformpp_client_set_output_volume(platformpp_client* client, float output_volume) {
  if (client) client->client.SetOutputVolume(output_volume);
}

float platformpp_client_get_output_volume(const platformpp_client* client) {
  return client ? client->client.GetOutputVolume() : 0.0f;
}

void platformpp_client_set_self_mute_all(platformpp_client* client, int32_t mute) {
  if (!client) return;
  try {
    client->client.SetSelfMuteAll(mute != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_get_self_mute_all(const platformpp_client* client) {
  return client && client->client.GetSelfMuteAll() ? 1 : 0;
}

void platformpp_client_set_self_deaf_all(platformpp_client* client, int32_t deaf) {
  if (!client) return;
  try {
    client->client.SetSelfDeafAll(deaf != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_get_self_deaf_all(const platformpp_client* client) {
  return client && client->client.GetSelfDeafAll() ? 1 : 0;
}

void platformpp_client_set_no_audio_input_threshold(platformpp_client* client, float dbfs_threshold) {
  if (!client) return;
  try {
    client->client.SetNoAudioInputThreshold(dbfs_threshold);
  } catch (...) {
  }
}

void platformpp_client_set_no_audio_input_callback(platformpp_client* client,
                                                   platformpp_no_audio_input_fn callback, void* user_data,
                                                   platformpp_user_data_free_fn user_data_free) {
  if (!client) return Refuse(user_data, user_data_free);
  try {
    auto owned = OwnDeferred(client->frees.queue, user_data, user_data_free);
    if (!callback) {
      client->client.SetNoAudioInputCallback(nullptr);
      return;
    }
    client->client.SetNoAudioInputCallback(
        [callback, owned](bool inputDetected) { callback(inputDetected ? 1 : 0, owned->Get()); });
  } catch (...) {
  }
}

void platformpp_client_set_echo_cancellation(platformpp_client* client, int32_t on) {
  if (!client) return;
  try {
    client->client.SetEchoCancellation(on != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_get_echo_cancellation(const platformpp_client* client) {
  return client && client->client.GetEchoCancellation() ? 1 : 0;
}

void platformpp_client_set_noise_suppression(platformpp_client* client, int32_t on) {
  if (!client) return;
  try {
    client->client.SetNoiseSuppression(on != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_get_noise_suppression(const platformpp_client* client) {
  return client && client->client.GetNoiseSuppression() ? 1 : 0;
}

void platformpp_client_set_automatic_gain_control(platformpp_client* client, int32_t on) {
  if (!client) return;
  try {
    client->client.SetAutomaticGainControl(on != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_get_automatic_gain_control(const platformpp_client* client) {
  return client && client->client.GetAutomaticGainControl() ? 1 : 0;
}

int32_t platformpp_client_set_engine_managed_audio_session(platformpp_client* client,
                                                           int32_t is_engine_managed) {
  if (!client) return 0;
  try {
    return client->client.SetEngineManagedAudioSession(is_engine_managed != 0) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

void platformpp_client_set_aec_dump(platformpp_client* client, int32_t on) {
  if (!client) return;
  try {
    client->client.SetAecDump(on != 0);
  } catch (...) {
  }
}

int32_t platformpp_client_set_voice_log_dir(platformpp_client* client, const char* path, size_t path_size,
                                            platformpp_logging_severity min_severity) {
  if (!client) return 0;
  try {
    return client->client.SetVoiceLogDir(ToString(path, path_size),
                                         static_cast<platformpp::LoggingSeverity>(min_severity))
               ? 1
               : 0;
  } catch (...) {
    return 0;
  }
}

void platformpp_client_add_voice_log_callback(platformpp_client* client, platformpp_log_fn callback,
                                              platformpp_logging_severity min_severity, void* user_data,
                                              platformpp_user_data_free_fn user_data_free) {
  if (!client || !callback) return Refuse(user_data, user_data_free);
  try {
    auto owned = OwnDeferred(client->frees.queue, user_data, user_data_free);
    client->client.AddVoiceLogCallback(
        [callback, owned](std::string message, platformpp::LoggingSeverity severity) {
          callback(message.c_str(), message.size(), static_cast<platformpp_logging_severity>(severity),
                   owned->Get());
        },
        static_cast<platformpp::LoggingSeverity>(min_severity));
  } catch (...) {
  }
}

void platformpp_client_set_thread_priority(platformpp_client* client, platformpp_client_thread thread,
                                           int32_t priority) {
  if (!client) return;
  // Checked here: a value outside the enum must not reach the C++ enum class.
  if (thread != PLATFORMPP_CLIENT_THREAD_CLIENT && thread != PLATFORMPP_CLIENT_THREAD_VOICE &&
      thread != PLATFORMPP_CLIENT_THREAD_NETWORK)
    return;
  try {
    client->client.SetThreadPriority(static_cast<platformpp::Client::Thread>(thread), priority);
  } catch (...) {
  }
}

}  // extern "C"
