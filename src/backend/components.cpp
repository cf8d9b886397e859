// The component makers and CheckComponents. The rules come from the seed ("Modal and message components",
// "Message and attachments", Limits) and, for what the seed leaves out, the platform's component reference.
// Choices where the two differ or say nothing:
// - A Label's child may be any modal input of the reference (Text Input, the five selects, File Upload, Radio
//   Group, Checkbox Group, Checkbox). The seed lists the first six only, but it names the other four as modal
//   components too, and the reference allows them nowhere but in a Label.
// - An Action Row holding one Text Input is still accepted at the top of a modal (the seed calls it
//   deprecated, not removed); that Text Input then needs its own label (1 to 45 characters), as it did before
//   Labels existed. A Text Input inside a Label must not have one.
// - `disabled` on any select in a modal is refused when present at all (the seed: "errors if used").
// - A Text Display holds 1 to 4000 characters: the reference gives no figure; 4000 is the longest text any
//   component takes (a Text Input's value).
// - 40 components in all in an IS_COMPONENTS_V2 message, nested ones (accessories, Container children)
//   included, and no top-level limit (the seed's figures, not the older 10 and 30).
// - min_values against max_values is compared only when both are set (the platform's defaults differ by
// kind). Error codes are the platform's where its material shows them (BASE_TYPE_*, NUMBER_TYPE_*,
// UNION_TYPE_CHOICES, COMPONENT_CUSTOM_ID_DUPLICATED, COMPONENT_LAYOUT_WIDTH_EXCEEDED); the others follow its
// naming pattern.
#include "core/utf8.hpp"

#include <platformpp/components.hpp>

#include <set>
#include <string_view>
#include <utility>

