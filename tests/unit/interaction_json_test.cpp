// The interaction object as the platform sends it, read by ParseInteraction (every field the model types,
// the modal's values flattened, unknown fields and types tolerated), and the response side:
// CheckInteractionResponse crossing each rule by one and the body the callback route gets.
#include "backend/interaction_json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace interaction_json_test {

using namespace platformpp;
using namespace platformpp::backend;

namespace {

using Paths = std::vector<std::string>;

Paths Broken(const InteractionResponse& response, std::optional<InteractionType> answering = std::nullopt) {
  Paths paths;
  for (const auto& error : CheckInteractionResponse(response, answering))
    paths.push_back(error.path);
  return paths;
}

const char* const kCommand = R"({
  "id": "1001", "application_id": "2002", "type": 2, "token": "tok.en-1", "version": 1,
  "guild_id": "3003", "channel_id": "4004",
  "channel": {"id": "4004", "type": 0, "name": "general", "parent_id": "4000", "nsfw": false},
  "member": {"user": {"id": "5005", "username": "player", "global_name": "Player One", "avatar": "abc"},
             "roles": ["6006", "6007"], "permissions": "18446744073709551615", "nick": "P1",
             "joined_at": "2025-01-01T00:00:00+00:00", "flags": 0},
  "locale": "fr", "guild_locale": "en-US", "app_permissions": "442368",
  "entitlements": [{"id": "7007", "sku_id": "7008", "application_id": "2002", "user_id": "5005", "type": 8,
                    "deleted": false, "consumed": false}],
  "authorizing_integration_owners": {"0": "3003", "1": "5005"},
  "context": 0, "attachment_size_limit": 10485760,
  "data": {
    "id": "8008", "name": "stats", "type": 1, "guild_id": "3003",
    "options": [{"name": "show", "type": 2, "options": [{"name": "player", "type": 1, "options": [
      {"name": "who", "type": 6, "value": "5005"},
      {"name": "count", "type": 4, "value": 3},
      {"name": "ratio", "type": 10, "value": 2},
      {"name": "public", "type": 5, "value": true},
      {"name": "label", "type": 3, "value": "text"},
      {"name": "where", "type": 7, "value": "4004"},
      {"name": "proof", "type": 11, "value": "9009"}
    ]}]}],
    "resolved": {
      "users": {"5005": {"id": "5005", "username": "player"}},
      "members": {"5005": {"roles": [], "nick": null, "permissions": "8"}},
      "roles": {"6006": {"id": "6006", "name": "mods", "permissions": "8", "position": 2}},
      "channels": {"4004": {"id": "4004", "type": 0, "name": "general", "permissions": "1024",
                            "app_permissions": "2048"},
                   "4005": {"id": "4005", "type": 0, "name": "elsewhere", "permissions": "1024"}},
      "attachments": {"9009": {"id": "9009", "filename": "proof.png", "size": 100, "url": "https://cdn/p.png",
                               "proxy_url": "https://media/p.png", "content_type": "image/png",
                               "ephemeral": true}}
    }
  },
  "a_future_field": {"x": 1}
})";

}  // namespace

