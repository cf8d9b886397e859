// CheckComponents: every rule crossed by one (one under the limit passes, one over fails at its exact path),
// on each surface: a legacy message, a message with IS_COMPONENTS_V2, a modal.
#include <doctest/doctest.h>

#include <platformpp/components.hpp>

#include <optional>
#include <string>
#include <vector>

namespace component_rules_test {

using namespace platformpp;

namespace {

using Paths = std::vector<std::string>;
using Tree = std::vector<Component>;

constexpr auto kMessage = ComponentSurface::Message;
constexpr auto kV2 = ComponentSurface::MessageV2;
constexpr auto kModal = ComponentSurface::Modal;

Paths Broken(const Tree& tree, ComponentSurface surface) {
  Paths paths;
  for (const auto& error : CheckComponents(tree, surface))
    paths.push_back(error.path);
  return paths;
}

std::string Codes(const Tree& tree, ComponentSurface surface) {
  std::string codes;
  for (const auto& error : CheckComponents(tree, surface))
    codes += (codes.empty() ? "" : " ") + error.code;
  return codes;
}

MediaGalleryItem Item(std::string url, std::optional<std::string> description = {}, bool spoiler = false) {
  MediaGalleryItem item;
  item.media.url = std::move(url);
  item.description = std::move(description);
  item.spoiler = spoiler;
  return item;
}

Component Btn(std::string id) {
  return Component::Button(ButtonStyle::Primary, "Go", std::move(id));
}

std::vector<SelectOption> Opts(std::size_t n) {
  std::vector<SelectOption> options;
  for (std::size_t i = 0; i < n; ++i)
    options.push_back({"L" + std::to_string(i), "v" + std::to_string(i), {}, {}, false});
  return options;
}

Tree Row(Component c) {
  return {Component::ActionRow({std::move(c)})};
}

Tree InLabel(Component c) {
  return {Component::Label("Name", std::move(c))};
}

}  // namespace

TEST_CASE("a legacy message: at most 5 action rows, and only action rows at the top") {
  Tree rows;
  for (int i = 0; i < 5; ++i)
    rows.push_back(Component::ActionRow({Btn("b" + std::to_string(i))}));
  CHECK(Broken(rows, kMessage).empty());
  rows.push_back(Component::ActionRow({Btn("b5")}));
  CHECK(Broken(rows, kMessage) == Paths{"components"});
  CHECK(Broken({Component::TextDisplay("hi")}, kMessage) == Paths{"components.0.type"});
  CHECK(Codes({Component::TextDisplay("hi")}, kMessage) == "UNION_TYPE_CHOICES");
  CHECK(Broken({}, kMessage).empty());
}

TEST_CASE("action rows: 1 to 5 buttons or exactly one select, not mixed") {
  std::vector<Component> five;
  five.reserve(6);
  for (int i = 0; i < 5; ++i)
    five.push_back(Btn("b" + std::to_string(i)));
  CHECK(Broken({Component::ActionRow(five)}, kMessage).empty());
  five.push_back(Btn("b5"));
  CHECK(Broken({Component::ActionRow(five)}, kMessage) == Paths{"components.0.components"});
  CHECK(Codes({Component::ActionRow(five)}, kMessage) == "COMPONENT_LAYOUT_WIDTH_EXCEEDED");
  CHECK(Broken({Component::ActionRow({})}, kMessage) == Paths{"components.0.components"});
  CHECK(Broken(Row(Component::UserSelect("u")), kMessage).empty());
  CHECK(Broken({Component::ActionRow({Component::UserSelect("u"), Component::RoleSelect("r")})}, kMessage) ==
        Paths{"components.0.components"});
  CHECK(Broken({Component::ActionRow({Component::UserSelect("u"), Btn("b")})}, kMessage) ==
        Paths{"components.0.components"});
  // A row holds no Text Input in a message, and no row holds a row.
  CHECK(Broken(Row(Component::TextInput("t")), kMessage) == Paths{"components.0.components.0.type"});
  CHECK(Broken(Row(Component::ActionRow({Btn("b")})), kV2) == Paths{"components.0.components.0.type"});
}

TEST_CASE("custom ids: 1 to 100 characters, unique in the message; ids unique, 0 unset") {
  CHECK(Broken(Row(Btn(std::string(100, 'x'))), kMessage).empty());
  CHECK(Broken(Row(Btn(std::string(101, 'x'))), kMessage) == Paths{"components.0.components.0.custom_id"});
  CHECK(Broken(Row(Btn("")), kMessage) == Paths{"components.0.components.0.custom_id"});
  // Counted in characters, not bytes: 100 two-byte characters pass.
  std::string wide;
  for (int i = 0; i < 100; ++i)
    wide += "\xC3\xA9";
  CHECK(Broken(Row(Btn(wide)), kMessage).empty());
  const Tree twice = {Component::ActionRow({Btn("same")}), Component::ActionRow({Btn("same")})};
  CHECK(Broken(twice, kMessage) == Paths{"components.1.components.0.custom_id"});
  CHECK(Codes(twice, kMessage) == "COMPONENT_CUSTOM_ID_DUPLICATED");
  CHECK(Broken({Component::ActionRow({Btn("a"), Btn("b")})}, kMessage).empty());

  Component a = Btn("a");
  Component b = Btn("b");
  a.id = 7;
  b.id = 7;
  CHECK(Broken({Component::ActionRow({a, b})}, kMessage) == Paths{"components.0.components.1.id"});
  b.id = 8;
  CHECK(Broken({Component::ActionRow({a, b})}, kMessage).empty());
  a.id = 0;
  b.id = 0;
  CHECK(Broken({Component::ActionRow({a, b})}, kMessage).empty());
}

TEST_CASE("buttons: the style decides the fields; labels at most 80 characters") {
  Component label80 = Component::Button(ButtonStyle::Danger, std::string(80, 'l'), "d");
  CHECK(Broken(Row(label80), kMessage).empty());
  label80.label = std::string(81, 'l');
  CHECK(Broken(Row(label80), kMessage) == Paths{"components.0.components.0.label"});

  Component noStyle = Btn("x");
  noStyle.style.reset();
  CHECK(Broken(Row(noStyle), kMessage) == Paths{"components.0.components.0.style"});
  Component badStyle = Btn("x");
  badStyle.style = 7;
  CHECK(Broken(Row(badStyle), kMessage) == Paths{"components.0.components.0.style"});
  badStyle.style = 0;
  CHECK(Broken(Row(badStyle), kMessage) == Paths{"components.0.components.0.style"});

  Component noId = Btn("x");
  noId.customId.reset();
  CHECK(Broken(Row(noId), kMessage) == Paths{"components.0.components.0.custom_id"});
  Component withUrl = Btn("x");
  withUrl.url = "https://example.com";
  CHECK(Broken(Row(withUrl), kMessage) == Paths{"components.0.components.0.url"});
  Component withSku = Btn("x");
  withSku.skuId = 5;
  CHECK(Broken(Row(withSku), kMessage) == Paths{"components.0.components.0.sku_id"});

  CHECK(Broken(Row(Component::LinkButton("Site", "https://example.com")), kMessage).empty());
  Component link = Component::LinkButton("Site", "");
  CHECK(Broken(Row(link), kMessage) == Paths{"components.0.components.0.url"});
  link = Component::LinkButton("Site", "https://example.com");
  link.customId = "c";
  CHECK(Broken(Row(link), kMessage) == Paths{"components.0.components.0.custom_id"});

  CHECK(Broken(Row(Component::PremiumButton(42)), kMessage).empty());
  Component premium = Component::PremiumButton(42);
  premium.skuId.reset();
  CHECK(Broken(Row(premium), kMessage) == Paths{"components.0.components.0.sku_id"});
  premium = Component::PremiumButton(42);
  premium.customId = "c";
  premium.label = "Buy";
  premium.emoji = PartialEmoji{{}, "x", false};
  premium.url = "https://example.com";
  CHECK(Broken(Row(premium), kMessage) ==
        Paths{"components.0.components.0.custom_id", "components.0.components.0.label",
              "components.0.components.0.emoji", "components.0.components.0.url"});
}

TEST_CASE("selects: options, option texts, values range, placeholder, default values") {
  CHECK(Broken(Row(Component::StringSelect("s", Opts(25))), kMessage).empty());
  CHECK(Broken(Row(Component::StringSelect("s", Opts(26))), kMessage) ==
        Paths{"components.0.components.0.options"});
  CHECK(Broken(Row(Component::StringSelect("s", Opts(0))), kMessage) ==
        Paths{"components.0.components.0.options"});
  // No options are not sent at all: what the platform answers is that the member is missing.
  CHECK(Codes(Row(Component::StringSelect("s", Opts(0))), kMessage) == "BASE_TYPE_REQUIRED");

  auto options = Opts(1);
  options[0].label = std::string(100, 'l');
  options[0].value = std::string(100, 'v');
  options[0].description = std::string(100, 'd');
  CHECK(Broken(Row(Component::StringSelect("s", options)), kMessage).empty());
  options[0].label += "l";
  options[0].value += "v";
  options[0].description = *options[0].description + "d";
  CHECK(Broken(Row(Component::StringSelect("s", options)), kMessage) ==
        Paths{"components.0.components.0.options.0.label", "components.0.components.0.options.0.value",
              "components.0.components.0.options.0.description"});

  Component select = Component::StringSelect("s", Opts(3));
  select.minValues = 0;
  select.maxValues = 25;
  select.placeholder = std::string(150, 'p');
  CHECK(Broken(Row(select), kMessage).empty());
  select.minValues = -1;
  select.maxValues = 26;
  select.placeholder = std::string(151, 'p');
  CHECK(Broken(Row(select), kMessage) == Paths{"components.0.components.0.placeholder",
                                               "components.0.components.0.min_values",
                                               "components.0.components.0.max_values"});
  select.placeholder.reset();
  select.minValues = 25;
  select.maxValues = 0;
  CHECK(Broken(Row(select), kMessage) ==
        Paths{"components.0.components.0.max_values", "components.0.components.0.min_values"});
  select.minValues = 26;
  select.maxValues = 25;
  CHECK(Broken(Row(select), kMessage) ==
        Paths{"components.0.components.0.min_values", "components.0.components.0.min_values"});
  select.minValues = 3;
  select.maxValues = 2;
  CHECK(Broken(Row(select), kMessage) == Paths{"components.0.components.0.min_values"});
  select.maxValues = 3;
  CHECK(Broken(Row(select), kMessage).empty());

  // Default values: as many as min..max values (1..1 unless set), of the kind the select offers.
  Component users = Component::UserSelect("u");
  users.defaultValues = {{1, SelectDefaultValueType::User}};
  CHECK(Broken(Row(users), kMessage).empty());
  users.defaultValues.push_back({2, SelectDefaultValueType::User});
  CHECK(Broken(Row(users), kMessage) == Paths{"components.0.components.0.default_values"});
  users.maxValues = 2;
  CHECK(Broken(Row(users), kMessage).empty());
  users.minValues = 2;
  users.defaultValues.pop_back();
  CHECK(Broken(Row(users), kMessage) == Paths{"components.0.components.0.default_values"});
  users = Component::UserSelect("u");
  users.defaultValues = {{1, SelectDefaultValueType::Role}};
  CHECK(Broken(Row(users), kMessage) == Paths{"components.0.components.0.default_values.0.type"});
  Component mentionable = Component::MentionableSelect("m");
  mentionable.maxValues = 2;
  mentionable.defaultValues = {{1, SelectDefaultValueType::Role}, {2, SelectDefaultValueType::User}};
  CHECK(Broken(Row(mentionable), kMessage).empty());
  mentionable.defaultValues[1].type = SelectDefaultValueType::Channel;
  CHECK(Broken(Row(mentionable), kMessage) == Paths{"components.0.components.0.default_values.1.type"});
  Component channels = Component::ChannelSelect("c", {0, 2});
  channels.defaultValues = {{1, SelectDefaultValueType::Channel}};
  CHECK(Broken(Row(channels), kMessage).empty());
  Component roles = Component::RoleSelect("r");
  roles.channelTypes = {0};
  CHECK(Broken(Row(roles), kMessage) == Paths{"components.0.components.0.channel_types"});
}

TEST_CASE("modals: 1 to 5 Labels and Text Displays at the top") {
  Tree five;
  for (int i = 0; i < 5; ++i)
    five.push_back(Component::Label("L", Component::TextInput("t" + std::to_string(i))));
  CHECK(Broken(five, kModal).empty());
  five.push_back(Component::TextDisplay("more"));
  CHECK(Broken(five, kModal) == Paths{"components"});
  CHECK(Broken({}, kModal) == Paths{"components"});
  CHECK(Broken({Component::TextDisplay("Read this")}, kModal).empty());
  // Message-only kinds are refused in a modal, modal-only kinds in messages.
  CHECK(Broken({Component::Container({Component::TextDisplay("x")})}, kModal) == Paths{"components.0.type"});
  CHECK(Broken(InLabel(Component::TextInput("t")), kV2) == Paths{"components.0.type"});
  CHECK(Broken(InLabel(Component::TextInput("t")), kMessage) == Paths{"components.0.type"});
  CHECK(Broken(Row(Btn("b")), kModal) == Paths{"components.0.components.0.type"});
}

TEST_CASE("Label: 1 to 45 characters, description at most 100, exactly one input of the allowed kinds") {
  CHECK(Broken({Component::Label(std::string(45, 'l'), Component::TextInput("t"), std::string(100, 'd'))},
               kModal)
            .empty());
  CHECK(Broken({Component::Label(std::string(46, 'l'), Component::TextInput("t"), std::string(101, 'd'))},
               kModal) == Paths{"components.0.label", "components.0.description"});
  CHECK(Broken({Component::Label("", Component::TextInput("t"))}, kModal) == Paths{"components.0.label"});
  Component empty = Component::Label("L", Component::TextInput("t"));
  empty.component.clear();
  CHECK(Broken({empty}, kModal) == Paths{"components.0.component"});
  Component two = Component::Label("L", Component::TextInput("t"));
  two.component.push_back(Component::TextInput("u"));
  CHECK(Broken({two}, kModal) == Paths{"components.0.component"});
  for (const auto& input :
       {Component::TextInput("i"), Component::StringSelect("i", Opts(2)), Component::UserSelect("i"),
        Component::RoleSelect("i"), Component::MentionableSelect("i"), Component::ChannelSelect("i"),
        Component::FileUpload("i"), Component::RadioGroup("i", Opts(2)),
        Component::CheckboxGroup("i", Opts(2)), Component::Checkbox("i")}) {
    CAPTURE(static_cast<int>(input.type));
    CHECK(Broken(InLabel(input), kModal).empty());
  }
  CHECK(Broken(InLabel(Btn("b")), kModal) == Paths{"components.0.component.type"});
  CHECK(Broken(InLabel(Component::TextDisplay("x")), kModal) == Paths{"components.0.component.type"});
}

TEST_CASE("Text Input: style, label by place, lengths, value, placeholder") {
  Component input = Component::TextInput("t", TextInputStyle::Paragraph);
  input.minLength = 0;
  input.maxLength = 4000;
  input.value = std::string(4000, 'v');
  input.placeholder = std::string(100, 'p');
  CHECK(Broken(InLabel(input), kModal).empty());
  input.minLength = -1;
  input.maxLength = 4001;
  input.value = std::string(4001, 'v');
  input.placeholder = std::string(101, 'p');
  CHECK(Broken(InLabel(input), kModal) ==
        Paths{"components.0.component.min_length", "components.0.component.max_length",
              "components.0.component.value", "components.0.component.placeholder"});
  input = Component::TextInput("t");
  input.minLength = 4001;
  input.maxLength = 0;
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.min_length",
                                                "components.0.component.max_length",
                                                "components.0.component.min_length"});
  input.minLength = 5;
  input.maxLength = 4;
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.min_length"});
  input.maxLength = 5;
  CHECK(Broken(InLabel(input), kModal).empty());
  input.style = 3;
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.style"});
  input.style = 1;
  input.checked = false;  // a Checkbox's submitted state: written as a boolean `value`
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.value"});
  input.value = "text";
  CHECK(Broken(InLabel(input), kModal).empty());
  input.value.reset();
  input.checked.reset();
  input.style.reset();
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.style"});

  // Inside a Label a Text Input has no label of its own; in the deprecated action row it needs one.
  input = Component::TextInput("t");
  input.label = "Name";
  CHECK(Broken(InLabel(input), kModal) == Paths{"components.0.component.label"});
  CHECK(Broken(Row(input), kModal).empty());
  input.label = std::string(45, 'l');
  CHECK(Broken(Row(input), kModal).empty());
  input.label = std::string(46, 'l');
  CHECK(Broken(Row(input), kModal) == Paths{"components.0.components.0.label"});
  input.label.reset();
  CHECK(Broken(Row(input), kModal) == Paths{"components.0.components.0.label"});
  Component second = Component::TextInput("u");
  second.label = "Other";
  input.label = "Name";
  CHECK(Broken({Component::ActionRow({input, second})}, kModal) == Paths{"components.0.components"});
}

