/* platformpp C ABI, voice: Voice calls, end-to-end encryption (DAVE), audio devices.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone. */
#ifndef PLATFORMPP_PLATFORMPP_C_VOICE_H
#define PLATFORMPP_PLATFORMPP_C_VOICE_H

#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_lobby.h>
#include <platformpp/platformpp_c_social.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Voice calls in lobbies the player is a member of (Opus at 48 kHz stereo in 20 ms frames over UDP,
 * encrypted). Without a sound device, or with PLATFORMPP_AUDIO=null in the environment, the null device is
 * used: silence in, nothing out, in real time.
 *
 * Threads: every callback below runs inside platformpp_client_run_callbacks, except the two audio callbacks,
 * which run on the client's voice thread (see platformpp_client_start_call_with_audio_callbacks).
 * user_data_free: the library may drop a voice callback on one of its own threads; its user_data_free then
 * runs on the caller's thread all the same, inside a later platformpp_client_run_callbacks (after the
 * callbacks it runs) or inside platformpp_client_destroy, exactly once. */

typedef enum platformpp_call_status {
  PLATFORMPP_CALL_STATUS_DISCONNECTED = 0,
  PLATFORMPP_CALL_STATUS_JOINING = 1,
  PLATFORMPP_CALL_STATUS_CONNECTING = 2,
  PLATFORMPP_CALL_STATUS_SIGNALING_CONNECTED = 3,
  PLATFORMPP_CALL_STATUS_CONNECTED = 4,
  PLATFORMPP_CALL_STATUS_RECONNECTING = 5,
  PLATFORMPP_CALL_STATUS_DISCONNECTING = 6,
  PLATFORMPP_CALL_STATUS_FORCE_INT32 = 0x7FFFFFFF
} platformpp_call_status;

typedef enum platformpp_call_error {
  PLATFORMPP_CALL_ERROR_NONE = 0,
  PLATFORMPP_CALL_ERROR_SIGNALING_CONNECTION_FAILED = 1,
  PLATFORMPP_CALL_ERROR_SIGNALING_UNEXPECTED_CLOSE = 2,
  PLATFORMPP_CALL_ERROR_VOICE_CONNECTION_FAILED = 3,
  PLATFORMPP_CALL_ERROR_JOIN_TIMEOUT = 4,
  PLATFORMPP_CALL_ERROR_FORBIDDEN = 5,
  PLATFORMPP_CALL_ERROR_FORCE_INT32 = 0x7FFFFFFF
} platformpp_call_error;

/** How the microphone decides what to send: voice activity detection or push-to-talk. */
typedef enum platformpp_audio_mode_type {
  PLATFORMPP_AUDIO_MODE_TYPE_UNINIT = 0,
  PLATFORMPP_AUDIO_MODE_TYPE_VAD = 1,
  PLATFORMPP_AUDIO_MODE_TYPE_PTT = 2,
  PLATFORMPP_AUDIO_MODE_TYPE_FORCE_INT32 = 0x7FFFFFFF
} platformpp_audio_mode_type;

/** The client's threads, for platformpp_client_set_thread_priority. */
typedef enum platformpp_client_thread {
  PLATFORMPP_CLIENT_THREAD_CLIENT = 0,
  PLATFORMPP_CLIENT_THREAD_VOICE = 1,
  PLATFORMPP_CLIENT_THREAD_NETWORK = 2,
  PLATFORMPP_CLIENT_THREAD_FORCE_INT32 = 0x7FFFFFFF
} platformpp_client_thread;

/** A microphone or speaker. The strings are borrowed for the callback that hands it out. Without a sound
 * device (or with PLATFORMPP_AUDIO=null) the lists hold the null devices, which are the defaults. */
typedef struct platformpp_audio_device {
  const char* id;
  size_t id_size;
  const char* name;
  size_t name_size;
  int32_t is_default; /**< non-zero for the system's default device */
} platformpp_audio_device;

/** One voice call of the player, in one lobby: a handle the caller owns and destroys
 * (platformpp_call_destroy). Several handles may refer to the same call. Once the client is destroyed, only
 * platformpp_call_destroy may be called on its call handles. */
