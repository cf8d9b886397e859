// The call matrix's side of call_matrix.h: the argument values, the state's objects, the tickets every call
// gets as user_data, and the checks made as calls and callbacks happen.
#include "call_matrix_support.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace call_matrix {

namespace {

constexpr std::uint32_t kTicketMagic = 0x71c4e7u;
// A call that takes longer than this blocked the game's thread: a hang as far as a game can tell.
constexpr auto kSlowCall = std::chrono::seconds(2);

struct Ticket {
  std::uint32_t magic = kTicketMagic;
  std::string function;
  matrix_ticket_kind kind = MATRIX_TICKET_NONE;
  std::string completion;
  bool has_object = false;
  bool no_callback = false;
  std::map<std::string, int> callbacks;
  int frees = 0;
};

struct Texts {
  std::string overlong = std::string(std::size_t{1} << 20, 'a');
  std::string overlong_json = std::string(std::size_t{1} << 20, '[');  // nesting a million deep
  std::string overlong_hex = std::string(std::size_t{1} << 20, 'f');
  std::string hex = std::string(64, '0');
  // Not UTF-8 (a lone continuation byte, an over-long NUL, a surrogate), with a NUL inside.
  std::string invalid = std::string(
      "\xff\xfe\x80"
      "ma\0tr\xc0\x80ix\xed\xa0\x80",
      15);
};

struct Pairs {
  std::array<platformpp_string_pair, 2> plausible{};
  std::vector<std::string> storage;
  std::vector<platformpp_string_pair> overlong;
  std::array<platformpp_string_pair, 2> invalid{};
};

struct State {
  std::mutex mutex;  // callbacks on the audio path report from another thread
  std::deque<Ticket> tickets;
  std::vector<std::string> violations;
  std::map<std::string, void*> objects;
  bool null_objects = false;
  std::string current;
  std::chrono::steady_clock::time_point started;
  std::thread::id test_thread;
  std::size_t calls = 0;
  std::function<void(std::size_t)> on_call;
};

State& state() {
  static State instance;
  return instance;
}

const Texts& texts() {
  static const Texts instance;
  return instance;
}

platformpp_string view(const std::string& text) {
  return platformpp_string{text.data(), text.size()};
}

const Pairs& pairs() {
  static const Pairs instance = [] {
    Pairs made;
    static const std::string kKey = "mode";
    static const std::string kValue = "duel";
    static const std::string kKey2 = "map";
    static const std::string kValue2 = "harbor";
    made.plausible = {platformpp_string_pair{view(kKey), view(kValue)},
                      platformpp_string_pair{view(kKey2), view(kValue2)}};
    made.storage.reserve(600);
    for (int i = 0; i < 300; ++i) {
      made.storage.push_back("key" + std::to_string(i));
      made.storage.emplace_back(1024, static_cast<char>('a' + i % 26));
    }
    made.overlong.resize(made.storage.size() / 2);
    for (std::size_t i = 0; i < made.overlong.size(); ++i) {
      made.overlong[i] = platformpp_string_pair{view(made.storage[2 * i]), view(made.storage[2 * i + 1])};
    }
    const auto& bad = texts().invalid;
    made.invalid = {platformpp_string_pair{view(bad), view(bad)},
                    platformpp_string_pair{view(bad), view(bad)}};
    return made;
  }();
  return instance;
}

thread_local int g_inside_callbacks = 0;

void violation(std::string what) {
  state().violations.push_back(std::move(what));
}

Ticket* ticket_of(void* user_data, const char* where) {
  auto* ticket = static_cast<Ticket*>(user_data);
  if (ticket == nullptr || ticket->magic != kTicketMagic) {
    violation(std::string(where) + " got a user_data that is not the one given");
    return nullptr;
  }
  return ticket;
}

}  // namespace

void reset(std::map<std::string, void*> objects) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.tickets.clear();
  s.violations.clear();
  s.objects = std::move(objects);
  s.null_objects = false;
  s.calls = 0;
  s.on_call = nullptr;
  s.test_thread = std::this_thread::get_id();
}

