// Members' own messages in guild channels and slowmode. The platform's users post from its own client, which
// the emulator does not serve; the admin route stands in for it (POST /_emulator/channels/{c}/messages
// ?author_id=U with Create Message's body), so that a test can have a member talk in a channel, with the
// same rules a bot meets there plus the ones only people meet: slowmode (bots are exempt).
#include <cmath>

#include "core/api_error.hpp"
#include "core/form_encoding.hpp"
#include "core/json.hpp"
#include "guild/permissions.hpp"
#include "messaging/messaging_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kSlowmodeRateLimit = 20016;

}  // namespace

HttpResponse MessagingModule::admin_post_member_message(const RouteContext& context) {
  const auto query = FormFields::parse(query_of(context.request));
  const auto author_id = query ? query->get("author_id") : std::nullopt;
  if (!author_id) {
    FieldErrors errors;
    errors.add({"author_id"}, {"BASE_TYPE_REQUIRED", "This field is required"});
    return invalid_form_body(errors);
  }
  const auto* author = state_.find_user(*author_id);
  if (author == nullptr) return unknown_user();
  // The member's own client: the user, without an application or an OAuth2 grant.
  const Principal principal{author, nullptr, nullptr};
  const auto [guild, channel] = guilds_.guilds().find_channel(context.params.at("channel_id"));
  if (guild == nullptr) return unknown_channel();
  auto place = channel_place(channel->id, principal);
  if (auto* error = std::get_if<HttpResponse>(&place)) return std::move(*error);
  return api_create_channel_message(context, principal, std::get<ChannelPlace>(place));
}

std::optional<HttpResponse> MessagingModule::slowmode_refusal(const ChannelPlace& place,
                                                              const User& author) const {
  if (place.channel == nullptr || place.channel->rate_limit_per_user <= 0 || author.bot) return std::nullopt;
  const auto now = clock_.now_ms();
  const bool exempt =
      (place.permissions & permission::kBypassSlowmode) != 0 ||
      (now < kPermissionSplitMs &&
       (place.permissions & (permission::kManageMessages | permission::kManageChannels)) != 0);
  if (exempt) return std::nullopt;
  const auto it = last_posts_ms_.find({place.channel->id, author.id});
  if (it == last_posts_ms_.end()) return std::nullopt;
  const auto wait_ms = it->second + std::int64_t{place.channel->rate_limit_per_user} * 1000 - now;
  if (wait_ms <= 0) return std::nullopt;
  const double retry_after = static_cast<double>(wait_ms) / 1000.0;
  auto response =
      HttpResponse::json(429, to_json([&](JsonWriter& writer) {
                           writer.StartObject();
                           writer.Key("code");
                           writer.Int(kSlowmodeRateLimit);
                           writer.Key("message");
                           writer.String("This action cannot be performed due to slowmode rate limit.");
                           writer.Key("retry_after");
                           writer.Double(retry_after);
                           writer.Key("global");
                           writer.Bool(false);
                           writer.EndObject();
                         }));
  response.set_header("Retry-After", std::to_string(static_cast<std::int64_t>(std::ceil(retry_after))));
  return response;
}

void MessagingModule::record_post(const ChannelPlace& place, const User& author) {
  if (place.channel == nullptr || author.bot) return;
  last_posts_ms_[{place.channel->id, author.id}] = clock_.now_ms();
}

}  // namespace platformpp::emulator
