// The emulator's state (--state FILE, docs/emulator-state.md) read back from what a user's disk may hold. The
// first input byte picks what the rest is:
//   'f'  a state file's bytes: written to a temporary file, opened (StateFile::open) and, when it opens,
//        loaded into a fresh emulator (attach)
//   'd'  documents, as pairs of lines "<kind> <id>" then the body (JSON): written into a valid state file
//        through StateFile::write, which is then opened and loaded the same way (each module's document
//        readers, past SQLite's own checks)
//   's'  a snapshot (GET /_emulator/state/export's JSON) imported into a fresh emulator: parse_snapshot, then
//        replace_all
// Invariants: nothing crashes; a file that cannot be used is refused with StateFileError (exit code 5 or 6)
// and a snapshot with std::invalid_argument, never another exception; what loaded or imported exports to a
// snapshot that imports again into another emulator and exports to the same text (nothing is lost or
// invented on the way). Temporary files live in a directory of the input's own, removed after it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_lines.hpp"
#include "json_mutator.hpp"
#include "service/emulator_service.hpp"
#include "state/state_file.hpp"
#include "state/state_store.hpp"

namespace {

using namespace platformpp::emulator;
namespace fs = std::filesystem;

constexpr std::int64_t kStart = 1795000000000;

struct Emulator {
  std::int64_t real_now = kStart;
  FakeClock clock{[this] { return real_now; }, true, kStart};
  EmulatorService service{
      clock, ServiceEndpoints{"wss://127.0.0.1:1234", "https://127.0.0.1:1234/api/v10", "127.0.0.1:1234"}};
};

// A directory of this input's own, removed with everything in it when the input is done (libFuzzer may end
// the process without running atexit handlers, so nothing waits for the exit).
class Scratch {
 public:
  Scratch() {
    // A fresh name (create_directory fails on one that exists), the same way on Linux and Windows.
    static std::mt19937_64 names{std::random_device{}()};
    for (int attempt = 0; attempt < 100; ++attempt) {
      directory_ = fs::temp_directory_path() / ("platformpp-fuzz-state-" + std::to_string(names()));
      std::error_code error;
      if (fs::create_directory(directory_, error)) return;
    }
    __builtin_trap();
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] fs::path file() const { return directory_ / "state.sqlite"; }

 private:
  fs::path directory_;
};

WalLimits no_thread() {
  WalLimits limits;
  limits.background_thread = false;  // a fuzz target runs no threads of its own
  return limits;
}

bool refused_cleanly(const StateFileError& e) {
  return e.exit_code() == StateFile::kExitNotAStateFile || e.exit_code() == StateFile::kExitNewerSchema;
}

// What an emulator holds must survive export and import into another one unchanged.
void check_round_trip(Emulator& emulator) {
  const auto exported = emulator.service.state_store().export_json();
  std::vector<DocumentChange> documents;
  try {
    documents = StateStore::parse_snapshot(exported);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "own export refused: %s\n", e.what());
    __builtin_trap();
  }
  auto other = std::make_unique<Emulator>();
  try {
    other->service.state_store().replace_all(documents);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "own export not importable: %s\n", e.what());
    __builtin_trap();
  }
  other->service.end_turn();
  if (other->service.state_store().export_json() != exported) {
    std::fprintf(stderr, "export changed on import:\n%s\n%s\n", exported.c_str(),
                 other->service.state_store().export_json().c_str());
    __builtin_trap();
  }
}

// Opens the file and loads it; a refusal must be a StateFileError.
void open_and_load(const fs::path& file) {
  std::unique_ptr<StateFile> opened;
  try {
    opened = StateFile::open(file.string(), false, no_thread());
  } catch (const StateFileError& e) {
    if (!refused_cleanly(e)) __builtin_trap();
    return;
  }
  auto emulator = std::make_unique<Emulator>();
  try {
    emulator->service.attach_state_file(std::move(opened));
  } catch (const StateFileError& e) {
    if (!refused_cleanly(e)) __builtin_trap();
    return;
  }
  emulator->service.end_turn();
  check_round_trip(*emulator);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const char form = static_cast<char>(data[0]);
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const Scratch scratch;
  const auto file = scratch.file();
  switch (form) {
    case 'f': {
      {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(rest.data(), static_cast<std::streamsize>(rest.size()));
      }
      open_and_load(file);
      return 0;
    }
    case 'd': {
      StateBatch batch;
      while (!rest.empty()) {
        const auto header = next_line(rest);
        const auto body = next_line(rest);
        const auto space = header.find(' ');
        if (space == std::string_view::npos) continue;
        batch.put.push_back(StateDocument{std::string(header.substr(0, space)),
                                          std::string(header.substr(space + 1)), std::string(body)});
      }
      {
        const auto writer = StateFile::open(file.string(), false, no_thread());
        writer->write(batch);
      }
      open_and_load(file);
      return 0;
    }
    case 's': {
      auto emulator = std::make_unique<Emulator>();
      try {
        emulator->service.state_store().replace_all(StateStore::parse_snapshot(rest));
      } catch (const std::invalid_argument&) {
        return 0;
      }
      emulator->service.end_turn();
      check_round_trip(*emulator);
      return 0;
    }
    default:
      return 0;
  }
}
