// The emulator's component rules: every rule crossed by one on each surface (a legacy message, a message with
// IS_COMPONENTS_V2, a modal), each refusal checked at its exact path and code in the 50035 error tree; wrong
// JSON types; the Premium button's SKU predicate; the attachments a v2 message shows; finding a component by
// custom_id.
#include <doctest/doctest.h>

#include <rapidjson/document.h>

#include <set>
#include <string>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "interactions/component_rules.hpp"

namespace component_rules_emulator_test {

using namespace platformpp::emulator;

namespace {

// "path CODE" of each refusal; FieldErrors writes its tree by key, so the order is not the checks' order.
using Issues = std::multiset<std::string>;

constexpr auto kMessage = ComponentSurface::kMessage;
constexpr auto kV2 = ComponentSurface::kMessageV2;
constexpr auto kModal = ComponentSurface::kModal;

std::string rep(std::size_t n, char c = 'a') {
  return std::string(n, c);
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const auto& item : items)
    out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}

std::string times(std::size_t n, const std::string& item) {
  return list(std::vector<std::string>(n, item));
}

std::string btn(const std::string& id, const std::string& extra = {}) {
  return R"({"type":2,"style":1,"label":"Go","custom_id":")" + id + "\"" + extra + "}";
}

std::string row(const std::string& children) {
  return R"({"type":1,"components":)" + children + "}";
}

std::string label(const std::string& child, const std::string& extra = {}) {
  return R"({"type":18,"label":"L")" + extra + R"(,"component":)" + child + "}";
}

std::string text_display(const std::string& content = "x") {
  return R"({"type":10,"content":")" + content + "\"}";
}

std::string options(std::size_t n) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < n; ++i)
    items.push_back(R"({"label":"L)" + std::to_string(i) + R"(","value":"v)" + std::to_string(i) + "\"}");
  return list(items);
}

std::string select(int type, const std::string& id, const std::string& extra = {}) {
  return R"({"type":)" + std::to_string(type) + R"(,"custom_id":")" + id + "\"" + extra + "}";
}

std::string string_select(const std::string& id, std::size_t n, const std::string& extra = {}) {
  return select(3, id, R"(,"options":)" + options(n) + extra);
}

std::string text_input(const std::string& id, const std::string& extra = {}) {
  return R"({"type":4,"custom_id":")" + id + R"(","style":1)" + extra + "}";
}

// "path CODE" for each leaf of an error tree.
void flatten(const rapidjson::Value& node, const std::string& path, Issues& out) {
  for (const auto& entry : node.GetObject()) {
    const std::string key(entry.name.GetString(), entry.name.GetStringLength());
    if (key == "_errors") {
      for (const auto& error : entry.value.GetArray())
        out.insert(path + " " + error["code"].GetString());
    } else {
      flatten(entry.value, path.empty() ? key : path + "." + key, out);
    }
  }
}

Issues check(const std::string& components, ComponentSurface surface, const SkuPublished& sku = {},
             const std::vector<std::string>& path = {"components"}) {
  rapidjson::Document document;
  REQUIRE(parse_json(components, document));
  FieldErrors errors;
  check_components(document, surface, errors, path, sku);
  Issues issues;
  if (errors.empty()) return issues;
  rapidjson::Document tree;
  REQUIRE(parse_json(to_json([&](JsonWriter& writer) { errors.write(writer); }), tree));
  flatten(tree, "", issues);
  return issues;
}

}  // namespace