TEST_CASE("a command interaction: every typed field") {
  const auto interaction = ParseInteraction(kCommand);
  REQUIRE(interaction);
  CHECK(interaction->id == 1001);
  CHECK(interaction->applicationId == 2002);
  CHECK(interaction->type == InteractionType::ApplicationCommand);
  CHECK(interaction->token == "tok.en-1");
  CHECK(interaction->version == 1);
  CHECK(interaction->guildId == 3003u);
  CHECK(interaction->channelId == 4004u);
  REQUIRE(interaction->channel);
  CHECK(interaction->channel->name == "general");
  CHECK(interaction->channel->parentId == 4000u);
  REQUIRE(interaction->member);
  REQUIRE(interaction->member->user);
  CHECK(interaction->member->user->globalName == "Player One");
  CHECK(interaction->member->roles == std::vector<uint64_t>{6006, 6007});
  CHECK(interaction->member->permissions == UINT64_MAX);  // a string on the wire, all 64 bits kept
  CHECK(interaction->member->nick == "P1");
  CHECK(!interaction->user);
  REQUIRE(interaction->Invoker());
  CHECK(interaction->Invoker()->id == 5005);
  CHECK(interaction->locale == "fr");
  CHECK(interaction->guildLocale == "en-US");
  CHECK(interaction->appPermissions == 442368);
  REQUIRE(interaction->entitlements.size() == 1);
  CHECK(interaction->entitlements[0].skuId == 7008);
  CHECK(interaction->authorizingIntegrationOwners.at(IntegrationType::GuildInstall) == 3003);
  CHECK(interaction->authorizingIntegrationOwners.at(IntegrationType::UserInstall) == 5005);
  CHECK(interaction->context == InteractionContextType::Guild);
  CHECK(interaction->attachmentSizeLimit == 10485760u);
  CHECK(interaction->rawJson.find("a_future_field") != std::string::npos);

  const CommandInteractionData* command = interaction->Command();
  REQUIRE(command);
  CHECK(command->id == 8008);
  CHECK(command->name == "stats");
  CHECK(command->type == ApplicationCommandType::ChatInput);
  CHECK(command->guildId == 3003u);
  REQUIRE(command->options.size() == 1);
  CHECK(command->options[0].type == ApplicationCommandOptionType::SubCommandGroup);
  CHECK(!command->Find("show"));  // groups and subcommands are not parameters
  REQUIRE(command->Find("who"));
  CHECK(command->Find("who")->idValue == 5005u);
  CHECK(!command->Find("who")->stringValue);
  CHECK(command->Find("count")->integerValue == 3);
  CHECK(command->Find("ratio")->numberValue == 2.0);  // a Number option with an integral value stays a number
  CHECK(!command->Find("ratio")->integerValue);
  CHECK(command->Find("public")->boolValue == true);
  CHECK(command->Find("label")->stringValue == "text");
  CHECK(command->Find("where")->idValue == 4004u);
  CHECK(command->Find("proof")->idValue == 9009u);
  CHECK(!command->Find("absent"));
  CHECK(!command->Focused());

  const Resolved& resolved = command->resolved;
  CHECK(resolved.users.at(5005).username == "player");
  CHECK(!resolved.members.at(5005).user);
  CHECK(resolved.members.at(5005).permissions == 8u);
  CHECK(resolved.roles.at(6006).name == "mods");
  CHECK(resolved.roles.at(6006).position == 2);
  // The bot's permissions in a resolved channel come only when the bot is in the guild.
  CHECK(resolved.channels.at(4004).permissions == 1024u);
  CHECK(resolved.channels.at(4004).appPermissions == 2048u);
  CHECK(resolved.channels.at(4005).permissions == 1024u);
  CHECK(!resolved.channels.at(4005).appPermissions);
  CHECK(resolved.attachments.at(9009).filename == "proof.png");
  CHECK(resolved.attachments.at(9009).ephemeral);
  CHECK(resolved.attachments.at(9009).contentType == "image/png");
}

TEST_CASE("a DM: the user instead of the member, the bot DM's guild owner \"0\"") {
  const auto interaction = ParseInteraction(R"({"id":"1","application_id":"2","type":2,"token":"t",
    "user":{"id":"9","username":"u"},"context":1,"app_permissions":"0",
    "authorizing_integration_owners":{"0":"0"},"data":{"id":"3","name":"ping","type":1}})");
  REQUIRE(interaction);
  CHECK(!interaction->member);
  REQUIRE(interaction->Invoker());
  CHECK(interaction->Invoker()->id == 9);
  CHECK(interaction->context == InteractionContextType::BotDm);
  CHECK(interaction->authorizingIntegrationOwners.at(IntegrationType::GuildInstall) == 0);
  CHECK(!interaction->guildId);
}

TEST_CASE("autocomplete: the focused option's partial text, whatever its type") {
  const auto interaction = ParseInteraction(R"({"id":"1","application_id":"2","type":4,"token":"t",
    "data":{"id":"3","name":"find","type":1,"options":[
      {"name":"count","type":4,"value":"12","focused":true},{"name":"map","type":3,"value":"du"}]}})");
  REQUIRE(interaction);
  CHECK(interaction->type == InteractionType::Autocomplete);
  REQUIRE(interaction->Command());
  const InteractionOption* focused = interaction->Command()->Focused();
  REQUIRE(focused);
  CHECK(focused->name == "count");
  CHECK(focused->stringValue == "12");
  CHECK(!focused->integerValue);
}