namespace platformpp {

// ---- Makers ----------------------------------------------------------------------------------------------

Component Component::ActionRow(std::vector<Component> children) {
  Component c;
  c.type = ComponentType::ActionRow;
  c.components = std::move(children);
  return c;
}

Component Component::Button(ButtonStyle style, std::string label, std::string customId) {
  Component c;
  c.type = ComponentType::Button;
  c.style = static_cast<int32_t>(style);
  c.label = std::move(label);
  c.customId = std::move(customId);
  return c;
}

Component Component::LinkButton(std::string label, std::string url) {
  Component c;
  c.type = ComponentType::Button;
  c.style = static_cast<int32_t>(ButtonStyle::Link);
  c.label = std::move(label);
  c.url = std::move(url);
  return c;
}

Component Component::PremiumButton(uint64_t skuId) {
  Component c;
  c.type = ComponentType::Button;
  c.style = static_cast<int32_t>(ButtonStyle::Premium);
  c.skuId = skuId;
  return c;
}

namespace {

Component Interactive(ComponentType type, std::string customId) {
  Component c;
  c.type = type;
  c.customId = std::move(customId);
  return c;
}

}  // namespace

Component Component::StringSelect(std::string customId, std::vector<SelectOption> options) {
  Component c = Interactive(ComponentType::StringSelect, std::move(customId));
  c.options = std::move(options);
  return c;
}

Component Component::UserSelect(std::string customId) {
  return Interactive(ComponentType::UserSelect, std::move(customId));
}

Component Component::RoleSelect(std::string customId) {
  return Interactive(ComponentType::RoleSelect, std::move(customId));
}

Component Component::MentionableSelect(std::string customId) {
  return Interactive(ComponentType::MentionableSelect, std::move(customId));
}

Component Component::ChannelSelect(std::string customId, std::vector<int32_t> channelTypes) {
  Component c = Interactive(ComponentType::ChannelSelect, std::move(customId));
  c.channelTypes = std::move(channelTypes);
  return c;
}

Component Component::TextInput(std::string customId, TextInputStyle style) {
  Component c = Interactive(ComponentType::TextInput, std::move(customId));
  c.style = static_cast<int32_t>(style);
  return c;
}

Component Component::TextDisplay(std::string content) {
  Component c;
  c.type = ComponentType::TextDisplay;
  c.content = std::move(content);
  return c;
}

Component Component::Section(std::vector<Component> texts, Component accessory) {
  Component c;
  c.type = ComponentType::Section;
  c.components = std::move(texts);
  c.accessory.push_back(std::move(accessory));
  return c;
}

Component Component::Thumbnail(std::string url) {
  Component c;
  c.type = ComponentType::Thumbnail;
  c.media = UnfurledMediaItem{};
  c.media->url = std::move(url);
  return c;
}

Component Component::MediaGallery(std::vector<MediaGalleryItem> items) {
  Component c;
  c.type = ComponentType::MediaGallery;
  c.items = std::move(items);
  return c;
}

Component Component::File(std::string attachmentUrl) {
  Component c;
  c.type = ComponentType::File;
  c.file = UnfurledMediaItem{};
  c.file->url = std::move(attachmentUrl);
  return c;
}

Component Component::Separator(bool divider, SeparatorSpacing spacing) {
  Component c;
  c.type = ComponentType::Separator;
  c.divider = divider;
  c.spacing = static_cast<int32_t>(spacing);
  return c;
}

Component Component::Container(std::vector<Component> children, std::optional<int64_t> accentColor) {
  Component c;
  c.type = ComponentType::Container;
  c.components = std::move(children);
  c.accentColor = accentColor;
  return c;
}

Component Component::Label(std::string text, Component input, std::optional<std::string> description) {
  Component c;
  c.type = ComponentType::Label;
  c.label = std::move(text);
  c.description = std::move(description);
  c.component.push_back(std::move(input));
  return c;
}

Component Component::FileUpload(std::string customId) {
  return Interactive(ComponentType::FileUpload, std::move(customId));
}

Component Component::RadioGroup(std::string customId, std::vector<SelectOption> options) {
  Component c = Interactive(ComponentType::RadioGroup, std::move(customId));
  c.options = std::move(options);
  return c;
}

Component Component::CheckboxGroup(std::string customId, std::vector<SelectOption> options) {
  Component c = Interactive(ComponentType::CheckboxGroup, std::move(customId));
  c.options = std::move(options);
  return c;
}

Component Component::Checkbox(std::string customId) {
  return Interactive(ComponentType::Checkbox, std::move(customId));
}

// ---- Rules -----------------------------------------------------------------------------------------------

namespace {

constexpr std::size_t kCustomIdMax = 100;
constexpr std::size_t kLegacyRowsMax = 5;
constexpr std::size_t kModalTopMax = 5;
constexpr std::size_t kV2TotalMax = 40;
constexpr std::size_t kRowButtonsMax = 5;
constexpr std::size_t kButtonLabelMax = 80;
constexpr std::size_t kOptionTextMax = 100;
constexpr std::size_t kSelectOptionsMax = 25;
constexpr int32_t kSelectValuesMax = 25;
constexpr std::size_t kPlaceholderMax = 150;
constexpr std::size_t kTextInputPlaceholderMax = 100;
constexpr std::size_t kLabelMax = 45;
constexpr std::size_t kLabelDescriptionMax = 100;
constexpr int32_t kTextInputLengthMax = 4000;
constexpr std::size_t kTextDisplayMax = 4000;
constexpr std::size_t kAltTextMax = 1024;
constexpr std::size_t kSectionTextsMax = 3;
constexpr std::size_t kGalleryItemsMax = 10;
constexpr int32_t kFilesMax = 10;
constexpr std::size_t kFileTypesMax = 10;
constexpr std::size_t kRadioOptionsMin = 2;
constexpr std::size_t kGroupOptionsMax = 10;
constexpr int32_t kCheckboxValuesMax = 10;
constexpr int64_t kAccentColorMax = 0xFFFFFF;

// Where a component stands: what may stand there depends on it and on the surface.
enum class Place { Top, Row, SectionText, Accessory, ContainerChild, LabelChild };

bool IsSelect(ComponentType type) {
  return type == ComponentType::StringSelect || type == ComponentType::UserSelect ||
         type == ComponentType::RoleSelect || type == ComponentType::MentionableSelect ||
         type == ComponentType::ChannelSelect;
}

bool Allowed(Place place, ComponentSurface surface, ComponentType type) {
  using T = ComponentType;
  switch (place) {
    case Place::Top:
      if (surface == ComponentSurface::Message) return type == T::ActionRow;
      if (surface == ComponentSurface::Modal)
        return type == T::Label || type == T::TextDisplay || type == T::ActionRow;
      return type == T::ActionRow || type == T::Section || type == T::TextDisplay ||
             type == T::MediaGallery || type == T::File || type == T::Separator || type == T::Container;
    case Place::Row:
      if (surface == ComponentSurface::Modal) return type == T::TextInput;
      return type == T::Button || IsSelect(type);
    case Place::SectionText:
      return type == T::TextDisplay;
    case Place::Accessory:
      return type == T::Thumbnail || type == T::Button;
    case Place::ContainerChild:
      return type == T::ActionRow || type == T::TextDisplay || type == T::Section ||
             type == T::MediaGallery || type == T::Separator || type == T::File;
    case Place::LabelChild:
      return type == T::TextInput || IsSelect(type) || type == T::FileUpload || type == T::RadioGroup ||
             type == T::CheckboxGroup || type == T::Checkbox;
  }
  return false;
}

std::string_view SurfaceName(ComponentSurface surface) {
  switch (surface) {
    case ComponentSurface::MessageV2:
      return "a message with IS_COMPONENTS_V2";
    case ComponentSurface::Modal:
      return "a modal";
    case ComponentSurface::Message:
      break;
  }
  return "a message without IS_COMPONENTS_V2";
}

class Checker {
 public:
  Checker(ComponentSurface surface, std::vector<FieldError>& errors) : surface_(surface), errors_(errors) {}

