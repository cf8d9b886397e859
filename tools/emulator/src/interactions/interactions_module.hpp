// Application commands and interactions (interactions/, the platform's "Application Commands" and "Receiving
// and Responding"). Commands: global and guild commands of each application, created (an upsert by name and
// type), read, edited, deleted and overwritten in bulk under the platform's rules (command_rules.hpp) and
// counts (100 CHAT_INPUT, 15 USER, 15 MESSAGE per scope, one global PRIMARY_ENTRY_POINT). The admin API
// switches an application's Activities on, which creates the default entry point named Launch. Commands are
// kept in the state file (document kind "application_command").
//
// Interactions: the admin API plays a user (invokes a command, uses a message's component, submits a modal);
// the interaction goes to the application's interactions endpoint URL, signed, whose HTTP answer may be the
// response, or else as INTERACTION_CREATE to its bot's Gateway sessions; the application answers through
// POST /interactions/{id}/{token}/callback within 3 s (fake clock), then edits and follows up through the
// webhook routes for 15 minutes. The admin request waits for the initial response and reports it. Live
// interactions are not kept in the state file: their tokens outlive no restart (as a redeploy of the
// platform's would not either).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/multipart_form.hpp"
#include "core/service_context.hpp"
#include "gateway/gateway_module.hpp"
#include "guild/guild_module.hpp"
#include "interactions/application_command.hpp"
#include "interactions/interaction.hpp"
#include "messaging/messaging_module.hpp"
#include "premium/premium_module.hpp"
#include "webhook/webhook_transport.hpp"

namespace platformpp::emulator {

class InteractionsModule : public FeatureModule {
 public:
  InteractionsModule(ServiceContext& context, GuildModule& guilds, GatewayModule& gateway,
                     MessagingModule& messaging, PremiumModule& premium);

  // The network side that POSTs to interactions endpoint URLs (null: none, e.g. at shutdown).
  void set_transport(WebhookTransport* transport);
  // Interactions unanswered 3 s after delivery (fake clock) fail and their waiting admin requests are
  // answered; interactions whose tokens passed 15 minutes are forgotten. Called on the service's tick.
  void tick();

  // Where a user acts: the channel (a guild channel or a DM channel) and what follows from it, or the error.
  struct Place {
    const Guild* guild = nullptr;
    const GuildChannel* guild_channel = nullptr;
    const DmChannel* dm = nullptr;
    std::string channel_id;
    int context = kContextGuild;
    bool guild_installed = false;  // the application's bot is in the guild, or the DM is with the bot
    bool user_installed = false;   // the user installed the application to their account
  };

  // The application's commands in one scope (global when `guild_id` is empty), oldest first.
  [[nodiscard]] std::vector<const ApplicationCommand*> commands_of(
      const std::string& app_id, const std::optional<std::string>& guild_id) const;

 private:
  // ---- routes (command_routes.cpp)
  void register_routes();
  // Who may manage the application's commands: its bot token, or a client-credentials token of it with the
  // scope applications.commands.update. The scope's guild must exist and have the application installed.
  std::optional<HttpResponse> authorize(const RouteContext& context);
  HttpResponse api_list(const RouteContext& context);
  HttpResponse api_create(const RouteContext& context);
  HttpResponse api_overwrite(const RouteContext& context);
  HttpResponse api_get(const RouteContext& context);
  HttpResponse api_edit(const RouteContext& context);
  HttpResponse api_delete(const RouteContext& context);
  HttpResponse admin_activities(const RouteContext& context);

  // ---- the store (interactions_module.cpp)
  ApplicationCommand* find(const std::string& app_id, const std::optional<std::string>& guild_id,
                           std::string_view command_id);
  // The command of the scope with this name and type, if any (names are unique per type and scope).
  ApplicationCommand* find_named(const std::string& app_id, const std::optional<std::string>& guild_id,
                                 int type, std::string_view name, std::string_view except_id = {});
  // Whether adding one more command of `type` stays within the scope's count (`replacing` one of the same
  // type does not count).
  [[nodiscard]] bool within_count(const std::string& app_id, const std::optional<std::string>& guild_id,
                                  int type) const;
  const ApplicationCommand& store(ApplicationCommand command);
  void remove(const std::string& id);
  // Adds the default entry point (Launch, DISCORD_LAUNCH_ACTIVITY) unless the application has one.
  void add_default_entry_point(const Application& app);
  void register_documents();