TEST_CASE("a component interaction: custom id, type, values, resolved, and the message") {
  const auto interaction = ParseInteraction(R"({"id":"1","application_id":"2","type":3,"token":"t",
    "message":{"id":"50","channel_id":"60","flags":32768,"content":"",
               "components":[{"type":17,"id":1,"components":[{"type":10,"id":2,"content":"hi"}]}]},
    "data":{"custom_id":"pick","component_type":5,"values":["9","8"],
            "resolved":{"users":{"9":{"id":"9","username":"a"},"8":{"id":"8","username":"b"}}}}})");
  REQUIRE(interaction);
  const ComponentInteractionData* data = interaction->ComponentData();
  REQUIRE(data);
  CHECK(data->customId == "pick");
  CHECK(data->componentType == ComponentType::UserSelect);
  CHECK(data->values == std::vector<std::string>{"9", "8"});
  CHECK(data->resolved.users.size() == 2);
  REQUIRE(interaction->message);
  CHECK(interaction->message->id == 50);
  CHECK(interaction->message->channelId == 60);
  CHECK(interaction->message->flags == message_flags::IsComponentsV2);
  REQUIRE(interaction->message->components.size() == 1);
  CHECK(interaction->message->components[0].type == ComponentType::Container);
}

TEST_CASE("a modal submission: every interactive component flattened, with its value") {
  const auto interaction = ParseInteraction(R"({"id":"1","application_id":"2","type":5,"token":"t",
    "data":{"custom_id":"report","components":[
      {"type":10,"id":1},
      {"type":18,"id":2,"component":{"type":4,"id":3,"custom_id":"name","value":"Ann"}},
      {"type":18,"id":4,"component":{"type":3,"id":5,"custom_id":"class","values":["mage"]}},
      {"type":18,"id":6,"component":{"type":19,"id":7,"custom_id":"proof","values":["111","222"]}},
      {"type":18,"id":8,"component":{"type":21,"id":9,"custom_id":"side","value":"red"}},
      {"type":18,"id":10,"component":{"type":21,"id":11,"custom_id":"none","value":null}},
      {"type":18,"id":12,"component":{"type":22,"id":13,"custom_id":"modes","values":["a","b"]}},
      {"type":18,"id":14,"component":{"type":23,"id":15,"custom_id":"agree","value":true}},
      {"type":1,"id":16,"components":[{"type":4,"id":17,"custom_id":"legacy","value":"old"}]},
      {"type":18,"id":18,"component":{"type":77,"id":19,"custom_id":"future","value":{"x":1}}}
    ],"resolved":{"attachments":{"111":{"id":"111","filename":"a.png","size":1,"url":"u"},
                                 "222":{"id":"222","filename":"b.png","size":2,"url":"u"}}}}})");
  REQUIRE(interaction);
  const ModalSubmitData* modal = interaction->Modal();
  REQUIRE(modal);
  CHECK(modal->customId == "report");
  REQUIRE(modal->values.size() == 9);
  CHECK(modal->components.size() == 10);

  const ModalValue* name = modal->Find("name");
  REQUIRE(name);
  CHECK(name->id == 3);
  CHECK(name->type == ComponentType::TextInput);
  CHECK(name->value == "Ann");
  CHECK(modal->Find("class")->values == std::vector<std::string>{"mage"});
  const ModalValue* proof = modal->Find("proof");
  CHECK(proof->type == ComponentType::FileUpload);
  CHECK(proof->attachmentIds == std::vector<uint64_t>{111, 222});
  CHECK(modal->resolved.attachments.at(222).filename == "b.png");
  CHECK(modal->Find("side")->values == std::vector<std::string>{"red"});
  CHECK(modal->Find("none")->values.empty());
  CHECK(!modal->Find("none")->value);
  CHECK(modal->Find("modes")->values == std::vector<std::string>{"a", "b"});
  CHECK(modal->Find("agree")->checked == true);
  CHECK(modal->Find("legacy")->value == "old");  // a deprecated action row around a text input
  REQUIRE(modal->Find("future"));
  CHECK(static_cast<int>(modal->Find("future")->type) == 77);
  CHECK(!modal->Find("absent"));
}