  void Top(const std::vector<Component>& components) {
    const std::string path = "components";
    if (surface_ == ComponentSurface::Message && components.size() > kLegacyRowsMax)
      Fail(path, "BASE_TYPE_MAX_LENGTH", "a message without IS_COMPONENTS_V2 holds at most 5 action rows");
    if (surface_ == ComponentSurface::Modal && components.empty())
      Fail(path, "BASE_TYPE_MIN_LENGTH", "a modal holds 1 to 5 components");
    if (surface_ == ComponentSurface::Modal && components.size() > kModalTopMax)
      Fail(path, "BASE_TYPE_MAX_LENGTH", "a modal holds 1 to 5 components");
    for (std::size_t i = 0; i < components.size(); ++i)
      One(path + "." + std::to_string(i), components[i], Place::Top);
    if (surface_ == ComponentSurface::MessageV2 && total_ > kV2TotalMax)
      Fail(path, "BASE_TYPE_MAX_LENGTH", "at most 40 components in all, nested ones included");
  }

 private:
  void Fail(std::string path, std::string code, std::string message) {
    errors_.push_back({std::move(path), std::move(code), std::move(message)});
  }

  static std::size_t Characters(const std::string& text) {
    return core::CountCodePoints(text).value_or(text.size());
  }

  // A string of `min` to `max` characters.
  void Length(const std::string& path, const std::string& text, std::size_t min, std::size_t max) {
    // A text never has more characters than bytes, and a non-empty one has at least 1: most texts are
    // decided without counting (a maximal Text Display is 4000 of them).
    if (text.size() <= max && (min == 0 || (min == 1 && !text.empty()))) return;
    const std::size_t length = Characters(text);
    if (length >= min && length <= max) return;
    if (min == 0) {
      Fail(path, "BASE_TYPE_MAX_LENGTH", "at most " + std::to_string(max) + " characters");
    } else {
      Fail(path, "BASE_TYPE_BAD_LENGTH", std::to_string(min) + " to " + std::to_string(max) + " characters");
    }
  }
  void Length(const std::string& path, const std::optional<std::string>& text, std::size_t min,
              std::size_t max) {
    if (text) Length(path, *text, min, max);
  }