TEST_CASE("legacy messages: at most 5 action rows, only action rows at the top") {
  std::vector<std::string> rows;
  rows.reserve(6);
  for (int i = 0; i < 5; ++i)
    rows.push_back(row(list({btn("b" + std::to_string(i))})));
  CHECK(check(list(rows), kMessage).empty());
  rows.push_back(row(list({btn("b5")})));
  CHECK(check(list(rows), kMessage) == Issues{"components BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({text_display()}), kMessage) == Issues{"components.0.type UNION_TYPE_CHOICES"});
  CHECK(check("[]", kMessage).empty());
  CHECK(check("{}", kMessage) == Issues{"components BASE_TYPE_ARRAY"});
  // The path is the caller's: a modal's components sit under data.
  CHECK(check("[]", kModal, {}, {"data", "components"}) == Issues{"data.components BASE_TYPE_MIN_LENGTH"});
}

TEST_CASE("action rows: 1 to 5 buttons or one select, not mixed") {
  CHECK(check(list({row(list({btn("a"), btn("b"), btn("c"), btn("d"), btn("e")}))}), kMessage).empty());
  CHECK(check(list({row(list({btn("a"), btn("b"), btn("c"), btn("d"), btn("e"), btn("f")}))}), kMessage) ==
        Issues{"components.0.components COMPONENT_LAYOUT_WIDTH_EXCEEDED"});
  CHECK(check(list({row("[]")}), kMessage) == Issues{"components.0.components BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({R"({"type":1})"}), kMessage) == Issues{"components.0.components BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({select(5, "u")}))}), kMessage).empty());
  CHECK(check(list({row(list({select(5, "u"), select(6, "r")}))}), kMessage) ==
        Issues{"components.0.components COMPONENT_LAYOUT_WIDTH_EXCEEDED"});
  CHECK(check(list({row(list({select(5, "u"), btn("b")}))}), kMessage) ==
        Issues{"components.0.components COMPONENT_LAYOUT_WIDTH_EXCEEDED"});
  CHECK(check(list({row(list({text_input("t")}))}), kMessage) ==
        Issues{"components.0.components.0.type UNION_TYPE_CHOICES"});
}

TEST_CASE("custom ids 1 to 100 characters and unique; ids unique, 0 unset; JSON types") {
  CHECK(check(list({row(list({btn(rep(100))}))}), kMessage).empty());
  CHECK(check(list({row(list({btn(rep(101))}))}), kMessage) ==
        Issues{"components.0.components.0.custom_id BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({row(list({btn("")}))}), kMessage) ==
        Issues{"components.0.components.0.custom_id BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({row(list({btn("same")})), row(list({btn("same")}))}), kMessage) ==
        Issues{"components.1.components.0.custom_id COMPONENT_CUSTOM_ID_DUPLICATED"});
  CHECK(check(list({row(list({btn("a", R"(,"id":7)"), btn("b", R"(,"id":7)")}))}), kMessage) ==
        Issues{"components.0.components.1.id COMPONENT_ID_DUPLICATED"});
  CHECK(check(list({row(list({btn("a", R"(,"id":7)"), btn("b", R"(,"id":8)")}))}), kMessage).empty());
  CHECK(check(list({row(list({btn("a", R"(,"id":0)"), btn("b", R"(,"id":0)")}))}), kMessage).empty());
  CHECK(check(list({row(list({btn("a", R"(,"id":"7")")}))}), kMessage) ==
        Issues{"components.0.components.0.id NUMBER_TYPE_COERCE"});
  CHECK(check(list({R"({"type":2,"style":1,"custom_id":5})"}), kMessage) ==
        Issues{"components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({row(list({R"({"style":1,"custom_id":"x"})"}))}), kMessage) ==
        Issues{"components.0.components.0.type BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({R"({"type":"2","style":1,"custom_id":"x"})"}))}), kMessage) ==
        Issues{"components.0.components.0.type NUMBER_TYPE_COERCE"});
  CHECK(check(list({row(list({R"({"type":2,"style":1,"custom_id":5})"}))}), kMessage) ==
        Issues{"components.0.components.0.custom_id BASE_TYPE_STRING"});
  CHECK(check(list({row(list({"7"}))}), kMessage) == Issues{"components.0.components.0 DICT_TYPE_CONVERT"});
}

TEST_CASE("buttons: style rules, label at most 80, Premium SKU published") {
  CHECK(check(list({row(list({R"({"type":2,"style":4,"custom_id":"d","label":")" + rep(80) + "\"}"}))}),
              kMessage)
            .empty());
  CHECK(check(list({row(list({R"({"type":2,"style":4,"custom_id":"d","label":")" + rep(81) + "\"}"}))}),
              kMessage) == Issues{"components.0.components.0.label BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({row(list({R"({"type":2,"custom_id":"d"})"}))}), kMessage) ==
        Issues{"components.0.components.0.style BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({R"({"type":2,"style":7,"custom_id":"d"})"}))}), kMessage) ==
        Issues{"components.0.components.0.style BASE_TYPE_CHOICES"});
  CHECK(check(list({row(list({R"({"type":2,"style":0,"custom_id":"d"})"}))}), kMessage) ==
        Issues{"components.0.components.0.style BASE_TYPE_CHOICES"});
  CHECK(check(list({row(list({R"({"type":2,"style":1})"}))}), kMessage) ==
        Issues{"components.0.components.0.custom_id BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({btn("x", R"(,"url":"https://e.com","sku_id":"1")")}))}), kMessage) ==
        Issues{"components.0.components.0.url COMPONENT_FIELD_NOT_ALLOWED",
               "components.0.components.0.sku_id COMPONENT_FIELD_NOT_ALLOWED"});

  CHECK(check(list({row(list({R"({"type":2,"style":5,"label":"Site","url":"https://e.com"})"}))}), kMessage)
            .empty());
  CHECK(check(list({row(list({R"({"type":2,"style":5,"label":"Site"})"}))}), kMessage) ==
        Issues{"components.0.components.0.url BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({R"({"type":2,"style":5,"label":"Site","url":""})"}))}), kMessage) ==
        Issues{"components.0.components.0.url BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({R"({"type":2,"style":5,"label":"Site","url":5})"}))}), kMessage) ==
        Issues{"components.0.components.0.url BASE_TYPE_STRING"});
  CHECK(check(list({row(list({R"({"type":2,"style":5,"url":"https://e.com","custom_id":"c"})"}))}),
              kMessage) == Issues{"components.0.components.0.custom_id COMPONENT_FIELD_NOT_ALLOWED"});

  const SkuPublished published = [](std::string_view id) { return id == "42"; };
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":"42"})"}))}), kMessage, published).empty());
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":"43"})"}))}), kMessage, published) ==
        Issues{"components.0.components.0.sku_id COMPONENT_INVALID_SKU"});
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":42})"}))}), kMessage, published).empty());
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":43})"}))}), kMessage, published) ==
        Issues{"components.0.components.0.sku_id COMPONENT_INVALID_SKU"});
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":"x"})"}))}), kMessage, published) ==
        Issues{"components.0.components.0.sku_id NUMBER_TYPE_COERCE"});
  CHECK(check(list({row(list({R"({"type":2,"style":6})"}))}), kMessage, published) ==
        Issues{"components.0.components.0.sku_id BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({R"({"type":2,"style":6,"sku_id":"42","custom_id":"c","label":"Buy",)"
                              R"("emoji":{"name":"x"},"url":"https://e.com"})"}))}),
              kMessage,
              published) == Issues{"components.0.components.0.custom_id COMPONENT_FIELD_NOT_ALLOWED",
                                   "components.0.components.0.label COMPONENT_FIELD_NOT_ALLOWED",
                                   "components.0.components.0.emoji COMPONENT_FIELD_NOT_ALLOWED",
                                   "components.0.components.0.url COMPONENT_FIELD_NOT_ALLOWED"});
}