TEST_CASE("selects in modals: disabled refused, min_values 0 needs required false") {
  Component select = Component::StringSelect("s", Opts(2));
  CHECK(Broken(InLabel(select), kModal).empty());
  select.disabled = false;
  CHECK(Broken(InLabel(select), kModal) == Paths{"components.0.component.disabled"});
  CHECK(Broken(Row(select), kMessage).empty());  // allowed in messages
  select.disabled.reset();
  select.minValues = 0;
  CHECK(Broken(InLabel(select), kModal) == Paths{"components.0.component.min_values"});
  select.required = false;
  CHECK(Broken(InLabel(select), kModal).empty());
  select.required.reset();
  select.minValues = 1;
  CHECK(Broken(InLabel(select), kModal).empty());
  Component users = Component::UserSelect("u");
  users.disabled = true;
  CHECK(Broken(InLabel(users), kModal) == Paths{"components.0.component.disabled"});
}

TEST_CASE("File Upload: 0 to 10 files, required, file types") {
  Component upload = Component::FileUpload("f");
  upload.minValues = 0;
  upload.maxValues = 10;
  upload.required = false;
  upload.fileTypes = {"image", "video", "audio", ".pdf", ".a", ".b", ".c", ".d", ".e", ".f"};
  CHECK(Broken(InLabel(upload), kModal).empty());
  upload.minValues = 11;
  upload.maxValues = 11;
  upload.fileTypes.emplace_back(".g");
  CHECK(Broken(InLabel(upload), kModal) == Paths{"components.0.component.min_values",
                                                 "components.0.component.max_values",
                                                 "components.0.component.file_types"});
  upload.minValues = -1;
  upload.maxValues = 0;
  upload.fileTypes = {"pdf"};
  CHECK(Broken(InLabel(upload), kModal) == Paths{"components.0.component.min_values",
                                                 "components.0.component.max_values",
                                                 "components.0.component.file_types.0"});
  upload = Component::FileUpload("f");
  upload.minValues = 0;
  CHECK(Broken(InLabel(upload), kModal) == Paths{"components.0.component.min_values"});
}

