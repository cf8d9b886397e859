// The rules of component_rules.hpp. Where the seed and the platform's component reference differ or say
// nothing, the choices are these (the SDK makes the same ones):
// - A Label holds one of the reference's modal inputs: Text Input, the five selects, File Upload, Radio
// Group,
//   Checkbox Group, Checkbox (the seed names the last four as modal components; only a Label may hold them).
// - A deprecated Action Row of exactly one Text Input is still accepted at a modal's top; that Text Input
//   needs a label of 1 to 45 characters there, and must not have one inside a Label.
// - `disabled` on a select in a modal is refused whenever it is present.
// - A Text Display holds 1 to 4000 characters (the reference gives no figure).
// - min_values is compared with max_values only when both are given.
// - Unknown fields are ignored, as the platform ignores them.
// Codes are the platform's where its material shows them (BASE_TYPE_*, NUMBER_TYPE_*, DICT_TYPE_CONVERT,
// UNION_TYPE_CHOICES, COMPONENT_CUSTOM_ID_DUPLICATED, COMPONENT_LAYOUT_WIDTH_EXCEEDED); the others follow its
// naming pattern.
#include "interactions/component_rules.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "core/validation.hpp"

namespace platformpp::emulator {

namespace {

using Path = std::vector<std::string>;

namespace type {
constexpr std::int64_t kActionRow = 1, kButton = 2, kStringSelect = 3, kTextInput = 4, kUserSelect = 5,
                       kRoleSelect = 6, kMentionableSelect = 7, kChannelSelect = 8, kSection = 9,
                       kTextDisplay = 10, kThumbnail = 11, kMediaGallery = 12, kFile = 13, kSeparator = 14,
                       kContainer = 17, kLabel = 18, kFileUpload = 19, kRadioGroup = 21, kCheckboxGroup = 22,
                       kCheckbox = 23;
}  // namespace type

constexpr std::int64_t kLinkStyle = 5, kPremiumStyle = 6;
constexpr std::size_t kCustomIdMax = 100, kLegacyRowsMax = 5, kModalTopMax = 5, kV2TotalMax = 40;
constexpr std::size_t kRowButtonsMax = 5, kButtonLabelMax = 80, kOptionTextMax = 100, kSelectOptionsMax = 25;
constexpr std::int64_t kSelectValuesMax = 25, kFilesMax = 10, kCheckboxValuesMax = 10;
constexpr std::size_t kPlaceholderMax = 150, kTextInputPlaceholderMax = 100, kLabelMax = 45;
constexpr std::size_t kLabelDescriptionMax = 100, kTextDisplayMax = 4000, kAltTextMax = 1024;
constexpr std::int64_t kTextInputLengthMax = 4000;
constexpr std::size_t kSectionTextsMax = 3, kGalleryItemsMax = 10, kFileTypesMax = 10;
constexpr std::size_t kRadioOptionsMin = 2, kGroupOptionsMax = 10;
constexpr std::int64_t kAccentColorMax = 0xFFFFFF;
// The walks of stored components (attachments, find) stop here; a valid tree is 4 deep at most.
constexpr int kStoredDepthMax = 8;

enum class Place { kTop, kRow, kSectionText, kAccessory, kContainerChild, kLabelChild };

bool is_select(std::int64_t t) {
  return t == type::kStringSelect || (t >= type::kUserSelect && t <= type::kChannelSelect);
}

bool allowed(Place place, ComponentSurface surface, std::int64_t t) {
  switch (place) {
    case Place::kTop:
      if (surface == ComponentSurface::kMessage) return t == type::kActionRow;
      if (surface == ComponentSurface::kModal)
        return t == type::kLabel || t == type::kTextDisplay || t == type::kActionRow;
      return t == type::kActionRow || t == type::kSection || t == type::kTextDisplay ||
             t == type::kMediaGallery || t == type::kFile || t == type::kSeparator || t == type::kContainer;
    case Place::kRow:
      return surface == ComponentSurface::kModal ? t == type::kTextInput
                                                 : (t == type::kButton || is_select(t));
    case Place::kSectionText:
      return t == type::kTextDisplay;
    case Place::kAccessory:
      return t == type::kThumbnail || t == type::kButton;
    case Place::kContainerChild:
      return t == type::kActionRow || t == type::kTextDisplay || t == type::kSection ||
             t == type::kMediaGallery || t == type::kSeparator || t == type::kFile;
    case Place::kLabelChild:
      return t == type::kTextInput || is_select(t) || t == type::kFileUpload || t == type::kRadioGroup ||
             t == type::kCheckboxGroup || t == type::kCheckbox;
  }
  return false;
}

std::string_view surface_name(ComponentSurface surface) {
  switch (surface) {
    case ComponentSurface::kMessageV2:
      return "a message with IS_COMPONENTS_V2";
    case ComponentSurface::kModal:
      return "a modal";
    case ComponentSurface::kMessage:
      break;
  }
  return "a message without IS_COMPONENTS_V2";
}

Path join(const Path& path, std::initializer_list<std::string> keys) {
  Path out = path;
  out.insert(out.end(), keys.begin(), keys.end());
  return out;
}

// The member, or null when absent or JSON null.
const rapidjson::Value* member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

class Checker {
 public:
  Checker(ComponentSurface surface, FieldErrors& errors, const SkuPublished& sku_published)
      : surface_(surface), errors_(errors), sku_published_(sku_published) {}