  void Range(const std::string& path, std::optional<int64_t> value, int64_t min, int64_t max) {
    if (!value) return;
    if (*value < min) Fail(path, "NUMBER_TYPE_MIN", "at least " + std::to_string(min));
    if (*value > max) Fail(path, "NUMBER_TYPE_MAX", "at most " + std::to_string(max));
  }

  void Count(const std::string& path, std::size_t count, std::size_t min, std::size_t max,
             std::string_view what) {
    const std::string rule = std::to_string(min) + " to " + std::to_string(max) + " " + std::string(what);
    if (count < min) Fail(path, "BASE_TYPE_MIN_LENGTH", rule);
    if (count > max) Fail(path, "BASE_TYPE_MAX_LENGTH", rule);
  }

  void NotAllowed(const std::string& path, std::string why) {
    Fail(path, "COMPONENT_FIELD_NOT_ALLOWED", std::move(why));
  }

  void Required(const std::string& path, bool present) {
    if (!present) Fail(path, "BASE_TYPE_REQUIRED", "this field is required");
  }

  void CustomId(const std::string& path, const Component& c) {
    if (!c.customId) return Required(path + ".custom_id", false);
    Length(path + ".custom_id", *c.customId, 1, kCustomIdMax);
    if (!customIds_.insert(*c.customId).second)
      Fail(path + ".custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
           "custom ids are unique in a message or modal");
  }

  void MinMaxValues(const std::string& path, const Component& c, int32_t min, int32_t maxMin, int32_t max) {
    Range(path + ".min_values", c.minValues, min, max);
    Range(path + ".max_values", c.maxValues, maxMin, max);
    if (c.minValues && c.maxValues && *c.minValues > *c.maxValues)
      Fail(path + ".min_values", "NUMBER_TYPE_MAX", "must not be greater than max_values");
  }

  // In a modal, an input that may be skipped must say so: min_values 0 needs required false.
  void MinZeroNeedsOptional(const std::string& path, const Component& c) {
    if (surface_ == ComponentSurface::Modal && c.minValues && *c.minValues == 0 && c.required.value_or(true))
      Fail(path + ".min_values", "NUMBER_TYPE_MIN", "min_values 0 needs required set to false");
  }

  void Options(const std::string& path, const std::vector<SelectOption>& options, std::size_t min,
               std::size_t max, bool emoji) {
    // No options are not sent at all: the platform finds the member missing.
    if (options.empty()) return Required(path + ".options", false);
    Count(path + ".options", options.size(), min, max, "options");
    for (std::size_t k = 0; k < options.size(); ++k) {
      const std::string at = path + ".options." + std::to_string(k);
      Length(at + ".label", options[k].label, 1, kOptionTextMax);
      Length(at + ".value", options[k].value, 1, kOptionTextMax);
      Length(at + ".description", options[k].description, 0, kOptionTextMax);
      if (!emoji && options[k].emoji) NotAllowed(at + ".emoji", "only String Select options have an emoji");
    }
  }

  void MediaUrl(const std::string& path, const std::optional<UnfurledMediaItem>& media, bool attachmentOnly) {
    if (!media || media->url.empty()) return Required(path + (media ? ".url" : ""), false);
    const std::string_view url = media->url;
    constexpr std::string_view kAttachment = "attachment://";
    const bool attachment = url.starts_with(kAttachment) && url.size() > kAttachment.size();
    if (attachmentOnly && !attachment) {
      Fail(path + ".url", "URL_TYPE_INVALID_PROTOCOL", "a File shows an attachment: attachment://<filename>");
    } else if (!attachment && !url.starts_with("https://") && !url.starts_with("http://")) {
      Fail(path + ".url", "URL_TYPE_INVALID_PROTOCOL", "an http(s) url or attachment://<filename>");
    }
  }

