// Checks the emulator's API answers against the platform's published OpenAPI document (a pinned copy in
// tests/data/openapi/): the schema of the route, method and status, with RapidJSON's JSON Schema validator
// (draft 4; the document's `const`, which draft 4 lacks, is read as a one-value `enum`). Installed as the
// EmulatorService's API observer by the emulator unit tests' main, so every answer of every test is checked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/fwd.h>

namespace platformpp::emulator::test {

class OpenApiConformance {
 public:
  explicit OpenApiConformance(const std::string& spec_path);
  ~OpenApiConformance();

  // Replaces schemas of the document where the platform's answers are known to differ from what it publishes
  // (a JSON array of {pointer, schema | append, reason}: `schema` replaces the schema at the pointer,
  // `append` adds items to the array there); each entry must point at something the document has.
  void apply_divergences(const std::string& path);
  [[nodiscard]] std::size_t divergences_applied() const { return divergences_applied_; }

  // One answer: `route` is the OpenAPI path template ("/lobbies/{lobby_id}"), empty when no route matched.
  void check(std::string_view method, std::string_view route, int status, std::string_view body);

  // One request a client sent: its absolute URL (only those under "/api/v10" are checked), Content-Type and
  // body, against the request body the document gives the matching route.
  void check_request(std::string_view method, std::string_view url, std::string_view content_type,
                     std::string_view body);
  // The document's schemas, for tests that build instances from them: "#/components/schemas/<name>" (null
  // when absent), a schema with its "$ref" followed, and whether an instance is valid against a named schema.
  [[nodiscard]] const rapidjson::Value* component_schema(std::string_view name) const;
  [[nodiscard]] const rapidjson::Value& follow(const rapidjson::Value& schema) const;
  [[nodiscard]] bool valid(std::string_view name, const rapidjson::Value& instance);

  // Whether `path` fits `path_template`, whose "{name}" segments match any one segment.
  static bool path_matches(std::string_view path_template, std::string_view path);

  struct Report {
    std::uint64_t validated = 0;  // answers checked against a schema
    std::uint64_t without_schema =
        0;  // answers of documented routes whose status the document does not describe
    std::set<std::string> operations_validated;   // "GET /lobbies/{lobby_id} 200"
    std::set<std::string> undocumented;           // "GET /users/@me/relationships": not in the document
    std::uint64_t requests_seen = 0;              // API requests given to check_request
    std::uint64_t requests_validated = 0;         // of those, the ones on a documented route
    std::set<std::string> undocumented_requests;  // "PUT /users/@me/relationships/123": concrete paths
    std::map<std::string, std::vector<std::string>> mismatches;  // by operation: what failed (first few)
    std::uint64_t mismatch_count = 0;
  };
  // The operations listed in `path` (one per line, "# ..." comments), for the known-mismatches and
  // undocumented-routes lists.
  static std::set<std::string> read_list(const std::string& path);
  [[nodiscard]] Report report() const;
  // Prints the mismatches not in `known` (and, with PLATFORMPP_CONFORMANCE_DETAILS set, the known ones too:
  // what is left to fix); returns how many were not known.
  static int print_mismatches(const Report& report, const std::set<std::string>& known);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::size_t divergences_applied_ = 0;
  mutable std::mutex mutex_;
};

}  // namespace platformpp::emulator::test
