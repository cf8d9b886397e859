// Messaging (messaging/): lobby messages and DMs (docs/social-protocol.md, "Lobbies and messages"): DM
// channels, sending with nonce dedupe and the Social SDK development rate limits, activity invites, history,
// edits, deletes, summaries and moderation metadata, and the DM rule (who may message whom). The channels and
// messages are its own (message_state.hpp): a lobby's history goes with the lobby through LobbyMessages, and
// presence reads activity invites through ActivityInvites.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/api_error.hpp"
#include "core/json.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_module.hpp"
#include "http/social_rate_limits.hpp"
#include "lobby/lobby_module.hpp"
#include "messaging/message_state.hpp"
#include "messaging/search_index_state.hpp"
#include "presence/presence_module.hpp"
#include "social/social_module.hpp"
#include "webhook/webhook_module.hpp"

namespace platformpp::emulator {

class MessagingModule : public FeatureModule,
                        public LobbyMessages,
                        public ActivityInvites,
                        public GatewayListener {
 public:
  // `webhooks` hears of lobby messages and game DMs created, edited and deleted (for the game's moderation).
  // `social`'s relationships decide who may message whom.
  MessagingModule(ServiceContext& context, GatewayModule& gateway, const SocialModule& social,
                  GuildModule& guilds, LobbyModule& lobbies, SocialRateLimits& social_limits,
                  WebhookModule& webhooks);

  // ---- DM channels and messages for interactions (interactions/; app_messages.cpp)
  [[nodiscard]] const DmChannel* find_dm_channel(std::string_view id) const {
    return messages_.find_dm_channel(id);
  }
  // The DM channel of the two users, made if they have none (a user opening a DM with a bot).
  const DmChannel& open_dm_channel(const std::string& user_id, const std::string& other_id);
  // A message in a DM channel or a guild channel (not a lobby's), if it exists.
  [[nodiscard]] const Message* find_channel_message(std::string_view channel_id, std::string_view id) const {
    return messages_.find_message(channel_id, id);
  }
  // Messages an application posts with an interaction's token:
  // Keeps the message in its channel (a guild channel when `guild_id` is set, else a DM channel) and sends
  // MESSAGE_CREATE to the sessions that see it: an ephemeral one (`ephemeral_for`) only to that user's.
  const Message& post_app_message(Message message);
  // Replaces the kept message of the same channel and id, and sends MESSAGE_UPDATE.
  const Message& update_app_message(Message message);
  // Removes the message and sends MESSAGE_DELETE; false if it was not there.
  bool delete_app_message(std::string_view channel_id, std::string_view id);
  // The message object as the API answers it.
  [[nodiscard]] std::string api_message_json(const Message& message) const { return message_json(message); }
  // AutoMod on a message about to be posted or edited in a guild channel (automod_messages.cpp): its
  // author's KEYWORD rules on its content. BLOCK_MESSAGE refuses it (400, code 200000, the platform's answer
  // also to an edit of a deferred response); SEND_ALERT_MESSAGE posts an alert to the rule's channel and
  // TIMEOUT times the author out, blocked or not. Null for DMs and lobbies, and when no rule trips.
  std::optional<HttpResponse> automod_refusal(const Message& message);

  // The component rules for an application's message (interactions/ sets them: the rules and the premium
  // SKUs are theirs); without a checker, components are kept unchecked.
  using ComponentChecker = std::function<void(const std::string& app_id, const Message&, FieldErrors&)>;
  void set_component_checker(ComponentChecker checker);

  // GatewayListener: READY's private_channels, a user's DM channels with their newest message
  // (dm_routes.cpp).
  void fill_ready(const GatewaySession& session, ReadyContent& ready) override;

  // LobbyMessages: a deleted lobby's messages go, and its nonce window.
  void lobby_deleted(const std::string& lobby_id) override;
  // ActivityInvites (dm_routes.cpp).
  [[nodiscard]] std::variant<Invite, HttpResponse> find_invite(const std::string& channel_id,
                                                               const std::string& message_id,
                                                               const std::string& user_id) const override;

 private:
  // A DM channel object's `last_message_id`: its newest message, null when it has none.
  void write_last_message_id(JsonWriter& writer, const std::string& channel_id) const;
  // What POST bodies of lobby messages and DMs share: {content, metadata?, nonce?, enforce_nonce?}.
  struct MessageInput {
    std::optional<std::string> content;
    std::map<std::string, std::string> metadata;
    std::optional<std::string> nonce;
    bool nonce_is_number = false;
    bool enforce_nonce = false;
  };

  // Shared by lobby messages and DMs, and lobby messages' routes (messaging_module.cpp).
  // Reads metadata, nonce and enforce_nonce into `input` (content is read by the caller: DMs with an
  // activity may have none), recording field errors.
  void read_message_extras(const rapidjson::Value& body, MessageInput& input, FieldErrors& errors);
  // The earlier message when `input` asks for the nonce dedupe and one matches.
  std::optional<Message> nonce_duplicate(const std::string& channel_id, const std::string& author_id,
                                         const MessageInput& input);
  // Counts one use of a Social SDK development limit; the 429 to answer when over it.
  std::optional<HttpResponse> take_social_limit(const std::string& app_id, SocialLimit category);
  // The DM rule: nullopt if `user_id` may not DM `other_id` (50007), else whether it is ephemeral.
  std::optional<bool> dm_allowed(const std::string& user_id, const std::string& other_id,
                                 const std::string& channel_id, const std::string& app_id) const;
  [[nodiscard]] std::string lobby_message_json(const Message& message) const;
  // The message object as the API answers it (`without_referenced`: a reply's referenced_message left out,
  // for the referenced message itself).
  [[nodiscard]] std::string message_json(const Message& message, bool without_referenced = false) const;
  void dispatch_dm(const DmChannel& channel, std::string_view type, std::string_view d_json);
  // MESSAGE_CREATE or MESSAGE_UPDATE of an application's message to the sessions that see it (a bot's need
  // the GUILD_MESSAGES or DIRECT_MESSAGES intent, and get no content without MESSAGE_CONTENT unless the
  // message is its own); MESSAGE_DELETE when `deleted`.
  void dispatch_app_message(const Message& message, std::string_view type, bool deleted);
  // Who sees the message's channel: its guild's members who can view it (bots need `guild_intent`), a DM's
  // two users (bots need DIRECT_MESSAGES), or an ephemeral message's one user; `bot_intent` gets the intent.
  [[nodiscard]] std::vector<std::string> audience_of(const Message& message, std::uint64_t guild_intent,
                                                     std::uint64_t& bot_intent) const;
  // A channel event about the message's channel (CHANNEL_PINS_UPDATE) to those who see it (bots: GUILDS or
  // DIRECT_MESSAGES, on the guild's shard).
  void dispatch_channel_event(const Message& message, std::string_view type, const std::string& d_json);

  // Pins (pin_routes.cpp).
  void register_pin_routes();
  // The channel's pinned messages, newest pin first.
  [[nodiscard]] std::vector<const Message*> pinned_messages(std::string_view channel_id) const;
  HttpResponse set_pinned(const RouteContext& context, bool pinned);
  HttpResponse api_pin(const RouteContext& context);
  HttpResponse api_unpin(const RouteContext& context);
  HttpResponse api_get_pins(const RouteContext& context);
  HttpResponse api_get_pins_deprecated(const RouteContext& context);
  // The GAME_DIRECT_MESSAGE_* webhook event of a DM sent through a game (Message::game_app_id).
  void emit_game_dm(const Message& message, std::string_view type, std::string data_json);
  // What the lobby message routes do first: the idle sweep (an idle lobby is gone even if the tick has not
  // run since the clock moved), then the caller (401 without a valid token, 403 for a user's when
  // `backend_only`) and the {lobby_id} of its application (404). Answers the error, if any.
  std::optional<HttpResponse> find_lobby(const RouteContext& context, bool backend_only, Principal& principal,
                                         const Lobby*& lobby);
  HttpResponse api_create_lobby_message(const RouteContext& context);
  HttpResponse api_get_lobby_messages(const RouteContext& context);
  HttpResponse api_put_lobby_message_moderation(const RouteContext& context);
  // The platform's moderation removes a lobby message (the API gives games no route for it).
  HttpResponse admin_delete_lobby_message(const RouteContext& context);

  // DMs (dm_routes.cpp).
  HttpResponse api_create_dm_channel(const RouteContext& context);
  HttpResponse api_create_message(const RouteContext& context);
  HttpResponse api_get_dm_messages(const RouteContext& context);
  HttpResponse api_edit_dm_message(const RouteContext& context);
  HttpResponse api_delete_dm_message(const RouteContext& context);
  HttpResponse api_message_summaries(const RouteContext& context);
  HttpResponse api_put_dm_message_moderation(const RouteContext& context);

  // The full message object in guild channels and a bot's DMs (channel_message_routes.cpp).
  struct ChannelPlace {
    const Guild* guild = nullptr;
    const GuildChannel* channel = nullptr;
    const DmChannel* dm = nullptr;
    std::uint64_t permissions = 0;  // the caller's there
  };
  // The channel as the caller sees it: a DM of theirs, or a guild channel they can view (bots only), or the
  // error (10003, 50001).
  [[nodiscard]] std::variant<ChannelPlace, HttpResponse> channel_place(std::string_view channel_id,
                                                                       const Principal& principal) const;
  // The MESSAGE_CONTENT rule: whether the caller reads the message's content.
  [[nodiscard]] bool content_readable(const Message& message, const ChannelPlace& place,
                                      const Principal& principal) const;
  [[nodiscard]] std::string message_json_for(const Message& message, const ChannelPlace& place,
                                             const Principal& principal) const;
  HttpResponse api_create_channel_message(const RouteContext& context, const Principal& principal,
                                          const ChannelPlace& place);
  HttpResponse api_get_channel_message(const RouteContext& context);
  HttpResponse api_list_channel_messages(const RouteContext& context, const Principal& principal,
                                         const ChannelPlace& place);
  HttpResponse api_edit_channel_message(const RouteContext& context, const Principal& principal,
                                        const ChannelPlace& place);
  HttpResponse api_delete_channel_message(const RouteContext& context, const Principal& principal,
                                          const ChannelPlace& place);

  // Members' own messages and slowmode (member_messages.cpp).
  // A member's message as the platform's own client sends it (admin: POST /_emulator/channels/{c}/messages
  // ?author_id=U, the body as Create Message's): the channel's rules as for a bot, and slowmode.
  HttpResponse admin_post_member_message(const RouteContext& context);
  // Slowmode: 429 with code 20016 and retry_after when the author posted in the guild channel less than its
  // rate_limit_per_user seconds ago; bots and members with BYPASS_SLOWMODE (before the permission split:
  // MANAGE_MESSAGES or MANAGE_CHANNELS) are exempt.
  [[nodiscard]] std::optional<HttpResponse> slowmode_refusal(const ChannelPlace& place,
                                                             const User& author) const;
  // Records a post for slowmode (a rate window: not kept in the state file).
  void record_post(const ChannelPlace& place, const User& author);

  GatewayModule& gateway_;
  const SocialModule& social_;
  GuildModule& guilds_;
  LobbyModule& lobbies_;
  SocialRateLimits& social_limits_;
  WebhookModule& webhooks_;
  MessageState messages_;
  ComponentChecker component_checker_;
  std::map<std::pair<std::string, std::string>, std::int64_t> last_posts_ms_;  // (channel, user): fake ms

  // ---- Search Guild Messages (search_routes.cpp)
  void register_search_routes();
  HttpResponse api_search_guild_messages(const RouteContext& context);
  // PUT /_emulator/guilds/{guild_id}/search-index {indexed, documents_indexed?}: the "not yet indexed"
  // switch.
  HttpResponse admin_set_search_index(const RouteContext& context);
  SearchIndexState search_index_;
};

}  // namespace platformpp::emulator
