/* The C ABI call matrix: what the generated calls (call_matrix.g.c, from generate_call_matrix.py) need of the
 * test that runs them (call_matrix_support.cpp, call_matrix_test.cpp). C, so that the calls are compiled as a
 * C game would compile them. */
#ifndef PLATFORMPP_TESTS_CALL_MATRIX_H
#define PLATFORMPP_TESTS_CALL_MATRIX_H

#include <platformpp/platformpp_c.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** How the arguments of one call are made. */
typedef enum matrix_arguments {
  MATRIX_PLAUSIBLE = 0, /**< well-formed: short text, id 1, every callback set */
  MATRIX_EMPTY = 1,     /**< NULL pointers, empty strings, zeros, NULL callbacks (user_data still given) */
  MATRIX_OVERLONG = 2,  /**< 1 MiB strings, deep JSON nesting, the largest numbers, unknown enum values */
  MATRIX_INVALID = 3,   /**< text that is not UTF-8 and holds a NUL, negative numbers, NaN */
  MATRIX_ARGUMENT_KINDS = 4
} matrix_arguments;

/** What a string argument is meant to hold: its plausible value is then well-formed for it. */
typedef enum matrix_text_flavor {
  MATRIX_TEXT_TEXT = 0, /**< a name, a message, a token */
  MATRIX_TEXT_JSON = 1, /**< a JSON document (components, choices) */
  MATRIX_TEXT_HEX = 2   /**< a hex key (64 digits) */
} matrix_text_flavor;

/** A borrowed string argument: valid until the test ends. */
typedef struct matrix_text {
  const char* ptr;
  size_t size;
} matrix_text;
matrix_text matrix_make_text(matrix_arguments kind, matrix_text_flavor flavor);
/** The same as a platformpp_string (a struct field). */
platformpp_string matrix_make_string(matrix_arguments kind, matrix_text_flavor flavor);

/** Borrowed metadata pairs: none, two, hundreds with long values, or invalid UTF-8 with a repeated key. */
typedef struct matrix_pairs {
  const platformpp_string_pair* pairs;
  size_t count;
} matrix_pairs;
matrix_pairs matrix_make_pairs(matrix_arguments kind);

/** The state's object of this opaque type ("platformpp_client", "platformpp_lobby_handle", ...), borrowed, or
 * NULL when the state has none or the test asks for NULL objects. */
void* matrix_object(const char* type);

/** What a call's callback is: none, one that ends the operation (runs once), or a registration (runs for
 * each event). */
typedef enum matrix_ticket_kind {
  MATRIX_TICKET_NONE = 0,
  MATRIX_TICKET_ONCE = 1,
  MATRIX_TICKET_EACH = 2
} matrix_ticket_kind;
/** A new user_data for a call of `function`: it counts the callbacks that get it, by callback type, and its
 * free. `completion`: the type of the callback that ends the operation (MATRIX_TICKET_ONCE), else NULL;
 * `has_object`: the call's object (its first handle) is not NULL; `no_callback`: the call passes NULL
 * callbacks. */
void* matrix_ticket(const char* function, matrix_ticket_kind kind, const char* completion, int has_object,
                    int no_callback);
/** The user_data_free of every call. */
void matrix_free_ticket(void* user_data);
/** Every callback reports here: `audio` callbacks run on the audio path, every other one must run inside
 * run_callbacks (or destroy) on the test's thread. */
void matrix_callback(void* user_data, const char* callback_type, int audio);

/** Around every call: the test times it and knows which function is running. */
void matrix_before_call(const char* function);
void matrix_after_call(void);
/** Around a call of a *_run_callbacks function: callbacks may run. */
void matrix_enter_callbacks(void);
void matrix_leave_callbacks(void);

/** Reads what the library handed to a callback or returned, so that a sanitizer sees a bad pointer. */
void matrix_read_result(const platformpp_client_result* result);
void matrix_read_text(const char* text, size_t size);
void matrix_read_cstring(const char* text);
void matrix_read_bytes(const void* bytes, size_t size);

/** One exported function and its call. */
typedef struct matrix_function {
  const char* name;
  void (*call)(matrix_arguments kind);
} matrix_function;
/** Every exported function but platformpp_client_destroy: the ones that change the client's state last. */
extern const matrix_function matrix_functions[];
extern const size_t matrix_function_count;

/* The value of a number argument for each kind. */
#define MATRIX_PICK(type)                                                                                 \
  static inline type matrix_pick_##type(matrix_arguments kind, type plausible, type empty, type overlong, \
                                        type invalid) {                                                   \
    switch (kind) {                                                                                       \
      case MATRIX_PLAUSIBLE:                                                                              \
        return plausible;                                                                                 \
      case MATRIX_EMPTY:                                                                                  \
        return empty;                                                                                     \
      case MATRIX_OVERLONG:                                                                               \
        return overlong;                                                                                  \
      default:                                                                                            \
        return invalid;                                                                                   \
    }                                                                                                     \
  }
MATRIX_PICK(uint64_t)
MATRIX_PICK(int64_t)
MATRIX_PICK(int32_t)
MATRIX_PICK(uint32_t)
MATRIX_PICK(size_t)
MATRIX_PICK(float)
MATRIX_PICK(double)
#undef MATRIX_PICK

#ifdef __cplusplus
}
#endif

#endif
