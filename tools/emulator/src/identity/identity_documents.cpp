// The Game Stats Widget's data as documents (core/state_changes.hpp): each Application Identity Profile, with
// the provider-issued user id the first write bound it to, and each claimed game. Every document carries "v",
// its format version.
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/document_json.hpp"
#include "identity/identity_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::int64_t kFormat = 1;

void check_format(const rapidjson::Value& body) {
  const auto version = document::integer(body, "v");
  if (version < 1 || version > kFormat) {
    throw std::invalid_argument("format version " + std::to_string(version) +
                                " is not one this emulator reads");
  }
}

template <class WriteFn>
std::string document_json(WriteFn&& write) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    document::write_member(writer, "v", kFormat);
    write(writer);
    writer.EndObject();
  });
}

// "<application id>:<user id>" as its two ids (neither holds a colon).
std::tuple<std::string, std::string> profile_key(const std::string& id) {
  const auto colon = id.find(':');
  if (colon == std::string::npos) throw std::invalid_argument("malformed id " + id);
  return {id.substr(0, colon), id.substr(colon + 1)};
}

}  // namespace

void IdentityModule::register_documents() {
  changes_.register_kind(DocumentKind{
      std::string(document_kind::kGameStatsProfile),
      [this](const std::string& id) -> std::optional<std::string> {
        const auto colon = id.find(':');
        if (colon == std::string::npos) return std::nullopt;
        const auto it = profiles_.find(std::make_tuple(id.substr(0, colon), id.substr(colon + 1)));
        if (it == profiles_.end()) return std::nullopt;
        return document_json([&](JsonWriter& writer) {
          document::write_member(writer, "provider_issued_user_id", it->second.provider_issued_user_id);
          document::write_member(writer, "username", it->second.username);
          // The compact text as stored, so that it reads back byte for byte.
          document::write_member(writer, "data_json", it->second.data_json);
        });
      },
      [this](const std::string& id, const rapidjson::Value& body) {
        check_format(body);
        Profile profile{document::string(body, "provider_issued_user_id"),
                        document::optional_string(body, "username"),
                        document::optional_string(body, "data_json")};
        if (profile.data_json) {
          rapidjson::Document data;
          if (!parse_json(*profile.data_json, data) || !data.IsObject()) {
            throw std::invalid_argument("\"data_json\" is not a JSON object");
          }
        }
        profiles_.insert_or_assign(profile_key(id), std::move(profile));
      },
      [this] {
        std::vector<std::string> ids;
        ids.reserve(profiles_.size());
        for (const auto& entry : profiles_)
          ids.push_back(std::get<0>(entry.first) + ":" + std::get<1>(entry.first));
        return ids;
      },
      [this] { profiles_.clear(); }});
  changes_.register_kind(
      DocumentKind{std::string(document_kind::kClaimedGame),
                   [this](const std::string& id) -> std::optional<std::string> {
                     if (!claimed_.contains(id)) return std::nullopt;
                     return document_json([](JsonWriter&) {});
                   },
                   [this](const std::string& id, const rapidjson::Value& body) {
                     check_format(body);
                     claimed_.insert(id);
                   },
                   [this] { return std::vector<std::string>(claimed_.begin(), claimed_.end()); },
                   [this] { claimed_.clear(); }});
}

}  // namespace platformpp::emulator
