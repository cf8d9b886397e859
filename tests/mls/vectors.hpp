#pragma once
// Reading the RFC 9420 interoperability vectors (tests/data/mls-test-vectors): JSON files of hex strings.

#include "mls/bytes.hpp"

#include <rapidjson/document.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mls_vectors {

inline rapidjson::Document Load(const std::string& name) {
  const std::string path = std::string(PLATFORMPP_MLS_VECTORS) + "/" + name;
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  rapidjson::Document document;
  document.Parse(text.str().c_str());
  if (document.HasParseError() || !document.IsArray())
    throw std::runtime_error(path + " is not a JSON array");
  return document;
}

inline platformpp::mls::Bytes Hex(const rapidjson::Value& value) {
  if (!value.IsString()) throw std::runtime_error("a vector field is not a hex string");
  const std::string text(value.GetString(), value.GetStringLength());
  if (text.size() % 2 != 0) throw std::runtime_error("odd hex: " + text);
  platformpp::mls::Bytes out(text.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(std::stoi(text.substr(2 * i, 2), nullptr, 16));
  return out;
}

inline std::string ToHex(platformpp::mls::ByteView bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

inline std::string Text(const rapidjson::Value& value) {
  return std::string(value.GetString(), value.GetStringLength());
}

}  // namespace mls_vectors