  void top(const rapidjson::Value& components, const Path& path) {
    if (!components.IsArray()) return issue(path, {"BASE_TYPE_ARRAY", "Must be an array."});
    const std::size_t count = components.Size();
    if (surface_ == ComponentSurface::kMessage && count > kLegacyRowsMax)
      issue(path, too_many(kLegacyRowsMax));
    if (surface_ == ComponentSurface::kModal && (count < 1 || count > kModalTopMax))
      issue(path, count < 1 ? too_few(1) : too_many(kModalTopMax));
    children(components, path, Place::kTop);
    if (surface_ == ComponentSurface::kMessageV2 && total_ > kV2TotalMax)
      issue(path, {"BASE_TYPE_MAX_LENGTH",
                   "Must be 40 or fewer in length (components in all, nested ones "
                   "included)."});
  }

 private:
  void issue(const Path& path, FieldIssue what) { errors_.add(path, std::move(what)); }
  void issue(const Path& path, const char* name, FieldIssue what) {
    issue(join(path, {name}), std::move(what));
  }

  static FieldIssue too_many(std::size_t max) {
    return {"BASE_TYPE_MAX_LENGTH", "Must be " + std::to_string(max) + " or fewer in length."};
  }
  static FieldIssue too_few(std::size_t min) {
    return {"BASE_TYPE_MIN_LENGTH", "Must be " + std::to_string(min) + " or more in length."};
  }
  static FieldIssue not_allowed(std::string why) { return {"COMPONENT_FIELD_NOT_ALLOWED", std::move(why)}; }

