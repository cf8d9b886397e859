#include "backend/component_json.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

namespace platformpp::backend {
namespace {

// Unknown members deeper than this are dropped rather than kept: writing them back walks them recursively.
constexpr int kMaxKeptDepth = 32;

void Key(ComponentWriter& w, std::string_view key) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}

void Text(ComponentWriter& w, std::string_view key, const std::string& text) {
  Key(w, key);
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void OptionalText(ComponentWriter& w, std::string_view key, const std::optional<std::string>& text) {
  if (text) Text(w, key, *text);
}

template <typename Int>
void OptionalInt(ComponentWriter& w, std::string_view key, const std::optional<Int>& value) {
  if (!value) return;
  Key(w, key);
  w.Int64(static_cast<int64_t>(*value));
}

void OptionalBool(ComponentWriter& w, std::string_view key, const std::optional<bool>& value) {
  if (!value) return;
  Key(w, key);
  w.Bool(*value);
}

// Snowflakes are strings on the wire.
void Snowflake(ComponentWriter& w, std::string_view key, uint64_t id) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
  Key(w, key);
  w.String(digits, static_cast<rapidjson::SizeType>(end - digits));
}

// Members kept from the platform, spliced back into the object being written.
void Unknown(ComponentWriter& w, const std::string& membersJson) {
  if (membersJson.empty()) return;
  // Numbers read exactly, so that they come back as the writer printed them (the writer prints the shortest
  // text that reads back to the same double).
  json::Document kept;
  if (!json::Parse(membersJson, kept) || !kept.IsObject()) return;
  for (const auto& member : kept.GetObject()) {
    w.Key(member.name.GetString(), member.name.GetStringLength());
    member.value.Accept(w);
  }
}

void WriteEmoji(ComponentWriter& w, const PartialEmoji& emoji) {
  Key(w, "emoji");
  w.StartObject();
  if (emoji.id) Snowflake(w, "id", *emoji.id);
  Text(w, "name", emoji.name);
  if (emoji.animated) {
    Key(w, "animated");
    w.Bool(true);
  }
  w.EndObject();
}

void Media(ComponentWriter& w, std::string_view key, const UnfurledMediaItem& media) {
  Key(w, key);
  w.StartObject();
  Text(w, "url", media.url);
  OptionalText(w, "proxy_url", media.proxyUrl);
  OptionalInt(w, "width", media.width);
  OptionalInt(w, "height", media.height);
  OptionalText(w, "content_type", media.contentType);
  if (media.attachmentId) Snowflake(w, "attachment_id", *media.attachmentId);
  Unknown(w, media.unknownFieldsJson);
  w.EndObject();
}

void Options(ComponentWriter& w, const std::vector<SelectOption>& options) {
  Key(w, "options");
  w.StartArray();
  for (const auto& option : options) {
    w.StartObject();
    Text(w, "label", option.label);
    Text(w, "value", option.value);
    OptionalText(w, "description", option.description);
    if (option.emoji) WriteEmoji(w, *option.emoji);
    if (option.isDefault) {
      Key(w, "default");
      w.Bool(true);
    }
    w.EndObject();
  }
  w.EndArray();
}

std::string_view DefaultValueTypeName(SelectDefaultValueType type) {
  switch (type) {
    case SelectDefaultValueType::Role:
      return "role";
    case SelectDefaultValueType::Channel:
      return "channel";
    case SelectDefaultValueType::User:
      break;
  }
  return "user";
}

// ---- Reading ----------------------------------------------------------------------------------------------

std::string_view Name(const json::Value::Member& member) {
  return {member.name.GetString(), member.name.GetStringLength()};
}

std::optional<std::string> AsString(const json::Value& value) {
  if (!value.IsString()) return std::nullopt;
  return std::string(value.GetString(), value.GetStringLength());
}

template <typename Int>
std::optional<Int> AsInt(const json::Value& value) {
  if (!value.IsInt64()) return std::nullopt;
  const int64_t number = value.GetInt64();
  if (number < std::numeric_limits<Int>::min() || number > std::numeric_limits<Int>::max())
    return std::nullopt;
  return static_cast<Int>(number);
}

std::optional<bool> AsBool(const json::Value& value) {
  if (!value.IsBool()) return std::nullopt;
  return value.GetBool();
}

// Whether `value` nests no deeper than `limit`, found without recursion (input may be hostile).
bool ShallowerThan(const json::Value& value, int limit) {
  std::vector<std::pair<const json::Value*, int>> pending{{&value, 0}};
  while (!pending.empty()) {
    const auto [node, depth] = pending.back();
    pending.pop_back();
    if (depth > limit) return false;
    if (node->IsArray()) {
      for (const auto& item : node->GetArray())
        pending.emplace_back(&item, depth + 1);
    } else if (node->IsObject()) {
      for (const auto& member : node->GetObject())
        pending.emplace_back(&member.value, depth + 1);
    }
  }
  return true;
}

// Collects the members a reader does not know, as a JSON object text.
class Leftovers {
 public:
  void Keep(const json::Value::Member& member) {
    if (!ShallowerThan(member.value, kMaxKeptDepth)) return;
    if (!started_) {
      writer_.StartObject();
      started_ = true;
    }
    writer_.Key(member.name.GetString(), member.name.GetStringLength());
    member.value.Accept(writer_);
  }
  std::string Take() {
    if (!started_) return {};
    writer_.EndObject();
    return {buffer_.GetString(), buffer_.GetSize()};
  }

