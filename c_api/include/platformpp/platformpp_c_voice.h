/** @file
 * Voice of the C ABI: calls in lobbies, their end-to-end encryption (DAVE) and verification codes, audio
 * devices and the audio settings of every call.
 *
 * platformpp C ABI, voice: Voice calls, end-to-end encryption (DAVE), audio devices.
 * Part of <platformpp/platformpp_c.h> (its conventions apply); each part can also be included alone.
 * See include/platformpp/call.hpp and include/platformpp/client.hpp for the C++ layer.
 */
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

/** Where a call stands (platformpp_call_get_status, platformpp_call_status_changed_fn). */
typedef enum platformpp_call_status {
  PLATFORMPP_CALL_STATUS_DISCONNECTED = 0,        /**< Not in the call; once reached, the call is over. */
  PLATFORMPP_CALL_STATUS_JOINING = 1,             /**< Asked the platform for a place in the lobby's call. */
  PLATFORMPP_CALL_STATUS_CONNECTING = 2,          /**< Connecting to the voice server. */
  PLATFORMPP_CALL_STATUS_SIGNALING_CONNECTED = 3, /**< Voice server session ready; media path being set up. */
  PLATFORMPP_CALL_STATUS_CONNECTED = 4,           /**< Audio flows. */
  PLATFORMPP_CALL_STATUS_RECONNECTING = 5,  /**< The voice server connection dropped; resuming the session. */
  PLATFORMPP_CALL_STATUS_DISCONNECTING = 6, /**< Leaving the call. */
  PLATFORMPP_CALL_STATUS_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a status. */
} platformpp_call_status;

/** Why a call reached DISCONNECTED without being asked to. */
typedef enum platformpp_call_error {
  PLATFORMPP_CALL_ERROR_NONE = 0,                        /**< No error. */
  PLATFORMPP_CALL_ERROR_SIGNALING_CONNECTION_FAILED = 1, /**< The voice gateway could not be reached. */
  PLATFORMPP_CALL_ERROR_SIGNALING_UNEXPECTED_CLOSE = 2,  /**< The voice gateway closed the connection. */
  PLATFORMPP_CALL_ERROR_VOICE_CONNECTION_FAILED = 3,     /**< The media connection failed. */
  PLATFORMPP_CALL_ERROR_JOIN_TIMEOUT = 4,                /**< Joining took too long. */
  PLATFORMPP_CALL_ERROR_FORBIDDEN = 5, /**< Refused: the voice server would not let the player in (close
                                          code 4004 or 4017), or the lobby is gone. */
  PLATFORMPP_CALL_ERROR_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not an error. */
} platformpp_call_error;

/** How the microphone decides what to send: voice activity detection or push-to-talk. */
typedef enum platformpp_audio_mode_type {
  PLATFORMPP_AUDIO_MODE_TYPE_UNINIT = 0, /**< No mode (what a NULL call reports); refused as a setting. */
  PLATFORMPP_AUDIO_MODE_TYPE_VAD = 1,    /**< Voice activity detection (the default). */
  PLATFORMPP_AUDIO_MODE_TYPE_PTT = 2,    /**< Push-to-talk (platformpp_call_set_ptt_active). */
  PLATFORMPP_AUDIO_MODE_TYPE_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a mode. */
} platformpp_audio_mode_type;

/** The client's threads, for platformpp_client_set_thread_priority. */
typedef enum platformpp_client_thread {
  PLATFORMPP_CLIENT_THREAD_CLIENT = 0,              /**< The client thread (the platform SDK's name). */
  PLATFORMPP_CLIENT_THREAD_VOICE = 1,               /**< The voice thread, where the audio callbacks run. */
  PLATFORMPP_CLIENT_THREAD_NETWORK = 2,             /**< The network thread. */
  PLATFORMPP_CLIENT_THREAD_FORCE_INT32 = 0x7FFFFFFF /**< Keeps the enum 32 bits wide; not a thread. */
} platformpp_client_thread;

/** A microphone or speaker. The strings are borrowed for the callback that hands it out. Without a sound
 * device (or with PLATFORMPP_AUDIO=null) the lists hold the null devices, which are the defaults. */
typedef struct platformpp_audio_device {
  /** The audio system's id (NUL-terminated); the null devices' are "null/input" and "null/output". */
  const char* id;
  size_t id_size;     /**< Length of id in bytes. */
  const char* name;   /**< The name to show (NUL-terminated UTF-8). */
  size_t name_size;   /**< Length of name in bytes. */
  int32_t is_default; /**< non-zero for the system's default device */
} platformpp_audio_device;