TEST_CASE("PING, future types and broken input: never fatal") {
  const auto ping = ParseInteraction(R"({"id":"1","application_id":"2","type":1,"token":"t","version":1})");
  REQUIRE(ping);
  CHECK(ping->type == InteractionType::Ping);
  CHECK(std::holds_alternative<std::monostate>(ping->data));
  CHECK(!ping->Invoker());

  const auto future =
      ParseInteraction(R"({"id":"1","application_id":"2","type":42,"token":"t","data":{"x":1}})");
  REQUIRE(future);
  CHECK(static_cast<int>(future->type) == 42);
  CHECK(std::holds_alternative<std::monostate>(future->data));
  CHECK(future->rawJson.find("\"x\"") != std::string::npos);

  CHECK(!ParseInteraction(""));
  CHECK(!ParseInteraction("[]"));
  CHECK(!ParseInteraction(R"({"application_id":"2","type":1,"token":"t"})"));  // no id
  CHECK(!ParseInteraction(R"({"id":"1","type":1,"token":"t"})"));              // no application
  CHECK(!ParseInteraction(R"({"id":"1","application_id":"2","token":"t"})"));  // no type
  CHECK(!ParseInteraction(R"({"id":"1","application_id":"2","type":1})"));     // no token
  CHECK(!ParseInteraction(R"({"id":"1","application_id":"2","type":1,"token":""})"));
  CHECK(!ParseInteraction(R"({"id":"x","application_id":"2","type":1,"token":"t"})"));

  // Fields of the wrong type keep their defaults.
  const auto odd = ParseInteraction(R"({"id":"1","application_id":"2","type":2,"token":"t",
    "member":[],"user":5,"app_permissions":"-1","context":"guild","authorizing_integration_owners":{"x":"1","1":7},
    "attachment_size_limit":-5,"entitlements":[{}],"data":{"options":[{"name":1},{"type":3},7,
    {"name":"deep","type":1,"options":[{"name":"d2","type":2,"options":[{"name":"d3","type":1,"options":[
    {"name":"d4","type":1,"options":[{"name":"d5","type":3,"value":"v"}]}]}]}]}]}})");
  REQUIRE(odd);
  CHECK(!odd->member);
  CHECK(!odd->user);
  CHECK(odd->appPermissions == 0);
  CHECK(!odd->context);
  CHECK(odd->authorizingIntegrationOwners.empty());
  CHECK(!odd->attachmentSizeLimit);
  CHECK(odd->entitlements.empty());
  REQUIRE(odd->Command());
  REQUIRE(odd->Command()->options.size() == 1);
  // Nesting deeper than any command has is not followed: d4 (the fourth level) is read, its options not.
  const InteractionOption& deep = odd->Command()->options[0];
  REQUIRE(deep.options.size() == 1);
  REQUIRE(deep.options[0].options.size() == 1);
  REQUIRE(deep.options[0].options[0].options.size() == 1);
  const InteractionOption& d4 = deep.options[0].options[0].options[0];
  CHECK(d4.name == "d4");
  CHECK(d4.options.empty());
  CHECK(!odd->Command()->Find("d5"));
}