TEST_CASE("Radio Group: 2 to 10 options; Checkbox Group: 1 to 10 options, 0 to 10 values; Checkbox") {
  CHECK(Broken(InLabel(Component::RadioGroup("r", Opts(2))), kModal).empty());
  CHECK(Broken(InLabel(Component::RadioGroup("r", Opts(10))), kModal).empty());
  CHECK(Broken(InLabel(Component::RadioGroup("r", Opts(1))), kModal) ==
        Paths{"components.0.component.options"});
  CHECK(Broken(InLabel(Component::RadioGroup("r", Opts(11))), kModal) ==
        Paths{"components.0.component.options"});
  auto withEmoji = Opts(2);
  withEmoji[0].emoji = PartialEmoji{{}, "x", false};
  CHECK(Broken(InLabel(Component::RadioGroup("r", withEmoji)), kModal) ==
        Paths{"components.0.component.options.0.emoji"});

  CHECK(Broken(InLabel(Component::CheckboxGroup("c", Opts(1))), kModal).empty());
  CHECK(Broken(InLabel(Component::CheckboxGroup("c", Opts(0))), kModal) ==
        Paths{"components.0.component.options"});
  CHECK(Broken(InLabel(Component::CheckboxGroup("c", Opts(11))), kModal) ==
        Paths{"components.0.component.options"});
  Component group = Component::CheckboxGroup("c", Opts(10));
  group.minValues = 0;
  group.maxValues = 10;
  group.required = false;
  CHECK(Broken(InLabel(group), kModal).empty());
  group.minValues = 11;
  group.maxValues = 11;
  CHECK(Broken(InLabel(group), kModal) ==
        Paths{"components.0.component.min_values", "components.0.component.max_values"});
  group.minValues = 0;
  group.maxValues = 1;
  group.required.reset();
  CHECK(Broken(InLabel(group), kModal) == Paths{"components.0.component.min_values"});

  Component box = Component::Checkbox("c");
  box.isDefault = true;
  CHECK(Broken(InLabel(box), kModal).empty());
  box.required = true;
  CHECK(Broken(InLabel(box), kModal) == Paths{"components.0.component.required"});
  CHECK(Broken(InLabel(Component::Checkbox("")), kModal) == Paths{"components.0.component.custom_id"});
}