TEST_CASE("selects: options 1 to 25, texts at most 100, values 0..25 and 1..25, placeholder 150, defaults") {
  CHECK(check(list({row(list({string_select("s", 25)}))}), kMessage).empty());
  CHECK(check(list({row(list({string_select("s", 26)}))}), kMessage) ==
        Issues{"components.0.components.0.options BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({row(list({string_select("s", 0)}))}), kMessage) ==
        Issues{"components.0.components.0.options BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({row(list({select(3, "s")}))}), kMessage) ==
        Issues{"components.0.components.0.options BASE_TYPE_REQUIRED"});
  const auto one_option = [](std::size_t label, std::size_t value, std::size_t description) {
    return select(3, "s",
                  R"(,"options":[{"label":")" + rep(label) + R"(","value":")" + rep(value) +
                      R"(","description":")" + rep(description) + "\"}]");
  };
  CHECK(check(list({row(list({one_option(100, 100, 100)}))}), kMessage).empty());
  CHECK(check(list({row(list({one_option(101, 101, 101)}))}), kMessage) ==
        Issues{"components.0.components.0.options.0.label BASE_TYPE_BAD_LENGTH",
               "components.0.components.0.options.0.value BASE_TYPE_BAD_LENGTH",
               "components.0.components.0.options.0.description BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({row(list({string_select(
                  "s", 3, R"(,"min_values":0,"max_values":25,"placeholder":")" + rep(150) + "\"")}))}),
              kMessage)
            .empty());
  CHECK(check(list({row(list({string_select(
                  "s", 3, R"(,"min_values":-1,"max_values":26,"placeholder":")" + rep(151) + "\"")}))}),
              kMessage) == Issues{"components.0.components.0.placeholder BASE_TYPE_MAX_LENGTH",
                                  "components.0.components.0.min_values NUMBER_TYPE_MIN",
                                  "components.0.components.0.max_values NUMBER_TYPE_MAX"});
  CHECK(check(list({row(list({string_select("s", 3, R"(,"min_values":26,"max_values":0)")}))}), kMessage) ==
        Issues{"components.0.components.0.min_values NUMBER_TYPE_MAX",  // over 25, and over max_values
               "components.0.components.0.min_values NUMBER_TYPE_MAX",
               "components.0.components.0.max_values NUMBER_TYPE_MIN"});
  CHECK(check(list({row(list({string_select("s", 3, R"(,"min_values":3,"max_values":2)")}))}), kMessage) ==
        Issues{"components.0.components.0.min_values NUMBER_TYPE_MAX"});
  CHECK(check(list({row(list({string_select("s", 3, R"(,"min_values":3,"max_values":3)")}))}), kMessage)
            .empty());

  const std::string user1 = R"({"id":"1","type":"user"})";
  const std::string user2 = R"({"id":"2","type":"user"})";
  CHECK(
      check(list({row(list({select(5, "u", R"(,"default_values":)" + list({user1}))}))}), kMessage).empty());
  CHECK(check(list({row(list({select(5, "u", R"(,"default_values":)" + list({user1, user2}))}))}),
              kMessage) == Issues{"components.0.components.0.default_values BASE_TYPE_BAD_LENGTH"});
  CHECK(
      check(
          list({row(list({select(5, "u", R"(,"max_values":2,"default_values":)" + list({user1, user2}))}))}),
          kMessage)
          .empty());
  CHECK(check(list({row(list(
                  {select(5, "u", R"(,"min_values":2,"max_values":2,"default_values":)" + list({user1}))}))}),
              kMessage) == Issues{"components.0.components.0.default_values BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({row(list({select(6, "r", R"(,"default_values":)" + list({user1}))}))}), kMessage) ==
        Issues{"components.0.components.0.default_values.0.type BASE_TYPE_CHOICES"});
  CHECK(check(list({row(list({select(7, "m",
                                     R"(,"max_values":2,"default_values":[{"id":"1","type":"role"},)"
                                     R"({"id":"2","type":"channel"}])")}))}),
              kMessage) == Issues{"components.0.components.0.default_values.1.type BASE_TYPE_CHOICES"});
  CHECK(check(list({row(list({select(
                  8, "c", R"(,"channel_types":[0,2],"default_values":[{"id":"1","type":"channel"}])")}))}),
              kMessage)
            .empty());
  CHECK(check(list({row(list({select(6, "r", R"(,"channel_types":[0])")}))}), kMessage) ==
        Issues{"components.0.components.0.channel_types COMPONENT_FIELD_NOT_ALLOWED"});
}

