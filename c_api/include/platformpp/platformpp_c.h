/** @file
 * The platformpp C ABI: the SDK for game engines that bind C (Unity through P/Invoke, Unreal, others).
 *
 * This umbrella header includes every part, one per feature (platformpp_c_core.h first: every other part
 * includes it); each part can also be included alone. The conventions below apply to all of them.
 *
 * Conventions
 * - Every symbol starts with platformpp_. Handles are opaque pointers with create/destroy pairs.
 * - Option structs start with int32_t api_version (set it with the matching _init function) so they can grow.
 * - Enums are 32-bit. Structs are blittable: booleans in structs are int32_t, strings are pointer + size.
 * - Strings in: UTF-8 pointer + size in bytes, borrowed for the duration of the call. NULL with size 0 is "".
 * - Strings out: owned by the library, NUL-terminated, valid until the callback returns (or until the owning
 *   handle is released). Anything the caller must free says so and is freed with platformpp_free.
 * - Callbacks run only inside platformpp_client_run_callbacks, on the thread that calls it (the one
 * exception: the audio callbacks of platformpp_client_start_call_with_audio_callbacks, on the voice thread).
 * Other functions may be called from any thread. platformpp_client_run_callbacks and
 * platformpp_client_wait_for_callbacks run on one thread at a time: a second thread's call while a first is
 * inside returns at once, running nothing, and logs an error.
 * Every callback takes user_data last; every registration takes (callback, user_data, user_data_free), and
 * user_data_free (may be NULL) runs exactly once when the library no longer needs user_data: after an
 * operation's callback has run (including when it ran with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED), or when
 * the client is destroyed (for voice, see that section).
 * - platformpp_client_destroy completes every pending operation with PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED
 * before it returns; nothing is called after it returns. It may be called from inside a callback.
 * - No C++ exception reaches C. One that stops a call inside the library (out of memory, a string size no
 * string can hold, ...) is logged at ERROR through the client's log callbacks and log file, naming the
 * function and the exception. A call that starts an operation still completes it exactly once: its callback
 * runs with PLATFORMPP_ERROR_TYPE_ABORTED inside the next platformpp_client_run_callbacks (with
 * CLIENT_DESTROYED inside platformpp_client_destroy), unless the operation had completed already; only when
 * not even that can be queued (memory exhausted) does the callback run before the call returns. Other calls
 * return their failure value (NULL, 0, ...). Functions of handles with no client report through their return
 * value: NULL from create and clone functions, "" where documented, and an activity whose setter failed is
 * refused by platformpp_client_update_rich_presence with VALIDATION_ERROR naming the setter.
 */
#ifndef PLATFORMPP_PLATFORMPP_C_H
#define PLATFORMPP_PLATFORMPP_C_H

/* The parts, by feature (the core first: every other part includes it). */
#include <platformpp/platformpp_c_auth.h>
#include <platformpp/platformpp_c_backend.h>
#include <platformpp/platformpp_c_core.h>
#include <platformpp/platformpp_c_interactions.h>
#include <platformpp/platformpp_c_lobby.h>
#include <platformpp/platformpp_c_messages.h>
#include <platformpp/platformpp_c_premium.h>
#include <platformpp/platformpp_c_presence.h>
#include <platformpp/platformpp_c_social.h>
#include <platformpp/platformpp_c_voice.h>

#endif /* PLATFORMPP_PLATFORMPP_C_H */