/** One voice call of the player, in one lobby: a handle the caller owns and destroys
 * (platformpp_call_destroy). Several handles may refer to the same call. Once the client is destroyed, only
 * platformpp_call_destroy may be called on its call handles. */
typedef struct platformpp_call platformpp_call;

/** Voice thread, once per 20 ms frame per speaking participant, with the decoded samples (interleaved, 48000
 * Hz, 2 channels) before the library mixes them. Set *out_should_mute to non-zero to keep the library from
 * playing them; the samples may be read or changed in place. Keep it short and lock-free: it is on the audio
 * path.
 * @param user_id The participant.
 * @param data samples_per_channel * channels samples, borrowed for the callback; may be changed in place.
 * @param samples_per_channel Samples per channel in `data`.
 * @param sample_rate Samples per second (48000).
 * @param channels Interleaved channels (2).
 * @param out_should_mute Set to non-zero to keep these samples from being played.
 * @param user_data The user_data given to platformpp_client_start_call_with_audio_callbacks. */
typedef void (*platformpp_user_audio_received_fn)(uint64_t user_id, int16_t* data,
                                                  uint64_t samples_per_channel, int32_t sample_rate,
                                                  uint64_t channels, int32_t* out_should_mute,
                                                  void* user_data);
/** Voice thread, once per 20 ms microphone frame, before processing and sending: what it leaves in `data`
 * (interleaved) is what is sent. The same budget as above.
 * @param data samples_per_channel * channels samples, borrowed for the callback; may be changed in place.
 * @param samples_per_channel Samples per channel in `data`.
 * @param sample_rate Samples per second.
 * @param channels Interleaved channels.
 * @param user_data The user_data given to platformpp_client_start_call_with_audio_callbacks. */
typedef void (*platformpp_user_audio_captured_fn)(int16_t* data, uint64_t samples_per_channel,
                                                  int32_t sample_rate, uint64_t channels, void* user_data);
/** A call's status change, in order. error and error_detail (a voice gateway close code, or 0) explain a
 * DISCONNECTED that was not asked for.
 * @param status The new status.
 * @param error Why an unrequested DISCONNECTED happened; NONE otherwise.
 * @param error_detail The voice gateway close code, or 0.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_call_status_changed_fn)(platformpp_call_status status, platformpp_call_error error,
                                                  int32_t error_detail, void* user_data);
/** A participant joined (added non-zero) or left the call.
 * @param user_id The participant.
 * @param added Non-zero when joined, 0 when left.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_call_participant_changed_fn)(uint64_t user_id, int32_t added, void* user_data);
/** Someone (the player included) started (non-zero) or stopped sending sound.
 * @param user_id The participant.
 * @param is_playing_sound Non-zero when started, 0 when stopped.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_call_speaking_status_changed_fn)(uint64_t user_id, int32_t is_playing_sound,
                                                           void* user_data);
/** `devices` (borrowed for the callback) holds `count` devices.
 * @param devices The devices, borrowed for the callback (strings included); NULL when there are none.
 * @param count Number of devices.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_audio_devices_fn)(const platformpp_audio_device* devices, size_t count,
                                            void* user_data);
/** `device` is borrowed for the callback; its strings are "" when there is no such device.
 * @param device The device, borrowed for the callback (never NULL).
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_audio_device_fn)(const platformpp_audio_device* device, void* user_data);
/** The device lists changed; both lists are borrowed for the callback.
 * @param input_devices The microphones; NULL when there are none.
 * @param input_count Number of microphones.
 * @param output_devices The speakers; NULL when there are none.
 * @param output_count Number of speakers.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_device_change_fn)(const platformpp_audio_device* input_devices, size_t input_count,
                                            const platformpp_audio_device* output_devices,
                                            size_t output_count, void* user_data);
/** input_detected: 0 once the microphone stayed below the threshold for a while, non-zero when sound is back.
 * @param input_detected 0 when the input went silent, non-zero when sound came back.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_no_audio_input_fn)(int32_t input_detected, void* user_data);
/** The call's media became end-to-end encrypted (e2ee_active non-zero) or stopped being so.
 * @param e2ee_active Non-zero when encrypted end to end now.
 * @param user_data The user_data given with the registration. */
typedef void (*platformpp_call_e2ee_status_changed_fn)(int32_t e2ee_active, void* user_data);
/** A verification code: `code` (NUL-terminated digits, borrowed for the callback) of `code_size` digits, ""
 * with 0 when there is none.
 * @param code The digits, borrowed for the callback; "" when there is none.
 * @param code_size Number of digits.
 * @param user_data The user_data given with the call. */