TEST_CASE("modals: 1 to 5 at the top, Labels and Text Displays; kinds by surface") {
  CHECK(check(times(5, label(text_input("t"))), kModal) ==
        Issues{"components.1.component.custom_id COMPONENT_CUSTOM_ID_DUPLICATED",
               "components.2.component.custom_id COMPONENT_CUSTOM_ID_DUPLICATED",
               "components.3.component.custom_id COMPONENT_CUSTOM_ID_DUPLICATED",
               "components.4.component.custom_id COMPONENT_CUSTOM_ID_DUPLICATED"});
  std::vector<std::string> five;
  five.reserve(6);
  for (int i = 0; i < 5; ++i)
    five.push_back(label(text_input("t" + std::to_string(i))));
  CHECK(check(list(five), kModal).empty());
  five.push_back(text_display());
  CHECK(check(list(five), kModal) == Issues{"components BASE_TYPE_MAX_LENGTH"});
  CHECK(check("[]", kModal) == Issues{"components BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({text_display()}), kModal).empty());
  CHECK(check(list({R"({"type":17,"components":[)" + text_display() + "]}"}), kModal) ==
        Issues{"components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({label(text_input("t"))}), kV2) == Issues{"components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({label(text_input("t"))}), kMessage) == Issues{"components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({row(list({btn("b")}))}), kModal) ==
        Issues{"components.0.components.0.type UNION_TYPE_CHOICES"});
}

TEST_CASE("Label: 1 to 45, description at most 100, exactly one allowed input") {
  CHECK(check(list({R"({"type":18,"label":")" + rep(45) + R"(","description":")" + rep(100) +
                    R"(","component":)" + text_input("t") + "}"}),
              kModal)
            .empty());
  CHECK(check(list({R"({"type":18,"label":")" + rep(46) + R"(","description":")" + rep(101) +
                    R"(","component":)" + text_input("t") + "}"}),
              kModal) ==
        Issues{"components.0.label BASE_TYPE_BAD_LENGTH", "components.0.description BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({R"({"type":18,"component":)" + text_input("t") + "}"}), kModal) ==
        Issues{"components.0.label BASE_TYPE_REQUIRED"});
  CHECK(check(list({R"({"type":18,"label":"L"})"}), kModal) ==
        Issues{"components.0.component BASE_TYPE_REQUIRED"});
  for (const auto& input :
       {text_input("i"), string_select("i", 2), select(5, "i"), select(6, "i"), select(7, "i"),
        select(8, "i"), select(19, "i"), select(21, "i", R"(,"options":)" + options(2)),
        select(22, "i", R"(,"options":)" + options(2)), select(23, "i")}) {
    CAPTURE(input);
    CHECK(check(list({label(input)}), kModal).empty());
  }
  CHECK(check(list({label(btn("b"))}), kModal) == Issues{"components.0.component.type UNION_TYPE_CHOICES"});
  CHECK(check(list({label(text_display())}), kModal) ==
        Issues{"components.0.component.type UNION_TYPE_CHOICES"});
}

TEST_CASE("Text Input: style, label by place, lengths, value and placeholder") {
  CHECK(check(list({label(text_input("t", R"(,"min_length":0,"max_length":4000,"value":")" + rep(4000) +
                                              R"(","placeholder":")" + rep(100) + "\""))}),
              kModal)
            .empty());
  CHECK(check(list({label(text_input("t", R"(,"min_length":-1,"max_length":4001,"value":")" + rep(4001) +
                                              R"(","placeholder":")" + rep(101) + "\""))}),
              kModal) == Issues{"components.0.component.min_length NUMBER_TYPE_MIN",
                                "components.0.component.max_length NUMBER_TYPE_MAX",
                                "components.0.component.value BASE_TYPE_MAX_LENGTH",
                                "components.0.component.placeholder BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({label(text_input("t", R"(,"min_length":5,"max_length":4)"))}), kModal) ==
        Issues{"components.0.component.min_length NUMBER_TYPE_MAX"});
  CHECK(check(list({label(text_input("t", R"(,"min_length":5,"max_length":5)"))}), kModal).empty());
  CHECK(check(list({label(R"({"type":4,"custom_id":"t","style":3})")}), kModal) ==
        Issues{"components.0.component.style BASE_TYPE_CHOICES"});
  CHECK(check(list({label(R"({"type":4,"custom_id":"t"})")}), kModal) ==
        Issues{"components.0.component.style BASE_TYPE_REQUIRED"});
  CHECK(check(list({label(text_input("t", R"(,"label":"Name")"))}), kModal) ==
        Issues{"components.0.component.label COMPONENT_FIELD_NOT_ALLOWED"});
  CHECK(check(list({row(list({text_input("t", R"(,"label":")" + rep(45) + "\"")}))}), kModal).empty());
  CHECK(check(list({row(list({text_input("t", R"(,"label":")" + rep(46) + "\"")}))}), kModal) ==
        Issues{"components.0.components.0.label BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({row(list({text_input("t")}))}), kModal) ==
        Issues{"components.0.components.0.label BASE_TYPE_REQUIRED"});
  CHECK(check(list({row(list({text_input("t", R"(,"label":"A")"), text_input("u", R"(,"label":"B")")}))}),
              kModal) == Issues{"components.0.components COMPONENT_LAYOUT_WIDTH_EXCEEDED"});
}

