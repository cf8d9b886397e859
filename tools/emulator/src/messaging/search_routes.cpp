// Search Guild Messages (docs/http-api.md, "Search"): GET /guilds/{guild_id}/messages/search over the
// messages of the guild's channels the bot can view and read the history of, with the platform's filters and
// its two sorts. A bot of the guild; READ_MESSAGE_HISTORY (403 50013) and the application's MESSAGE_CONTENT
// intent (403 50001, as for the member list without GUILD_MEMBERS); 202 with code 110000 while the guild is
// "not yet indexed" (the admin switch PUT /_emulator/guilds/{guild_id}/search-index).
//
// Content: the words of `content` (letters and digits, case-insensitive) must all be words of the message.
// Relevance: each occurrence of a query word in the message counts one, and the query's words in a row (the
// phrase) count as many again as the query has words; ties newest first. `slop` is checked (0..100) but the
// phrase bonus asks for the words adjacent. Mentions are read from the content's markup (<@id>, <@!id>,
// <@&id>, @everyone, @here); links are the content's http(s) URLs. The emulator's messages have no stickers,
// polls, threads or age-restricted channels: `has=sticker` and `has=poll` match nothing, `include_nsfw`
// changes nothing, and `threads` and `members` are always empty.
#include <algorithm>
#include <cctype>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "core/form_encoding.hpp"
#include "core/http_message.hpp"
#include "core/json.hpp"
#include "core/json_body.hpp"
#include "core/query_params.hpp"
#include "core/snowflake.hpp"
#include "core/validation.hpp"
#include "guild/guild_fields.hpp"
#include "guild/permissions.hpp"
#include "messaging/messaging_module.hpp"

namespace platformpp::emulator {

namespace {

constexpr int kIndexNotReady = 110000;
constexpr std::int64_t kLimitDefault = 25;
constexpr std::int64_t kLimitMax = 25;
constexpr std::int64_t kOffsetMax = 9975;
constexpr std::int64_t kSlopMax = 100;
constexpr std::size_t kSearchContentMax = 1024;
constexpr std::size_t kChannelIdsMax = 500;
constexpr std::size_t kListMax = 100;
constexpr std::size_t kShortValueMax = 256;
constexpr std::size_t kFilenameMax = 1024;
// What the 202 tells the caller to wait (the platform's example: 2 s).
constexpr int kIndexRetryAfterS = 2;

// The query's repeated parameters (array query strings repeat the name), percent-decoded, in order.
std::optional<std::vector<std::pair<std::string, std::string>>> query_pairs(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    auto name = percent_decode(item.substr(0, eq));
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1));
    if (!name || !value) return std::nullopt;
    pairs.emplace_back(std::move(*name), std::move(*value));
  }
  return pairs;
}

std::vector<std::string> values_of(const std::vector<std::pair<std::string, std::string>>& pairs,
                                   std::string_view name) {
  std::vector<std::string> values;
  for (const auto& [key, value] : pairs) {
    if (key == name && std::find(values.begin(), values.end(), value) == values.end())
      values.push_back(value);
  }
  return values;
}