TEST_CASE(
    "the callback types each interaction type accepts; LAUNCH_ACTIVITY for commands, components, modals") {
  using C = InteractionCallbackType;
  using T = InteractionType;
  CHECK(Broken(InteractionResponse::Pong(), T::Ping).empty());
  CHECK(Broken(InteractionResponse::Pong(), T::ApplicationCommand) == Paths{"type"});
  CHECK(Broken(InteractionResponse::Deferred(), T::Ping) == Paths{"type"});
  for (T type : {T::ApplicationCommand, T::MessageComponent, T::ModalSubmit})
    CHECK(Broken(InteractionResponse::LaunchActivity(), type).empty());
  for (T type : {T::Ping, T::Autocomplete})
    CHECK(Broken(InteractionResponse::LaunchActivity(), type) == Paths{"type"});
  CHECK(Broken(InteractionResponse::DeferredUpdate(), T::MessageComponent).empty());
  CHECK(Broken(InteractionResponse::DeferredUpdate(), T::ApplicationCommand) == Paths{"type"});
  CHECK(Broken(InteractionResponse::Update(MessagePayload::Text("x")), T::ApplicationCommand) ==
        Paths{"type"});
  CHECK(Broken(InteractionResponse::Autocomplete({}), T::Autocomplete).empty());
  CHECK(Broken(InteractionResponse::Autocomplete({}), T::ApplicationCommand) == Paths{"type"});
  CHECK(Broken(InteractionResponse::Message(MessagePayload::Text("x")), T::Autocomplete) == Paths{"type"});
  const auto modal =
      InteractionResponse::Modal("m", "Title", {Component::Label("Name", Component::TextInput("n"))});
  CHECK(Broken(modal, T::ApplicationCommand).empty());
  CHECK(Broken(modal, T::ModalSubmit) == Paths{"type"});
  InteractionResponse premium;
  premium.type = C::PremiumRequired;  // deprecated, still accepted
  CHECK(Broken(premium, T::ApplicationCommand).empty());
  InteractionResponse unknown;
  unknown.type = static_cast<C>(11);
  CHECK(Broken(unknown) == Paths{"type"});
  unknown.type = static_cast<C>(13);
  CHECK(Broken(unknown) == Paths{"type"});
}

TEST_CASE("message responses: the message's own rules under data; deferred carries EPHEMERAL only") {
  CHECK(Broken(InteractionResponse::Message(MessagePayload::Text(std::string(2001, 'a')))) ==
        Paths{"data.content"});
  CHECK(Broken(InteractionResponse::Message(MessagePayload{})) == Paths{"data"});
  InteractionResponse missing;
  missing.type = InteractionCallbackType::ChannelMessageWithSource;
  CHECK(Broken(missing) == Paths{"data"});
  CHECK(Broken(InteractionResponse::Update(MessagePayload{})).empty());  // an update may change nothing
  CHECK(Broken(InteractionResponse::Deferred(true)).empty());
  auto deferred = InteractionResponse::Deferred(true);
  deferred.message->flags = message_flags::Ephemeral | message_flags::IsComponentsV2;
  CHECK(Broken(deferred) == Paths{"data.flags"});
  deferred = InteractionResponse::Deferred();
  deferred.message = MessagePayload::Text("too soon");
  CHECK(Broken(deferred) == Paths{"data"});
  auto pong = InteractionResponse::Pong();
  pong.message = MessagePayload::Text("x");
  CHECK(Broken(pong) == Paths{"data"});
}

TEST_CASE("modal responses: custom id 1-100, title 1-45, 1 to 5 components of a modal") {
  const auto input = [] { return Component::Label("Name", Component::TextInput("n")); };
  CHECK(Broken(InteractionResponse::Modal(std::string(100, 'c'), std::string(45, 't'), {input()})).empty());
  CHECK(Broken(InteractionResponse::Modal(std::string(101, 'c'), "t", {input()})) == Paths{"data.custom_id"});
  CHECK(Broken(InteractionResponse::Modal("", "t", {input()})) == Paths{"data.custom_id"});
  CHECK(Broken(InteractionResponse::Modal("c", std::string(46, 't'), {input()})) == Paths{"data.title"});
  CHECK(Broken(InteractionResponse::Modal("c", "", {input()})) == Paths{"data.title"});
  std::vector<Component> five(5, input());
  for (std::size_t i = 0; i < five.size(); ++i)
    five[i].component[0].customId = "n" + std::to_string(i);
  CHECK(Broken(InteractionResponse::Modal("c", "t", five)).empty());
  auto six = five;
  six.push_back(input());
  six.back().component[0].customId = "n5";
  const Paths sixBroken = Broken(InteractionResponse::Modal("c", "t", six));
  REQUIRE(!sixBroken.empty());
  CHECK(sixBroken.front() == "data.components");
  CHECK(Broken(InteractionResponse::Modal("c", "t", {})).front() == "data.components");
  // The tree is checked as a modal's: a button has no place in one.
  const Paths button = Broken(InteractionResponse::Modal(
      "c", "t", {Component::ActionRow({Component::Button(ButtonStyle::Primary, "b", "b")})}));
  REQUIRE(!button.empty());
  CAPTURE(button.front());
  CHECK(button.front().rfind("data.components.0", 0) == 0);
}