  // ---- interactions played by the admin API (interaction_routes.cpp)
  void register_interaction_routes();
  // A new interaction of the user at the place (id, token, installs, the fake clock's time).
  Interaction new_interaction(const Application& app, const User& user, const Place& place, int type,
                              const std::string& locale);
  HttpResponse admin_invoke_command(const RouteContext& context);
  HttpResponse admin_use_component(const RouteContext& context);
  HttpResponse admin_submit_modal(const RouteContext& context);
  HttpResponse admin_get_interaction(const RouteContext& context);
  HttpResponse admin_put_interactions_endpoint(const RouteContext& context);
  // An empty `channel_id`: the user's DM with the application's bot (opened if needed).
  std::variant<Place, HttpResponse> place_of(const Application& app, const User& user,
                                             const std::string& channel_id);

  // ---- the payload and its delivery (interaction_payload.cpp, interaction_delivery.cpp)
  // The interaction object as the application receives it; `data_json` its `data`, `message_json` the
  // message of a component interaction.
  [[nodiscard]] std::string payload_json(const Interaction& interaction, const Place& place,
                                         const std::string& data_json,
                                         const std::optional<std::string>& message_json) const;
  // The permissions the application has where the interaction happened (app_permissions).
  [[nodiscard]] std::uint64_t app_permissions(const Application& app, const Place& place) const;
  // The user's upload limit there: 10 MiB, more with their paid subscription.
  [[nodiscard]] std::int64_t attachment_size_limit(const User& user) const;
  // Keeps the interaction, sends it and answers the admin request once the application responded (or not).
  HttpResponse deliver(Interaction interaction, std::string payload);
  // The endpoint URL's answer to an interaction: the response inline (200), or 202 (it will call back).
  void endpoint_answered(const std::string& interaction_id, const WebhookPostResult& result);
  // The admin request learns the outcome: {interaction: {id, type, token}, response: {type, data}|null,
  // error?}.
  void report(Interaction& interaction, std::optional<std::string> error);

  // ---- responses (response_routes.cpp)
  void register_response_routes();
  HttpResponse api_callback(const RouteContext& context);
  // Applies an initial response (the callback route's body or an endpoint's inline answer, with the files
  // of a multipart body); the error to answer if it is refused. `callback_json` gets {interaction,
  // resource} for with_response.
  std::optional<HttpResponse> respond(Interaction& interaction, const rapidjson::Value& body,
                                      const std::map<std::size_t, MultipartPart>& files,
                                      std::string* callback_json);
  // The interaction of a webhook route's {application_id}/{token} whose token still lives, or the error.
  std::variant<Interaction*, HttpResponse> interaction_of_token(const RouteContext& context);
  HttpResponse api_get_webhook_message(const RouteContext& context);
  HttpResponse api_edit_webhook_message(const RouteContext& context);
  HttpResponse api_delete_webhook_message(const RouteContext& context);
  HttpResponse api_create_followup(const RouteContext& context);
  // A message of the application made from a message body (content, embeds, components, flags,
  // attachments and the uploaded `files`), or `base` edited by it; checked, with the errors in `errors`, or
  // `refused` set for an answer that is not a 50035 (a file over the upload limit).
  std::optional<Message> read_app_message(const Interaction& interaction, const rapidjson::Value& body,
                                          const std::map<std::size_t, MultipartPart>& files,
                                          FieldErrors& errors, const Message* base,
                                          std::optional<HttpResponse>& refused) const;
  // The component rules (component_rules.hpp) for a message's components (legacy or IS_COMPONENTS_V2 by
  // its flags: what a v2 message's Media Gallery, Thumbnail and File name must be among its attachments)
  // and for a modal's, at their paths under `components`; a premium button's SKU must be the
  // application's and available.
  void check_message_components(const std::string& app_id, const Message& message, FieldErrors& errors) const;
  void check_modal_components(const std::string& app_id, const rapidjson::Value& components,
                              FieldErrors& errors) const;
  // The interaction_metadata of the messages an interaction's token makes.
  [[nodiscard]] std::string interaction_metadata_json(const Interaction& interaction,
                                                      const std::optional<std::string>& original_id) const;

  GuildModule& guilds_;
  GatewayModule& gateway_;
  MessagingModule& messaging_;
  PremiumModule& premium_;
  WebhookTransport* transport_ = nullptr;
  std::map<std::string, ApplicationCommand, std::less<>> commands_;       // by id (ids grow with time)
  std::map<std::string, Interaction, std::less<>> interactions_;          // by id, while their tokens live
  std::map<std::string, std::string, std::less<>> interaction_of_token_;  // token -> id
};

// The command object as the API answers it; `localizations`: with the localization dictionaries.
std::string command_json(const ApplicationCommand& command, bool localizations = true);
// A count limit of `type`: 100, 15, 15 or 1.
std::size_t command_count_max(int type);

}  // namespace platformpp::emulator