typedef struct platformpp_call platformpp_call;

/** Voice thread, once per 20 ms frame per speaking participant, with the decoded samples (interleaved, 48000
 * Hz, 2 channels) before the library mixes them. Set *out_should_mute to non-zero to keep the library from
 * playing them; the samples may be read or changed in place. Keep it short and lock-free: it is on the audio
 * path. */
typedef void (*platformpp_user_audio_received_fn)(uint64_t user_id, int16_t* data,
                                                  uint64_t samples_per_channel, int32_t sample_rate,
                                                  uint64_t channels, int32_t* out_should_mute,
                                                  void* user_data);
/** Voice thread, once per 20 ms microphone frame, before processing and sending: what it leaves in `data`
 * (interleaved) is what is sent. The same budget as above. */
typedef void (*platformpp_user_audio_captured_fn)(int16_t* data, uint64_t samples_per_channel,
                                                  int32_t sample_rate, uint64_t channels, void* user_data);
/** A call's status change, in order. error and error_detail (a voice gateway close code, or 0) explain a
 * DISCONNECTED that was not asked for. */
typedef void (*platformpp_call_status_changed_fn)(platformpp_call_status status, platformpp_call_error error,
                                                  int32_t error_detail, void* user_data);
/** A participant joined (added non-zero) or left the call. */
typedef void (*platformpp_call_participant_changed_fn)(uint64_t user_id, int32_t added, void* user_data);
/** Someone (the player included) started (non-zero) or stopped sending sound. */
typedef void (*platformpp_call_speaking_status_changed_fn)(uint64_t user_id, int32_t is_playing_sound,
                                                           void* user_data);
/** `devices` (borrowed for the callback) holds `count` devices. */
typedef void (*platformpp_audio_devices_fn)(const platformpp_audio_device* devices, size_t count,
                                            void* user_data);
/** `device` is borrowed for the callback; its strings are "" when there is no such device. */
typedef void (*platformpp_audio_device_fn)(const platformpp_audio_device* device, void* user_data);
typedef void (*platformpp_device_change_fn)(const platformpp_audio_device* input_devices, size_t input_count,
                                            const platformpp_audio_device* output_devices,
                                            size_t output_count, void* user_data);
/** input_detected: 0 once the microphone stayed below the threshold for a while, non-zero when sound is back.
 */
typedef void (*platformpp_no_audio_input_fn)(int32_t input_detected, void* user_data);
/** The call's media became end-to-end encrypted (e2ee_active non-zero) or stopped being so. */
typedef void (*platformpp_call_e2ee_status_changed_fn)(int32_t e2ee_active, void* user_data);
/** A verification code: `code` (NUL-terminated digits, borrowed for the callback) of `code_size` digits, ""
 * with 0 when there is none. */
typedef void (*platformpp_call_verification_code_fn)(const char* code, size_t code_size, void* user_data);

/** Joins the call of a lobby the player is a member of. NULL when the player is already in that call (use
 * platformpp_client_get_call), when the lobby is unknown to the client, before the client is READY, or for a
 * NULL client. Destroy the handle; that does not end the call (platformpp_client_end_call does). */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id);
