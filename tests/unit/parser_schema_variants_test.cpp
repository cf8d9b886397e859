// The SDK's parsers accept every answer the platform's published schemas allow, not only the emulator's: for
// each parsed shape, an instance with every documented member is built from the schema, then each member in
// turn is removed and set to null (kept when the schema still accepts the result: the validator decides what
// is optional or nullable), and unknown members are added at every level (the platform adds members over
// time). Each variant must parse to the same object.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "json/json.hpp"
#include "lobby/lobby_json.hpp"
#include "messaging/message_json.hpp"
#include "openapi_conformance.hpp"
#include "social/social_json.hpp"

namespace platformpp::parser_schema_variants_test {

using emulator::test::OpenApiConformance;
using Allocator = rapidjson::Document::AllocatorType;

OpenApiConformance& Spec() {
  static OpenApiConformance* spec = [] {
    static OpenApiConformance loaded(std::string(PLATFORMPP_OPENAPI_DIR) + "/openapi-subset.json");
    loaded.apply_divergences(std::string(PLATFORMPP_OPENAPI_DIR) + "/schema-divergences.json");
    return &loaded;
  }();
  return *spec;
}

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// An instance with every member the schema documents (arrays with one item), within a depth bound.
rapidjson::Value Build(const rapidjson::Value& given, Allocator& allocator, int depth) {
  const rapidjson::Value* schema = &given;
  for (int hops = 0; hops < 8 && Member(*schema, "$ref") != nullptr; ++hops)
    schema = &Spec().follow(*schema);
  if (const auto* values = Member(*schema, "enum"); values && values->IsArray() && !values->Empty()) {
    return rapidjson::Value((*values)[0], allocator);
  }
  if (const auto* all = Member(*schema, "allOf")) {
    rapidjson::Value merged(rapidjson::kObjectType);
    for (const auto& part : all->GetArray()) {
      auto piece = Build(part, allocator, depth);
      if (!piece.IsObject()) return piece;
      for (auto& member : piece.GetObject()) {
        merged.RemoveMember(member.name);
        merged.AddMember(member.name, member.value, allocator);
      }
    }
    return merged;
  }
  for (const char* choice : {"oneOf", "anyOf"}) {
    if (const auto* alternatives = Member(*schema, choice)) {
      for (const auto& alternative : alternatives->GetArray()) {
        const auto* type = Member(alternative, "type");
        if (type != nullptr && type->IsString() && std::string_view(type->GetString()) == "null") continue;
        return Build(alternative, allocator, depth);
      }
    }
  }
  std::string type;
  if (const auto* types = Member(*schema, "type")) {
    if (types->IsString()) type = types->GetString();
    if (types->IsArray()) {
      for (const auto& each : types->GetArray())
        if (std::string_view(each.GetString()) != "null") type = each.GetString();
    }
  }
  if (type.empty() && Member(*schema, "properties") != nullptr) type = "object";
  if (type == "object") {
    rapidjson::Value object(rapidjson::kObjectType);
    const auto* properties = Member(*schema, "properties");
    const auto* required = Member(*schema, "required");
    if (properties == nullptr) return object;
    for (const auto& property : properties->GetObject()) {
      bool needed = false;
      if (required != nullptr) {
        for (const auto& name : required->GetArray())
          needed = needed || name == property.name;
      }
      if (depth > 5 && !needed) continue;
      object.AddMember(rapidjson::Value(property.name, allocator),
                       Build(property.value, allocator, depth + 1), allocator);
    }
    return object;
  }
  if (type == "array") {
    rapidjson::Value array(rapidjson::kArrayType);
    if (const auto* items = Member(*schema, "items"); items != nullptr && depth <= 5) {
      array.PushBack(Build(*items, allocator, depth + 1), allocator);
    }
    return array;
  }
  if (type == "string") {
    const auto* format = Member(*schema, "format");
    const std::string_view kind = format != nullptr && format->IsString() ? format->GetString() : "";
    if (kind == "date-time") return rapidjson::Value("2026-03-01T12:34:56.789000+00:00", allocator);
    if (kind == "uri") return rapidjson::Value("https://example.com/x", allocator);
    if (Member(*schema, "pattern") != nullptr) return rapidjson::Value("1234567890123456789", allocator);
    const auto* min = Member(*schema, "minLength");
    return rapidjson::Value(std::string(min != nullptr ? std::max(min->GetInt(), 1) : 3, 'x').c_str(),
                            allocator);
  }
  if (type == "integer") {
    const auto* minimum = Member(*schema, "minimum");
    return rapidjson::Value(minimum != nullptr ? minimum->GetInt64() : std::int64_t{1});
  }
  if (type == "number") return rapidjson::Value(1.5);
  if (type == "boolean") return rapidjson::Value(false);
  return rapidjson::Value(rapidjson::kNullType);
}

// Every object member of `value`, by its path from the root, for the removal and null variants.
void ObjectMembers(rapidjson::Value& value, std::vector<std::pair<rapidjson::Value*, std::string>>& out) {
  if (value.IsObject()) {
    for (auto& member : value.GetObject()) {
      out.emplace_back(&value, member.name.GetString());
      ObjectMembers(member.value, out);
    }
  } else if (value.IsArray()) {
    for (auto& item : value.GetArray())
      ObjectMembers(item, out);
  }
}

void AddUnknownMember(rapidjson::Value& object, Allocator& allocator) {
  rapidjson::Value unknown(rapidjson::kObjectType);
  rapidjson::Value list(rapidjson::kArrayType);
  list.PushBack(1, allocator).PushBack(rapidjson::Value(rapidjson::kNullType), allocator);
  unknown.AddMember("list", list, allocator);
  object.AddMember("x_member_added_later", unknown, allocator);
}

// Every object of `value` (the root too), in walk order.
void Objects(rapidjson::Value& value, std::vector<rapidjson::Value*>& out) {
  if (value.IsObject()) {
    out.push_back(&value);
    for (auto& member : value.GetObject())
      Objects(member.value, out);
  } else if (value.IsArray()) {
    for (auto& item : value.GetArray())
      Objects(item, out);
  }
}

// The variants of the schema's full instance; `parses` returns the parsed object's id, or 0 when it refused.
struct Outcome {
  int variants = 0;
  std::vector<std::string> refused;
};

Outcome CheckVariants(const char* schema_name,
                      const std::function<uint64_t(const rapidjson::Value&)>& parses) {
  const auto* schema = Spec().component_schema(schema_name);
  REQUIRE(schema != nullptr);
  rapidjson::Document full;
  static_cast<rapidjson::Value&>(full) = Build(*schema, full.GetAllocator(), 0);
  REQUIRE_MESSAGE(Spec().valid(schema_name, full), "the instance built from ", schema_name, " is not valid");
  const uint64_t id = parses(full);
  REQUIRE_MESSAGE(id != 0, schema_name, ": the full instance does not parse");
  Outcome outcome;
  auto check = [&](const rapidjson::Document& variant, const std::string& what) {
    ++outcome.variants;
    if (parses(variant) != id) outcome.refused.push_back(std::string(schema_name) + ": " + what);
  };
  rapidjson::Document probe;
  probe.CopyFrom(full, probe.GetAllocator());
  std::vector<std::pair<rapidjson::Value*, std::string>> members;
  ObjectMembers(probe, members);
  for (std::size_t i = 0; i < members.size(); ++i) {
    // Each variant starts from a fresh copy; the i-th member is found again by its position in the walk.
    for (const bool to_null : {false, true}) {
      rapidjson::Document variant;
      variant.CopyFrom(full, variant.GetAllocator());
      std::vector<std::pair<rapidjson::Value*, std::string>> walk;
      ObjectMembers(variant, walk);
      auto& [object, name] = walk[i];
      if (to_null) {
        (*object)[name.c_str()].SetNull();
      } else {
        object->RemoveMember(name.c_str());
      }
      if (!Spec().valid(schema_name, variant)) continue;  // the schema requires it (or forbids null)
      check(variant, name + (to_null ? " null" : " absent"));
    }
  }
  // An unknown member in each object in turn (not in maps such as metadata, whose values the schema types:
  // there the variant is invalid and skipped), then in every such object at once.
  std::vector<rapidjson::Value*> objects;
  Objects(probe, objects);
  std::vector<std::size_t> extensible;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    rapidjson::Document variant;
    variant.CopyFrom(full, variant.GetAllocator());
    std::vector<rapidjson::Value*> walk;
    Objects(variant, walk);
    AddUnknownMember(*walk[i], variant.GetAllocator());
    if (!Spec().valid(schema_name, variant)) continue;
    extensible.push_back(i);
    check(variant, "an unknown member in object " + std::to_string(i));
  }
  rapidjson::Document everywhere;
  everywhere.CopyFrom(full, everywhere.GetAllocator());
  std::vector<rapidjson::Value*> walk;
  Objects(everywhere, walk);
  for (const auto i : extensible)
    AddUnknownMember(*walk[i], everywhere.GetAllocator());
  check(everywhere, "unknown members in every object");
  return outcome;
}