TEST_CASE("IS_COMPONENTS_V2: Section, Text Display, Thumbnail, Media Gallery, File, Separator, Container") {
  const auto texts = [](std::size_t n) {
    std::vector<Component> out;
    for (std::size_t i = 0; i < n; ++i)
      out.push_back(Component::TextDisplay("t"));
    return out;
  };
  CHECK(Broken({Component::Section(texts(3), Component::Thumbnail("https://x/y.png"))}, kV2).empty());
  CHECK(Broken({Component::Section(texts(1), Btn("b"))}, kV2).empty());
  CHECK(Broken({Component::Section(texts(4), Btn("b"))}, kV2) == Paths{"components.0.components"});
  CHECK(Broken({Component::Section(texts(0), Btn("b"))}, kV2) == Paths{"components.0.components"});
  CHECK(Broken({Component::Section({Btn("a")}, Btn("b"))}, kV2) == Paths{"components.0.components.0.type"});
  CHECK(Broken({Component::Section(texts(1), Component::TextDisplay("no"))}, kV2) ==
        Paths{"components.0.accessory.type"});
  Component noAccessory = Component::Section(texts(1), Btn("b"));
  noAccessory.accessory.clear();
  CHECK(Broken({noAccessory}, kV2) == Paths{"components.0.accessory"});
  CHECK(Broken({Component::Section(texts(1), Btn("b"))}, kMessage) == Paths{"components.0.type"});

  CHECK(Broken({Component::TextDisplay(std::string(4000, 'x'))}, kV2).empty());
  CHECK(Broken({Component::TextDisplay(std::string(4001, 'x'))}, kV2) == Paths{"components.0.content"});
  CHECK(Broken({Component::TextDisplay("")}, kV2) == Paths{"components.0.content"});

  Component thumb = Component::Thumbnail("attachment://a.png");
  thumb.description = std::string(1024, 'd');
  CHECK(Broken({Component::Section(texts(1), thumb)}, kV2).empty());
  thumb.description = std::string(1025, 'd');
  thumb.media->url = "ftp://x";
  CHECK(Broken({Component::Section(texts(1), thumb)}, kV2) ==
        Paths{"components.0.accessory.media.url", "components.0.accessory.description"});
  CHECK(Broken({Component::Thumbnail("https://x/y.png")}, kV2) == Paths{"components.0.type"});

  std::vector<MediaGalleryItem> items(10, Item("https://x/y.png"));
  CHECK(Broken({Component::MediaGallery(items)}, kV2).empty());
  items.push_back(items.front());
  CHECK(Broken({Component::MediaGallery(items)}, kV2) == Paths{"components.0.items"});
  CHECK(Broken({Component::MediaGallery({})}, kV2) == Paths{"components.0.items"});
  items.resize(2);
  items[1].media.url.clear();
  items[0].description = std::string(1025, 'd');
  CHECK(Broken({Component::MediaGallery(items)}, kV2) ==
        Paths{"components.0.items.0.description", "components.0.items.1.media.url"});

  CHECK(Broken({Component::File("attachment://report.pdf")}, kV2).empty());
  CHECK(Broken({Component::File("https://x/report.pdf")}, kV2) == Paths{"components.0.file.url"});
  CHECK(Broken({Component::File("attachment://")}, kV2) == Paths{"components.0.file.url"});

  CHECK(Broken({Component::Separator(false, SeparatorSpacing::Large)}, kV2).empty());
  Component separator = Component::Separator();
  separator.spacing = 3;
  CHECK(Broken({separator}, kV2) == Paths{"components.0.spacing"});

  CHECK(Broken({Component::Container({Component::TextDisplay("x")}, 0xFFFFFF)}, kV2).empty());
  CHECK(Broken({Component::Container({Component::TextDisplay("x")}, 0)}, kV2).empty());
  CHECK(Broken({Component::Container({Component::TextDisplay("x")}, 0x1000000)}, kV2) ==
        Paths{"components.0.accent_color"});
  CHECK(Broken({Component::Container({Component::TextDisplay("x")}, -1)}, kV2) ==
        Paths{"components.0.accent_color"});
  CHECK(Broken({Component::Container({})}, kV2) == Paths{"components.0.components"});
  CHECK(Broken({Component::Container({Component::Container({Component::TextDisplay("x")})})}, kV2) ==
        Paths{"components.0.components.0.type"});
  CHECK(Broken({Component::Container({Component::ActionRow({Btn("a")}), Component::Separator(),
                                      Component::File("attachment://f.txt"),
                                      Component::Section(texts(1), Btn("b"))})},
               kV2)
            .empty());
}

