// What the guild routes read from request bodies (guild_fields.hpp).
#include "guild/guild_fields.hpp"

#include <openssl/evp.h>

#include <cstdio>

#include "core/validation.hpp"

namespace platformpp::emulator {

FieldIssue bits_issue() {
  return {"BASE_TYPE_INVALID", "Must be permission bits: a decimal string."};
}

std::optional<std::uint64_t> read_bits(const rapidjson::Value& value) {
  if (value.IsUint64()) return value.GetUint64();
  if (!value.IsString()) return std::nullopt;
  return decimal_bits({value.GetString(), value.GetStringLength()});
}

std::optional<std::uint64_t> read_permission_bits(BodyFields& fields, const char* name) {
  const auto* value = fields.value(name, false);
  if (value == nullptr) return std::nullopt;
  auto bits = read_bits(*value);
  if (!bits) fields.add_issue(name, bits_issue());
  return bits;
}

std::optional<std::string> read_name(BodyFields& fields, std::size_t min, std::size_t max, bool required) {
  auto name = fields.string("name", required);
  if (name) {
    const auto length = utf8_length(*name);
    if (length < min || length > max) fields.add_issue("name", length_issue(min, max));
  }
  return name;
}

std::string image_hash(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_md5(), nullptr);
  std::string hex;
  char pair[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(pair, sizeof pair, "%02x", digest[i]);
    hex += pair;
  }
  return hex;
}

HttpResponse unknown_guild() {
  return error_response(404, error_code::kUnknownGuild, "Unknown Guild");
}

}  // namespace platformpp::emulator
