#include "core/activity.hpp"

#include <cstdio>

namespace platformpp::emulator {

bool activity_type_allowed(int type) {
  return type == 0 || type == 2 || type == 3 || type == 5;
}

void stamp_activity(rapidjson::Value& activity, rapidjson::Document::AllocatorType& allocator,
                    const Application* app, std::string_view app_id, std::size_t index, std::int64_t now_ms) {
  auto set = [&](const char* name, rapidjson::Value value) {
    activity.RemoveMember(name);
    activity.AddMember(rapidjson::Value(name, allocator), value, allocator);
  };
  set("application_id",
      rapidjson::Value(app_id.data(), static_cast<rapidjson::SizeType>(app_id.size()), allocator));
  if (!activity.HasMember("name")) {
    const std::string name = app != nullptr ? app->name : std::string("Game");
    set("name", rapidjson::Value(name.c_str(), allocator));
  }
  // 16 hex digits like the platform's activity ids: FNV-1a of the application and the activity's slot, so an
  // activity that is updated keeps its id.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : std::string(app_id) + ":" + std::to_string(index)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(hash));
  set("id", rapidjson::Value(id, allocator));
  set("created_at", rapidjson::Value(static_cast<std::int64_t>(now_ms)));
}

std::string public_activities_json(const std::vector<std::string>& activity_arrays,
                                   std::string_view only_app) {
  rapidjson::Document result(rapidjson::kArrayType);
  auto& allocator = result.GetAllocator();
  for (const auto& text : activity_arrays) {
    rapidjson::Document activities;
    if (!parse_json(text, activities) || !activities.IsArray()) continue;
    for (auto& activity : activities.GetArray()) {
      if (!activity.IsObject()) continue;
      if (!only_app.empty()) {
        const auto app = activity.FindMember("application_id");
        if (app == activity.MemberEnd() || !app->value.IsString() || only_app != app->value.GetString())
          continue;
      }
      rapidjson::Value copy(activity, allocator);
      copy.RemoveMember("secrets");
      if (const auto buttons = copy.FindMember("buttons"); buttons != copy.MemberEnd()) {
        rapidjson::Value labels(rapidjson::kArrayType);
        if (buttons->value.IsArray()) {
          for (auto& button : buttons->value.GetArray()) {
            if (button.IsString()) {
              labels.PushBack(rapidjson::Value(button, allocator), allocator);
            } else if (button.IsObject()) {
              const auto label = button.FindMember("label");
              if (label != button.MemberEnd() && label->value.IsString())
                labels.PushBack(rapidjson::Value(label->value, allocator), allocator);
            }
          }
        }
        buttons->value = labels;
      }
      if (const auto metadata = copy.FindMember("metadata"); metadata != copy.MemberEnd()) {
        if (metadata->value.IsObject()) metadata->value.RemoveMember("button_urls");
        if (!metadata->value.IsObject() || metadata->value.ObjectEmpty()) copy.RemoveMember("metadata");
      }
      result.PushBack(copy, allocator);
    }
  }
  return json_text(result);
}

}  // namespace platformpp::emulator