  void Children(const std::string& path, const std::vector<Component>& children, Place place) {
    for (std::size_t j = 0; j < children.size(); ++j)
      One(path + "." + std::to_string(j), children[j], place);
  }

  // The one child of a Section (accessory) or a Label (component).
  void OnlyChild(const std::string& path, const std::vector<Component>& child, Place place) {
    if (child.empty()) return Required(path, false);
    if (child.size() > 1) Fail(path, "BASE_TYPE_MAX_LENGTH", "one component only");
    One(path, child.front(), place);
  }

  void Row(const std::string& path, const Component& c) {
    const std::string at = path + ".components";
    if (c.components.empty()) {
      Fail(at, "BASE_TYPE_MIN_LENGTH",
           surface_ == ComponentSurface::Modal ? "an action row in a modal holds one Text Input"
                                               : "an action row holds 1 to 5 buttons or one select");
    }
    std::size_t buttons = 0;
    std::size_t others = 0;
    for (const auto& child : c.components)
      (child.type == ComponentType::Button ? buttons : others) += 1;
    const bool fits = surface_ == ComponentSurface::Modal
                          ? c.components.size() <= 1
                          : (others == 0 && buttons <= kRowButtonsMax) || (buttons == 0 && others <= 1);
    if (!fits)
      Fail(at, "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
           surface_ == ComponentSurface::Modal ? "an action row in a modal holds one Text Input"
                                               : "up to 5 buttons or one select, not mixed");
    Children(at, c.components, Place::Row);
  }

  void Button(const std::string& path, const Component& c) {
    if (!c.style) return Required(path + ".style", false);
    const int32_t style = *c.style;
    if (style < static_cast<int32_t>(ButtonStyle::Primary) ||
        style > static_cast<int32_t>(ButtonStyle::Premium))
      return Fail(path + ".style", "BASE_TYPE_CHOICES", "a ButtonStyle, 1 to 6");
    Length(path + ".label", c.label, 0, kButtonLabelMax);
    if (style == static_cast<int32_t>(ButtonStyle::Link)) {
      Required(path + ".url", c.url.has_value() && !c.url->empty());
      if (c.customId) NotAllowed(path + ".custom_id", "a Link button has no custom_id");
      if (c.skuId) NotAllowed(path + ".sku_id", "only Premium buttons have a sku_id");
    } else if (style == static_cast<int32_t>(ButtonStyle::Premium)) {
      Required(path + ".sku_id", c.skuId.has_value());
      if (c.customId) NotAllowed(path + ".custom_id", "a Premium button has no custom_id");
      if (c.label) NotAllowed(path + ".label", "a Premium button has no label");
      if (c.emoji) NotAllowed(path + ".emoji", "a Premium button has no emoji");
      if (c.url) NotAllowed(path + ".url", "a Premium button has no url");
    } else {
      CustomId(path, c);
      if (c.url) NotAllowed(path + ".url", "only Link buttons have a url");
      if (c.skuId) NotAllowed(path + ".sku_id", "only Premium buttons have a sku_id");
    }
  }

