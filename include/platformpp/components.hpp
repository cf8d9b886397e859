#pragma once
// Message and modal components: the buttons, selects, text inputs and layout blocks a message or a modal
// carries. One Component type holds every kind, as the platform's component object does: `type` says which
// fields mean something. The static makers build each kind with its required fields, so a tree is a few
// lines:
//
//   std::vector<Component> modal = {
//       Component::Label("Name", Component::TextInput("name", TextInputStyle::Short)),
//       Component::Label("Class", Component::StringSelect("class", {{"Mage", "mage"}, {"Rogue", "rogue"}})),
//   };
//
// CheckComponents applies the platform's rules for the surface the tree is sent on (a legacy message, a
// message with IS_COMPONENTS_V2, or a modal) before anything is sent. Components the platform sends back
// (a message's, a modal submission's) keep the fields and component types this SDK does not know in
// `unknownFieldsJson`, and write them back unchanged.

#include <platformpp/client_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace platformpp {

/// The kind of a component (`type`). Values the SDK does not know are kept as they are (cast).
enum class ComponentType : int32_t {
  ActionRow = 1,          ///< A row of up to 5 buttons or one select (messages; deprecated in modals).
  Button = 2,             ///< A button (messages).
  StringSelect = 3,       ///< A select of developer-given options (messages and modals).
  TextInput = 4,          ///< A text field (modals).
  UserSelect = 5,         ///< A select of users (messages and modals).
  RoleSelect = 6,         ///< A select of roles (messages and modals).
  MentionableSelect = 7,  ///< A select of users and roles (messages and modals).
  ChannelSelect = 8,      ///< A select of channels (messages and modals).
  Section = 9,            ///< 1 to 3 Text Displays beside an accessory (IS_COMPONENTS_V2 messages).
  TextDisplay = 10,       ///< Markdown text (IS_COMPONENTS_V2 messages and modals).
  Thumbnail = 11,         ///< A small image, a Section's accessory (IS_COMPONENTS_V2 messages).
  MediaGallery = 12,      ///< 1 to 10 images or videos (IS_COMPONENTS_V2 messages).
  File = 13,              ///< An attached file, `attachment://name` (IS_COMPONENTS_V2 messages).
  Separator = 14,         ///< Vertical space, with or without a line (IS_COMPONENTS_V2 messages).
  Container = 17,         ///< A box around components, with an accent color (IS_COMPONENTS_V2 messages).
  Label = 18,             ///< A label and description around one input (modals).
  FileUpload = 19,        ///< A file picker, 0 to 10 files (modals).
  RadioGroup = 21,        ///< One choice among 2 to 10 options (modals).
  CheckboxGroup = 22,     ///< Several choices among 1 to 10 options (modals).
  Checkbox = 23,          ///< A yes/no box (modals).
};

/// How a button looks and what it does (`style` of a Button).
enum class ButtonStyle : int32_t {
  Primary = 1,    ///< The recommended action; needs a custom id.
  Secondary = 2,  ///< An alternative action; needs a custom id.
  Success = 3,    ///< A positive action; needs a custom id.
  Danger = 4,     ///< An irreversible action; needs a custom id.
  Link = 5,       ///< Opens `url`; no custom id, no interaction.
  Premium = 6,    ///< Buys the SKU `skuId`; no custom id, label, emoji or url, no interaction.
};

/// The shape of a text input (`style` of a Text Input).
enum class TextInputStyle : int32_t {
  Short = 1,      ///< One line.
  Paragraph = 2,  ///< Several lines.
};

/// A separator's padding (`spacing`).
enum class SeparatorSpacing : int32_t {
  Small = 1,  ///< The default.
  Large = 2,  ///< More space.
};

/// The surface a component tree is sent on: what CheckComponents allows.
enum class ComponentSurface : int32_t {
  /// A message without IS_COMPONENTS_V2: up to 5 action rows at the top, nothing else.
  Message = 0,
  /// A message with IS_COMPONENTS_V2 (flag 1 << 15): every message component, 40 in all.
  MessageV2 = 1,
  /// A modal: 1 to 5 Labels and Text Displays at the top (and the deprecated action row of a text input).
  Modal = 2,
};

/// The message flag that turns the components system on (IS_COMPONENTS_V2). Once set it stays set.
inline constexpr uint32_t kMessageFlagIsComponentsV2 = 1U << 15;

/// An emoji on a button or a select option: a custom emoji by `id`, or a Unicode one by `name`.
struct PartialEmoji {
  /// A custom emoji's id; none for a Unicode emoji.
  std::optional<uint64_t> id;
  /// The Unicode emoji itself, or the custom emoji's name.
  std::string name;
  /// A custom emoji that is animated.
  bool animated = false;
};

