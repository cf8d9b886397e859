#include "presence/activity_validation.hpp"

#include <string>

namespace platformpp::presence {
namespace {

constexpr int32_t kKnownPlatforms = 0xFF;  // Desktop .. PS5

class Checker {
 public:
  void Add(const std::string& path, std::string code, std::string message) {
    errors_.push_back(FieldError{path, std::move(code), path + ": " + std::move(message)});
  }

  // A text of `min` to `max` code points; false (and an error) when it is not.
  bool Text(const std::string& path, std::string_view text, std::size_t min, std::size_t max) {
    std::optional<std::size_t> count = CountCodePoints(text);
    if (!count) {
      Add(path, "UTF8_INVALID", "must be valid UTF-8");
      return false;
    }
    if (*count < min || *count > max) {
      Add(path, "BASE_TYPE_BAD_LENGTH",
          (min > 0 ? "must be " + std::to_string(min) + " to " : std::string("must be at most ")) +
              std::to_string(max) + " characters long (is " + std::to_string(*count) + ")");
      return false;
    }
    return true;
  }

  void Url(const std::string& path, std::string_view url) {
    if (!Text(path, url, 0, kMaxUrlLength)) return;
    if (!IsHttpUrl(url)) Add(path, "URL_TYPE_INVALID_URL", "must be an http:// or https:// URL");
  }

  void OptText(const std::string& path, const std::optional<std::string>& text, std::size_t min,
               std::size_t max) {
    if (text) Text(path, *text, min, max);
  }
  void OptUrl(const std::string& path, const std::optional<std::string>& url) {
    if (url) Url(path, *url);
  }

  std::vector<FieldError> Take() { return std::move(errors_); }