TEST_CASE("selects in modals: disabled refused, min_values 0 needs required false") {
  CHECK(check(list({label(string_select("s", 2))}), kModal).empty());
  CHECK(check(list({label(string_select("s", 2, R"(,"disabled":false)"))}), kModal) ==
        Issues{"components.0.component.disabled COMPONENT_FIELD_NOT_ALLOWED"});
  CHECK(check(list({row(list({string_select("s", 2, R"(,"disabled":true)")}))}), kMessage).empty());
  CHECK(check(list({label(string_select("s", 2, R"(,"min_values":0)"))}), kModal) ==
        Issues{"components.0.component.min_values NUMBER_TYPE_MIN"});
  CHECK(check(list({label(string_select("s", 2, R"(,"min_values":0,"required":false)"))}), kModal).empty());
  CHECK(check(list({label(string_select("s", 2, R"(,"min_values":1)"))}), kModal).empty());
  CHECK(check(list({label(select(5, "u", R"(,"disabled":true)"))}), kModal) ==
        Issues{"components.0.component.disabled COMPONENT_FIELD_NOT_ALLOWED"});
}

TEST_CASE("File Upload, Radio Group, Checkbox Group, Checkbox") {
  CHECK(check(list({label(
                  select(19, "f",
                         R"(,"min_values":0,"max_values":10,"required":false,)"
                         R"("file_types":["image","video","audio",".pdf",".a",".b",".c",".d",".e",".f"])"))}),
              kModal)
            .empty());
  CHECK(check(list({label(select(
                  19, "f",
                  R"(,"min_values":11,"max_values":11,)"
                  R"("file_types":["image","video","audio",".pdf",".a",".b",".c",".d",".e",".f",".g"])"))}),
              kModal) == Issues{"components.0.component.min_values NUMBER_TYPE_MAX",
                                "components.0.component.max_values NUMBER_TYPE_MAX",
                                "components.0.component.file_types BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({label(select(19, "f", R"(,"min_values":-1,"max_values":0,"file_types":["pdf"])"))}),
              kModal) == Issues{"components.0.component.min_values NUMBER_TYPE_MIN",
                                "components.0.component.max_values NUMBER_TYPE_MIN",
                                "components.0.component.file_types.0 BASE_TYPE_CHOICES"});
  CHECK(check(list({label(select(19, "f", R"(,"min_values":0)"))}), kModal) ==
        Issues{"components.0.component.min_values NUMBER_TYPE_MIN"});

  CHECK(check(list({label(select(21, "r", R"(,"options":)" + options(2)))}), kModal).empty());
  CHECK(check(list({label(select(21, "r", R"(,"options":)" + options(10)))}), kModal).empty());
  CHECK(check(list({label(select(21, "r", R"(,"options":)" + options(1)))}), kModal) ==
        Issues{"components.0.component.options BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({label(select(21, "r", R"(,"options":)" + options(11)))}), kModal) ==
        Issues{"components.0.component.options BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({label(select(21, "r",
                                 R"(,"options":[{"label":"a","value":"a","emoji":{"name":"x"}},)"
                                 R"({"label":"b","value":"b"}])"))}),
              kModal) == Issues{"components.0.component.options.0.emoji COMPONENT_FIELD_NOT_ALLOWED"});

  CHECK(check(list({label(select(22, "c", R"(,"options":)" + options(1)))}), kModal).empty());
  CHECK(check(list({label(select(22, "c", R"(,"options":[])"))}), kModal) ==
        Issues{"components.0.component.options BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({label(select(22, "c", R"(,"options":)" + options(11)))}), kModal) ==
        Issues{"components.0.component.options BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({label(select(
                  22, "c", R"(,"required":false,"min_values":0,"max_values":10,"options":)" + options(10)))}),
              kModal)
            .empty());
  CHECK(check(list({label(select(22, "c", R"(,"min_values":11,"max_values":11,"options":)" + options(10)))}),
              kModal) == Issues{"components.0.component.min_values NUMBER_TYPE_MAX",
                                "components.0.component.max_values NUMBER_TYPE_MAX"});
  CHECK(check(list({label(select(22, "c", R"(,"min_values":0,"options":)" + options(2)))}), kModal) ==
        Issues{"components.0.component.min_values NUMBER_TYPE_MIN"});

  CHECK(check(list({label(select(23, "c", R"(,"default":true)"))}), kModal).empty());
  CHECK(check(list({label(select(23, "c", R"(,"required":true)"))}), kModal) ==
        Issues{"components.0.component.required COMPONENT_FIELD_NOT_ALLOWED"});
  CHECK(check(list({label(R"({"type":23})")}), kModal) ==
        Issues{"components.0.component.custom_id BASE_TYPE_REQUIRED"});
}