bool is_snowflake(std::string_view text) {
  if (text.empty() || text.size() > 20) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The words of a text: runs of ASCII letters and digits and of non-ASCII characters, lowercased.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || byte >= 0x80) {
      word += static_cast<char>(std::tolower(byte));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

// The ids of the content's mentions of one kind: `<@id>` and `<@!id>` users, `<@&id>` roles.
std::set<std::string> mentions_in(std::string_view content, bool roles) {
  std::set<std::string> ids;
  for (auto at = content.find("<@"); at != std::string_view::npos; at = content.find("<@", at + 2)) {
    auto rest = content.substr(at + 2);
    const bool role = !rest.empty() && rest.front() == '&';
    if (!rest.empty() && (rest.front() == '!' || rest.front() == '&')) rest.remove_prefix(1);
    const auto close = rest.find('>');
    if (close == std::string_view::npos || role != roles) continue;
    const auto id = rest.substr(0, close);
    if (is_snowflake(id)) ids.emplace(id);
  }
  return ids;
}

// The host names of the content's http(s) links, lowercased.
std::set<std::string> link_hosts(std::string_view content) {
  std::set<std::string> hosts;
  for (const std::string_view scheme : {"http://", "https://"}) {
    for (auto at = content.find(scheme); at != std::string_view::npos; at = content.find(scheme, at + 1)) {
      const auto rest = content.substr(at + scheme.size());
      const auto end = rest.find_first_of("/:?#> \t\r\n");
      const auto host = rest.substr(0, end);
      if (!host.empty()) hosts.insert(ascii_lower(host));
    }
  }
  return hosts;
}

std::string extension_of(std::string_view filename) {
  const auto dot = filename.rfind('.');
  return dot == std::string_view::npos ? std::string() : ascii_lower(filename.substr(dot + 1));
}

bool one_of(std::string_view value, std::initializer_list<std::string_view> options) {
  return std::find(options.begin(), options.end(), value) != options.end();
}

// A boolean query value as the platform reads them (true/false, 1/0, any case); nullopt otherwise.
std::optional<bool> query_boolean(std::string_view text) {
  const auto value = ascii_lower(text);
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return std::nullopt;
}

// What is known of one message for the filters.
struct Facts {
  bool image = false, video = false, sound = false, file = false, embed = false, link = false,
       snapshot = false;
  std::set<std::string> embed_types;  // the search's names: image, video, gif, article
  std::set<std::string> embed_providers;
  std::set<std::string> hosts;
};

Facts facts_of(const Message& message) {
  Facts facts;
  for (const auto& attachment : message.attachments) {
    facts.file = true;
    const auto type = ascii_lower(attachment.content_type.value_or(""));
    const auto extension = extension_of(attachment.filename);
    facts.image = facts.image || type.rfind("image/", 0) == 0 ||
                  one_of(extension, {"png", "jpg", "jpeg", "gif", "webp"});
    facts.video = facts.video || type.rfind("video/", 0) == 0 || one_of(extension, {"mp4", "webm", "mov"});
    facts.sound =
        facts.sound || type.rfind("audio/", 0) == 0 || one_of(extension, {"mp3", "ogg", "wav", "flac"});
  }
  rapidjson::Document embeds;
  parse_stored_json(message.embeds, embeds);
  if (embeds.IsArray()) {
    for (const auto& embed : embeds.GetArray()) {
      if (!embed.IsObject()) continue;
      facts.embed = true;
      const std::string type =
          embed.HasMember("type") && embed["type"].IsString() ? embed["type"].GetString() : "rich";
      if (type == "image" || embed.HasMember("image") || embed.HasMember("thumbnail")) facts.image = true;
      if (type == "video" || type == "gifv" || embed.HasMember("video")) facts.video = true;
      if (type == "image") facts.embed_types.insert("image");
      if (type == "video") facts.embed_types.insert("video");
      if (type == "gifv") facts.embed_types.insert("gif");
      if (type == "article") facts.embed_types.insert("article");
      if (embed.HasMember("provider") && embed["provider"].IsObject() &&
          embed["provider"].HasMember("name") && embed["provider"]["name"].IsString()) {
        facts.embed_providers.insert(embed["provider"]["name"].GetString());
      }
    }
  }
  facts.hosts = link_hosts(message.content);
  facts.link = !facts.hosts.empty();
  facts.snapshot = message.snapshots.has_value();
  return facts;
}

bool has_thing(const Facts& facts, std::string_view thing) {
  if (thing == "image") return facts.image;
  if (thing == "video") return facts.video;
  if (thing == "sound") return facts.sound;
  if (thing == "file") return facts.file;
  if (thing == "embed") return facts.embed;
  if (thing == "link") return facts.link;
  if (thing == "snapshot") return facts.snapshot;
  return false;  // sticker, poll: the emulator's messages have none
}

// A filter list of types that may each be negated with '-': the message passes when it is of none of the
// negated types and, if any type is not negated, of one of those.
template <class Predicate>
bool passes_types(const std::vector<std::string>& types, Predicate&& is) {
  bool any_positive = false;
  bool matched = false;
  for (const auto& type : types) {
    if (!type.empty() && type.front() == '-') {
      if (is(std::string_view(type).substr(1))) return false;
    } else {
      any_positive = true;
      matched = matched || is(type);
    }
  }
  return !any_positive || matched;
}

bool intersects(const std::vector<std::string>& wanted, const std::set<std::string>& have) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) { return have.count(w) != 0; });
}