typedef void (*platformpp_call_verification_code_fn)(const char* code, size_t code_size, void* user_data);

/** Joins the call of a lobby the player is a member of. NULL when the player is already in that call (use
 * platformpp_client_get_call), when the lobby is unknown to the client, before the client is READY, or for a
 * NULL client. Destroy the handle; that does not end the call (platformpp_client_end_call does).
 * @param client The client.
 * @param lobby_id The lobby whose call to join.
 * @return A new handle the caller releases with platformpp_call_destroy, or NULL. */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call(platformpp_client* client, uint64_t lobby_id);
/** The same, with the two audio callbacks (either may be NULL), which share `user_data`. They run on the
 * client's voice thread, not inside run_callbacks: the one exception to the rule above. user_data_free runs
 * once, on the thread that calls run_callbacks (inside a later platformpp_client_run_callbacks) or inside
 * platformpp_client_destroy, after the voice thread dropped both callbacks for good: when this returns NULL;
 * once the call's media is closed (after end_call or end_calls, or when the call reached DISCONNECTED by
 * itself); at the latest when the client is destroyed. A NULL client frees user_data at once.
 * @param client The client.
 * @param lobby_id The lobby whose call to join.
 * @param received Gets each participant's decoded audio on the voice thread; may be NULL.
 * @param captured Gets each frame of the microphone's audio on the voice thread before it is sent; may be
 * NULL.
 * @param user_data Passed to `received` and `captured`.
 * @param user_data_free Frees user_data as described above; may be NULL.
 * @return A new handle the caller releases with platformpp_call_destroy, or NULL (as for
 * platformpp_client_start_call). */
PLATFORMPP_C_API platformpp_call* platformpp_client_start_call_with_audio_callbacks(
    platformpp_client* client, uint64_t lobby_id, platformpp_user_audio_received_fn received,
    platformpp_user_audio_captured_fn captured, void* user_data, platformpp_user_data_free_fn user_data_free);
/** Leaves the call of that lobby: `callback` (may be NULL) runs once inside run_callbacks when the platform
 * was told, or at the next run_callbacks when there is no such call; user_data_free runs once after it (also
 * when the client is destroyed first and the callback never runs). NULL client: user_data is freed at once.
 * When `callback` runs, the call's audio callbacks have stopped for good.
 * @param client The client.
 * @param channel_id The call's channel: the lobby's id.
 * @param callback Runs once when done; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once, as described above; may be NULL. */
PLATFORMPP_C_API void platformpp_client_end_call(platformpp_client* client, uint64_t channel_id,
                                                 platformpp_notify_fn callback, void* user_data,
                                                 platformpp_user_data_free_fn user_data_free);
/** Leaves every call; `callback` runs once when the platform was told of all of them. As end_call.
 * @param client The client.
 * @param callback Runs once when done; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once, as for platformpp_client_end_call; may be NULL. */
PLATFORMPP_C_API void platformpp_client_end_calls(platformpp_client* client, platformpp_notify_fn callback,
                                                  void* user_data,
                                                  platformpp_user_data_free_fn user_data_free);
/** The player's call in that lobby (a new handle to destroy), or NULL.
 * @param client The client; NULL gives NULL.
 * @param channel_id The call's channel: the lobby's id.
 * @return A new handle the caller releases with platformpp_call_destroy; NULL when the player has no call
 * there, or out of memory. */
PLATFORMPP_C_API platformpp_call* platformpp_client_get_call(platformpp_client* client, uint64_t channel_id);
/** Writes up to `capacity` new handles (each to destroy) to `calls` (may be NULL with 0) and returns how many
 * calls there are. When a handle cannot be made, its slot is NULL.
 * @param client The client; NULL gives 0.
 * @param calls Receives the handles, each released with platformpp_call_destroy; may be NULL.
 * @param capacity Number of handles `calls` can hold.
 * @return How many calls there are (more than `capacity` when `calls` was too small). */
PLATFORMPP_C_API size_t platformpp_client_get_calls(platformpp_client* client, platformpp_call** calls,
                                                    size_t capacity);

/** Releases a call handle; the call goes on (platformpp_client_end_call ends it).
 * @param call The handle; NULL is fine. */
PLATFORMPP_C_API void platformpp_call_destroy(platformpp_call* call);
/** Another handle to the same call, or NULL.
 * @param call The handle; NULL gives NULL.
 * @return A new handle the caller releases with platformpp_call_destroy, or NULL (also when out of
 * memory). */