  void Select(const std::string& path, const Component& c) {
    CustomId(path, c);
    Length(path + ".placeholder", c.placeholder, 0, kPlaceholderMax);
    MinMaxValues(path, c, 0, 1, kSelectValuesMax);
    if (surface_ == ComponentSurface::Modal) {
      if (c.disabled) NotAllowed(path + ".disabled", "modals have no disabled components");
      MinZeroNeedsOptional(path, c);
    }
    if (c.type == ComponentType::StringSelect) {
      Options(path, c.options, 1, kSelectOptionsMax, true);
      return;
    }
    if (!c.channelTypes.empty() && c.type != ComponentType::ChannelSelect)
      NotAllowed(path + ".channel_types", "only Channel Selects have channel_types");
    if (c.defaultValues.empty()) return;
    const auto count = static_cast<int64_t>(c.defaultValues.size());
    if (count < c.minValues.value_or(1) || count > c.maxValues.value_or(1))
      Fail(path + ".default_values", "BASE_TYPE_BAD_LENGTH",
           "as many default values as min_values..max_values");
    for (std::size_t k = 0; k < c.defaultValues.size(); ++k) {
      const SelectDefaultValueType type = c.defaultValues[k].type;
      const bool fits =
          (c.type == ComponentType::UserSelect && type == SelectDefaultValueType::User) ||
          (c.type == ComponentType::RoleSelect && type == SelectDefaultValueType::Role) ||
          (c.type == ComponentType::MentionableSelect && type != SelectDefaultValueType::Channel) ||
          (c.type == ComponentType::ChannelSelect && type == SelectDefaultValueType::Channel);
      if (!fits)
        Fail(path + ".default_values." + std::to_string(k) + ".type", "BASE_TYPE_CHOICES",
             "not a kind of value this select offers");
    }
  }

  void TextInput(const std::string& path, const Component& c, Place place) {
    CustomId(path, c);
    if (!c.style) {
      Required(path + ".style", false);
    } else if (*c.style != static_cast<int32_t>(TextInputStyle::Short) &&
               *c.style != static_cast<int32_t>(TextInputStyle::Paragraph)) {
      Fail(path + ".style", "BASE_TYPE_CHOICES", "a TextInputStyle, 1 or 2");
    }
    if (place == Place::LabelChild) {
      if (c.label) NotAllowed(path + ".label", "a Text Input inside a Label has no label of its own");
    } else {
      Required(path + ".label", c.label.has_value());
      Length(path + ".label", c.label, 1, kLabelMax);
    }
    Range(path + ".min_length", c.minLength, 0, kTextInputLengthMax);
    Range(path + ".max_length", c.maxLength, 1, kTextInputLengthMax);
    if (c.minLength && c.maxLength && *c.minLength > *c.maxLength)
      Fail(path + ".min_length", "NUMBER_TYPE_MAX", "must not be greater than max_length");
    Length(path + ".value", c.value, 0, kTextInputLengthMax);
    // A Checkbox's submitted state goes out as `value` too: a boolean where a Text Input needs text.
    if (!c.value && c.checked) Fail(path + ".value", "BASE_TYPE_STRING", "a Text Input's value is text");
    Length(path + ".placeholder", c.placeholder, 0, kTextInputPlaceholderMax);
  }

  void FileUpload(const std::string& path, const Component& c) {
    CustomId(path, c);
    MinMaxValues(path, c, 0, 1, kFilesMax);
    MinZeroNeedsOptional(path, c);
    if (c.fileTypes.size() > kFileTypesMax)
      Fail(path + ".file_types", "BASE_TYPE_MAX_LENGTH", "at most 10 file types");
    for (std::size_t f = 0; f < c.fileTypes.size(); ++f) {
      const std::string& type = c.fileTypes[f];
      const bool category = type == "image" || type == "video" || type == "audio";
      if (!category && (type.size() < 2 || type[0] != '.'))
        Fail(path + ".file_types." + std::to_string(f), "BASE_TYPE_CHOICES",
             "image, video, audio or an extension such as .pdf");
    }
  }

