#include "social/activity_json.hpp"

#include <cstdint>
#include <string_view>

namespace platformpp::social {
namespace {

std::optional<std::string> OptString(const json::Value& object, std::string_view name) {
  auto v = json::GetString(object, name);
  if (!v) return std::nullopt;
  return std::string(*v);
}

void WriteOptString(rapidjson::Writer<rapidjson::StringBuffer>& w, const char* key,
                    const std::optional<std::string>& value) {
  if (!value) return;
  w.Key(key);
  w.String(value->data(), static_cast<rapidjson::SizeType>(value->size()));
}

void WriteString(rapidjson::Writer<rapidjson::StringBuffer>& w, const std::string& value) {
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

std::optional<int32_t> OptInt32(const json::Value& object, std::string_view name) {
  auto v = json::GetInt(object, name);
  if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(*v);
}

uint64_t Millis(const json::Value& object, std::string_view name) {
  const json::Value* v = json::Member(object, name);
  if (!v) return 0;
  if (v->IsUint64()) return v->GetUint64();
  // A fractional or huge number: only what a uint64 holds converts (beyond it, and NaN, the conversion is
  // undefined); the rest reads as not given.
  if (v->IsNumber()) {
    const double millis = v->GetDouble();
    if (millis > 0 && millis < 18446744073709551616.0) return static_cast<uint64_t>(millis);
  }
  return 0;
}

}  // namespace

std::optional<Activity> ActivityFromJson(const json::Value& value) {
  if (!value.IsObject()) return std::nullopt;
  Activity activity;
  if (auto name = json::GetString(value, "name")) activity.SetName(std::string(*name));
  auto type = json::GetInt(value, "type").value_or(0);
  if (type < 0 || type > static_cast<int64_t>(ActivityTypes::HangStatus)) return std::nullopt;
  activity.SetType(static_cast<ActivityTypes>(type));
  if (auto display = json::GetInt(value, "status_display_type"); display && *display >= 0 && *display <= 2) {
    activity.SetStatusDisplayType(static_cast<StatusDisplayTypes>(*display));
  }
  activity.SetState(OptString(value, "state"));
  activity.SetStateUrl(OptString(value, "state_url"));
  activity.SetDetails(OptString(value, "details"));
  activity.SetDetailsUrl(OptString(value, "details_url"));
  activity.SetApplicationId(json::GetSnowflake(value, "application_id"));

  if (const json::Value* ts = json::Member(value, "timestamps"); ts && ts->IsObject()) {
    ActivityTimestamps timestamps;
    timestamps.SetStart(Millis(*ts, "start"));
    timestamps.SetEnd(Millis(*ts, "end"));
    activity.SetTimestamps(timestamps);
  }
  if (const json::Value* a = json::Member(value, "assets"); a && a->IsObject()) {
    ActivityAssets assets;
    assets.SetLargeImage(OptString(*a, "large_image"));
    assets.SetLargeText(OptString(*a, "large_text"));
    assets.SetLargeUrl(OptString(*a, "large_url"));
    assets.SetSmallImage(OptString(*a, "small_image"));
    assets.SetSmallText(OptString(*a, "small_text"));
    assets.SetSmallUrl(OptString(*a, "small_url"));
    assets.SetInviteCoverImage(OptString(*a, "invite_cover_image"));
    activity.SetAssets(std::move(assets));
  }
  if (const json::Value* p = json::Member(value, "party"); p && p->IsObject()) {
    ActivityParty party;
    if (auto id = json::GetString(*p, "id")) party.SetId(std::string(*id));
    if (const json::Value* size = json::Member(*p, "size");
        size && size->IsArray() && size->Size() == 2 && (*size)[0].IsInt() && (*size)[1].IsInt()) {
      party.SetCurrentSize((*size)[0].GetInt());
      party.SetMaxSize((*size)[1].GetInt());
    }
    if (auto privacy = json::GetInt(*p, "privacy"); privacy && (*privacy == 0 || *privacy == 1)) {
      party.SetPrivacy(static_cast<ActivityPartyPrivacy>(*privacy));
    }
    activity.SetParty(std::move(party));
  }
  if (const json::Value* s = json::Member(value, "secrets"); s && s->IsObject()) {
    ActivitySecrets secrets;
    if (auto join = json::GetString(*s, "join")) secrets.SetJoin(std::string(*join));
    activity.SetSecrets(std::move(secrets));
  }
  // Buttons are labels with the URLs in metadata.button_urls (the Gateway shape); objects {label, url} (the
  // shape desktop clients use over IPC) are read too.
  const json::Value* urls = nullptr;
  if (const json::Value* m = json::Member(value, "metadata"); m && m->IsObject()) {
    urls = json::Member(*m, "button_urls");
    if (urls && !urls->IsArray()) urls = nullptr;
  }
  if (const json::Value* b = json::Member(value, "buttons"); b && b->IsArray()) {
    for (rapidjson::SizeType i = 0; i < b->Size(); ++i) {
      const json::Value& item = (*b)[i];
      ActivityButton button;
      if (item.IsString()) {
        button.SetLabel(std::string(item.GetString(), item.GetStringLength()));
        if (urls && i < urls->Size() && (*urls)[i].IsString()) {
          button.SetUrl(std::string((*urls)[i].GetString(), (*urls)[i].GetStringLength()));
        }
      } else if (item.IsObject()) {
        if (auto label = json::GetString(item, "label")) button.SetLabel(std::string(*label));
        if (auto url = json::GetString(item, "url")) button.SetUrl(std::string(*url));
      } else {
        continue;
      }
      activity.AddButton(std::move(button));
    }
  }
  if (auto platforms = OptInt32(value, "supported_platforms")) activity.SetSupportedPlatforms(*platforms);
  return activity;
}

void WriteActivityJson(const Activity& activity, rapidjson::Writer<rapidjson::StringBuffer>& w) {
  w.StartObject();
  w.Key("name");
  WriteString(w, activity.Name());
  w.Key("type");
  w.Int(static_cast<int>(activity.Type()));
  if (auto display = activity.StatusDisplayType()) {
    w.Key("status_display_type");
    w.Int(static_cast<int>(*display));
  }
  WriteOptString(w, "state", activity.State());
  WriteOptString(w, "state_url", activity.StateUrl());
  WriteOptString(w, "details", activity.Details());
  WriteOptString(w, "details_url", activity.DetailsUrl());
  if (auto appId = activity.ApplicationId()) {
    w.Key("application_id");
    WriteString(w, std::to_string(*appId));
  }
  if (auto ts = activity.Timestamps(); ts && (ts->Start() != 0 || ts->End() != 0)) {
    w.Key("timestamps");
    w.StartObject();
    if (ts->Start() != 0) {
      w.Key("start");
      w.Uint64(ts->Start());
    }
    if (ts->End() != 0) {
      w.Key("end");
      w.Uint64(ts->End());
    }
    w.EndObject();
  }
  if (auto assets = activity.Assets()) {
    w.Key("assets");
    w.StartObject();
    WriteOptString(w, "large_image", assets->LargeImage());
    WriteOptString(w, "large_text", assets->LargeText());
    WriteOptString(w, "large_url", assets->LargeUrl());
    WriteOptString(w, "small_image", assets->SmallImage());
    WriteOptString(w, "small_text", assets->SmallText());
    WriteOptString(w, "small_url", assets->SmallUrl());
    WriteOptString(w, "invite_cover_image", assets->InviteCoverImage());
    w.EndObject();
  }
  if (auto party = activity.Party()) {
    w.Key("party");
    w.StartObject();
    if (!party->Id().empty()) {
      w.Key("id");
      WriteString(w, party->Id());
    }
    if (party->CurrentSize() != 0 || party->MaxSize() != 0) {
      w.Key("size");
      w.StartArray();
      w.Int(party->CurrentSize());
      w.Int(party->MaxSize());
      w.EndArray();
    }
    w.Key("privacy");
    w.Int(static_cast<int>(party->Privacy()));
    w.EndObject();
  }
  if (auto secrets = activity.Secrets(); secrets && !secrets->Join().empty()) {
    w.Key("secrets");
    w.StartObject();
    w.Key("join");
    WriteString(w, secrets->Join());
    w.EndObject();
  }
  auto buttons = activity.GetButtons();
  if (!buttons.empty()) {
    w.Key("buttons");
    w.StartArray();
    for (const auto& b : buttons)
      WriteString(w, b.Label());
    w.EndArray();
    w.Key("metadata");
    w.StartObject();
    w.Key("button_urls");
    w.StartArray();
    for (const auto& b : buttons)
      WriteString(w, b.Url());
    w.EndArray();
    w.EndObject();
  }
  w.Key("supported_platforms");
  w.Int(activity.SupportedPlatforms());
  w.EndObject();
}

std::string ActivityToJson(const Activity& activity) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  WriteActivityJson(activity, writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

const char* StatusToWire(StatusType status) noexcept {
  switch (status) {
    case StatusType::Idle:
      return "idle";
    case StatusType::Dnd:
      return "dnd";
    case StatusType::Invisible:
      return "invisible";
    case StatusType::Offline:
      return "offline";
    default:
      return "online";
  }
}

StatusType StatusFromWire(std::string_view status) noexcept {
  if (status == "online") return StatusType::Online;
  if (status == "idle") return StatusType::Idle;
  if (status == "dnd") return StatusType::Dnd;
  if (status == "invisible") return StatusType::Invisible;
  if (status == "offline") return StatusType::Offline;
  return StatusType::Unknown;
}

bool IsActivityInvite(const json::Value& message) {
  auto said = [&](const char* name) {
    const json::Value* value = json::Member(message, name);
    return value != nullptr && !value->IsNull();
  };
  if (said("lobby_id") || said("guild_id")) return false;
  const json::Value* activity = json::Member(message, "activity");
  return activity != nullptr && activity->IsObject();
}

}  // namespace platformpp::social
