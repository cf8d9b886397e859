// Application emoji (expressions/): the emoji an application owns and uses anywhere (at most 2000 each),
// managed with its bot token through /applications/{application_id}/emojis: list, get, create (a data URI
// image of at most 256 KiB), rename, delete. Kept in the state file, one document an emoji
// ("application_emoji",
// "<application>:<emoji>").
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/service_context.hpp"

namespace platformpp::emulator {

// The platform's limits.
inline constexpr std::size_t kMaxApplicationEmojis = 2000;
inline constexpr std::size_t kMaxEmojiImageBytes = std::size_t{256} * 1024;

struct ApplicationEmoji {
  std::string id;
  std::string application_id;
  std::string name;
  std::string user_id;    // who uploaded it: the application's bot, through the API
  bool animated = false;  // uploaded as a GIF (or an animated WebP the emulator cannot tell: not animated)
  std::string media_type;
};

class ApplicationEmojiModule : public FeatureModule {
 public:
  explicit ApplicationEmojiModule(ServiceContext& context);

  // The application's emoji in creation order.
  [[nodiscard]] std::vector<const ApplicationEmoji*> emojis_of(std::string_view application_id) const;

 private:
  void register_documents();
  // The caller's application (the bot token of {application_id}), or the error: 401, 403 50001 for another
  // application's token or a user's, 404 10002 for an unknown application.
  std::variant<const Application*, HttpResponse> owner(const RouteContext& context) const;
  [[nodiscard]] std::string emoji_json(const ApplicationEmoji& emoji) const;
  HttpResponse api_list(const RouteContext& context);
  HttpResponse api_get(const RouteContext& context);
  HttpResponse api_create(const RouteContext& context);
  HttpResponse api_modify(const RouteContext& context);
  HttpResponse api_delete(const RouteContext& context);

  // (application id, emoji id) -> emoji.
  std::map<std::pair<std::string, std::string>, ApplicationEmoji> emojis_;
};

}  // namespace platformpp::emulator