void set_null_objects(bool null_objects) {
  state().null_objects = null_objects;
}

void on_call(std::function<void(std::size_t)> hook) {
  state().on_call = std::move(hook);
}

CallbackScope::CallbackScope() {
  ++g_inside_callbacks;
}
CallbackScope::~CallbackScope() {
  --g_inside_callbacks;
}

std::vector<std::string> check_tickets() {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  std::vector<std::string> problems = s.violations;
  for (const auto& ticket : s.tickets) {
    const std::string who = ticket.function + (ticket.has_object ? "" : " (NULL object)") +
                            (ticket.no_callback ? " (NULL callbacks)" : "");
    if (ticket.frees != 1) {
      problems.push_back(who + ": user_data freed " + std::to_string(ticket.frees) + " times, not once");
    }
    if (ticket.kind != MATRIX_TICKET_ONCE) continue;
    const auto found = ticket.callbacks.find(ticket.completion);
    const int completions = found == ticket.callbacks.end() ? 0 : found->second;
    const int expected = ticket.has_object && !ticket.no_callback ? 1 : 0;
    if (completions != expected) {
      problems.push_back(who + ": ended " + std::to_string(completions) + " times, not " +
                         std::to_string(expected));
    }
  }
  return problems;
}

Summary summary() {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  Summary made;
  made.calls = s.calls;
  made.operations = s.tickets.size();
  for (const auto& ticket : s.tickets) {
    for (const auto& [type, count] : ticket.callbacks)
      made.callbacks += static_cast<std::size_t>(count);
  }
  return made;
}

}  // namespace call_matrix

using call_matrix::state;
using call_matrix::texts;

extern "C" {

matrix_text matrix_make_text(matrix_arguments kind, matrix_text_flavor flavor) {
  const auto& t = texts();
  switch (kind) {
    case MATRIX_PLAUSIBLE:
      if (flavor == MATRIX_TEXT_JSON) return {"[]", 2};
      if (flavor == MATRIX_TEXT_HEX) return {t.hex.data(), t.hex.size()};
      return {"matrix", 6};
    case MATRIX_EMPTY:
      return {nullptr, 0};
    case MATRIX_OVERLONG:
      if (flavor == MATRIX_TEXT_JSON) return {t.overlong_json.data(), t.overlong_json.size()};
      if (flavor == MATRIX_TEXT_HEX) return {t.overlong_hex.data(), t.overlong_hex.size()};
      return {t.overlong.data(), t.overlong.size()};
    default:
      return {t.invalid.data(), t.invalid.size()};
  }
}

platformpp_string matrix_make_string(matrix_arguments kind, matrix_text_flavor flavor) {
  const matrix_text text = matrix_make_text(kind, flavor);
  return platformpp_string{text.ptr, text.size};
}

matrix_pairs matrix_make_pairs(matrix_arguments kind) {
  const auto& p = call_matrix::pairs();
  switch (kind) {
    case MATRIX_PLAUSIBLE:
      return {p.plausible.data(), p.plausible.size()};
    case MATRIX_EMPTY:
      return {nullptr, 0};
    case MATRIX_OVERLONG:
      return {p.overlong.data(), p.overlong.size()};
    default:
      return {p.invalid.data(), p.invalid.size()};
  }
}

void* matrix_object(const char* type) {
  auto& s = state();
  if (s.null_objects) return nullptr;
  const auto found = s.objects.find(type);
  return found == s.objects.end() ? nullptr : found->second;
}

void* matrix_ticket(const char* function, matrix_ticket_kind kind, const char* completion, int has_object,
                    int no_callback) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  auto& ticket = s.tickets.emplace_back();
  ticket.function = function;
  ticket.kind = kind;
  ticket.completion = completion != nullptr ? completion : "";
  ticket.has_object = has_object != 0;
  ticket.no_callback = no_callback != 0;
  return &ticket;
}

