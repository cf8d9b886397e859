#include "social/social_json.hpp"

#include "core/utf8.hpp"

#include <algorithm>
#include <tuple>

namespace platformpp::social {
namespace {

std::string StringOr(const json::Value& object, std::string_view name) {
  auto value = json::GetString(object, name);
  return value ? std::string(*value) : std::string();
}

char Lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr int32_t kChannelCategory = 4;
bool IsVoiceLike(int32_t type) {
  return type == 2 || type == 13;  // voice, stage
}

}  // namespace

std::optional<UserRecord> ParseUser(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto id = json::GetSnowflake(value, "id");
  auto username = json::GetString(value, "username");
  if (!id || *id == 0 || !username) return std::nullopt;
  UserRecord user;
  user.id = *id;
  user.username = std::string(*username);
  user.globalName = StringOr(value, "global_name");
  user.avatar = StringOr(value, "avatar");
  user.provisional = json::GetBool(value, "provisional").value_or(false);
  auto premium = json::GetInt(value, "premium_type");
  if (premium && *premium >= 0 && *premium <= INT32_MAX) user.premiumType = static_cast<int32_t>(*premium);
  if (const json::Value* guild = json::Member(value, "primary_guild"); guild && guild->IsObject()) {
    std::string tag = StringOr(*guild, "tag");
    auto length = core::CountCodePoints(tag);
    // A guild tag is 1 to 4 characters; anything else is not shown.
    if (length && *length >= 1 && *length <= 4) user.primaryGuildTag = std::move(tag);
  }
  return user;
}

void MergePartialUser(const json::Value& value, UserRecord& record) {
  if (!value.IsObject()) return;
  if (auto username = json::GetString(value, "username")) record.username = std::string(*username);
  if (const json::Value* name = json::Member(value, "global_name")) {
    record.globalName = name->IsString() ? std::string(name->GetString(), name->GetStringLength()) : "";
  }
  if (const json::Value* avatar = json::Member(value, "avatar")) {
    record.avatar = avatar->IsString() ? std::string(avatar->GetString(), avatar->GetStringLength()) : "";
  }
}

std::optional<RelationshipType> RelationshipTypeFromWire(int64_t type) {
  if (type < 0 || type > 6) return std::nullopt;
  return static_cast<RelationshipType>(type);
}

StatusType StatusFromWire(std::string_view status, bool self) {
  if (status == "online") return StatusType::Online;
  if (status == "idle") return StatusType::Idle;
  if (status == "dnd") return StatusType::Dnd;
  if (status == "offline") return StatusType::Offline;
  if (status == "invisible") return self ? StatusType::Invisible : StatusType::Offline;
  return self ? StatusType::Unknown : StatusType::Offline;
}

std::optional<GuildMinimal> ParseGuild(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  if (!id || *id == 0) return std::nullopt;
  return GuildMinimal(*id, StringOr(value, "name"), StringOr(value, "banner"));
}

std::optional<GuildChannel> ParseChannel(const json::Value& value) {
  auto id = json::GetSnowflake(value, "id");
  auto type = json::GetInt(value, "type");
  if (!id || *id == 0 || !type || *type < 0 || *type > INT32_MAX) return std::nullopt;
  int64_t position = json::GetInt(value, "position").value_or(0);
  position = std::clamp<int64_t>(position, INT32_MIN, INT32_MAX);
  std::optional<uint64_t> parent = json::GetSnowflake(value, "parent_id");
  if (parent && *parent == 0) parent.reset();
  return GuildChannel(*id, StringOr(value, "name"), static_cast<int32_t>(*type),
                      static_cast<int32_t>(position), parent);
}

void SortChannels(std::vector<GuildChannel>& channels) {
  std::vector<uint64_t> categories;
  for (const auto& channel : channels) {
    if (channel.Type() == kChannelCategory) categories.push_back(channel.Id());
  }
  std::sort(categories.begin(), categories.end());
  auto isCategory = [&](uint64_t id) { return std::binary_search(categories.begin(), categories.end(), id); };
  std::vector<GuildChannel> categoryList;
  for (const auto& channel : channels) {
    if (channel.Type() == kChannelCategory) categoryList.push_back(channel);
  }
  auto byPosition = [](const GuildChannel& a, const GuildChannel& b) {
    return std::make_tuple(IsVoiceLike(a.Type()), a.Position(), a.Id()) <
           std::make_tuple(IsVoiceLike(b.Type()), b.Position(), b.Id());
  };
  std::sort(categoryList.begin(), categoryList.end(), [](const GuildChannel& a, const GuildChannel& b) {
    return std::make_pair(a.Position(), a.Id()) < std::make_pair(b.Position(), b.Id());
  });
  auto groupOf = [&](const GuildChannel& channel) -> uint64_t {
    auto parent = channel.ParentCategoryId();
    return parent && isCategory(*parent) ? *parent : 0;
  };
  std::vector<GuildChannel> sorted;
  sorted.reserve(channels.size());
  auto appendChildren = [&](uint64_t group) {
    std::vector<GuildChannel> children;
    for (const auto& channel : channels) {
      if (channel.Type() != kChannelCategory && groupOf(channel) == group) children.push_back(channel);
    }
    std::sort(children.begin(), children.end(), byPosition);
    sorted.insert(sorted.end(), children.begin(), children.end());
  };
  appendChildren(0);
  for (const auto& category : categoryList) {
    sorted.push_back(category);
    appendChildren(category.Id());
  }
  channels = std::move(sorted);
}

std::optional<UserApplicationProfileHandle::Data> ParseApplicationProfile(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  auto providerType = json::GetString(value, "provider_type");
  auto issuedId = json::GetString(value, "provider_issued_user_id");
  if (!providerType || !issuedId) return std::nullopt;
  UserApplicationProfileHandle::Data data;
  data.providerType = std::string(*providerType);
  data.providerIssuedUserId = std::string(*issuedId);
  data.avatarHash = StringOr(value, "avatar_hash");
  data.username = StringOr(value, "username");
  // `metadata` is free-form: kept as the text the platform sent (a string as is, anything else as JSON).
  if (const json::Value* metadata = json::Member(value, "metadata"); metadata && !metadata->IsNull()) {
    data.metadata = metadata->IsString() ? std::string(metadata->GetString(), metadata->GetStringLength())
                                         : json::Serialize(*metadata);
  }
  if (auto providerId = json::GetString(value, "provider_id")) data.providerId = std::string(*providerId);
  return data;
}

int CompareNamesCaseInsensitive(std::string_view a, std::string_view b) {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    auto x = static_cast<unsigned char>(Lower(a[i]));
    auto y = static_cast<unsigned char>(Lower(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

bool StartsWithCaseInsensitive(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  return CompareNamesCaseInsensitive(text.substr(0, prefix.size()), prefix) == 0;
}

}  // namespace platformpp::social