  // Typed members: null after recording a wrong type.
  std::optional<std::string_view> string(const rapidjson::Value& object, const Path& path, const char* name) {
    const auto* value = member(object, name);
    if (value == nullptr) return std::nullopt;
    if (!value->IsString()) {
      issue(path, name, {"BASE_TYPE_STRING", "Must be a string."});
      return std::nullopt;
    }
    return std::string_view(value->GetString(), value->GetStringLength());
  }
  std::optional<std::int64_t> integer(const rapidjson::Value& object, const Path& path, const char* name) {
    const auto* value = member(object, name);
    if (value == nullptr) return std::nullopt;
    if (!value->IsInt64()) {
      issue(path, name, {"NUMBER_TYPE_COERCE", "Value is not int."});
      return std::nullopt;
    }
    return value->GetInt64();
  }
  std::optional<bool> boolean(const rapidjson::Value& object, const Path& path, const char* name) {
    const auto* value = member(object, name);
    if (value == nullptr) return std::nullopt;
    if (!value->IsBool()) {
      issue(path, name, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
      return std::nullopt;
    }
    return value->GetBool();
  }
  const rapidjson::Value* array(const rapidjson::Value& object, const Path& path, const char* name) {
    const auto* value = member(object, name);
    if (value != nullptr && !value->IsArray()) {
      issue(path, name, {"BASE_TYPE_ARRAY", "Must be an array."});
      return nullptr;
    }
    return value;
  }
  const rapidjson::Value* object(const rapidjson::Value& parent, const Path& path, const char* name) {
    const auto* value = member(parent, name);
    if (value != nullptr && !value->IsObject()) {
      issue(path, name, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
      return nullptr;
    }
    return value;
  }

  // A string member of `min` to `max` characters (`required`: it must be there).
  std::optional<std::string_view> text(const rapidjson::Value& o, const Path& path, const char* name,
                                       bool required, std::size_t min, std::size_t max) {
    const auto value = string(o, path, name);
    if (!value) {
      if (required && member(o, name) == nullptr) issue(path, name, required_field_issue());
      return std::nullopt;
    }
    const std::size_t length = utf8_length(*value);
    if (length < min || length > max) {
      issue(path, name,
            min == 0 ? too_many(max)
                     : FieldIssue{"BASE_TYPE_BAD_LENGTH", "Must be between " + std::to_string(min) + " and " +
                                                              std::to_string(max) + " in length."});
      return std::nullopt;
    }
    return value;
  }

  std::optional<std::int64_t> range(const rapidjson::Value& o, const Path& path, const char* name,
                                    std::int64_t min, std::int64_t max) {
    const auto value = integer(o, path, name);
    if (!value) return std::nullopt;
    if (*value < min)
      issue(path, name,
            {"NUMBER_TYPE_MIN", "Int value should be greater than or equal to " + std::to_string(min) + "."});
    if (*value > max)
      issue(path, name,
            {"NUMBER_TYPE_MAX", "Int value should be less than or equal to " + std::to_string(max) + "."});
    return value;
  }

  void count(const Path& path, std::size_t n, std::size_t min, std::size_t max) {
    if (n < min) issue(path, too_few(min));
    if (n > max) issue(path, too_many(max));
  }

  void custom_id(const rapidjson::Value& o, const Path& path) {
    const auto id = text(o, path, "custom_id", true, 1, kCustomIdMax);
    if (id && !custom_ids_.emplace(*id).second)
      issue(path, "custom_id",
            {"COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"});
  }

  void min_max_values(const rapidjson::Value& o, const Path& path, std::int64_t max) {
    const auto min_values = range(o, path, "min_values", 0, max);
    const auto max_values = range(o, path, "max_values", 1, max);
    if (min_values && max_values && *min_values > *max_values)
      issue(path, "min_values", {"NUMBER_TYPE_MAX", "Must not be greater than max_values."});
  }

  // In a modal, an input that may be skipped says so: min_values 0 needs required false.
  void min_zero_needs_optional(const rapidjson::Value& o, const Path& path) {
    if (surface_ != ComponentSurface::kModal) return;
    const auto* min_values = member(o, "min_values");
    const auto* required = member(o, "required");
    const bool optional = required != nullptr && required->IsBool() && !required->GetBool();
    if (min_values != nullptr && min_values->IsInt64() && min_values->GetInt64() == 0 && !optional)
      issue(path, "min_values", {"NUMBER_TYPE_MIN", "min_values 0 needs required set to false."});
  }

  void options(const rapidjson::Value& o, const Path& path, std::size_t min, std::size_t max, bool emoji) {
    const auto* list = array(o, path, "options");
    if (list == nullptr) {
      if (member(o, "options") == nullptr) issue(path, "options", required_field_issue());
      return;
    }
    const Path at = join(path, {"options"});
    count(at, list->Size(), min, max);
    for (rapidjson::SizeType k = 0; k < list->Size(); ++k) {
      const auto& option = (*list)[k];
      const Path item = join(at, {std::to_string(k)});
      if (!option.IsObject()) {
        issue(item, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
        continue;
      }
      text(option, item, "label", true, 1, kOptionTextMax);
      text(option, item, "value", true, 1, kOptionTextMax);
      text(option, item, "description", false, 0, kOptionTextMax);
      boolean(option, item, "default");
      if (object(option, item, "emoji") != nullptr && !emoji)
        issue(item, "emoji", not_allowed("Only String Select options have an emoji."));
    }
  }

  void media_url(const rapidjson::Value& o, const Path& path, const char* name, bool attachment_only) {
    const auto* media = object(o, path, name);
    if (media == nullptr) {
      if (member(o, name) == nullptr) issue(path, name, required_field_issue());
      return;
    }
    const Path at = join(path, {name});
    // An empty url is no url.
    const auto url = string(*media, at, "url");
    if (!url || url->empty()) {
      if (!url && member(*media, "url") != nullptr) return;  // not a string: recorded
      return issue(at, "url", required_field_issue());
    }
    constexpr std::string_view kAttachment = "attachment://";
    const bool attachment = url->starts_with(kAttachment) && url->size() > kAttachment.size();
    if (attachment_only && !attachment) {
      issue(at, "url", {"URL_TYPE_INVALID_PROTOCOL", "A File shows an attachment: attachment://<filename>."});
    } else if (!attachment && !url->starts_with("https://") && !url->starts_with("http://")) {
      issue(at, "url", {"URL_TYPE_INVALID_PROTOCOL", "Scheme must be http, https or attachment."});
    }
  }

  void children(const rapidjson::Value& list, const Path& path, Place place) {
    for (rapidjson::SizeType j = 0; j < list.Size(); ++j)
      one(list[j], join(path, {std::to_string(j)}), place);
  }

  // A required `components` array of `min` to `max` children standing at `place`; its size.
  std::size_t child_list(const rapidjson::Value& o, const Path& path, std::size_t min, std::size_t max,
                         Place place) {
    const auto* list = array(o, path, "components");
    if (list == nullptr) {
      if (member(o, "components") == nullptr) issue(path, "components", required_field_issue());
      return 0;
    }
    const Path at = join(path, {"components"});
    count(at, list->Size(), min, max);
    children(*list, at, place);
    return list->Size();
  }

  void row(const rapidjson::Value& o, const Path& path) {
    const auto* list = array(o, path, "components");
    if (list == nullptr) {
      if (member(o, "components") == nullptr) issue(path, "components", required_field_issue());
      return;
    }
    const Path at = join(path, {"components"});
    if (list->Empty()) issue(at, too_few(1));
    std::size_t buttons = 0;
    std::size_t others = 0;
    for (const auto& child : list->GetArray()) {
      const auto* t = member(child, "type");
      (t != nullptr && t->IsInt64() && t->GetInt64() == type::kButton ? buttons : others) += 1;
    }
    const bool fits = surface_ == ComponentSurface::kModal
                          ? list->Size() <= 1
                          : (others == 0 && buttons <= kRowButtonsMax) || (buttons == 0 && others <= 1);
    if (!fits)
      issue(at, {"COMPONENT_LAYOUT_WIDTH_EXCEEDED", surface_ == ComponentSurface::kModal
                                                        ? "An action row in a modal holds one Text Input."
                                                        : "Up to 5 buttons or one select, not mixed."});
    children(*list, at, Place::kRow);
  }

  void button(const rapidjson::Value& o, const Path& path) {
    const auto style = integer(o, path, "style");
    if (!style) {
      if (member(o, "style") == nullptr) issue(path, "style", required_field_issue());
      return;
    }
    if (*style < 1 || *style > kPremiumStyle)
      return issue(path, "style", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}."});
    text(o, path, "label", false, 0, kButtonLabelMax);
    const bool has_custom_id = member(o, "custom_id") != nullptr;
    const bool has_url = member(o, "url") != nullptr;
    const bool has_sku = member(o, "sku_id") != nullptr;
    if (*style == kLinkStyle) {
      const auto url = string(o, path, "url");
      if (!has_url || (url && url->empty())) issue(path, "url", required_field_issue());
      if (has_custom_id) issue(path, "custom_id", not_allowed("A Link button has no custom_id."));
      if (has_sku) issue(path, "sku_id", not_allowed("Only Premium buttons have a sku_id."));
    } else if (*style == kPremiumStyle) {
      sku(o, path);
      if (has_custom_id) issue(path, "custom_id", not_allowed("A Premium button has no custom_id."));
      if (member(o, "label") != nullptr) issue(path, "label", not_allowed("A Premium button has no label."));
      if (member(o, "emoji") != nullptr) issue(path, "emoji", not_allowed("A Premium button has no emoji."));
      if (has_url) issue(path, "url", not_allowed("A Premium button has no url."));
    } else {
      custom_id(o, path);
      if (has_url) issue(path, "url", not_allowed("Only Link buttons have a url."));
      if (has_sku) issue(path, "sku_id", not_allowed("Only Premium buttons have a sku_id."));
    }
    object(o, path, "emoji");
    boolean(o, path, "disabled");
  }

  // A Premium button's SKU: a snowflake naming a SKU the application has published.
  void sku(const rapidjson::Value& o, const Path& path) {
    const auto* value = member(o, "sku_id");
    if (value == nullptr) return issue(path, "sku_id", required_field_issue());
    const bool digits = value->IsString() && value->GetStringLength() > 0 &&
                        std::all_of(value->GetString(), value->GetString() + value->GetStringLength(),
                                    [](char c) { return c >= '0' && c <= '9'; });
    // Snowflakes are strings on the wire; the platform takes a JSON integer too.
    if (!digits && !value->IsUint64())
      return issue(path, "sku_id", {"NUMBER_TYPE_COERCE", "Value is not snowflake."});
    const std::string id = digits ? std::string(value->GetString(), value->GetStringLength())
                                  : std::to_string(value->GetUint64());
    if (sku_published_ && !sku_published_(id))
      issue(path, "sku_id", {"COMPONENT_INVALID_SKU", "Unknown SKU, or not published by this application."});
  }

  void select(const rapidjson::Value& o, const Path& path, std::int64_t t) {
    custom_id(o, path);
    text(o, path, "placeholder", false, 0, kPlaceholderMax);
    min_max_values(o, path, kSelectValuesMax);
    boolean(o, path, "required");
    if (surface_ == ComponentSurface::kModal) {
      if (member(o, "disabled") != nullptr)
        issue(path, "disabled", not_allowed("Modals cannot have disabled components."));
      min_zero_needs_optional(o, path);
    } else {
      boolean(o, path, "disabled");
    }
    if (t == type::kStringSelect) return options(o, path, 1, kSelectOptionsMax, true);
    if (const auto* types = array(o, path, "channel_types")) {
      if (t != type::kChannelSelect)
        issue(path, "channel_types", not_allowed("Only Channel Selects have channel_types."));
      for (rapidjson::SizeType k = 0; k < types->Size(); ++k)
        if (!(*types)[k].IsInt())
          issue(join(path, {"channel_types", std::to_string(k)}),
                {"NUMBER_TYPE_COERCE", "Value is not int."});
    }
    default_values(o, path, t);
  }

  void default_values(const rapidjson::Value& o, const Path& path, std::int64_t t) {
    const auto* list = array(o, path, "default_values");
    if (list == nullptr || list->Empty()) return;
    const Path at = join(path, {"default_values"});
    const auto n = static_cast<std::int64_t>(list->Size());
    const auto* min_values = member(o, "min_values");
    const auto* max_values = member(o, "max_values");
    const std::int64_t min = min_values != nullptr && min_values->IsInt64() ? min_values->GetInt64() : 1;
    const std::int64_t max = max_values != nullptr && max_values->IsInt64() ? max_values->GetInt64() : 1;
    if (n < min || n > max)
      issue(at, {"BASE_TYPE_BAD_LENGTH", "Must be between min_values and max_values in length."});
    for (rapidjson::SizeType k = 0; k < list->Size(); ++k) {
      const auto& value = (*list)[k];
      const Path item = join(at, {std::to_string(k)});
      if (!value.IsObject()) {
        issue(item, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
        continue;
      }
      if (member(value, "id") == nullptr) issue(item, "id", required_field_issue());
      const auto kind = string(value, item, "type");
      if (!kind) {
        if (member(value, "type") == nullptr) issue(item, "type", required_field_issue());
        continue;
      }
      const bool fits = (t == type::kUserSelect && *kind == "user") ||
                        (t == type::kRoleSelect && *kind == "role") ||
                        (t == type::kMentionableSelect && (*kind == "user" || *kind == "role")) ||
                        (t == type::kChannelSelect && *kind == "channel");
      if (!fits) issue(item, "type", {"BASE_TYPE_CHOICES", "Not a kind of value this select offers."});
    }
  }

  void text_input(const rapidjson::Value& o, const Path& path, Place place) {
    custom_id(o, path);
    const auto style = integer(o, path, "style");
    if (!style && member(o, "style") == nullptr) issue(path, "style", required_field_issue());
    if (style && *style != 1 && *style != 2)
      issue(path, "style", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2}."});
    if (place == Place::kLabelChild) {
      if (member(o, "label") != nullptr)
        issue(path, "label", not_allowed("A Text Input inside a Label has no label of its own."));
    } else {
      text(o, path, "label", true, 1, kLabelMax);
    }
    const auto min_length = range(o, path, "min_length", 0, kTextInputLengthMax);
    const auto max_length = range(o, path, "max_length", 1, kTextInputLengthMax);
    if (min_length && max_length && *min_length > *max_length)
      issue(path, "min_length", {"NUMBER_TYPE_MAX", "Must not be greater than max_length."});
    text(o, path, "value", false, 0, static_cast<std::size_t>(kTextInputLengthMax));
    text(o, path, "placeholder", false, 0, kTextInputPlaceholderMax);
    boolean(o, path, "required");
  }

  void file_upload(const rapidjson::Value& o, const Path& path) {
    custom_id(o, path);
    min_max_values(o, path, kFilesMax);
    boolean(o, path, "required");
    min_zero_needs_optional(o, path);
    const auto* types = array(o, path, "file_types");
    if (types == nullptr) return;
    if (types->Size() > kFileTypesMax) issue(path, "file_types", too_many(kFileTypesMax));
    for (rapidjson::SizeType f = 0; f < types->Size(); ++f) {
      const auto& value = (*types)[f];
      const std::string_view file_type = value.IsString()
                                             ? std::string_view(value.GetString(), value.GetStringLength())
                                             : std::string_view();
      const bool category = file_type == "image" || file_type == "video" || file_type == "audio";
      if (!category && (file_type.size() < 2 || file_type[0] != '.'))
        issue(join(path, {"file_types", std::to_string(f)}),
              {"BASE_TYPE_CHOICES", "Must be image, video, audio or an extension such as .pdf."});
    }
  }

  // The one child of a Section (accessory) or a Label (component).
  void only_child(const rapidjson::Value& o, const Path& path, const char* name, Place place) {
    const auto* child = member(o, name);
    if (child == nullptr) return issue(path, name, required_field_issue());
    one(*child, join(path, {name}), place);
  }

  void one(const rapidjson::Value& o, const Path& path, Place place) {
    ++total_;
    if (!o.IsObject())
      return issue(path, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
    const auto t = integer(o, path, "type");
    if (!t) {
      if (member(o, "type") == nullptr) issue(path, "type", required_field_issue());
      return;
    }
    if (!allowed(place, surface_, *t)) {
      return issue(
          path, "type",
          {"UNION_TYPE_CHOICES", "Component type " + std::to_string(*t) + " is not allowed here in " +
                                     std::string(surface_name(surface_)) + "."});
    }
    if (const auto* id = member(o, "id")) {
      if (!id->IsInt()) {
        issue(path, "id", {"NUMBER_TYPE_COERCE", "Value is not int."});
      } else if (id->GetInt() != 0 && !ids_.insert(id->GetInt()).second) {
        issue(path, "id", {"COMPONENT_ID_DUPLICATED", "Component id cannot be duplicated"});
      }
    }
    switch (*t) {
      case type::kActionRow:
        return row(o, path);
      case type::kButton:
        return button(o, path);
      case type::kTextInput:
        return text_input(o, path, place);
      case type::kSection:
        child_list(o, path, 1, kSectionTextsMax, Place::kSectionText);
        return only_child(o, path, "accessory", Place::kAccessory);
      case type::kTextDisplay:
        text(o, path, "content", true, 1, kTextDisplayMax);
        return;
      case type::kThumbnail:
        media_url(o, path, "media", false);
        text(o, path, "description", false, 0, kAltTextMax);
        boolean(o, path, "spoiler");
        return;
      case type::kMediaGallery:
        return gallery(o, path);
      case type::kFile:
        media_url(o, path, "file", true);
        boolean(o, path, "spoiler");
        return;
      case type::kSeparator:
        boolean(o, path, "divider");
        if (const auto spacing = integer(o, path, "spacing"); spacing && *spacing != 1 && *spacing != 2)
          issue(path, "spacing", {"BASE_TYPE_CHOICES", "Value must be one of {1, 2}."});
        return;
      case type::kContainer:
        range(o, path, "accent_color", 0, kAccentColorMax);
        boolean(o, path, "spoiler");
        child_list(o, path, 1, SIZE_MAX, Place::kContainerChild);
        return;
      case type::kLabel:
        text(o, path, "label", true, 1, kLabelMax);
        text(o, path, "description", false, 0, kLabelDescriptionMax);
        return only_child(o, path, "component", Place::kLabelChild);
      case type::kFileUpload:
        return file_upload(o, path);
      case type::kRadioGroup:
        custom_id(o, path);
        boolean(o, path, "required");
        return options(o, path, kRadioOptionsMin, kGroupOptionsMax, false);
      case type::kCheckboxGroup:
        custom_id(o, path);
        options(o, path, 1, kGroupOptionsMax, false);
        min_max_values(o, path, kCheckboxValuesMax);
        boolean(o, path, "required");
        return min_zero_needs_optional(o, path);
      case type::kCheckbox:
        custom_id(o, path);
        boolean(o, path, "default");
        if (member(o, "required") != nullptr)
          issue(path, "required", not_allowed("A Checkbox cannot be required (use a Checkbox Group)."));
        return;
      default:
        return select(o, path, *t);
    }
  }

  void gallery(const rapidjson::Value& o, const Path& path) {
    const auto* items = array(o, path, "items");
    if (items == nullptr) {
      if (member(o, "items") == nullptr) issue(path, "items", required_field_issue());
      return;
    }
    const Path at = join(path, {"items"});
    count(at, items->Size(), 1, kGalleryItemsMax);
    for (rapidjson::SizeType k = 0; k < items->Size(); ++k) {
      const Path item = join(at, {std::to_string(k)});
      if (!(*items)[k].IsObject()) {
        issue(item, {"DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"});
        continue;
      }
      media_url((*items)[k], item, "media", false);
      text((*items)[k], item, "description", false, 0, kAltTextMax);
      boolean((*items)[k], item, "spoiler");
    }
  }

  ComponentSurface surface_;
  FieldErrors& errors_;
  const SkuPublished& sku_published_;
  std::set<std::string, std::less<>> custom_ids_;
  std::set<int> ids_;
  std::size_t total_ = 0;
};

// Calls `visit` on `component` and every component under it, down to kStoredDepthMax.
template <class Visit>
void walk_one(const rapidjson::Value& component, Visit& visit, int depth) {
  if (depth >= kStoredDepthMax || !component.IsObject()) return;
  visit(component);
  if (const auto* children = member(component, "components"); children != nullptr && children->IsArray()) {
    for (const auto& child : children->GetArray())
      walk_one(child, visit, depth + 1);
  }
  for (const char* single : {"accessory", "component"}) {
    if (const auto* child = member(component, single)) walk_one(*child, visit, depth + 1);
  }
}

template <class Visit>
void walk(const rapidjson::Value& components, Visit& visit) {
  if (!components.IsArray()) return;
  for (const auto& component : components.GetArray())
    walk_one(component, visit, 0);
}

std::optional<std::string_view> media_url_of(const rapidjson::Value* media) {
  if (media == nullptr) return std::nullopt;
  const auto* url = member(*media, "url");
  if (url == nullptr || !url->IsString()) return std::nullopt;
  return std::string_view(url->GetString(), url->GetStringLength());
}

}  // namespace

void check_components(const rapidjson::Value& components, ComponentSurface surface, FieldErrors& errors,
                      const std::vector<std::string>& path, const SkuPublished& sku_published) {
  Checker(surface, errors, sku_published).top(components, path);
}

std::vector<std::string> referenced_attachments(const rapidjson::Value& components) {
  std::vector<std::string> names;
  const auto add = [&names](std::optional<std::string_view> url) {
    constexpr std::string_view kAttachment = "attachment://";
    if (!url || !url->starts_with(kAttachment) || url->size() == kAttachment.size()) return;
    std::string name(url->substr(kAttachment.size()));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  };
  auto visit = [&add](const rapidjson::Value& component) {
    const auto* t = member(component, "type");
    if (t == nullptr || !t->IsInt64()) return;
    if (t->GetInt64() == type::kThumbnail) add(media_url_of(member(component, "media")));
    if (t->GetInt64() == type::kFile) add(media_url_of(member(component, "file")));
    if (const auto* items = member(component, "items");
        t->GetInt64() == type::kMediaGallery && items != nullptr && items->IsArray()) {
      for (const auto& item : items->GetArray())
        add(media_url_of(member(item, "media")));
    }
  };
  walk(components, visit);
  return names;
}

const rapidjson::Value* find_component(const rapidjson::Value& components, std::string_view custom_id) {
  const rapidjson::Value* found = nullptr;
  auto visit = [&](const rapidjson::Value& component) {
    const auto* id = member(component, "custom_id");
    if (found == nullptr && id != nullptr && id->IsString() &&
        std::string_view(id->GetString(), id->GetStringLength()) == custom_id)
      found = &component;
  };
  walk(components, visit);
  return found;
}

}  // namespace platformpp::emulator