void matrix_free_ticket(void* user_data) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  auto* ticket = call_matrix::ticket_of(user_data, "user_data_free");
  if (ticket == nullptr) return;
  ++ticket->frees;
  // At once inside the call, or later inside run_callbacks or destroy: always on the game's thread.
  if (std::this_thread::get_id() != s.test_thread) {
    call_matrix::violation(ticket->function + ": user_data freed on another thread");
  }
}

void matrix_callback(void* user_data, const char* callback_type, int audio) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  auto* ticket = call_matrix::ticket_of(user_data, callback_type);
  if (ticket == nullptr) return;
  if (ticket->frees != 0) {
    call_matrix::violation(ticket->function + ": " + callback_type + " ran after its user_data was freed");
  }
  if (audio == 0 && (call_matrix::g_inside_callbacks == 0 || std::this_thread::get_id() != s.test_thread)) {
    call_matrix::violation(ticket->function + ": " + callback_type +
                           " ran outside run_callbacks or destroy, or on another thread");
  }
  if (ticket->kind == MATRIX_TICKET_ONCE && ticket->completion == callback_type &&
      ticket->callbacks[callback_type] >= 1) {
    call_matrix::violation(ticket->function + ": " + callback_type + " ran more than once");
  }
  ++ticket->callbacks[callback_type];
}

void matrix_before_call(const char* function) {
  auto& s = state();
  s.current = function;
  ++s.calls;
  if (s.on_call) s.on_call(s.calls);
  s.started = std::chrono::steady_clock::now();
}

void matrix_after_call(void) {
  auto& s = state();
  const auto took = std::chrono::steady_clock::now() - s.started;
  if (took > call_matrix::kSlowCall) {
    call_matrix::violation(
        s.current + " blocked the caller for " +
        std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()) + " ms");
  }
}

void matrix_enter_callbacks(void) {
  ++call_matrix::g_inside_callbacks;
}

void matrix_leave_callbacks(void) {
  --call_matrix::g_inside_callbacks;
}

void matrix_read_text(const char* text, size_t size) {
  if (text == nullptr) {
    if (size != 0)
      call_matrix::violation(state().current + ": a NULL string of size " + std::to_string(size));
    return;
  }
  volatile unsigned sum = 0;
  for (size_t i = 0; i < size; ++i)
    sum = sum + static_cast<unsigned char>(text[i]);
}

void matrix_read_cstring(const char* text) {
  matrix_read_text(text, std::strlen(text));
}

void matrix_read_bytes(const void* bytes, size_t size) {
  matrix_read_text(static_cast<const char*>(bytes), bytes == nullptr ? 0 : size);
}

void matrix_read_result(const platformpp_client_result* result) {
  if (result == nullptr) {
    call_matrix::violation(state().current + ": a callback got a NULL result");
    return;
  }
  (void)platformpp_client_result_type(result);
  (void)platformpp_client_result_successful(result);
  (void)platformpp_client_result_status(result);
  (void)platformpp_client_result_error_code(result);
  (void)platformpp_client_result_retryable(result);
  (void)platformpp_client_result_retry_after(result);
  // Each string, then its size: the size is written by the call (arguments have no order of evaluation).
  size_t size = 0;
  const char* text = platformpp_client_result_error(result, &size);
  matrix_read_text(text, size);
  text = platformpp_client_result_oauth_error(result, &size);
  matrix_read_text(text, size);
  for (size_t i = 0; i < platformpp_client_result_field_error_count(result); ++i) {
    text = platformpp_client_result_field_error_path(result, i, &size);
    matrix_read_text(text, size);
    text = platformpp_client_result_field_error_message(result, i, &size);
    matrix_read_text(text, size);
  }
  char* line = platformpp_client_result_to_string(result);
  if (line != nullptr) matrix_read_cstring(line);
  platformpp_free(line);
}

}  // extern "C"