TEST_CASE("IS_COMPONENTS_V2: Section, Text Display, Thumbnail, Media Gallery, File, Separator, Container") {
  const std::string thumb = R"({"type":11,"media":{"url":"https://x/y.png"}})";
  const auto section = [](const std::string& texts, const std::string& accessory) {
    return R"({"type":9,"components":)" + texts + R"(,"accessory":)" + accessory + "}";
  };
  CHECK(check(list({section(times(3, text_display()), thumb)}), kV2).empty());
  CHECK(check(list({section(times(1, text_display()), btn("b"))}), kV2).empty());
  CHECK(check(list({section(times(4, text_display()), thumb)}), kV2) ==
        Issues{"components.0.components BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({section("[]", thumb)}), kV2) == Issues{"components.0.components BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({section(list({btn("a")}), thumb)}), kV2) ==
        Issues{"components.0.components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({section(times(1, text_display()), text_display())}), kV2) ==
        Issues{"components.0.accessory.type UNION_TYPE_CHOICES"});
  CHECK(check(list({R"({"type":9,"components":[)" + text_display() + "]}"}), kV2) ==
        Issues{"components.0.accessory BASE_TYPE_REQUIRED"});
  CHECK(check(list({section(times(1, text_display()), thumb)}), kMessage) ==
        Issues{"components.0.type UNION_TYPE_CHOICES"});

  CHECK(check(list({text_display(rep(4000))}), kV2).empty());
  CHECK(check(list({text_display(rep(4001))}), kV2) == Issues{"components.0.content BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({text_display("")}), kV2) == Issues{"components.0.content BASE_TYPE_BAD_LENGTH"});
  CHECK(check(list({R"({"type":10})"}), kV2) == Issues{"components.0.content BASE_TYPE_REQUIRED"});

  CHECK(check(list({section(times(1, text_display()), R"({"type":11,"media":{"url":"attachment://a.png"},)"
                                                      R"("description":")" +
                                                          rep(1024) + "\"}")}),
              kV2)
            .empty());
  CHECK(check(list({section(times(1, text_display()), R"({"type":11,"media":{"url":"ftp://x"},)"
                                                      R"("description":")" +
                                                          rep(1025) + "\"}")}),
              kV2) == Issues{"components.0.accessory.media.url URL_TYPE_INVALID_PROTOCOL",
                             "components.0.accessory.description BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({section(times(1, text_display()), R"({"type":11})")}), kV2) ==
        Issues{"components.0.accessory.media BASE_TYPE_REQUIRED"});
  CHECK(check(list({thumb}), kV2) == Issues{"components.0.type UNION_TYPE_CHOICES"});

  const std::string item = R"({"media":{"url":"https://x/y.png"}})";
  CHECK(check(list({R"({"type":12,"items":)" + times(10, item) + "}"}), kV2).empty());
  CHECK(check(list({R"({"type":12,"items":)" + times(11, item) + "}"}), kV2) ==
        Issues{"components.0.items BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({R"({"type":12,"items":[]})"}), kV2) == Issues{"components.0.items BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({R"({"type":12,"items":[{"media":{"url":"https://x"},"description":")" + rep(1025) +
                    R"("},{"media":{}}]})"}),
              kV2) == Issues{"components.0.items.0.description BASE_TYPE_MAX_LENGTH",
                             "components.0.items.1.media.url BASE_TYPE_REQUIRED"});

  CHECK(check(list({R"({"type":13,"file":{"url":"attachment://r.pdf"}})"}), kV2).empty());
  CHECK(check(list({R"({"type":13,"file":{"url":"https://x/r.pdf"}})"}), kV2) ==
        Issues{"components.0.file.url URL_TYPE_INVALID_PROTOCOL"});
  CHECK(check(list({R"({"type":13,"file":{"url":"attachment://"}})"}), kV2) ==
        Issues{"components.0.file.url URL_TYPE_INVALID_PROTOCOL"});

  CHECK(check(list({R"({"type":14,"divider":false,"spacing":2})"}), kV2).empty());
  CHECK(check(list({R"({"type":14,"spacing":3})"}), kV2) == Issues{"components.0.spacing BASE_TYPE_CHOICES"});
  CHECK(check(list({R"({"type":14,"divider":"yes"})"}), kV2) ==
        Issues{"components.0.divider BASE_TYPE_BOOLEAN"});

  const auto container = [](const std::string& extra, const std::string& children) {
    return R"({"type":17)" + extra + R"(,"components":)" + children + "}";
  };
  CHECK(check(list({container(R"(,"accent_color":16777215)", list({text_display()}))}), kV2).empty());
  CHECK(check(list({container(R"(,"accent_color":0)", list({text_display()}))}), kV2).empty());
  CHECK(check(list({container(R"(,"accent_color":null)", list({text_display()}))}), kV2).empty());
  CHECK(check(list({container(R"(,"accent_color":16777216)", list({text_display()}))}), kV2) ==
        Issues{"components.0.accent_color NUMBER_TYPE_MAX"});
  CHECK(check(list({container(R"(,"accent_color":-1)", list({text_display()}))}), kV2) ==
        Issues{"components.0.accent_color NUMBER_TYPE_MIN"});
  CHECK(check(list({container("", "[]")}), kV2) == Issues{"components.0.components BASE_TYPE_MIN_LENGTH"});
  CHECK(check(list({container("", list({container("", list({text_display()}))}))}), kV2) ==
        Issues{"components.0.components.0.type UNION_TYPE_CHOICES"});
  CHECK(check(list({container("", list({row(list({btn("a")})), R"({"type":14})",
                                        R"({"type":13,"file":{"url":"attachment://f.txt"}})",
                                        section(times(1, text_display()), btn("b"))}))}),
              kV2)
            .empty());
}

TEST_CASE("IS_COMPONENTS_V2: 40 components in all, nested ones counted") {
  CHECK(check(times(40, text_display()), kV2).empty());
  CHECK(check(times(41, text_display()), kV2) == Issues{"components BASE_TYPE_MAX_LENGTH"});
  CHECK(check(list({R"({"type":17,"components":)" + times(39, text_display()) + "}"}), kV2).empty());
  CHECK(check(list({R"({"type":17,"components":)" + times(40, text_display()) + "}"}), kV2) ==
        Issues{"components BASE_TYPE_MAX_LENGTH"});
  // Accessories count: 14 sections of 3 are 42 (28 without them), 13 are 39.
  const std::string section = R"({"type":9,"components":[)" + text_display() +
                              R"(],"accessory":{"type":11,"media":{"url":"https://x"}}})";
  CHECK(check(times(14, section), kV2) == Issues{"components BASE_TYPE_MAX_LENGTH"});
  CHECK(check(times(13, section), kV2).empty());
}

TEST_CASE("hostile nesting: a kind that may not stand somewhere is not descended into") {
  std::string deep;
  for (int i = 0; i < 50000; ++i)
    deep += R"({"type":1,"components":[)";
  deep += text_display();
  for (int i = 0; i < 50000; ++i)
    deep += "]}";
  CHECK(check("[" + deep + "]", kV2) == Issues{"components.0.components.0.type UNION_TYPE_CHOICES"});
}

TEST_CASE("the attachments a v2 message shows, and a component found by custom_id") {
  rapidjson::Document document;
  REQUIRE(parse_json(
      list(
          {R"({"type":12,"items":[{"media":{"url":"attachment://a.png"}},{"media":{"url":"https://x/b.png"}},)"
           R"({"media":{"url":"attachment://c.png"}}]})",
           R"({"type":17,"components":[{"type":13,"file":{"url":"attachment://r.pdf"}},)"
           R"({"type":9,"components":[{"type":10,"content":"x"}],)"
           R"("accessory":{"type":11,"media":{"url":"attachment://a.png"}}},)"
           R"({"type":1,"components":[{"type":2,"style":1,"custom_id":"deep"}]}]})",
           R"({"type":13,"file":{"url":"attachment://"}})", row(list({btn("top")}))}),
      document));
  CHECK(referenced_attachments(document) == std::vector<std::string>{"a.png", "c.png", "r.pdf"});
  const auto* deep = find_component(document, "deep");
  REQUIRE(deep != nullptr);
  CHECK((*deep)["style"].GetInt() == 1);
  REQUIRE(find_component(document, "top") != nullptr);
  CHECK(find_component(document, "nope") == nullptr);
  rapidjson::Document label_doc;
  REQUIRE(parse_json(list({label(text_input("inner"))}), label_doc));
  CHECK(find_component(label_doc, "inner") != nullptr);
  rapidjson::Document not_array;
  REQUIRE(parse_json("{}", not_array));
  CHECK(referenced_attachments(not_array).empty());
  CHECK(find_component(not_array, "x") == nullptr);
}

}  // namespace component_rules_emulator_test