 private:
  std::vector<FieldError> errors_;
};

bool IsAssetKey(std::string_view key) {
  if (key.empty() || key.size() > kMaxAssetKeyLength) return false;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

}  // namespace

bool IsHttpUrl(std::string_view url) noexcept {
  std::size_t schemeLength;
  if (StartsWithNoCase(url, "https://")) {
    schemeLength = 8;
  } else if (StartsWithNoCase(url, "http://")) {
    schemeLength = 7;
  } else {
    return false;
  }
  std::string_view rest = url.substr(schemeLength);
  if (rest.empty() || rest.front() == '/' || rest.front() == '?' || rest.front() == '#' ||
      rest.front() == ':') {
    return false;  // no host
  }
  for (char c : url) {
    auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7F) return false;
  }
  return true;
}

std::vector<FieldError> ValidateActivity(const Activity& activity) {
  Checker check;
  switch (activity.Type()) {
    case ActivityTypes::Playing:
    case ActivityTypes::Listening:
    case ActivityTypes::Watching:
    case ActivityTypes::Competing:
      break;
    default:
      check.Add("activity.type", "ENUM_TYPE_COERCE",
                "must be Playing (0), Listening (2), Watching (3) or Competing (5), not " +
                    std::to_string(static_cast<int32_t>(activity.Type())));
  }
  check.Text("activity.name", activity.Name(), 0, kMaxTextLength);
  check.OptText("activity.state", activity.State(), kMinStateLength, kMaxTextLength);
  check.OptText("activity.details", activity.Details(), kMinStateLength, kMaxTextLength);
  check.OptUrl("activity.state_url", activity.StateUrl());
  check.OptUrl("activity.details_url", activity.DetailsUrl());

  if (auto assets = activity.Assets()) {
    check.OptText("activity.assets.large_image", assets->LargeImage(), 0, kMaxAssetKeyLength);
    check.OptText("activity.assets.large_text", assets->LargeText(), 0, kMaxTextLength);
    check.OptUrl("activity.assets.large_url", assets->LargeUrl());
    check.OptText("activity.assets.small_image", assets->SmallImage(), 0, kMaxAssetKeyLength);
    check.OptText("activity.assets.small_text", assets->SmallText(), 0, kMaxTextLength);
    check.OptUrl("activity.assets.small_url", assets->SmallUrl());
    if (auto cover = assets->InviteCoverImage()) {
      const std::string path = "activity.assets.invite_cover_image";
      if (StartsWithNoCase(*cover, "https://")) {
        check.Url(path, *cover);
      } else if (!IsAssetKey(*cover)) {
        check.Add(path, "IMAGE_INVALID",
                  "must be an https:// URL or an asset key (1 to 256 letters, digits, '_', '-', '.')");
      }
    }
  }

  if (auto party = activity.Party()) {
    if (!party->Id().empty()) check.Text("activity.party.id", party->Id(), kMinIdLength, kMaxIdLength);
    if (party->CurrentSize() < 0 || party->MaxSize() < 0) {
      check.Add("activity.party.size", "NUMBER_TYPE_MIN", "sizes must not be negative");
    } else if (party->CurrentSize() > party->MaxSize()) {
      check.Add("activity.party.size", "NUMBER_TYPE_MAX",
                "CurrentSize (" + std::to_string(party->CurrentSize()) + ") must not exceed MaxSize (" +
                    std::to_string(party->MaxSize()) + ")");
    }
  }
  if (auto secrets = activity.Secrets(); secrets && !secrets->Join().empty()) {
    check.Text("activity.secrets.join", secrets->Join(), kMinIdLength, kMaxIdLength);
  }

  auto buttons = activity.GetButtons();
  if (buttons.size() > kMaxButtons) {
    check.Add(
        "activity.buttons", "BASE_TYPE_MAX_LENGTH",
        "at most " + std::to_string(kMaxButtons) + " buttons (has " + std::to_string(buttons.size()) + ")");
  }
  for (std::size_t i = 0; i < buttons.size(); ++i) {
    const std::string prefix = "activity.buttons." + std::to_string(i);
    check.Text(prefix + ".label", buttons[i].Label(), 1, kMaxButtonLabelLength);
    check.Url(prefix + ".url", buttons[i].Url());
  }

  int32_t platforms = activity.SupportedPlatforms();
  if (platforms == 0 || (platforms & ~kKnownPlatforms) != 0) {
    check.Add("activity.supported_platforms", "ENUM_TYPE_COERCE",
              "must be a non-empty set of ActivityGamePlatforms bits (is " + std::to_string(platforms) + ")");
  }

  if (auto display = activity.StatusDisplayType()) {
    switch (*display) {
      case StatusDisplayTypes::Name:
        if (activity.Name().empty()) {
          check.Add("activity.status_display_type", "BASE_TYPE_REQUIRED",
                    "Name is chosen for the status text but activity.name is empty");
        }
        break;
      case StatusDisplayTypes::State:
        if (!activity.State()) {
          check.Add("activity.status_display_type", "BASE_TYPE_REQUIRED",
                    "State is chosen for the status text but activity.state is not set");
        }
        break;
      case StatusDisplayTypes::Details:
        if (!activity.Details()) {
          check.Add("activity.status_display_type", "BASE_TYPE_REQUIRED",
                    "Details is chosen for the status text but activity.details is not set");
        }
        break;
      default:
        check.Add("activity.status_display_type", "ENUM_TYPE_COERCE", "must be Name, State or Details");
    }
  }
  return check.Take();
}

std::vector<FieldError> CheckJoinable(const std::optional<Activity>& activity) {
  Checker check;
  if (!activity) {
    check.Add("activity", "ACTIVITY_NOT_JOINABLE", "no rich presence is set (UpdateRichPresence)");
    return check.Take();
  }
  auto party = activity->Party();
  if (!party || party->Id().empty()) {
    check.Add("activity.party.id", "ACTIVITY_NOT_JOINABLE", "an invite needs a party id");
  } else if (party->CurrentSize() >= party->MaxSize()) {
    check.Add("activity.party.size", "ACTIVITY_NOT_JOINABLE",
              "the party is full (" + std::to_string(party->CurrentSize()) + " of " +
                  std::to_string(party->MaxSize()) + ")");
  }
  auto secrets = activity->Secrets();
  if (!secrets || secrets->Join().empty()) {
    check.Add("activity.secrets.join", "ACTIVITY_NOT_JOINABLE", "an invite needs a join secret");
  }
  return check.Take();
}

}  // namespace platformpp::presence