/// An option of a String Select, Radio Group or Checkbox Group (the platform gives the three the same
/// fields; only a String Select's options may carry an emoji).
struct SelectOption {
  /// What the user sees: at most 100 characters.
  std::string label;
  /// What the interaction carries when the option is chosen: at most 100 characters.
  std::string value;
  /// A line under the label: at most 100 characters.
  std::optional<std::string> description;
  /// String Select options only.
  std::optional<PartialEmoji> emoji;
  /// Chosen before the user chooses (`default`).
  bool isDefault = false;
};

/// What a select default value names (`type` of a default value).
enum class SelectDefaultValueType : int32_t {
  User = 0,     ///< "user"
  Role = 1,     ///< "role"
  Channel = 2,  ///< "channel"
};

/// A value a User, Role, Mentionable or Channel Select shows chosen at first.
struct SelectDefaultValue {
  /// The user, role or channel.
  uint64_t id = 0;
  /// What `id` names.
  SelectDefaultValueType type = SelectDefaultValueType::User;
};

/// A piece of media by address: an `https://` url or an `attachment://<filename>` of the same message. Only
/// `url` is sent; the platform fills in the rest in what it answers.
struct UnfurledMediaItem {
  /// The media's address.
  std::string url;
  /// The platform's proxied address.
  std::optional<std::string> proxyUrl;
  /// Pixels, for images and videos.
  std::optional<int32_t> width;
  /// Pixels, for images and videos.
  std::optional<int32_t> height;
  /// The media type, e.g. "image/png".
  std::optional<std::string> contentType;
  /// The attachment's id, for an uploaded file.
  std::optional<uint64_t> attachmentId;
  /// Members the SDK does not read (e.g. `placeholder`, `flags`), as a JSON object text; empty when none.
  std::string unknownFieldsJson;
};

/// One picture or video of a Media Gallery.
struct MediaGalleryItem {
  /// The media.
  UnfurledMediaItem media;
  /// Alt text: at most 1024 characters.
  std::optional<std::string> description;
  /// Blurred until clicked.
  bool spoiler = false;
};

/// A component of any kind: `type` says which fields apply (each field names the kinds it belongs to).
/// Fields left empty are not sent. Children live in vectors so the type stays a plain value (copyable,
/// comparable by field); `accessory` and `component` hold at most one.
struct Component {
  /// The kind.
  ComponentType type = ComponentType::ActionRow;
  /// An identifier unique in the message or modal (32 bits); none or 0: the platform numbers it.
  std::optional<int32_t> id;
  /// Interactive components: 1 to 100 characters, unique in the message or modal; what the interaction
  /// carries.
  std::optional<std::string> customId;
  /// Button: a ButtonStyle; Text Input: a TextInputStyle (the number, to keep styles this SDK does not know).
  std::optional<int32_t> style;
  /// Button: its text, at most 80 characters. Label: its text, at most 45. Text Input: deprecated (not
  /// allowed inside a Label), at most 45.
  std::optional<std::string> label;
  /// Button: an emoji beside the label.
  std::optional<PartialEmoji> emoji;
  /// Link button: the address it opens.
  std::optional<std::string> url;
  /// Premium button: the SKU it sells (one the application has published).
  std::optional<uint64_t> skuId;
  /// Buttons and selects in messages (never in modals).
  std::optional<bool> disabled;
  /// Selects: at most 150 characters. Text Input: at most 100.
  std::optional<std::string> placeholder;
  /// Selects: 0 to 25 (default 1). File Upload: 0 to 10. Checkbox Group: 0 to 10.
  std::optional<int32_t> minValues;
  /// Selects: 1 to 25 (default 1). File Upload: 1 to 10. Checkbox Group: 1 to 10.
  std::optional<int32_t> maxValues;
  /// String Select: 1 to 25. Radio Group: 2 to 10. Checkbox Group: 1 to 10.
  std::vector<SelectOption> options;
  /// Channel Select: the channel types offered (none: every type).
  std::vector<int32_t> channelTypes;
  /// User, Role, Mentionable and Channel Selects: values chosen at first (within min..max values).
  std::vector<SelectDefaultValue> defaultValues;
  /// Inputs of a modal (selects, Text Input, File Upload, Radio and Checkbox Groups): whether the modal
  /// needs an answer (the platform's default is true; ignored in messages).
  std::optional<bool> required;
  /// Text Input: 0 to 4000.
  std::optional<int32_t> minLength;
  /// Text Input: 1 to 4000.
  std::optional<int32_t> maxLength;
  /// Text Input: the text filled in beforehand, at most 4000 characters (and what a modal submission
  /// carries). Radio Group: the submitted choice.
  std::optional<std::string> value;
  /// Values a modal submission carries (selects, File Upload, Checkbox Group).
  std::vector<std::string> values;
  /// A submitted Checkbox's state (`value` on the wire).
  std::optional<bool> checked;
  /// Text Display: the markdown text, 1 to 4000 characters.
  std::optional<std::string> content;
  /// Label: at most 100 characters. Thumbnail: alt text, at most 1024.
  std::optional<std::string> description;
  /// Thumbnail: the image.
  std::optional<UnfurledMediaItem> media;
  /// Thumbnail, File, Container: blurred until clicked.
  std::optional<bool> spoiler;
  /// Separator: whether a line shows (the platform's default is true).
  std::optional<bool> divider;
  /// Separator: a SeparatorSpacing (the number).
  std::optional<int32_t> spacing;
  /// Container: the accent bar's RGB color, 0 to 0xFFFFFF.
  std::optional<int64_t> accentColor;
  /// Media Gallery: 1 to 10 items.
  std::vector<MediaGalleryItem> items;
  /// File: the file, an `attachment://<filename>` url.
  std::optional<UnfurledMediaItem> file;
  /// File: the file's name, as the platform answers it.
  std::optional<std::string> fileName;
  /// File: the file's size in bytes, as the platform answers it.
  std::optional<int64_t> fileSize;
  /// File Upload: at most 10 of "image", "video", "audio" or an extension such as ".pdf".
  std::vector<std::string> fileTypes;
  /// Checkbox: checked at first (`default`).
  std::optional<bool> isDefault;
  /// Section: its accessory, a Thumbnail or a Button (at most one element).
  std::vector<Component> accessory;
  /// Action Row, Section, Container: the children.
  std::vector<Component> components;
  /// Label: its input (at most one element; `component` on the wire).
  std::vector<Component> component;
  /// Members the SDK does not read, as a JSON object text (empty when none): kept from what the platform
  /// sent and written back as they were.
  std::string unknownFieldsJson;