/** The same, with the two audio callbacks (either may be NULL), which share `user_data`. They run on the
 * client's voice thread, not inside run_callbacks: the one exception to the rule above. user_data_free runs
 * once, on the thread that calls run_callbacks (inside a later platformpp_client_run_callbacks) or inside
 * platformpp_client_destroy, after the voice thread dropped both callbacks for good: when this returns NULL;
 * once the call's media is closed (after end_call or end_calls, or when the call reached DISCONNECTED by
 * itself); at the latest when the client is destroyed. A NULL client frees user_data at once. */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call_with_audio_callbacks(
    platformpp_client* client, uint64_t lobby_id, platformpp_user_audio_received_fn received,
    platformpp_user_audio_captured_fn captured, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Leaves the call of that lobby: `callback` (may be NULL) runs once inside run_callbacks when the platform
 * was told, or at the next run_callbacks when there is no such call; user_data_free runs once after it (also
 * when the client is destroyed first and the callback never runs). NULL client: user_data is freed at once.
 */
PLATFORMPP_C_API void platformpp_client_end_call(platformpp_client* client, uint64_t channel_id,
                                                 platformpp_notify_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free);
/** Leaves every call; `callback` runs once when the platform was told of all of them. As end_call. */
PLATFORMPP_C_API void platformpp_client_end_calls(platformpp_client* client, platformpp_notify_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** The player's call in that lobby (a new handle to destroy), or NULL. */
PLATFORMPP_C_API platformpp_call* platformpp_client_get_call(platformpp_client* client, uint64_t channel_id);
/** Writes up to `capacity` new handles (each to destroy) to `calls` (may be NULL with 0) and returns how many
 * calls there are. When a handle cannot be made, its slot is NULL. */
PLATFORMPP_C_API size_t platformpp_client_get_calls(platformpp_client* client, platformpp_call** calls,
                                                    size_t capacity);

PLATFORMPP_C_API void platformpp_call_destroy(platformpp_call* call);
/** Another handle to the same call, or NULL. */
PLATFORMPP_C_API platformpp_call* platformpp_call_clone(const platformpp_call* call);
/** The lobby's id (lobby calls use it as their channel). */
PLATFORMPP_C_API uint64_t platformpp_call_get_channel_id(const platformpp_call* call);
/** 0: lobby calls belong to no guild. */
PLATFORMPP_C_API uint64_t platformpp_call_get_guild_id(const platformpp_call* call);
/** NULL call: DISCONNECTED. */
PLATFORMPP_C_API platformpp_call_status platformpp_call_get_status(const platformpp_call* call);
/** The users in the call now, the player included once joined: writes up to `capacity` ids to `ids` (may be
 * NULL with 0) and returns how many there are. */
PLATFORMPP_C_API size_t platformpp_call_get_participants(const platformpp_call* call, uint64_t* ids,
                                                         size_t capacity);
/** Non-zero when `user_id` is in the call; then fills what is not NULL with the participant's own switches.
 */
PLATFORMPP_C_API int32_t platformpp_call_get_voice_state(const platformpp_call* call, uint64_t user_id,
                                                         int32_t* self_mute, int32_t* self_deaf);
/* Call event registrations: the callback runs inside run_callbacks, in order. Each replaces any earlier
 * callback of that kind (of every handle to the same call); a NULL callback removes it. user_data_free runs
 * once the library dropped the callback: replaced, or the call ended and gone (see the section's note). A
 * NULL call frees user_data at once. */
PLATFORMPP_C_API void platformpp_call_set_status_changed_callback(
    platformpp_call* call, platformpp_call_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_call_set_participant_changed_callback(
    platformpp_call* call, platformpp_call_participant_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_call_set_speaking_status_changed_callback(
    platformpp_call* call, platformpp_call_speaking_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A participant's voice state changed (joined, left, or switched self mute or deaf): read it with
 * platformpp_call_get_voice_state. */
PLATFORMPP_C_API void platformpp_call_set_voice_state_changed_callback(
    platformpp_call* call, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Stops sending the microphone (others see self_mute). */
PLATFORMPP_C_API void platformpp_call_set_self_mute(platformpp_call* call, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_call_get_self_mute(const platformpp_call* call);
/** Stops playing the call and sending (others see self_deaf). */
PLATFORMPP_C_API void platformpp_call_set_self_deaf(platformpp_call* call, int32_t deaf);
PLATFORMPP_C_API int32_t platformpp_call_get_self_deaf(const platformpp_call* call);
/** Silences one participant for this player only. */
PLATFORMPP_C_API void platformpp_call_set_local_mute(platformpp_call* call, uint64_t user_id, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_call_get_local_mute(const platformpp_call* call, uint64_t user_id);
/** Playback volume of one participant for this player, 0 to 200 (percent; 100 = unchanged). Clamped. */
PLATFORMPP_C_API void platformpp_call_set_participant_volume(platformpp_call* call, uint64_t user_id,
                                                             float volume);
/** NULL call: 100. */
PLATFORMPP_C_API float platformpp_call_get_participant_volume(const platformpp_call* call, uint64_t user_id);
/** VAD (default) or PTT; UNINIT (or any other value) is ignored. */
PLATFORMPP_C_API void platformpp_call_set_audio_mode(platformpp_call* call,
                                                     platformpp_audio_mode_type audio_mode);
/** NULL call: UNINIT. */
PLATFORMPP_C_API platformpp_audio_mode_type platformpp_call_get_audio_mode(const platformpp_call* call);
/** While PTT is active the microphone is sent; after release it keeps going for the release delay. */
PLATFORMPP_C_API void platformpp_call_set_ptt_active(platformpp_call* call, int32_t active);
PLATFORMPP_C_API int32_t platformpp_call_get_ptt_active(const platformpp_call* call);
/** Milliseconds to keep sending after PTT release (default 20, at most 2000). */
PLATFORMPP_C_API void platformpp_call_set_ptt_release_delay(platformpp_call* call, uint32_t release_delay_ms);
PLATFORMPP_C_API uint32_t platformpp_call_get_ptt_release_delay(const platformpp_call* call);
/** Voice activity threshold: automatic (non-zero) or a level in dBFS, -100 to 0 (default -60; clamped). */
PLATFORMPP_C_API void platformpp_call_set_vad_threshold(platformpp_call* call, int32_t automatic,
                                                        float threshold);
PLATFORMPP_C_API int32_t platformpp_call_get_vad_threshold_automatic(const platformpp_call* call);
/** NULL call: -60. */
PLATFORMPP_C_API float platformpp_call_get_vad_threshold(const platformpp_call* call);

/* End-to-end encryption (DAVE; docs/dave.md): whether it is on, and the codes players compare to check that
 * nobody else holds the keys (the same digits the platform's own clients show). */

/** Non-zero while the call's media is end-to-end encrypted (from the first DAVE transition the voice server
 * executes; 0 before it, after a downgrade to plain media, once the call is over, and for a NULL call). */
PLATFORMPP_C_API int32_t platformpp_call_get_e2ee_active(const platformpp_call* call);
/** The current MLS epoch's authenticator (32 bytes, the same for every member): writes up to `capacity`
 * bytes to `authenticator` (may be NULL with 0) and returns its size; 0 when there is no group. */
PLATFORMPP_C_API size_t platformpp_call_get_epoch_authenticator(const platformpp_call* call,
                                                                uint8_t* authenticator, size_t capacity);
/** The epoch authenticator as 30 digits, the same for everyone in the call; "" when there is no group (and
 * for a NULL call). It changes with every epoch (someone joins or leaves). Owned by the handle, valid until
 * the next call on it; *size (if not NULL) receives its length. */
PLATFORMPP_C_API const char* platformpp_call_get_epoch_verification_code(const platformpp_call* call,
                                                                         size_t* size);
/** The 45-digit code of the player and `user_id` (both signature keys through scrypt), the same on both
 * sides. Computed on a thread of the library (about 100 ms): `callback` (may be NULL) runs exactly once,
 * inside run_callbacks ("" when E2EE is off, or user_id is not in the group or is the player), or with ""
 * inside platformpp_client_destroy when the client is destroyed first; user_data_free runs once after it. A
 * NULL call frees user_data at once and calls nothing. */
PLATFORMPP_C_API void platformpp_call_get_pairwise_verification_code(
    platformpp_call* call, uint64_t user_id, platformpp_call_verification_code_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** get_e2ee_active changed (only the flag: a new epoch calls nothing). A registration as the call's others
 * above. */
PLATFORMPP_C_API void platformpp_call_set_e2ee_status_changed_callback(
    platformpp_call* call, platformpp_call_e2ee_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Static, NUL-terminated names (never free them), e.g. "Connected"; "Unknown" outside the enum. */
PLATFORMPP_C_API const char* platformpp_call_status_to_string(platformpp_call_status status);
PLATFORMPP_C_API const char* platformpp_call_error_to_string(platformpp_call_error error);

/* Audio devices and settings of every call. Device callbacks run once inside run_callbacks (never when the
 * client is destroyed first); user_data_free runs once after, or when the client is destroyed. */
PLATFORMPP_C_API void platformpp_client_get_input_devices(platformpp_client* client,
                                                          platformpp_audio_devices_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_output_devices(platformpp_client* client,
                                                           platformpp_audio_devices_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_current_input_device(platformpp_client* client,
                                                                 platformpp_audio_device_fn callback,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_get_current_output_device(
    platformpp_client* client, platformpp_audio_device_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Switches the microphone (or speaker) of every call; an unknown id is VALIDATION_ERROR. The callback runs
 * as for the operations above (with CLIENT_DESTROYED when the client goes first). */
PLATFORMPP_C_API void platformpp_client_set_input_device(platformpp_client* client, const char* device_id,
                                                         size_t device_id_size, platformpp_result_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free);
PLATFORMPP_C_API void platformpp_client_set_output_device(platformpp_client* client, const char* device_id,
                                                          size_t device_id_size,
                                                          platformpp_result_fn callback, void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** The device lists changed (a headset plugged in or out). Replaces an earlier callback; NULL removes it. */
PLATFORMPP_C_API void platformpp_client_set_device_change_callback(
    platformpp_client* client, platformpp_device_change_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Microphone and speaker gain, 0 to 100 (default 100). Clamped; NaN is ignored. */
PLATFORMPP_C_API void platformpp_client_set_input_volume(platformpp_client* client, float input_volume);
PLATFORMPP_C_API float platformpp_client_get_input_volume(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_output_volume(platformpp_client* client, float output_volume);
PLATFORMPP_C_API float platformpp_client_get_output_volume(const platformpp_client* client);
/** Mute (or deafen) the player in every call, now and in calls started later. */
PLATFORMPP_C_API void platformpp_client_set_self_mute_all(platformpp_client* client, int32_t mute);
PLATFORMPP_C_API int32_t platformpp_client_get_self_mute_all(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_self_deaf_all(platformpp_client* client, int32_t deaf);
PLATFORMPP_C_API int32_t platformpp_client_get_self_deaf_all(const platformpp_client* client);
/** The microphone level (dBFS, -100 to 0, default -100: never) below which, for a while, the input counts as
 * silent: the callback gets 0 then, and non-zero when sound comes back. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_threshold(platformpp_client* client,
                                                                     float dbfs_threshold);
/** Replaces an earlier callback; NULL removes it. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_callback(
    platformpp_client* client, platformpp_no_audio_input_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Echo cancellation, noise suppression and automatic gain control of the microphone, on by default. */
PLATFORMPP_C_API void platformpp_client_set_echo_cancellation(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_echo_cancellation(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_noise_suppression(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_noise_suppression(const platformpp_client* client);
PLATFORMPP_C_API void platformpp_client_set_automatic_gain_control(platformpp_client* client, int32_t on);
PLATFORMPP_C_API int32_t platformpp_client_get_automatic_gain_control(const platformpp_client* client);
/** Whether the game manages the platform's audio session itself (iOS/Android); on desktop it only records the
 * choice. Non-zero when accepted. */
PLATFORMPP_C_API int32_t platformpp_client_set_engine_managed_audio_session(platformpp_client* client,
                                                                            int32_t is_engine_managed);
/** Writes the echo canceller's diagnostics into the voice log directory (else the log directory) while on. */
PLATFORMPP_C_API void platformpp_client_set_aec_dump(platformpp_client* client, int32_t on);
/** Voice engine messages to a file in `path` (created if missing). Non-zero on success. */
PLATFORMPP_C_API int32_t platformpp_client_set_voice_log_dir(platformpp_client* client, const char* path,
                                                             size_t path_size,
                                                             platformpp_logging_severity min_severity);
/** Voice engine messages (calls, media, devices) at min_severity and above, inside run_callbacks. A NULL
 * callback frees user_data at once; otherwise user_data_free runs when the client is destroyed. */
PLATFORMPP_C_API void platformpp_client_add_voice_log_callback(platformpp_client* client,
                                                               platformpp_log_fn callback,
                                                               platformpp_logging_severity min_severity,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free);
/** Scheduling priority hint for one of the client's threads; applied when allowed. */
PLATFORMPP_C_API void platformpp_client_set_thread_priority(platformpp_client* client,
                                                            platformpp_client_thread thread,
                                                            int32_t priority);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_VOICE_H */