TEST_CASE("IS_COMPONENTS_V2: 40 components in all, nested ones counted; no top-level limit") {
  Tree top(40, Component::TextDisplay("x"));
  CHECK(Broken(top, kV2).empty());
  top.push_back(Component::TextDisplay("x"));
  CHECK(Broken(top, kV2) == Paths{"components"});
  // A Container and 39 children: 40. One more child: 41.
  std::vector<Component> children(39, Component::TextDisplay("x"));
  CHECK(Broken({Component::Container(children)}, kV2).empty());
  children.push_back(Component::TextDisplay("x"));
  CHECK(Broken({Component::Container(children)}, kV2) == Paths{"components"});
  // An accessory counts: 14 sections of 3 are 42 (28 without their accessories), 13 are 39.
  Tree sections(14, Component::Section({Component::TextDisplay("x")}, Component::Thumbnail("https://x/y")));
  CHECK(Broken(sections, kV2) == Paths{"components"});
  sections.pop_back();
  CHECK(Broken(sections, kV2).empty());
}

TEST_CASE("unknown component types are refused wherever they stand") {
  Component future;
  future.type = static_cast<ComponentType>(99);
  CHECK(Broken({future}, kV2) == Paths{"components.0.type"});
  CHECK(Broken({Component::Container({future})}, kV2) == Paths{"components.0.components.0.type"});
}

}  // namespace component_rules_test