bool listed(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

void MessagingModule::register_search_routes() {
  api_router_.add("GET", "/guilds/{guild_id}/messages/search",
                  bind(&MessagingModule::api_search_guild_messages));
  admin_router_.add("PUT", "/guilds/{guild_id}/search-index", bind(&MessagingModule::admin_set_search_index));
}

HttpResponse MessagingModule::admin_set_search_index(const RouteContext& context) {
  const auto& guild_id = context.params.at("guild_id");
  if (guilds_.guilds().find_guild(guild_id) == nullptr) return unknown_guild();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  const auto indexed = fields.boolean("indexed", true);
  const auto documents = fields.integer("documents_indexed", false, 0).value_or(0);
  if (!errors.empty()) return invalid_form_body(errors);
  search_index_.set(guild_id, *indexed, documents);
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("indexed");
                              writer.Bool(*indexed);
                              writer.Key("documents_indexed");
                              writer.Int64(documents);
                              writer.EndObject();
                            }));
}

HttpResponse MessagingModule::api_search_guild_messages(const RouteContext& context) {
  const auto principal = authenticate(context.request);
  if (!principal) return status_error(401);
  const auto* guild = guilds_.guilds().find_guild(context.params.at("guild_id"));
  if (guild == nullptr) return unknown_guild();
  const auto& bot_id = principal->user->id;
  // A bot's route: a user's OAuth2 token has no scope for it.
  if (principal->grant != nullptr || !guild->has_member(bot_id)) return missing_access();
  // The platform's docs: restricted by the MESSAGE_CONTENT privileged intent (the application's switch).
  if (principal->application == nullptr || !principal->application->intent_message_content)
    return missing_access();
  const auto now = clock_.now_ms();
  if ((base_permissions(*guild, bot_id, now) & permission::kReadMessageHistory) == 0)
    return missing_permissions();

  const auto raw_query = query_of(context.request);
  const auto query = FormFields::parse(raw_query);
  const auto pairs = query_pairs(raw_query);
  FieldErrors errors;
  if (!query || !pairs) {
    errors.add({"_query"}, {"QUERY_INVALID", "The query string is not valid."});
    return invalid_form_body(errors);
  }
  const auto limit = query_integer(*query, "limit", 1, kLimitMax, errors).value_or(kLimitDefault);
  const auto offset = query_integer(*query, "offset", 0, kOffsetMax, errors).value_or(0);
  query_integer(*query, "slop", 0, kSlopMax, errors);
  const auto min_id = query_snowflake(*query, "min_id", errors);
  const auto max_id = query_snowflake(*query, "max_id", errors);
  const auto content = query->get("content");
  if (content && utf8_length(*content) > kSearchContentMax)
    errors.add({"content"}, {"BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length."});
  const auto sort_by = query->get("sort_by").value_or("timestamp");
  if (!one_of(sort_by, {"timestamp", "relevance"}))
    errors.add({"sort_by"}, {"BASE_TYPE_CHOICES", "Value must be one of {'timestamp', 'relevance'}."});
  const auto sort_order = query->get("sort_order").value_or("desc");
  if (!one_of(sort_order, {"asc", "desc"}))
    errors.add({"sort_order"}, {"BASE_TYPE_CHOICES", "Value must be one of {'asc', 'desc'}."});
  std::optional<bool> pinned, mention_everyone;
  for (const auto& [name, target] : {std::pair<const char*, std::optional<bool>*>{"pinned", &pinned},
                                     {"mention_everyone", &mention_everyone},
                                     {"include_nsfw", nullptr}}) {
    const auto text = query->get(name);
    if (!text) continue;
    const auto value = query_boolean(*text);
    if (!value) {
      errors.add({name}, {"BASE_TYPE_BOOLEAN", "Must be either true or false."});
    } else if (target != nullptr) {
      *target = value;
    }
  }
  // The array parameters: their sizes, and the values each may take.
  const auto list = [&](const char* name, std::size_t max_items, auto&& valid, const FieldIssue& issue) {
    auto values = values_of(*pairs, name);
    if (values.size() > max_items) {
      errors.add({name},
                 {"BASE_TYPE_MAX_LENGTH", "Must be " + std::to_string(max_items) + " or fewer in length."});
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (!valid(values[i])) errors.add({name, std::to_string(i)}, issue);
    }
    return values;
  };
  const FieldIssue snowflake_issue{"NUMBER_TYPE_COERCE", "Value is not snowflake."};
  const auto snowflake = [](const std::string& v) { return is_snowflake(v); };
  const auto length_under = [](std::size_t max) {
    return [max](const std::string& v) { return utf8_length(v) <= max; };
  };
  const FieldIssue long_issue{"BASE_TYPE_MAX_LENGTH", "The value is too long."};
  const auto channel_ids = list("channel_id", kChannelIdsMax, snowflake, snowflake_issue);
  const auto author_ids = list("author_id", kListMax, snowflake, snowflake_issue);
  const auto mentions = list("mentions", kListMax, snowflake, snowflake_issue);
  const auto mention_roles = list("mentions_role_id", kListMax, snowflake, snowflake_issue);
  const auto replied_users = list("replied_to_user_id", kListMax, snowflake, snowflake_issue);
  const auto replied_messages = list("replied_to_message_id", kListMax, snowflake, snowflake_issue);
  const auto author_types = list(
      "author_type", 6,
      [](const std::string& v) {
        return one_of(v, {"user", "bot", "webhook", "-user", "-bot", "-webhook"});
      },
      FieldIssue{"BASE_TYPE_CHOICES", "Not an author type."});
  const auto has_types = list(
      "has", 18,
      [](const std::string& v) {
        const std::string_view type = !v.empty() && v.front() == '-' ? std::string_view(v).substr(1) : v;
        return one_of(type,
                      {"image", "sound", "video", "file", "sticker", "embed", "link", "poll", "snapshot"});
      },
      FieldIssue{"BASE_TYPE_CHOICES", "Not a has type."});
  const auto embed_types = list(
      "embed_type", 5,
      [](const std::string& v) {
        return one_of(v, {"image", "video", "gif", "sound", "article"});
      },
      FieldIssue{"BASE_TYPE_CHOICES", "Not an embed type."});
  const auto embed_providers = list("embed_provider", kListMax, length_under(kShortValueMax), long_issue);
  auto hostnames = list("link_hostname", kListMax, length_under(kShortValueMax), long_issue);
  for (auto& host : hostnames)
    host = ascii_lower(host);
  const auto filenames = list("attachment_filename", kListMax, length_under(kFilenameMax), long_issue);
  auto extensions = list("attachment_extension", kListMax, length_under(kShortValueMax), long_issue);
  for (auto& extension : extensions)
    extension = ascii_lower(extension);
  if (!errors.empty()) return invalid_form_body(errors);

  if (const auto documents = search_index_.not_indexed(guild->id)) {
    // The platform's docs: 202 with a body shaped like an error's, and when to retry.
    return HttpResponse::json(202, to_json([&](JsonWriter& writer) {
                                writer.StartObject();
                                writer.Key("message");
                                writer.String("Index not yet available. Try again later");
                                writer.Key("code");
                                writer.Int(kIndexNotReady);
                                writer.Key("documents_indexed");
                                writer.Int64(*documents);
                                writer.Key("retry_after");
                                writer.Int(kIndexRetryAfterS);
                                writer.EndObject();
                              }));
  }

  const auto terms = words_of(content.value_or(""));
  struct Hit {
    const Message* message = nullptr;
    std::int64_t score = 0;
  };
  std::vector<Hit> hits;
  for (const auto* channel : guild->sorted_channels()) {
    if (!channel_ids.empty() && !listed(channel_ids, channel->id)) continue;
    // Channels the bot cannot read are left out, as the platform leaves them out.
    const auto permissions = channel_permissions(*guild, *channel, bot_id, now);
    const bool voice = channel->type == 2 || channel->type == 13;
    if ((permissions & permission::kViewChannel) == 0 ||
        (permissions & permission::kReadMessageHistory) == 0 ||
        (voice && (permissions & permission::kConnect) == 0)) {
      continue;
    }
    for (const auto* message : messages_.channel_messages(channel->id)) {
      if (message->ephemeral_for) continue;
      if (min_id && !snowflake_less(*min_id, message->id)) continue;
      if (max_id && !snowflake_less(message->id, *max_id)) continue;
      if (!author_ids.empty() && !listed(author_ids, message->author_id)) continue;
      if (pinned && *pinned != message->pinned_at_ms.has_value()) continue;
      const auto* author = state_.find_user(message->author_id);
      const bool webhook = message->webhook_id.has_value();
      const bool bot = !webhook && author != nullptr && author->bot;
      if (!passes_types(author_types, [&](std::string_view type) {
            return type == "webhook" ? webhook : type == "bot" ? bot : !webhook && !bot;
          })) {
        continue;
      }
      if (!mentions.empty() && !intersects(mentions, mentions_in(message->content, false))) continue;
      if (!mention_roles.empty() && !intersects(mention_roles, mentions_in(message->content, true))) continue;
      if (mention_everyone) {
        const bool everyone = message->content.find("@everyone") != std::string::npos ||
                              message->content.find("@here") != std::string::npos;
        if (everyone != *mention_everyone) continue;
      }
      if (!replied_users.empty() || !replied_messages.empty()) {
        const auto& reference = message->reference;
        if (!reference || reference->type != kMessageReferenceDefault) continue;
        if (!replied_messages.empty() && !listed(replied_messages, reference->message_id)) continue;
        if (!replied_users.empty()) {
          const auto* replied = messages_.find_message(reference->channel_id, reference->message_id);
          if (replied == nullptr || !listed(replied_users, replied->author_id)) continue;
        }
      }
      const auto facts = facts_of(*message);
      if (!passes_types(has_types, [&](std::string_view thing) { return has_thing(facts, thing); })) continue;
      if (!embed_types.empty() && !intersects(embed_types, facts.embed_types)) continue;
      if (!embed_providers.empty() && !intersects(embed_providers, facts.embed_providers)) continue;
      if (!hostnames.empty() && !intersects(hostnames, facts.hosts)) continue;
      if (!filenames.empty() || !extensions.empty()) {
        const bool found =
            std::any_of(message->attachments.begin(), message->attachments.end(), [&](const auto& a) {
              return (filenames.empty() || listed(filenames, a.filename)) &&
                     (extensions.empty() || listed(extensions, extension_of(a.filename)));
            });
        if (!found) continue;
      }
      std::int64_t score = 0;
      if (!terms.empty()) {
        const auto words = words_of(message->content);
        bool all = true;
        for (const auto& term : terms) {
          const auto count = std::count(words.begin(), words.end(), term);
          all = all && count > 0;
          score += count;
        }
        if (!all) continue;
        const auto phrase = std::search(words.begin(), words.end(), terms.begin(), terms.end());
        if (phrase != words.end()) score += static_cast<std::int64_t>(terms.size());
      }
      hits.push_back({message, score});
    }
  }
  const bool relevance = sort_by == "relevance";
  const bool ascending = sort_order == "asc" && !relevance;  // the docs: no order with relevance
  std::sort(hits.begin(), hits.end(), [&](const Hit& a, const Hit& b) {
    if (relevance && a.score != b.score) return a.score > b.score;
    if (a.message->id == b.message->id) return false;
    const bool older = snowflake_less(a.message->id, b.message->id);
    return ascending ? older : !older;
  });
  const auto first = std::min(hits.size(), static_cast<std::size_t>(offset));
  const auto last = std::min(hits.size(), first + static_cast<std::size_t>(limit));
  return HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                              writer.StartObject();
                              writer.Key("total_results");
                              writer.Uint64(hits.size());
                              writer.Key("messages");
                              writer.StartArray();
                              for (std::size_t i = first; i < last; ++i) {
                                // Each result is a list of one message, marked as the hit.
                                auto json = message_json(*hits[i].message);
                                json.insert(json.size() - 1, R"(,"hit":true)");
                                writer.StartArray();
                                write_raw(writer, json, rapidjson::kObjectType);
                                writer.EndArray();
                              }
                              writer.EndArray();
                              writer.Key("doing_deep_historical_index");
                              writer.Bool(false);
                              writer.Key("threads");
                              writer.StartArray();
                              writer.EndArray();
                              writer.Key("members");
                              writer.StartArray();
                              writer.EndArray();
                              writer.EndObject();
                            }));
}

}  // namespace platformpp::emulator