TEST_CASE("autocomplete results: at most 25 choices, names 1-100, string values up to 100") {
  std::vector<ApplicationCommandOptionChoice> choices(
      25, ApplicationCommandOptionChoice{"n", {}, std::string("v")});
  CHECK(Broken(InteractionResponse::Autocomplete(choices)).empty());
  choices.push_back(ApplicationCommandOptionChoice{"n", {}, std::string("v")});
  CHECK(Broken(InteractionResponse::Autocomplete(choices)) == Paths{"data.choices"});
  CHECK(Broken(InteractionResponse::Autocomplete({{std::string(100, 'n'), {}, std::string(100, 'v')}}))
            .empty());
  CHECK(Broken(InteractionResponse::Autocomplete({{std::string(101, 'n'), {}, int64_t{1}}})) ==
        Paths{"data.choices.0.name"});
  CHECK(Broken(InteractionResponse::Autocomplete({{"n", {}, std::string(101, 'v')}})) ==
        Paths{"data.choices.0.value"});
  CHECK(Broken(InteractionResponse::Autocomplete({{"n", {}, int64_t{9007199254740991}}})).empty());
  CHECK(Broken(InteractionResponse::Autocomplete({{"n", {}, int64_t{9007199254740992}}})) ==
        Paths{"data.choices.0.value"});
  auto message = InteractionResponse::Message(MessagePayload::Text("x"));
  message.choices = choices;
  CHECK(Broken(message) == Paths{"data.choices"});
}

TEST_CASE("the callback body: {type, data} as the platform takes it, multipart with files") {
  CHECK(InteractionResponseBody(InteractionResponse::Pong()).body == R"({"type":1})");
  CHECK(InteractionResponseBody(InteractionResponse::LaunchActivity()).body == R"({"type":12})");
  CHECK(InteractionResponseBody(InteractionResponse::DeferredUpdate()).body == R"({"type":6})");
  CHECK(InteractionResponseBody(InteractionResponse::Deferred()).body == R"({"type":5})");
  CHECK(InteractionResponseBody(InteractionResponse::Deferred(true)).body ==
        R"({"type":5,"data":{"flags":64}})");
  CHECK(InteractionResponseBody(InteractionResponse::Message(MessagePayload::Text("hi"))).body ==
        R"({"type":4,"data":{"content":"hi"}})");
  CHECK(InteractionResponseBody(InteractionResponse::Update(MessagePayload::Text("hi"))).body ==
        R"({"type":7,"data":{"content":"hi"}})");
  CHECK(InteractionResponseBody(
            InteractionResponse::Autocomplete({{"One", {{"fr", "Un"}}, int64_t{1}}, {"Half", {}, 0.5}}))
            .body ==
        R"({"type":8,"data":{"choices":[{"name":"One","name_localizations":{"fr":"Un"},"value":1},)"
        R"({"name":"Half","value":0.5}]}})");
  const std::string modal =
      InteractionResponseBody(
          InteractionResponse::Modal("m", "T", {Component::Label("L", Component::TextInput("n"))}))
          .body;
  CHECK(modal.rfind(R"({"type":9,"data":{"custom_id":"m","title":"T","components":[{"type":18,)", 0) == 0);

  MessagePayload withFile = MessagePayload::Text("see");
  withFile.files.push_back(FileUpload{"a.txt", "A", "", false, ""});
  const EncodedBody body = InteractionResponseBody(InteractionResponse::Message(withFile));
  CHECK(body.contentType.rfind("multipart/form-data; boundary=", 0) == 0);
  CHECK(
      body.body.find(R"({"type":4,"data":{"content":"see","attachments":[{"id":0,"filename":"a.txt"}]}})") !=
      std::string::npos);
  CHECK(body.body.find("name=\"files[0]\"; filename=\"a.txt\"") != std::string::npos);
}

}  // namespace interaction_json_test