  /// An Action Row of `children` (up to 5 buttons, or one select).
  static Component ActionRow(std::vector<Component> children);
  /// A button that sends an interaction with `customId` (a style other than Link and Premium).
  static Component Button(ButtonStyle style, std::string label, std::string customId);
  /// A Link button that opens `url`.
  static Component LinkButton(std::string label, std::string url);
  /// A Premium button that sells the SKU `skuId`.
  static Component PremiumButton(uint64_t skuId);
  /// A String Select of `options`.
  static Component StringSelect(std::string customId, std::vector<SelectOption> options);
  /// A User Select.
  static Component UserSelect(std::string customId);
  /// A Role Select.
  static Component RoleSelect(std::string customId);
  /// A Mentionable Select.
  static Component MentionableSelect(std::string customId);
  /// A Channel Select offering `channelTypes` (none: every type).
  static Component ChannelSelect(std::string customId, std::vector<int32_t> channelTypes = {});
  /// A Text Input (for a Label: no label of its own).
  static Component TextInput(std::string customId, TextInputStyle style = TextInputStyle::Short);
  /// A Text Display of `content`.
  static Component TextDisplay(std::string content);
  /// A Section of `texts` (1 to 3 Text Displays) beside `accessory` (a Thumbnail or a Button).
  static Component Section(std::vector<Component> texts, Component accessory);
  /// A Thumbnail of the image at `url`.
  static Component Thumbnail(std::string url);
  /// A Media Gallery of `items`.
  static Component MediaGallery(std::vector<MediaGalleryItem> items);
  /// A Media Gallery of the media at `urls`, without alt text.
  static Component MediaGallery(const std::vector<std::string>& urls);
  /// A File of the attachment `attachmentUrl` (`attachment://<filename>`).
  static Component File(std::string attachmentUrl);
  /// A Separator.
  static Component Separator(bool divider = true, SeparatorSpacing spacing = SeparatorSpacing::Small);
  /// A Container of `children`, with an accent color when given.
  static Component Container(std::vector<Component> children, std::optional<int64_t> accentColor = {});
  /// A Label with `text` around `input`, with a description when given.
  static Component Label(std::string text, Component input, std::optional<std::string> description = {});
  /// A File Upload.
  static Component FileUpload(std::string customId);
  /// A Radio Group of `options`.
  static Component RadioGroup(std::string customId, std::vector<SelectOption> options);
  /// A Checkbox Group of `options`.
  static Component CheckboxGroup(std::string customId, std::vector<SelectOption> options);
  /// A Checkbox.
  static Component Checkbox(std::string customId);
};

/// The platform's rules for a component tree sent on `surface`: kinds allowed where they stand, counts,
/// lengths and ranges, button styles, unique custom ids and ids. Every broken rule, each at its JSON path
/// under "components" (e.g. "components.0.components.2.custom_id"); empty when the tree may be sent. A
/// Premium button's SKU is not checked here (the SDK does not know the application's SKUs).
std::vector<FieldError> CheckComponents(const std::vector<Component>& components, ComponentSurface surface);

}  // namespace platformpp