PLATFORMPP_C_API platformpp_call* platformpp_call_clone(const platformpp_call* call);
/** The lobby's id (lobby calls use it as their channel).
 * @param call The handle.
 * @return The channel's id; 0 for NULL. */
PLATFORMPP_C_API uint64_t platformpp_call_get_channel_id(const platformpp_call* call);
/** 0: lobby calls belong to no guild.
 * @param call The handle.
 * @return The guild's id: 0. */
PLATFORMPP_C_API uint64_t platformpp_call_get_guild_id(const platformpp_call* call);
/** NULL call: DISCONNECTED.
 * @param call The handle.
 * @return The call's status. */
PLATFORMPP_C_API platformpp_call_status platformpp_call_get_status(const platformpp_call* call);
/** The users in the call now, the player included once joined: writes up to `capacity` ids to `ids` (may be
 * NULL with 0) and returns how many there are.
 * @param call The handle; NULL gives 0.
 * @param ids Receives the ids; may be NULL.
 * @param capacity Number of ids `ids` can hold.
 * @return How many participants there are (more than `capacity` when `ids` was too small). */
PLATFORMPP_C_API size_t platformpp_call_get_participants(const platformpp_call* call, uint64_t* ids,
                                                         size_t capacity);
/** Non-zero when `user_id` is in the call; then fills what is not NULL with the participant's own switches.
 * @param call The handle.
 * @param user_id The participant.
 * @param self_mute Receives non-zero when they muted themselves; may be NULL.
 * @param self_deaf Receives non-zero when they deafened themselves; may be NULL.
 * @return Non-zero when `user_id` is in the call; 0 otherwise and for NULL, and nothing is written. */
PLATFORMPP_C_API int32_t platformpp_call_get_voice_state(const platformpp_call* call, uint64_t user_id,
                                                         int32_t* self_mute, int32_t* self_deaf);
/* Call event registrations: the callback runs inside run_callbacks, in order. Each replaces any earlier
 * callback of that kind (of every handle to the same call); a NULL callback removes it. user_data_free runs
 * once the library dropped the callback: replaced, or the call ended and gone (see the section's note). A
 * NULL call frees user_data at once. */
/** Registers the call's status callback, as the registrations above describe.
 * @param call The handle; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each status change; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the library dropped `callback`, inside a later
 * platformpp_client_run_callbacks or platformpp_client_destroy; may be NULL. */