 private:
  rapidjson::StringBuffer buffer_;
  ComponentWriter writer_{buffer_};
  bool started_ = false;
};

std::optional<PartialEmoji> ReadEmoji(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  PartialEmoji emoji;
  emoji.id = json::GetSnowflake(value, "id");
  emoji.name = std::string(json::GetString(value, "name").value_or(""));
  emoji.animated = json::GetBool(value, "animated").value_or(false);
  return emoji;
}

std::optional<UnfurledMediaItem> ReadMedia(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  UnfurledMediaItem media;
  Leftovers leftovers;
  for (const auto& member : value.GetObject()) {
    const std::string_view name = Name(member);
    const json::Value& v = member.value;
    if (name == "url") {
      if (auto text = AsString(v)) media.url = std::move(*text);
    } else if (name == "proxy_url") {
      media.proxyUrl = AsString(v);
    } else if (name == "width") {
      media.width = AsInt<int32_t>(v);
    } else if (name == "height") {
      media.height = AsInt<int32_t>(v);
    } else if (name == "content_type") {
      media.contentType = AsString(v);
    } else if (name == "attachment_id") {
      media.attachmentId = json::AsSnowflake(v);
    } else {
      leftovers.Keep(member);
    }
  }
  media.unknownFieldsJson = leftovers.Take();
  return media;
}

std::vector<SelectOption> ReadOptions(const json::Value& value) {
  std::vector<SelectOption> options;
  if (!value.IsArray()) return options;
  for (const auto& item : value.GetArray()) {
    if (!item.IsObject()) continue;
    SelectOption option;
    option.label = std::string(json::GetString(item, "label").value_or(""));
    option.value = std::string(json::GetString(item, "value").value_or(""));
    if (auto description = json::GetString(item, "description"))
      option.description = std::string(*description);
    if (const json::Value* emoji = json::Member(item, "emoji")) option.emoji = ReadEmoji(*emoji);
    option.isDefault = json::GetBool(item, "default").value_or(false);
    options.push_back(std::move(option));
  }
  return options;
}

std::vector<SelectDefaultValue> ReadDefaultValues(const json::Value& value) {
  std::vector<SelectDefaultValue> values;
  if (!value.IsArray()) return values;
  for (const auto& item : value.GetArray()) {
    if (!item.IsObject()) continue;
    const auto id = json::GetSnowflake(item, "id");
    const auto type = json::GetString(item, "type");
    if (!id || !type) continue;
    SelectDefaultValue entry{*id, SelectDefaultValueType::User};
    if (*type == "role") {
      entry.type = SelectDefaultValueType::Role;
    } else if (*type == "channel") {
      entry.type = SelectDefaultValueType::Channel;
    } else if (*type != "user") {
      continue;
    }
    values.push_back(entry);
  }
  return values;
}

std::vector<MediaGalleryItem> ReadItems(const json::Value& value) {
  std::vector<MediaGalleryItem> items;
  if (!value.IsArray()) return items;
  for (const auto& item : value.GetArray()) {
    if (!item.IsObject()) continue;
    MediaGalleryItem entry;
    if (const json::Value* media = json::Member(item, "media")) {
      if (auto read = ReadMedia(*media)) entry.media = std::move(*read);
    }
    if (auto description = json::GetString(item, "description"))
      entry.description = std::string(*description);
    entry.spoiler = json::GetBool(item, "spoiler").value_or(false);
    items.push_back(std::move(entry));
  }
  return items;
}

template <typename T, typename Read>
std::vector<T> ReadArray(const json::Value& value, Read read) {
  std::vector<T> out;
  if (!value.IsArray()) return out;
  for (const auto& item : value.GetArray()) {
    if (auto element = read(item)) out.push_back(std::move(*element));
  }
  return out;
}

std::optional<Component> Read(const json::Value& value, int depth);

std::vector<Component> ReadChildren(const json::Value& value, int depth) {
  std::vector<Component> children;
  if (depth + 1 >= kMaxComponentDepth) return children;
  if (value.IsArray()) {
    for (const auto& item : value.GetArray()) {
      if (auto child = Read(item, depth + 1)) children.push_back(std::move(*child));
    }
  } else if (auto child = Read(value, depth + 1)) {
    children.push_back(std::move(*child));
  }
  return children;
}

std::optional<Component> Read(const json::Value& value, int depth) {
  if (!value.IsObject()) return std::nullopt;
  const auto type = json::GetInt(value, "type");
  if (!type || *type < std::numeric_limits<int32_t>::min() || *type > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  Component c;
  c.type = static_cast<ComponentType>(*type);
  Leftovers leftovers;
  for (const auto& member : value.GetObject()) {
    const std::string_view name = Name(member);
    const json::Value& v = member.value;
    if (name == "type") {
      continue;
    } else if (name == "id") {
      c.id = AsInt<int32_t>(v);
    } else if (name == "custom_id") {
      c.customId = AsString(v);
    } else if (name == "style") {
      c.style = AsInt<int32_t>(v);
    } else if (name == "label") {
      c.label = AsString(v);
    } else if (name == "emoji") {
      c.emoji = ReadEmoji(v);
    } else if (name == "url") {
      c.url = AsString(v);
    } else if (name == "sku_id") {
      c.skuId = json::AsSnowflake(v);
    } else if (name == "disabled") {
      c.disabled = AsBool(v);
    } else if (name == "placeholder") {
      c.placeholder = AsString(v);
    } else if (name == "min_values") {
      c.minValues = AsInt<int32_t>(v);
    } else if (name == "max_values") {
      c.maxValues = AsInt<int32_t>(v);
    } else if (name == "options") {
      c.options = ReadOptions(v);
    } else if (name == "channel_types") {
      c.channelTypes = ReadArray<int32_t>(v, [](const json::Value& item) { return AsInt<int32_t>(item); });
    } else if (name == "default_values") {
      c.defaultValues = ReadDefaultValues(v);
    } else if (name == "required") {
      c.required = AsBool(v);
    } else if (name == "min_length") {
      c.minLength = AsInt<int32_t>(v);
    } else if (name == "max_length") {
      c.maxLength = AsInt<int32_t>(v);
    } else if (name == "value") {
      // A Text Input's or Radio Group's text, or a submitted Checkbox's state.
      if (v.IsBool()) {
        c.checked = v.GetBool();
      } else {
        c.value = AsString(v);
      }
    } else if (name == "values") {
      c.values = ReadArray<std::string>(v, [](const json::Value& item) { return AsString(item); });
    } else if (name == "content") {
      c.content = AsString(v);
    } else if (name == "description") {
      c.description = AsString(v);
    } else if (name == "media") {
      c.media = ReadMedia(v);
    } else if (name == "spoiler") {
      c.spoiler = AsBool(v);
    } else if (name == "divider") {
      c.divider = AsBool(v);
    } else if (name == "spacing") {
      c.spacing = AsInt<int32_t>(v);
    } else if (name == "accent_color") {
      c.accentColor = AsInt<int64_t>(v);
    } else if (name == "items") {
      c.items = ReadItems(v);
    } else if (name == "file") {
      c.file = ReadMedia(v);
    } else if (name == "name") {
      c.fileName = AsString(v);
    } else if (name == "size") {
      c.fileSize = AsInt<int64_t>(v);
    } else if (name == "file_types") {
      c.fileTypes = ReadArray<std::string>(v, [](const json::Value& item) { return AsString(item); });
    } else if (name == "default") {
      c.isDefault = AsBool(v);
    } else if (name == "accessory") {
      if (v.IsObject()) c.accessory = ReadChildren(v, depth);
    } else if (name == "components") {
      if (v.IsArray()) c.components = ReadChildren(v, depth);
    } else if (name == "component") {
      if (v.IsObject()) c.component = ReadChildren(v, depth);
    } else {
      leftovers.Keep(member);
    }
  }
  c.unknownFieldsJson = leftovers.Take();
  return c;
}

}  // namespace

void WriteComponent(ComponentWriter& w, const Component& c) {
  w.StartObject();
  Key(w, "type");
  w.Int(static_cast<int>(c.type));
  OptionalInt(w, "id", c.id);
  OptionalText(w, "custom_id", c.customId);
  OptionalInt(w, "style", c.style);
  OptionalText(w, "label", c.label);
  if (c.emoji) WriteEmoji(w, *c.emoji);
  OptionalText(w, "url", c.url);
  if (c.skuId) Snowflake(w, "sku_id", *c.skuId);
  OptionalBool(w, "disabled", c.disabled);
  OptionalText(w, "placeholder", c.placeholder);
  OptionalInt(w, "min_values", c.minValues);
  OptionalInt(w, "max_values", c.maxValues);
  if (!c.options.empty()) Options(w, c.options);
  if (!c.channelTypes.empty()) {
    Key(w, "channel_types");
    w.StartArray();
    for (const int32_t type : c.channelTypes)
      w.Int(type);
    w.EndArray();
  }
  if (!c.defaultValues.empty()) {
    Key(w, "default_values");
    w.StartArray();
    for (const auto& value : c.defaultValues) {
      w.StartObject();
      Snowflake(w, "id", value.id);
      const std::string_view type = DefaultValueTypeName(value.type);
      Key(w, "type");
      w.String(type.data(), static_cast<rapidjson::SizeType>(type.size()));
      w.EndObject();
    }
    w.EndArray();
  }
  OptionalBool(w, "required", c.required);
  OptionalInt(w, "min_length", c.minLength);
  OptionalInt(w, "max_length", c.maxLength);
  if (c.value) {
    Text(w, "value", *c.value);
  } else if (c.checked) {
    OptionalBool(w, "value", c.checked);
  }
  if (!c.values.empty()) {
    Key(w, "values");
    w.StartArray();
    for (const auto& value : c.values)
      w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
    w.EndArray();
  }
  OptionalText(w, "content", c.content);
  OptionalText(w, "description", c.description);
  if (c.media) Media(w, "media", *c.media);
  OptionalBool(w, "spoiler", c.spoiler);
  OptionalBool(w, "divider", c.divider);
  OptionalInt(w, "spacing", c.spacing);
  OptionalInt(w, "accent_color", c.accentColor);
  if (!c.items.empty()) {
    Key(w, "items");
    w.StartArray();
    for (const auto& item : c.items) {
      w.StartObject();
      Media(w, "media", item.media);
      OptionalText(w, "description", item.description);
      if (item.spoiler) {
        Key(w, "spoiler");
        w.Bool(true);
      }
      w.EndObject();
    }
    w.EndArray();
  }
  if (c.file) Media(w, "file", *c.file);
  OptionalText(w, "name", c.fileName);
  OptionalInt(w, "size", c.fileSize);
  if (!c.fileTypes.empty()) {
    Key(w, "file_types");
    w.StartArray();
    for (const auto& type : c.fileTypes)
      w.String(type.data(), static_cast<rapidjson::SizeType>(type.size()));
    w.EndArray();
  }
  OptionalBool(w, "default", c.isDefault);
  if (!c.accessory.empty()) {
    Key(w, "accessory");
    WriteComponent(w, c.accessory.front());
  }
  // Containers of children always write the array, even empty: the platform requires the member.
  const bool hasChildren = c.type == ComponentType::ActionRow || c.type == ComponentType::Section ||
                           c.type == ComponentType::Container;
  if (hasChildren || !c.components.empty()) {
    Key(w, "components");
    WriteComponents(w, c.components);
  }
  if (!c.component.empty()) {
    Key(w, "component");
    WriteComponent(w, c.component.front());
  }
  Unknown(w, c.unknownFieldsJson);
  w.EndObject();
}

void WriteComponents(ComponentWriter& w, const std::vector<Component>& components) {
  w.StartArray();
  for (const auto& component : components)
    WriteComponent(w, component);
  w.EndArray();
}

std::string ComponentsJson(const std::vector<Component>& components) {
  rapidjson::StringBuffer buffer;
  ComponentWriter writer(buffer);
  WriteComponents(writer, components);
  return {buffer.GetString(), buffer.GetSize()};
}

json::Value ComponentsValue(const std::vector<Component>& components,
                            json::Document::AllocatorType& allocator) {
  json::Document parsed;
  // Our own output always parses; an empty array stands in should it ever not.
  if (!json::Parse(ComponentsJson(components), parsed) || !parsed.IsArray())
    return json::Value(rapidjson::kArrayType);
  return json::Value(parsed, allocator);
}

std::optional<Component> ParseComponent(const json::Value& value) {
  return Read(value, 0);
}

std::vector<Component> ParseComponents(const json::Value& value) {
  std::vector<Component> components;
  if (!value.IsArray()) return components;
  for (const auto& item : value.GetArray()) {
    if (auto component = Read(item, 0)) components.push_back(std::move(*component));
  }
  return components;
}

}  // namespace platformpp::backend