void Expect(const char* schema_name, const std::function<uint64_t(const rapidjson::Value&)>& parses) {
  const auto outcome = CheckVariants(schema_name, parses);
  MESSAGE(std::string(schema_name), ": ", outcome.variants, " valid variants parsed");
  CHECK(outcome.variants >= 3);
  for (const auto& refused : outcome.refused)
    FAIL_CHECK("a valid answer the parser refuses: ", refused);
}

TEST_CASE("parsers accept every variant the schemas allow: users, lobbies, members, messages, guilds") {
  Expect("UserResponse", [](const rapidjson::Value& v) {
    const auto user = social::ParseUser(v);
    return user ? user->id : 0;
  });
  Expect("LobbyResponse", [](const rapidjson::Value& v) {
    const auto lobby = lobby::ParseLobby(v);
    return lobby ? lobby->id : 0;
  });
  Expect("LobbyMemberResponse", [](const rapidjson::Value& v) {
    const auto member = lobby::ParseMember(v);
    return member ? member->id : 0;
  });
  Expect("LobbyMessageResponse", [](const rapidjson::Value& v) {
    const auto message = messaging::ParseMessage(v, 42);
    return message ? message->data.id : 0;
  });
  Expect("MessageResponse", [](const rapidjson::Value& v) {
    const auto message = messaging::ParseMessage(v, 42);
    return message ? message->data.id : 0;
  });
  Expect("MyGuildResponse", [](const rapidjson::Value& v) {
    const auto guild = social::ParseGuild(v);
    return guild ? guild->Id() : 0;
  });
  Expect("GuildChannelResponse", [](const rapidjson::Value& v) {
    const auto channel = social::ParseChannel(v);
    return channel ? channel->Id() : 0;
  });
}

}  // namespace platformpp::parser_schema_variants_test
