// Runs libFuzzer targets without libFuzzer (GCC builds, CI): the target --target=NAME names (all of them are
// linked into this one executable, fuzz_targets.hpp), on every file given (or every file in a directory
// given), then a fixed number of deterministic mutations of them and of random bytes. A crash or sanitizer
// report fails the run. Real coverage-guided fuzzing: tools/run-fuzz (clang + libFuzzer, one executable per
// target).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> seeds;
  long mutations = 20000;
  const platformpp::fuzz::FuzzTarget* target = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--mutations=", 0) == 0) {
      mutations = std::strtol(arg.c_str() + 12, nullptr, 10);
      continue;
    }
    if (arg.rfind("--target=", 0) == 0) {
      for (const auto& candidate : platformpp::fuzz::Targets()) {
        if (arg.compare(9, std::string::npos, candidate.name) == 0) target = &candidate;
      }
      if (target == nullptr) {
        std::fprintf(stderr, "no fuzz target %s here; the targets are:\n", arg.c_str() + 9);
        for (const auto& candidate : platformpp::fuzz::Targets())
          std::fprintf(stderr, "  %s\n", candidate.name);
        return 2;
      }
      continue;
    }
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(arg)) {
      for (auto& entry : std::filesystem::directory_iterator(arg))
        files.push_back(entry.path());
    } else {
      files.emplace_back(arg);
    }
    for (auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  if (target == nullptr) {
    std::fprintf(stderr, "usage: %s --target=NAME [--mutations=N] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  for (const std::string& seed : seeds) {
    target->run(reinterpret_cast<const uint8_t*>(seed.data()), seed.size());
  }
  std::mt19937_64 random(0x706c6174666f726dULL);
  std::string input;
  for (long n = 0; n < mutations; ++n) {
    if (!seeds.empty() && n % 4 != 0) {
      input = seeds[random() % seeds.size()];
    } else {
      input.assign(random() % 64, '\0');
      for (char& c : input)
        c = static_cast<char>(random());
    }
    // A few byte flips, insertions, deletions and duplications.
    int edits = 1 + static_cast<int>(random() % 8);
    for (int e = 0; e < edits; ++e) {
      size_t at = input.empty() ? 0 : random() % input.size();
      switch (random() % 5) {
        case 0:
          if (!input.empty()) input[at] = static_cast<char>(random());
          break;
        case 1:
          input.insert(at, 1, static_cast<char>(random()));
          break;
        case 2:
          if (!input.empty()) input.erase(at, 1 + random() % 4);
          break;
        case 3:
          input.insert(at, input.substr(at, random() % 16));
          break;
        default:
          input.insert(at, std::string(1 + random() % 3, "{}[]\":,\\"[random() % 8]));
          break;
      }
    }
    target->run(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
  std::printf("%s: %zu seeds and %ld mutations ran cleanly\n", target->name, seeds.size(), mutations);
  return 0;
}
