// The test's handle on the call matrix (call_matrix.h): which objects a state offers, and what the calls and
// their callbacks did.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "call_matrix.h"

namespace call_matrix {

// A new state: its objects by type name ("platformpp_client" -> the client), no tickets, no violations; the
// calling thread is the game's (callbacks must run on it).
void reset(std::map<std::string, void*> objects);
// Every call gets NULL for every object (the "NULL handle" half of a state's calls).
void set_null_objects(bool null_objects);
// Called before the n-th call (from 1) of the state: a test's fault at a chosen moment.
void on_call(std::function<void(std::size_t)> hook);

// Marks the scope as inside run_callbacks or destroy: callbacks may run in it.
class CallbackScope {
 public:
  CallbackScope();
  ~CallbackScope();
  CallbackScope(const CallbackScope&) = delete;
  CallbackScope& operator=(const CallbackScope&) = delete;
};

// What went wrong since reset(): callbacks outside run_callbacks or on another thread, a user_data that was
// not given, calls that blocked; and, once every object of the state is destroyed, every ticket whose
// user_data was not freed exactly once or whose operation did not end exactly once.
std::vector<std::string> check_tickets();

// What the state's calls did: calls made, operations (calls given a user_data) and callbacks run.
struct Summary {
  std::size_t calls = 0;
  std::size_t operations = 0;
  std::size_t callbacks = 0;
};
Summary summary();

}  // namespace call_matrix
