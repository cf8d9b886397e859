// Components on the wire: what the SDK writes (field names, snowflakes as strings, nothing unset), and the
// lenient reading of what the platform sends (unknown fields and types kept and written back, wrong-typed
// known fields dropped, hostile nesting cut off), with round trips of every field.
#include "backend/component_json.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

namespace component_json_test {

using namespace platformpp;
using namespace platformpp::backend;

namespace {

std::vector<Component> Read(const std::string& text) {
  json::Document document;
  REQUIRE(json::Parse(text, document));
  return ParseComponents(document);
}

// Whether two JSON texts hold the same value (members in any order).
bool SameJson(const std::string& a, const std::string& b) {
  json::Document left;
  json::Document right;
  REQUIRE(json::Parse(a, left));
  REQUIRE(json::Parse(b, right));
  return left == right;
}

MediaGalleryItem Item(std::string url, std::optional<std::string> description = {}, bool spoiler = false) {
  MediaGalleryItem item;
  item.media.url = std::move(url);
  item.description = std::move(description);
  item.spoiler = spoiler;
  return item;
}

// A tree that sets every field of every kind.
std::vector<Component> Everything() {
  SelectOption option{"Mage", "mage", "casts", PartialEmoji{77, "staff", true}, true};
  Component select = Component::StringSelect("class", {option, {"Rogue", "rogue", {}, {}, false}});
  select.id = 3;
  select.placeholder = "Pick";
  select.minValues = 1;
  select.maxValues = 2;
  select.disabled = false;
  select.required = true;
  Component channels = Component::ChannelSelect("where", {0, 2});
  channels.defaultValues = {{11, SelectDefaultValueType::Channel}};
  Component mentionable = Component::MentionableSelect("who");
  mentionable.defaultValues = {{12, SelectDefaultValueType::User}, {13, SelectDefaultValueType::Role}};
  Component button = Component::Button(ButtonStyle::Success, "Go", "go");
  button.emoji = PartialEmoji{{}, "\xF0\x9F\x8E\xAE", false};
  Component input = Component::TextInput("name", TextInputStyle::Paragraph);
  input.minLength = 2;
  input.maxLength = 40;
  input.value = "Ada";
  input.placeholder = "Your name";
  input.required = false;
  Component thumbnail = Component::Thumbnail("https://cdn.example/a.png");
  thumbnail.media->proxyUrl = "https://proxy.example/a.png";
  thumbnail.media->width = 64;
  thumbnail.media->height = 32;
  thumbnail.media->contentType = "image/png";
  thumbnail.media->attachmentId = 991;
  thumbnail.media->unknownFieldsJson = R"({"placeholder":"abc","flags":1})";
  thumbnail.description = "alt";
  thumbnail.spoiler = true;
  Component file = Component::File("attachment://report.pdf");
  file.fileName = "report.pdf";
  file.fileSize = 1234;
  file.spoiler = false;
  Component upload = Component::FileUpload("proof");
  upload.fileTypes = {"image", ".pdf"};
  upload.minValues = 0;
  upload.maxValues = 10;
  upload.values = {"555", "556"};
  Component box = Component::Checkbox("agree");
  box.isDefault = true;
  Component submitted = Component::Checkbox("agreed");
  submitted.checked = false;
  Component radio = Component::RadioGroup("pick", {{"A", "a", {}, {}, true}, {"B", "b", "bee", {}, false}});
  radio.value = "a";
  return {
      Component::ActionRow(
          {button, Component::LinkButton("Site", "https://example.com"), Component::PremiumButton(4242)}),
      Component::ActionRow({select}),
      Component::ActionRow({channels}),
      Component::ActionRow({mentionable}),
      Component::Section({Component::TextDisplay("**hi**")}, thumbnail),
      Component::Container(
          {Component::MediaGallery({Item("https://x/1.png", "one", true), Item("https://x/2.png")}),
           Component::Separator(false, SeparatorSpacing::Large), file},
          0x5865F2),
      Component::Label("Name", input, "Who you are"),
      Component::Label("Proof", upload),
      Component::Label("Agree", box),
      Component::Label("Agreed", submitted),
      Component::Label("Pick", radio),
  };
}

}  // namespace

TEST_CASE("the writer: platform field names, snowflakes as strings, unset fields left out") {
  CHECK(ComponentsJson({Component::ActionRow({Component::Button(ButtonStyle::Primary, "Go", "go")})}) ==
        R"([{"type":1,"components":[{"type":2,"custom_id":"go","style":1,"label":"Go"}]}])");
  CHECK(ComponentsJson({Component::ActionRow({Component::PremiumButton(123)})}) ==
        R"([{"type":1,"components":[{"type":2,"style":6,"sku_id":"123"}]}])");
  CHECK(ComponentsJson({Component::Label("L", Component::TextInput("t"))}) ==
        R"([{"type":18,"label":"L","component":{"type":4,"custom_id":"t","style":1}}])");
  // A row, Section or Container always writes its components member, even empty.
  CHECK(ComponentsJson({Component::ActionRow({})}) == R"([{"type":1,"components":[]}])");
  CHECK(ComponentsJson({}) == "[]");
}

TEST_CASE("every field survives a round trip") {
  const std::string written = ComponentsJson(Everything());
  const auto read = Read(written);
  REQUIRE(read.size() == Everything().size());
  CHECK(ComponentsJson(read) == written);
  // Spot checks that the reader put each field where it belongs.
  CHECK(read[0].components[2].skuId == 4242U);
  CHECK(read[1].components[0].options[0].emoji->id == 77U);
  CHECK(read[1].components[0].options[0].emoji->animated);
  CHECK(read[1].components[0].options[0].isDefault);
  CHECK(read[3].components[0].defaultValues[1].type == SelectDefaultValueType::Role);
  CHECK(read[4].accessory[0].media->attachmentId == 991U);
  CHECK(SameJson(read[4].accessory[0].media->unknownFieldsJson, R"({"placeholder":"abc","flags":1})"));
  CHECK(read[5].accentColor == 0x5865F2);
  CHECK(read[5].components[2].fileSize == 1234);
  CHECK(read[6].component[0].value == "Ada");
  CHECK(read[7].component[0].values == std::vector<std::string>{"555", "556"});
  CHECK(read[8].component[0].isDefault == true);
  CHECK(read[9].component[0].checked == false);
  CHECK_FALSE(read[9].component[0].value.has_value());
  CHECK(read[10].component[0].value == "a");
  // The DOM form writes the same document.
  json::Document document;
  const json::Value value = ComponentsValue(Everything(), document.GetAllocator());
  CHECK(json::Serialize(value) == written);
}

TEST_CASE("unknown fields and component types are kept and written back") {
  const std::string sent =
      R"([{"type":99,"id":4,"shiny":[1,{"a":null}],"components":[{"type":2,"style":1,"custom_id":"x","glow":true}]},)"
      R"({"type":10,"content":"hi","future":{"k":"v"}}])";
  const auto read = Read(sent);
  REQUIRE(read.size() == 2);
  CHECK(static_cast<int>(read[0].type) == 99);
  CHECK(read[0].id == 4);
  CHECK(SameJson(read[0].unknownFieldsJson, R"({"shiny":[1,{"a":null}]})"));
  REQUIRE(read[0].components.size() == 1);
  CHECK(SameJson(read[0].components[0].unknownFieldsJson, R"({"glow":true})"));
  CHECK(read[1].unknownFieldsJson == R"({"future":{"k":"v"}})");
  CHECK(SameJson(ComponentsJson(read), sent));
}

TEST_CASE("wrong-typed known fields are dropped; items that are not components are skipped") {
  const auto read = Read(
      R"([{"type":2,"style":"1","custom_id":5,"label":"ok","sku_id":"12x","disabled":"no","id":4294967296},)"
      R"(7,"x",null,{"no_type":1},{"type":"2"},{"type":1.5},{"type":8,"channel_types":[0,"1",2]},)"
      R"({"type":3,"options":[{"label":"a","value":"b"},3],"default_values":[{"id":"1","type":"guild"}]}])");
  REQUIRE(read.size() == 3);
  CHECK_FALSE(read[0].style.has_value());
  CHECK_FALSE(read[0].customId.has_value());
  CHECK(read[0].label == "ok");
  CHECK_FALSE(read[0].skuId.has_value());
  CHECK_FALSE(read[0].disabled.has_value());
  CHECK_FALSE(read[0].id.has_value());  // beyond 32 bits
  CHECK(read[1].channelTypes == std::vector<int32_t>{0, 2});
  CHECK(read[2].options.size() == 1);
  CHECK(read[2].defaultValues.empty());
  json::Document notArray;
  REQUIRE(json::Parse(R"({"type":1})", notArray));
  CHECK(ParseComponents(notArray).empty());
  CHECK(ParseComponent(notArray).has_value());
}

TEST_CASE("nesting deeper than any component tree is cut off, without recursion trouble") {
  // 100000 nested rows: the parser is iterative; the reader stops at kMaxComponentDepth.
  constexpr int kDepth = 100000;
  std::string text;
  for (int i = 0; i < kDepth; ++i)
    text += R"({"type":1,"components":[)";
  for (int i = 0; i < kDepth; ++i)
    text += "]}";
  json::Document document;
  REQUIRE(json::Parse("[" + text + "]", document));
  const auto read = ParseComponents(document);
  REQUIRE(read.size() == 1);
  int depth = 1;
  for (const Component* c = &read[0]; !c->components.empty(); c = &c->components[0])
    ++depth;
  CHECK(depth == kMaxComponentDepth);
  // An unknown member nested that deep is dropped rather than kept.
  std::string deep;
  for (int i = 0; i < kDepth; ++i)
    deep += "[";
  for (int i = 0; i < kDepth; ++i)
    deep += "]";
  json::Document hostile;
  REQUIRE(json::Parse(R"([{"type":10,"content":"x","junk":)" + deep + R"(,"ok":[[1]]}])", hostile));
  const auto kept = ParseComponents(hostile);
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].unknownFieldsJson == R"({"ok":[[1]]})");
}

}  // namespace component_json_test