PLATFORMPP_C_API void platformpp_call_set_status_changed_callback(
    platformpp_call* call, platformpp_call_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Registers the call's participant callback: someone joined or left.
 * @param call The handle; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each change; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the library dropped `callback`, inside a later
 * platformpp_client_run_callbacks or platformpp_client_destroy; may be NULL. */
PLATFORMPP_C_API void platformpp_call_set_participant_changed_callback(
    platformpp_call* call, platformpp_call_participant_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Registers the call's speaking callback: someone started or stopped sending sound.
 * @param call The handle; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each change; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the library dropped `callback`, inside a later
 * platformpp_client_run_callbacks or platformpp_client_destroy; may be NULL. */
PLATFORMPP_C_API void platformpp_call_set_speaking_status_changed_callback(
    platformpp_call* call, platformpp_call_speaking_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** A participant's voice state changed (joined, left, or switched self mute or deaf): read it with
 * platformpp_call_get_voice_state.
 * @param call The handle; NULL frees user_data at once.
 * @param callback Gets the participant's id for each change, inside platformpp_client_run_callbacks; NULL
 * removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the library dropped `callback`, inside a later
 * platformpp_client_run_callbacks or platformpp_client_destroy; may be NULL. */
PLATFORMPP_C_API void platformpp_call_set_voice_state_changed_callback(
    platformpp_call* call, platformpp_user_id_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Stops sending the microphone (others see self_mute).
 * @param call The handle; NULL does nothing.
 * @param mute Non-zero to mute, 0 to unmute. */
PLATFORMPP_C_API void platformpp_call_set_self_mute(platformpp_call* call, int32_t mute);
/** Whether the player muted themselves in this call.
 * @param call The handle.
 * @return Non-zero when muted; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_call_get_self_mute(const platformpp_call* call);
/** Stops playing the call and sending (others see self_deaf).
 * @param call The handle; NULL does nothing.
 * @param deaf Non-zero to deafen, 0 to undeafen. */
PLATFORMPP_C_API void platformpp_call_set_self_deaf(platformpp_call* call, int32_t deaf);
/** Whether the player deafened themselves in this call.
 * @param call The handle.
 * @return Non-zero when deafened; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_call_get_self_deaf(const platformpp_call* call);
/** Silences one participant for this player only.
 * @param call The handle; NULL does nothing.
 * @param user_id The participant.
 * @param mute Non-zero to silence, 0 to hear again. */
PLATFORMPP_C_API void platformpp_call_set_local_mute(platformpp_call* call, uint64_t user_id, int32_t mute);
/** Whether a participant is silenced for this player.
 * @param call The handle.
 * @param user_id The participant.
 * @return Non-zero when silenced; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_call_get_local_mute(const platformpp_call* call, uint64_t user_id);
/** Playback volume of one participant for this player, 0 to 200 (percent; 100 = unchanged). Clamped.
 * @param call The handle; NULL does nothing.
 * @param user_id The participant.
 * @param volume 0 to 200. */
PLATFORMPP_C_API void platformpp_call_set_participant_volume(platformpp_call* call, uint64_t user_id,
                                                             float volume);
/** NULL call: 100.
 * @param call The handle.
 * @param user_id The participant.
 * @return The participant's playback volume, 0 to 200. */
PLATFORMPP_C_API float platformpp_call_get_participant_volume(const platformpp_call* call, uint64_t user_id);
/** VAD (default) or PTT; UNINIT (or any other value) is ignored.
 * @param call The handle; NULL does nothing.
 * @param audio_mode VAD or PTT. */
PLATFORMPP_C_API void platformpp_call_set_audio_mode(platformpp_call* call,
                                                     platformpp_audio_mode_type audio_mode);
/** NULL call: UNINIT.
 * @param call The handle.
 * @return The call's audio mode. */
PLATFORMPP_C_API platformpp_audio_mode_type platformpp_call_get_audio_mode(const platformpp_call* call);
/** While PTT is active the microphone is sent; after release it keeps going for the release delay.
 * @param call The handle; NULL does nothing.
 * @param active Non-zero while the push-to-talk key is held. */
PLATFORMPP_C_API void platformpp_call_set_ptt_active(platformpp_call* call, int32_t active);
/** Whether push-to-talk is active.
 * @param call The handle.
 * @return Non-zero when active; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_call_get_ptt_active(const platformpp_call* call);
/** Milliseconds to keep sending after PTT release (default 20, at most 2000).
 * @param call The handle; NULL does nothing.
 * @param release_delay_ms The delay in milliseconds. */
PLATFORMPP_C_API void platformpp_call_set_ptt_release_delay(platformpp_call* call, uint32_t release_delay_ms);
/** The push-to-talk release delay.
 * @param call The handle.
 * @return Milliseconds; 0 for NULL. */
PLATFORMPP_C_API uint32_t platformpp_call_get_ptt_release_delay(const platformpp_call* call);
/** Voice activity threshold: automatic (non-zero) or a level in dBFS, -100 to 0 (default -60; clamped).
 * @param call The handle; NULL does nothing.
 * @param automatic Non-zero to adapt to the noise floor; 0 to use `threshold`.
 * @param threshold The level in dBFS, -100 to 0. */
PLATFORMPP_C_API void platformpp_call_set_vad_threshold(platformpp_call* call, int32_t automatic,
                                                        float threshold);
/** Whether the voice activity threshold is automatic.
 * @param call The handle.
 * @return Non-zero when automatic; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_call_get_vad_threshold_automatic(const platformpp_call* call);
/** NULL call: -60.
 * @param call The handle.
 * @return The voice activity threshold in dBFS. */
PLATFORMPP_C_API float platformpp_call_get_vad_threshold(const platformpp_call* call);

/* End-to-end encryption (DAVE; docs/dave.md): whether it is on, and the codes players compare to check that
 * nobody else holds the keys (the same digits the platform's own clients show). */

/** Non-zero while the call's media is end-to-end encrypted (from the first DAVE transition the voice server
 * executes; 0 before it, after a downgrade to plain media, once the call is over, and for a NULL call).
 * @param call The handle.
 * @return Non-zero while encrypted end to end. */
PLATFORMPP_C_API int32_t platformpp_call_get_e2ee_active(const platformpp_call* call);
/** The current MLS epoch's authenticator (32 bytes, the same for every member): writes up to `capacity`
 * bytes to `authenticator` (may be NULL with 0) and returns its size; 0 when there is no group.
 * @param call The handle; NULL gives 0.
 * @param authenticator Receives the bytes; may be NULL.
 * @param capacity Number of bytes `authenticator` can hold.
 * @return The authenticator's size in bytes; 0 when there is no group. */
PLATFORMPP_C_API size_t platformpp_call_get_epoch_authenticator(const platformpp_call* call,
                                                                uint8_t* authenticator, size_t capacity);
/** The epoch authenticator as 30 digits, the same for everyone in the call; "" when there is no group (and
 * for a NULL call). It changes with every epoch (someone joins or leaves). Owned by the handle, valid until
 * the next call on it; *size (if not NULL) receives its length.
 * @param call The handle.
 * @param size Receives the length; may be NULL.
 * @return NUL-terminated digits owned by the handle, valid until the next call on it (or its destroy). */
PLATFORMPP_C_API const char* platformpp_call_get_epoch_verification_code(const platformpp_call* call,
                                                                         size_t* size);
/** The 45-digit code of the player and `user_id` (both signature keys through scrypt), the same on both
 * sides. Computed on a thread of the library (about 100 ms): `callback` (may be NULL) runs exactly once,
 * inside run_callbacks ("" when E2EE is off, or user_id is not in the group or is the player), or with ""
 * inside platformpp_client_destroy when the client is destroyed first; user_data_free runs once after it. A
 * NULL call frees user_data at once and calls nothing.
 * @param call The handle.
 * @param user_id The other participant.
 * @param callback Gets the code once; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran; may be NULL. */
PLATFORMPP_C_API void platformpp_call_get_pairwise_verification_code(
    platformpp_call* call, uint64_t user_id, platformpp_call_verification_code_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** What a call's media did since the call started, across voice servers and reconnections: for a
 * network-quality display, or a test that counts what a key change cost (a platformpp extension; the
 * platform's SDK has no such call). Filled by platformpp_call_get_media_statistics; updated every 20 ms while
 * media flows. Fields may be added at the end in later versions, never removed or reordered. */
typedef struct platformpp_call_media_statistics {
  uint64_t frames_sent;          /**< Opus frames sent, the silence frames that end speech included */
  uint64_t frames_encrypted;     /**< of those, end-to-end encrypted (DAVE) */
  uint64_t frames_withheld;      /**< not sent: end-to-end encryption on and no key yet */
  uint64_t packets_received;     /**< media datagrams received */
  uint64_t frames_decrypted;     /**< received frames end-to-end decrypted */
  uint64_t frames_in_clear;      /**< received frames without end-to-end encryption (a plain call) */
  uint64_t frames_undecryptable; /**< received frames dropped: no key of their epoch, bad tag, replayed... */
  uint64_t frames_lost;          /**< missing from a sender's sequence when due to play */
  uint64_t frames_concealed;     /**< made up by loss concealment (losses, a sender's stream running dry) */
  uint64_t frames_decoded;       /**< Opus frames decoded */
} platformpp_call_media_statistics;

/** Writes the call's media statistics (all zero for a NULL call) to `statistics`, at most `statistics_size`
 * bytes: pass sizeof(platformpp_call_media_statistics), so that a program built against an older header gets
 * the fields it knows.
 * @param call The handle; NULL gives zeros.
 * @param statistics Receives the statistics; NULL writes nothing.
 * @param statistics_size sizeof(*statistics) as the caller was compiled.
 * @return The size of the library's platformpp_call_media_statistics. */
PLATFORMPP_C_API size_t platformpp_call_get_media_statistics(const platformpp_call* call,
                                                             platformpp_call_media_statistics* statistics,
                                                             size_t statistics_size);
/** get_e2ee_active changed (only the flag: a new epoch calls nothing). A registration as the call's others
 * above.
 * @param call The handle; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each change; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the library dropped `callback`, inside a later
 * platformpp_client_run_callbacks or platformpp_client_destroy; may be NULL. */
PLATFORMPP_C_API void platformpp_call_set_e2ee_status_changed_callback(
    platformpp_call* call, platformpp_call_e2ee_status_changed_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Static, NUL-terminated names (never free them), e.g. "Connected"; "Unknown" outside the enum.
 * @param status The status.
 * @return The status's name, static. */
PLATFORMPP_C_API const char* platformpp_call_status_to_string(platformpp_call_status status);
/** The error's name, e.g. "JoinTimeout"; "Unknown" outside the enum.
 * @param error The error.
 * @return A static, NUL-terminated name (never free it). */
PLATFORMPP_C_API const char* platformpp_call_error_to_string(platformpp_call_error error);

/* Audio devices and settings of every call. Device callbacks run once inside run_callbacks (never when the
 * client is destroyed first); user_data_free runs once after, or when the client is destroyed. */
/** The microphones.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Gets the list once inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback`, or when the client is destroyed; may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_input_devices(platformpp_client* client,
                                                          platformpp_audio_devices_fn callback,
                                                          void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** The speakers.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Gets the list once inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback`, or when the client is destroyed; may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_output_devices(platformpp_client* client,
                                                           platformpp_audio_devices_fn callback,
                                                           void* user_data,
                                                           platformpp_user_data_free_fn user_data_free);
/** The microphone in use.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Gets the device once inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback`, or when the client is destroyed; may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_current_input_device(platformpp_client* client,
                                                                 platformpp_audio_device_fn callback,
                                                                 void* user_data,
                                                                 platformpp_user_data_free_fn user_data_free);
/** The speaker in use.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param callback Gets the device once inside platformpp_client_run_callbacks; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback`, or when the client is destroyed; may be
 * NULL. */
PLATFORMPP_C_API void platformpp_client_get_current_output_device(
    platformpp_client* client, platformpp_audio_device_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Switches the microphone (or speaker) of every call; an unknown id is VALIDATION_ERROR. The callback runs
 * as for the operations above (with CLIENT_DESTROYED when the client goes first).
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param device_id A platformpp_audio_device id; borrowed for the call.
 * @param device_id_size Length of `device_id` in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_input_device(platformpp_client* client, const char* device_id,
                                                         size_t device_id_size, platformpp_result_fn callback,
                                                         void* user_data,
                                                         platformpp_user_data_free_fn user_data_free);
/** Switches the speaker of every call, as platformpp_client_set_input_device.
 * @param client The client; NULL frees user_data at once and calls nothing.
 * @param device_id A platformpp_audio_device id; borrowed for the call.
 * @param device_id_size Length of `device_id` in bytes.
 * @param callback Runs once with the result; may be NULL.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once after `callback` ran; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_output_device(platformpp_client* client, const char* device_id,
                                                          size_t device_id_size,
                                                          platformpp_result_fn callback, void* user_data,
                                                          platformpp_user_data_free_fn user_data_free);
/** The device lists changed (a headset plugged in or out). Replaces an earlier callback; NULL removes it.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks for each change; NULL removes it.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced (inside a later
 * platformpp_client_run_callbacks) or removed, or the client destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_device_change_callback(
    platformpp_client* client, platformpp_device_change_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Microphone and speaker gain, 0 to 100 (default 100). Clamped; NaN is ignored.
 * @param client The client; NULL does nothing.
 * @param input_volume The microphone's gain, 0 to 100. */
PLATFORMPP_C_API void platformpp_client_set_input_volume(platformpp_client* client, float input_volume);
/** The microphone's gain.
 * @param client The client.
 * @return 0 to 100; 0 for NULL. */
PLATFORMPP_C_API float platformpp_client_get_input_volume(const platformpp_client* client);
/** Sets the speaker's gain, as platformpp_client_set_input_volume.
 * @param client The client; NULL does nothing.
 * @param output_volume The speaker's gain, 0 to 100. */
PLATFORMPP_C_API void platformpp_client_set_output_volume(platformpp_client* client, float output_volume);
/** The speaker's gain.
 * @param client The client.
 * @return 0 to 100; 0 for NULL. */
PLATFORMPP_C_API float platformpp_client_get_output_volume(const platformpp_client* client);
/** Mute (or deafen) the player in every call, now and in calls started later.
 * @param client The client; NULL does nothing.
 * @param mute Non-zero to mute, 0 to unmute. */
PLATFORMPP_C_API void platformpp_client_set_self_mute_all(platformpp_client* client, int32_t mute);
/** Whether the player is muted in every call.
 * @param client The client.
 * @return Non-zero when muted; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_get_self_mute_all(const platformpp_client* client);
/** Deafens the player in every call, now and in calls started later.
 * @param client The client; NULL does nothing.
 * @param deaf Non-zero to deafen, 0 to undeafen. */
PLATFORMPP_C_API void platformpp_client_set_self_deaf_all(platformpp_client* client, int32_t deaf);
/** Whether the player is deafened in every call.
 * @param client The client.
 * @return Non-zero when deafened; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_get_self_deaf_all(const platformpp_client* client);
/** The microphone level (dBFS, -100 to 0, default -100: never) below which, for a while, the input counts as
 * silent: the callback gets 0 then, and non-zero when sound comes back.
 * @param client The client; NULL does nothing.
 * @param dbfs_threshold The level in dBFS. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_threshold(platformpp_client* client,
                                                                     float dbfs_threshold);
/** Replaces an earlier callback; NULL removes it. See platformpp_client_set_no_audio_input_threshold.
 * @param client The client; NULL frees user_data at once.
 * @param callback Runs inside platformpp_client_run_callbacks each time the input goes silent or comes back.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data once the registration is replaced (inside a later
 * platformpp_client_run_callbacks) or removed, or the client destroyed; may be NULL. */
PLATFORMPP_C_API void platformpp_client_set_no_audio_input_callback(
    platformpp_client* client, platformpp_no_audio_input_fn callback, void* user_data,
    platformpp_user_data_free_fn user_data_free);
/** Echo cancellation, noise suppression and automatic gain control of the microphone, on by default.
 * @param client The client; NULL does nothing.
 * @param on Non-zero to turn echo cancellation on. */
PLATFORMPP_C_API void platformpp_client_set_echo_cancellation(platformpp_client* client, int32_t on);
/** Whether echo cancellation is on.
 * @param client The client.
 * @return Non-zero when on; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_get_echo_cancellation(const platformpp_client* client);
/** Turns noise suppression on or off.
 * @param client The client; NULL does nothing.
 * @param on Non-zero to turn it on. */
PLATFORMPP_C_API void platformpp_client_set_noise_suppression(platformpp_client* client, int32_t on);
/** Whether noise suppression is on.
 * @param client The client.
 * @return Non-zero when on; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_get_noise_suppression(const platformpp_client* client);
/** Turns automatic gain control on or off.
 * @param client The client; NULL does nothing.
 * @param on Non-zero to turn it on. */
PLATFORMPP_C_API void platformpp_client_set_automatic_gain_control(platformpp_client* client, int32_t on);
/** Whether automatic gain control is on.
 * @param client The client.
 * @return Non-zero when on; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_get_automatic_gain_control(const platformpp_client* client);
/** Whether the game manages the platform's audio session itself (iOS/Android); on desktop it only records the
 * choice. Non-zero when accepted.
 * @param client The client.
 * @param is_engine_managed Non-zero when the game manages it.
 * @return Non-zero when accepted; 0 otherwise and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_set_engine_managed_audio_session(platformpp_client* client,
                                                                            int32_t is_engine_managed);
/** Writes the echo canceller's diagnostics into the voice log directory (else the log directory) while on.
 * @param client The client; NULL does nothing.
 * @param on Non-zero to write them. */
PLATFORMPP_C_API void platformpp_client_set_aec_dump(platformpp_client* client, int32_t on);
/** Voice engine messages to a file in `path` (created if missing). Non-zero on success.
 * @param client The client.
 * @param path The directory, UTF-8; borrowed for the call.
 * @param path_size Length of `path` in bytes.
 * @param min_severity The least severe messages written.
 * @return Non-zero on success; 0 when it cannot be created, and for NULL. */
PLATFORMPP_C_API int32_t platformpp_client_set_voice_log_dir(platformpp_client* client, const char* path,
                                                             size_t path_size,
                                                             platformpp_logging_severity min_severity);
/** Voice engine messages (calls, media, devices) at min_severity and above, inside run_callbacks. A NULL
 * callback frees user_data at once; otherwise user_data_free runs when the client is destroyed.
 * @param client The client; NULL frees user_data at once.
 * @param callback Gets each message (borrowed for the callback); NULL adds nothing.
 * @param min_severity The least severe messages it gets.
 * @param user_data Passed to `callback`.
 * @param user_data_free Frees user_data as described above; may be NULL. */
PLATFORMPP_C_API void platformpp_client_add_voice_log_callback(platformpp_client* client,
                                                               platformpp_log_fn callback,
                                                               platformpp_logging_severity min_severity,
                                                               void* user_data,
                                                               platformpp_user_data_free_fn user_data_free);
/** Scheduling priority hint for one of the client's threads; applied when allowed.
 * @param client The client; NULL does nothing.
 * @param thread The thread; a value outside the enum is ignored.
 * @param priority The priority hint. */
PLATFORMPP_C_API void platformpp_client_set_thread_priority(platformpp_client* client,
                                                            platformpp_client_thread thread,
                                                            int32_t priority);

#ifdef __cplusplus
}
#endif

#endif /* PLATFORMPP_PLATFORMPP_C_VOICE_H */
