// Exceptions at the C boundary: whatever the library throws inside a C entry point never reaches C and never
// vanishes. It is logged at ERROR through the client's logger, and an operation it stopped still completes
// exactly once (PLATFORMPP_ERROR_TYPE_ABORTED, inside run_callbacks), its user_data freed once, after.
//
// The seam is this executable's own global operator new (its own executable, so that the replacement affects
// no other test); nothing is compiled into the library for it. It refuses a size no machine has with
// std::bad_alloc, so that such a string size from a C caller makes the library throw, deterministically; and
// on request it fails the Nth allocation of the calling thread: swept over N, that throws at every allocation
// a call makes, in the C layer and in the C++ layer beneath it. The program uses the C header only, as an
// engine binding does.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
// GCC cannot see that the replaced operator new is malloc-based and flags its free() as mismatched.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#include <platformpp/platformpp_c.h>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {
// The allocation (1-based, counted on this thread only) to fail; 0: none.
thread_local long failAt = 0;
thread_local long allocationsSeen = 0;
thread_local bool injected = false;
}  // namespace

void* operator new(std::size_t size) {
  // Refused here rather than asked of malloc, which AddressSanitizer would report instead of failing.
  if (size > (std::size_t{1} << 40)) throw std::bad_alloc();
  if (failAt > 0 && ++allocationsSeen == failAt) {
    injected = true;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

// A string size a C caller could pass by mistake: std::string asks operator new for it before it reads a
// byte, and is refused (above). Small enough that pointer + size does not wrap, which UBSan checks.
constexpr size_t kTooLong = size_t{1} << 62;

// Fails the `n`th allocation of this thread while it lives.
struct FailAllocation {
  explicit FailAllocation(long n) {
    allocationsSeen = 0;
    injected = false;
    failAt = n;
  }
  ~FailAllocation() { failAt = 0; }
  FailAllocation(const FailAllocation&) = delete;
  FailAllocation& operator=(const FailAllocation&) = delete;
};

// What one operation's callback and user_data_free saw.
struct Record {
  int calls = 0;
  int frees = 0;
  int freesBeforeCall = 0;
  platformpp_error_type type = PLATFORMPP_ERROR_TYPE_NONE;
  std::string error;
  std::function<void()> then;  // runs inside the callback
};

void See(Record* record, const platformpp_client_result* result) {
  ++record->calls;
  record->freesBeforeCall += record->frees;
  record->type = platformpp_client_result_type(result);
  size_t size = 0;
  const char* error = platformpp_client_result_error(result, &size);
  record->error.assign(error, size);
  if (record->then) record->then();
}

void OnResult(const platformpp_client_result* result, void* data) {
  See(static_cast<Record*>(data), result);
}

void OnToken(const platformpp_client_result* result, const char* access, size_t accessSize,
             const char* refresh, size_t refreshSize, platformpp_authorization_token_type type,
             int32_t expiresIn, const char* scopes, size_t scopesSize, void* data) {
  See(static_cast<Record*>(data), result);
  if (platformpp_client_result_successful(result)) return;
  CHECK((access != nullptr && accessSize == 0 && refresh != nullptr && refreshSize == 0));
  CHECK((scopes != nullptr && scopesSize == 0 && expiresIn == 0));
  CHECK(type == PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER);
}

void OnId(const platformpp_client_result* result, uint64_t id, void* data) {
  See(static_cast<Record*>(data), result);
  if (!platformpp_client_result_successful(result)) CHECK(id == 0);
}

void OnUser(const platformpp_client_result* result, uint64_t id, const char* name, size_t nameSize,
            void* data) {
  See(static_cast<Record*>(data), result);
  CHECK(id == 0);
  CHECK((name != nullptr && nameSize == 0));
}

void OnGuilds(const platformpp_client_result* result, const platformpp_guild_minimal* guilds, size_t count,
              void* data) {
  See(static_cast<Record*>(data), result);
  if (!platformpp_client_result_successful(result)) CHECK((guilds == nullptr && count == 0));
}

void OnMessages(const platformpp_client_result* result, const platformpp_message_handle* const* messages,
                size_t count, void* data) {
  See(static_cast<Record*>(data), result);
  if (!platformpp_client_result_successful(result)) CHECK((messages == nullptr && count == 0));
}

void Free(void* data) {
  ++static_cast<Record*>(data)->frees;
}

// A client that reaches nothing (a closed port, no desktop client) and keeps its ERROR log lines.
struct TestClient {
  platformpp_client* client = nullptr;
  std::vector<std::string> errors;

  TestClient() {
    platformpp_client_options options;
    platformpp_client_options_init(&options);
    options.api_base = {"https://127.0.0.1:1/api/v10", 27};
    options.ipc_enabled = 0;
    client = platformpp_client_create(&options);
    REQUIRE(client != nullptr);
    platformpp_client_add_log_callback(
        client,
        [](const char* message, size_t size, platformpp_logging_severity severity, void* data) {
          if (severity == PLATFORMPP_LOGGING_SEVERITY_ERROR)
            static_cast<TestClient*>(data)->errors.emplace_back(message, size);
        },
        PLATFORMPP_LOGGING_SEVERITY_ERROR, this, nullptr);
  }
  ~TestClient() { platformpp_client_destroy(client); }
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  bool Logged(const std::string& text) const {
    for (const auto& line : errors)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }

  // Runs callbacks until `done` or 10 s.
  void PumpUntil(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      platformpp_client_wait_for_callbacks(client, 20);
      platformpp_client_run_callbacks(client);
    }
  }
};

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("an exception inside an operation is logged and ends it once, with ABORTED, in run_callbacks") {
  TestClient t;
  Record record;
  platformpp_client_update_token(t.client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "token", kTooLong,
                                 OnResult, &record, Free);
  CHECK(record.calls == 0);  // never inside the call
  CHECK(record.frees == 0);
  CHECK(platformpp_client_wait_for_callbacks(t.client, 0) != 0);  // ready at once
  platformpp_client_run_callbacks(t.client);
  CHECK(record.calls == 1);
  CHECK(record.type == PLATFORMPP_ERROR_TYPE_ABORTED);
  CHECK(Contains(record.error, "platformpp_client_update_token: std::bad_alloc"));
  CHECK(record.frees == 1);
  CHECK(record.freesBeforeCall == 0);
  CHECK(t.Logged("platformpp_client_update_token: std::bad_alloc"));
  CHECK(t.Logged("its callback runs with Aborted"));
  platformpp_client_run_callbacks(t.client);
  CHECK(record.calls == 1);
  CHECK(platformpp_client_wait_for_callbacks(t.client, 0) == 0);
}

TEST_CASE("every callback shape gets its failure values") {
  TestClient t;
  Record token, lobby, message;
  platformpp_client_get_token(t.client, 1, "code", kTooLong, "verifier", 8, "uri", 3, OnToken, &token, Free);
  platformpp_client_create_or_join_lobby(t.client, "secret", kTooLong, nullptr, 0, nullptr, 0, OnId, &lobby,
                                         Free);
  platformpp_client_send_user_message(t.client, 2, "hello", kTooLong, nullptr, 0, OnId, &message, Free);
  platformpp_client_run_callbacks(t.client);
  for (Record* record : {&token, &lobby, &message}) {
    CHECK(record->calls == 1);
    CHECK(record->type == PLATFORMPP_ERROR_TYPE_ABORTED);
    CHECK(record->frees == 1);
  }
  CHECK(Contains(token.error, "platformpp_client_get_token"));
  CHECK(Contains(lobby.error, "platformpp_client_create_or_join_lobby"));
  CHECK(Contains(message.error, "platformpp_client_send_user_message"));
  CHECK(t.Logged("platformpp_client_get_token: std::bad_alloc"));
  CHECK(t.Logged("platformpp_client_create_or_join_lobby: std::bad_alloc"));
  CHECK(t.Logged("platformpp_client_send_user_message: std::bad_alloc"));
}

TEST_CASE("a voice operation frees its user_data on the caller's thread all the same") {
  TestClient t;
  Record record;
  platformpp_client_set_input_device(t.client, "null/input", kTooLong, OnResult, &record, Free);
  platformpp_client_run_callbacks(t.client);
  CHECK(record.calls == 1);
  CHECK(record.type == PLATFORMPP_ERROR_TYPE_ABORTED);
  CHECK(record.frees == 1);
  CHECK(t.Logged("platformpp_client_set_input_device: std::bad_alloc"));
}

TEST_CASE("calls without an operation log and return their failure value") {
  TestClient t;
  CHECK(platformpp_client_search_friends_by_username(t.client, "ann", kTooLong) == nullptr);
  CHECK(platformpp_client_register_launch_command(t.client, 1, "game", kTooLong) == 0);
  platformpp_client_run_callbacks(t.client);
  CHECK(t.Logged("platformpp_client_search_friends_by_username: std::bad_alloc"));
  CHECK(t.Logged("platformpp_client_register_launch_command: std::bad_alloc"));
}

TEST_CASE("an activity setter that fails marks the activity, and update_rich_presence refuses it") {
  TestClient t;
  platformpp_activity* activity = platformpp_activity_create();
  REQUIRE(activity != nullptr);
  platformpp_activity_set_name(activity, "Arena", 5);
  platformpp_activity_set_state(activity, "In a match", 10);
  platformpp_activity_set_details(activity, "x", kTooLong);
  size_t size = 0;
  const char* text = platformpp_activity_name(activity, &size);
  CHECK(std::string(text, size) == "Arena");
  CHECK(platformpp_activity_details(activity, &size) == nullptr);  // unchanged: never set
  text = platformpp_activity_state(activity, &size);
  CHECK(std::string(text, size) == "In a match");

  platformpp_activity* copy = platformpp_activity_clone(activity);
  REQUIRE(copy != nullptr);
  Record record, copied;
  platformpp_client_update_rich_presence(t.client, activity, OnResult, &record, Free);
  platformpp_client_update_rich_presence(t.client, copy, OnResult, &copied, Free);
  t.PumpUntil([&] { return record.calls == 1 && copied.calls == 1; });
  for (Record* r : {&record, &copied}) {
    CHECK(r->calls == 1);
    CHECK(r->type == PLATFORMPP_ERROR_TYPE_VALIDATION_ERROR);
    CHECK(Contains(r->error, "platformpp_activity_set_details failed (std::bad_alloc"));
    CHECK(r->frees == 1);
  }
  CHECK(
      t.Logged("platformpp_client_update_rich_presence: activity is incomplete: "
               "platformpp_activity_set_details failed"));
  platformpp_activity_destroy(copy);
  platformpp_activity_destroy(activity);
}

TEST_CASE("a failed operation still pending when the client goes ends with CLIENT_DESTROYED inside destroy") {
  Record record;
  {
    TestClient t;
    platformpp_client_revoke_token(t.client, 1, "token", kTooLong, OnResult, &record, Free);
    CHECK(record.calls == 0);
  }
  CHECK(record.calls == 1);
  CHECK(record.type == PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED);
  CHECK(record.frees == 1);
  CHECK(record.freesBeforeCall == 0);
}

TEST_CASE("a failed operation's callback may destroy the client: the next one ends inside that destroy") {
  auto t = std::make_unique<TestClient>();
  platformpp_client* client = t->client;
  Record first, second;
  first.then = [&] {
    t->client = nullptr;
    platformpp_client_destroy(client);
  };
  platformpp_client_update_token(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "a", kTooLong, OnResult,
                                 &first, Free);
  platformpp_client_update_token(client, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, "b", kTooLong, OnResult,
                                 &second, Free);
  platformpp_client_run_callbacks(client);
  CHECK(first.calls == 1);
  CHECK(first.type == PLATFORMPP_ERROR_TYPE_ABORTED);
  CHECK(second.calls == 1);
  CHECK(second.type == PLATFORMPP_ERROR_TYPE_CLIENT_DESTROYED);
  CHECK(first.frees == 1);
  CHECK(second.frees == 1);
  t.reset();  // destroys NULL: nothing
}

namespace {

// One C entry point that starts an operation, for the sweep below. Each is one the C++ layer ends without the
// network (validation, no token, no desktop client, the voice thread): past that, a failed allocation inside
// Boost.Asio's co_spawn, where a request starts, calls std::terminate, which no boundary can catch.
struct Entry {
  const char* name;
  std::function<void(platformpp_client*, Record*)> call;
};

void OnNotify(void* data) {
  auto* record = static_cast<Record*>(data);
  ++record->calls;
  record->freesBeforeCall += record->frees;
}

void OnDevices(const platformpp_audio_device* devices, size_t count, void* data) {
  OnNotify(data);
  if (!devices) CHECK(count == 0);
}

void OnJoinSecret(const platformpp_client_result* result, const char* secret, size_t size, void* data) {
  See(static_cast<Record*>(data), result);
  if (!platformpp_client_result_successful(result)) CHECK((secret != nullptr && size == 0));
}

const std::vector<Entry>& SweptEntries() {
  static const std::vector<Entry> entries = {
      {"platformpp_client_update_token",
       [](platformpp_client* c, Record* r) {
         platformpp_client_update_token(c, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER,
                                        "a-token-long-enough-to-allocate", 31, OnResult, r, Free);
       }},
      {"platformpp_client_fetch_current_user",
       [](platformpp_client* c, Record* r) {
         platformpp_client_fetch_current_user(c, PLATFORMPP_AUTHORIZATION_TOKEN_TYPE_BEARER, nullptr, 0,
                                              OnUser, r, Free);
       }},
      {"platformpp_client_create_or_join_lobby",
       [](platformpp_client* c, Record* r) {
         const platformpp_string_pair metadata[] = {
             {{"mode-of-the-lobby-key", 21}, {"capture the flag", 16}}};
         platformpp_client_create_or_join_lobby(c, "a-lobby-secret-long-enough", 26, metadata, 1, nullptr, 0,
                                                OnId, r, Free);
       }},
      {"platformpp_client_send_user_message",
       [](platformpp_client* c, Record* r) {
         platformpp_client_send_user_message(c, 42, "a message long enough to allocate", 33, nullptr, 0, OnId,
                                             r, Free);
       }},
      {"platformpp_client_relationship_action",
       [](platformpp_client* c, Record* r) {
         platformpp_client_relationship_action(c, PLATFORMPP_RELATIONSHIP_ACTION_BLOCK_USER, 42, OnResult, r,
                                               Free);
       }},
      {"platformpp_client_get_user_guilds",
       [](platformpp_client* c, Record* r) { platformpp_client_get_user_guilds(c, OnGuilds, r, Free); }},
      {"platformpp_client_get_lobby_messages_with_limit",
       [](platformpp_client* c, Record* r) {
         platformpp_client_get_lobby_messages_with_limit(c, 7, 10, OnMessages, r, Free);
       }},
      {"platformpp_client_update_rich_presence",
       [](platformpp_client* c, Record* r) {
         platformpp_activity* activity = platformpp_activity_create();
         platformpp_activity_set_state(activity, "In the arena, round two", 23);
         platformpp_client_update_rich_presence(c, activity, OnResult, r, Free);
         platformpp_activity_destroy(activity);
       }},
      {"platformpp_client_set_online_status",
       [](platformpp_client* c, Record* r) {
         platformpp_client_set_online_status(c, PLATFORMPP_STATUS_TYPE_IDLE, OnResult, r, Free);
       }},
      {"platformpp_client_accept_activity_invite",
       [](platformpp_client* c, Record* r) {
         platformpp_client_accept_activity_invite(c, nullptr, OnJoinSecret, r, Free);
       }},
      {"platformpp_client_end_call",
       [](platformpp_client* c, Record* r) { platformpp_client_end_call(c, 7, OnNotify, r, Free); }},
      {"platformpp_client_get_input_devices",
       [](platformpp_client* c, Record* r) { platformpp_client_get_input_devices(c, OnDevices, r, Free); }},
  };
  return entries;
}

}  // namespace

// The sweep needs this executable's operator new to serve the library's allocations too: ELF resolves them to
// it, but platformpp.dll is a PE image linked with its own libstdc++, which no executable can replace.
// Skipped there (the library's behaviour is the same code, checked on Linux).
#ifdef _WIN32
constexpr bool kOwnOperatorNewReachesLibrary = false;
#else
constexpr bool kOwnOperatorNewReachesLibrary = true;
#endif

TEST_CASE("out of memory at any allocation of a call: never into C, every callback exactly once" *
          doctest::skip(!kOwnOperatorNewReachesLibrary)) {
  for (const Entry& entry : SweptEntries()) {
    const std::string name = entry.name;
    CAPTURE(name);
    int boundaryFailures = 0;
    long n = 1;
    for (;; ++n) {
      CAPTURE(n);
      TestClient t;
      platformpp_client_set_application_id(t.client, 1234);
      Record record;
      bool fired = false;
      bool escaped = false;
      {
        FailAllocation failing(n);
        try {
          entry.call(t.client, &record);
        } catch (...) {
          escaped = true;
        }
        fired = injected;
      }
      CHECK_FALSE(escaped);
      CHECK(record.calls == 0);  // never inside the call
      t.PumpUntil([&] { return record.calls > 0; });
      CHECK(record.calls == 1);
      CHECK(record.freesBeforeCall == 0);
      // The boundary logs each exception it stops (the C++ layer may have completed the operation already:
      // then that result is the one the callback got).
      if (t.Logged(name + ": std::bad_alloc; its callback runs with Aborted")) ++boundaryFailures;
      if (record.type == PLATFORMPP_ERROR_TYPE_ABORTED && Contains(record.error, name)) {
        CHECK(Contains(record.error, name + ": std::bad_alloc"));
        CHECK(t.Logged(name + ": std::bad_alloc"));
      }
      platformpp_client_destroy(t.client);
      t.client = nullptr;
      CHECK(record.calls == 1);
      CHECK(record.frees == 1);
      if (!fired || n > 400) break;  // the call made fewer than n allocations: each one has failed in turn
    }
    MESSAGE(name << ": " << n - 1 << " allocations failed in turn, " << boundaryFailures
                 << " of the exceptions reached the boundary");
    CHECK(n > 1);
    CHECK(boundaryFailures > 0);
  }
}