  void One(const std::string& path, const Component& c, Place place) {
    ++total_;
    if (!Allowed(place, surface_, c.type)) {
      return Fail(path + ".type", "UNION_TYPE_CHOICES",
                  "component type " + std::to_string(static_cast<int>(c.type)) + " is not allowed here in " +
                      std::string(SurfaceName(surface_)));
    }
    if (c.id && *c.id != 0 && !ids_.insert(*c.id).second)
      Fail(path + ".id", "COMPONENT_ID_DUPLICATED", "ids are unique in a message or modal");
    switch (c.type) {
      case ComponentType::ActionRow:
        return Row(path, c);
      case ComponentType::Button:
        return Button(path, c);
      case ComponentType::StringSelect:
      case ComponentType::UserSelect:
      case ComponentType::RoleSelect:
      case ComponentType::MentionableSelect:
      case ComponentType::ChannelSelect:
        return Select(path, c);
      case ComponentType::TextInput:
        return TextInput(path, c, place);
      case ComponentType::Section:
        Count(path + ".components", c.components.size(), 1, kSectionTextsMax, "Text Displays");
        Children(path + ".components", c.components, Place::SectionText);
        return OnlyChild(path + ".accessory", c.accessory, Place::Accessory);
      case ComponentType::TextDisplay:
        Required(path + ".content", c.content.has_value());
        return Length(path + ".content", c.content, 1, kTextDisplayMax);
      case ComponentType::Thumbnail:
        MediaUrl(path + ".media", c.media, false);
        return Length(path + ".description", c.description, 0, kAltTextMax);
      case ComponentType::MediaGallery:
        if (c.items.empty()) return Required(path + ".items", false);  // not sent when empty
        Count(path + ".items", c.items.size(), 1, kGalleryItemsMax, "items");
        for (std::size_t k = 0; k < c.items.size(); ++k) {
          const std::string at = path + ".items." + std::to_string(k);
          MediaUrl(at + ".media", c.items[k].media, false);
          Length(at + ".description", c.items[k].description, 0, kAltTextMax);
        }
        return;
      case ComponentType::File:
        return MediaUrl(path + ".file", c.file, true);
      case ComponentType::Separator:
        if (c.spacing && *c.spacing != static_cast<int32_t>(SeparatorSpacing::Small) &&
            *c.spacing != static_cast<int32_t>(SeparatorSpacing::Large))
          Fail(path + ".spacing", "BASE_TYPE_CHOICES", "1 (small) or 2 (large)");
        return;
      case ComponentType::Container:
        Range(path + ".accent_color", c.accentColor, 0, kAccentColorMax);
        if (c.components.empty()) Fail(path + ".components", "BASE_TYPE_MIN_LENGTH", "at least 1 component");
        return Children(path + ".components", c.components, Place::ContainerChild);
      case ComponentType::Label:
        Required(path + ".label", c.label.has_value());
        Length(path + ".label", c.label, 1, kLabelMax);
        Length(path + ".description", c.description, 0, kLabelDescriptionMax);
        return OnlyChild(path + ".component", c.component, Place::LabelChild);
      case ComponentType::FileUpload:
        return FileUpload(path, c);
      case ComponentType::RadioGroup:
        CustomId(path, c);
        return Options(path, c.options, kRadioOptionsMin, kGroupOptionsMax, false);
      case ComponentType::CheckboxGroup:
        CustomId(path, c);
        Options(path, c.options, 1, kGroupOptionsMax, false);
        MinMaxValues(path, c, 0, 1, kCheckboxValuesMax);
        return MinZeroNeedsOptional(path, c);
      case ComponentType::Checkbox:
        CustomId(path, c);
        if (c.required)
          NotAllowed(path + ".required", "a Checkbox cannot be required (use a Checkbox Group)");
        return;
    }
  }

  ComponentSurface surface_;
  std::vector<FieldError>& errors_;
  std::set<std::string> customIds_;
  std::set<int32_t> ids_;
  std::size_t total_ = 0;
};

}  // namespace

std::vector<FieldError> CheckComponents(const std::vector<Component>& components, ComponentSurface surface) {
  std::vector<FieldError> errors;
  Checker(surface, errors).Top(components);
  return errors;
}

}  // namespace platformpp
