// The SDK's side of application commands: CheckApplicationCommand crossing each rule by one, the body it
// sends, and the lenient reading of what the platform answers (unknown fields and option types kept out of
// the way).
#include "backend/application_command_json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace application_command_json_test {

using namespace platformpp;
using namespace platformpp::backend;

namespace {

ApplicationCommandOption Option(ApplicationCommandOptionType type, std::string name) {
  ApplicationCommandOption option;
  option.type = type;
  option.name = std::move(name);
  option.description = "d";
  return option;
}

ApplicationCommand Chat(std::string name = "stats") {
  ApplicationCommand command;
  command.name = std::move(name);
  command.description = "d";
  return command;
}

// The paths of the broken rules.
std::vector<std::string> Broken(const ApplicationCommand& command, bool global = true) {
  std::vector<std::string> paths;
  for (const auto& error : CheckApplicationCommand(command, global))
    paths.push_back(error.path);
  return paths;
}

using Paths = std::vector<std::string>;

}  // namespace

TEST_CASE("names and descriptions: each limit crossed by one") {
  CHECK(Broken(Chat(std::string(32, 'a'))).empty());
  CHECK(Broken(Chat(std::string(33, 'a'))) == Paths{"name", "name"});  // too long, and not a valid name
  CHECK(Broken(Chat("")) == Paths{"name", "name"});
  CHECK(Broken(Chat("Stats")) == Paths{"name"});
  CHECK(Broken(Chat("two words")) == Paths{"name"});
  CHECK(Broken(Chat("\xC3\xA9t\xC3\xA9")).empty());           // été
  CHECK(Broken(Chat("\xC3\x89t\xC3\xA9")) == Paths{"name"});  // Été
  auto command = Chat();
  command.description = std::string(100, 'd');
  CHECK(Broken(command).empty());
  command.description += 'd';
  CHECK(Broken(command) == Paths{"description"});
  command.description.clear();
  CHECK(Broken(command) == Paths{"description"});
  ApplicationCommand menu;
  menu.type = ApplicationCommandType::User;
  menu.name = "Show Stats";
  CHECK(Broken(menu).empty());
  menu.description = "x";
  CHECK(Broken(menu) == Paths{"description"});
  menu.description.clear();
  menu.options.push_back(Option(ApplicationCommandOptionType::String, "a"));
  CHECK(Broken(menu) == Paths{"options"});
}

TEST_CASE("options: 25, order, nesting, choices, ranges, lengths, file types") {
  auto command = Chat();
  for (int i = 0; i < 25; ++i)
    command.options.push_back(Option(ApplicationCommandOptionType::String, "o" + std::to_string(i)));
  CHECK(Broken(command).empty());
  command.options.push_back(Option(ApplicationCommandOptionType::String, "o25"));
  CHECK(Broken(command) == Paths{"options"});

  command = Chat();
  command.options = {Option(ApplicationCommandOptionType::String, "a"),
                     Option(ApplicationCommandOptionType::String, "b")};
  command.options[1].required = true;
  CHECK(Broken(command) == Paths{"options.1"});
  command.options[1].name = "a";
  command.options[1].required = false;
  CHECK(Broken(command) == Paths{"options.1.name"});

  auto sub = Option(ApplicationCommandOptionType::SubCommand, "show");
  sub.options.push_back(Option(ApplicationCommandOptionType::String, "who"));
  auto group = Option(ApplicationCommandOptionType::SubCommandGroup, "group");
  group.options.push_back(sub);
  command.options = {group, sub};
  CHECK(Broken(command).empty());
  command.options.push_back(Option(ApplicationCommandOptionType::String, "loose"));
  CHECK(Broken(command) == Paths{"options"});
  command.options = {sub};
  command.options[0].options.push_back(sub);  // a subcommand in a subcommand
  CHECK(Broken(command) == Paths{"options.0.options.1.type", "options.0.options"});

  const auto with = [](ApplicationCommandOption option) {
    auto c = Chat();
    c.options.push_back(std::move(option));
    return Broken(c);
  };
  auto text = Option(ApplicationCommandOptionType::String, "t");
  for (int i = 0; i < 25; ++i)
    text.choices.push_back({"n" + std::to_string(i), {}, std::string(100, 'v')});
  CHECK(with(text).empty());
  text.choices.push_back({"n25", {}, std::string("v")});
  CHECK(with(text) == Paths{"options.0.choices"});
  text.choices.resize(1);
  text.choices[0].value = std::string(101, 'v');
  CHECK(with(text) == Paths{"options.0.choices.0.value"});
  text.choices[0].value = int64_t{1};
  CHECK(with(text) == Paths{"options.0.choices.0.value"});
  text.choices[0] = {std::string(101, 'n'), {}, std::string("v")};
  CHECK(with(text) == Paths{"options.0.choices.0.name"});
  text.choices[0].name = "n";
  text.autocomplete = true;
  CHECK(with(text) == Paths{"options.0.autocomplete"});

  auto integer = Option(ApplicationCommandOptionType::Integer, "i");
  integer.choices.push_back({"max", {}, int64_t{9007199254740991}});
  CHECK(with(integer).empty());
  integer.choices[0].value = int64_t{9007199254740992};
  CHECK(with(integer) == Paths{"options.0.choices.0.value"});
  integer.choices.clear();
  integer.minValue = -9007199254740991.0;
  integer.maxValue = 9007199254740991.0;
  CHECK(with(integer).empty());
  integer.minValue = -9007199254740992.0;
  CHECK(with(integer) == Paths{"options.0.min_value"});
  integer.minValue = 5;
  integer.maxValue = 4;
  CHECK(with(integer) == Paths{"options.0.min_value"});

  auto bounded = Option(ApplicationCommandOptionType::String, "s");
  bounded.minLength = 0;
  bounded.maxLength = 6000;
  CHECK(with(bounded).empty());
  bounded.minLength = -1;
  bounded.maxLength = 6001;
  CHECK(with(bounded) == Paths{"options.0.min_length", "options.0.max_length"});
  bounded.minLength.reset();
  bounded.maxLength = 0;
  CHECK(with(bounded) == Paths{"options.0.max_length"});

  auto file = Option(ApplicationCommandOptionType::Attachment, "f");
  file.fileTypes = {"image", "video", "audio", ".a", ".b", ".c", ".d", ".e", ".f", ".g"};
  CHECK(with(file).empty());
  file.fileTypes.emplace_back(".h");
  CHECK(with(file) == Paths{"options.0.file_types"});
  file.fileTypes = {"pdf"};
  CHECK(with(file) == Paths{"options.0.file_types.0"});
}

TEST_CASE("the size of a command: 8000 characters crossed by one; entry points and handlers") {
  auto command = Chat("size");
  command.description = std::string(96, 'd');
  // 4 + 96, then 30 options of 32 + 100, then choices of 100 + 100 up to 8000.
  for (int i = 0; i < 3; ++i) {
    auto option = Option(ApplicationCommandOptionType::String, std::string(31, 'o') + std::to_string(i));
    option.description = std::string(100, 'd');
    command.options.push_back(option);
  }
  // So far 100 + 3 * 132 = 496; 7504 more: 37 choices of 200 = 7400, and a 104-character choice pair.
  for (int i = 0; i < 25; ++i)
    command.options[0].choices.push_back(
        {std::string(98, 'n') + std::to_string(10 + i), {}, std::string(100, 'v')});
  for (int i = 0; i < 12; ++i)
    command.options[1].choices.push_back(
        {std::string(98, 'n') + std::to_string(10 + i), {}, std::string(100, 'v')});
  command.options[2].choices.push_back({std::string(52, 'n'), {}, std::string(52, 'v')});
  CHECK(Broken(command).empty());
  command.options[2].choices[0].value = std::string(53, 'v');
  CHECK(Broken(command) == Paths{""});

  ApplicationCommand entry;
  entry.type = ApplicationCommandType::PrimaryEntryPoint;
  entry.name = "Launch";
  entry.handler = EntryPointCommandHandlerType::DiscordLaunchActivity;
  CHECK(Broken(entry).empty());
  CHECK(Broken(entry, false) == Paths{"type"});
  auto chat = Chat();
  chat.handler = EntryPointCommandHandlerType::AppHandler;
  CHECK(Broken(chat) == Paths{"handler"});
}

TEST_CASE("an integer option's bounds in the body: integers up to 2^53, anything else as a number") {
  auto command = Chat();
  auto option = Option(ApplicationCommandOptionType::Integer, "n");
  option.minValue = -9007199254740992.0;
  option.maxValue = 9007199254740992.0;
  command.options = {option};
  CHECK(CommandBodyJson(command).find(R"("min_value":-9007199254740992,"max_value":9007199254740992})") !=
        std::string::npos);
  // One past 2^53 is not a double; the next one is, and so is a bound read from a hostile payload: written
  // as numbers (the platform refuses them, as the SDK's checks do), never converted past int64_t's range.
  option.minValue = 1.5;
  option.maxValue = 3.3e127;
  command.options = {option};
  CHECK(CommandBodyJson(command).find(R"("min_value":1.5,"max_value":3.3e127})") != std::string::npos);
  option.maxValue = 18014398509481984.0;  // 2^54
  command.options = {option};
  json::Document body;
  REQUIRE(json::Parse(CommandBodyJson(command), body));
  const auto& written = body["options"][0]["max_value"];
  CHECK(written.IsDouble());
  CHECK(written.GetDouble() == 18014398509481984.0);
}

TEST_CASE("the body sent and the answer read back") {
  auto command = Chat();
  command.nameLocalizations = {{"de", "statistik"}};
  auto option = Option(ApplicationCommandOptionType::Number, "ratio");
  option.minValue = 0.5;
  option.choices = {{"half", {}, 0.5}};
  command.options.push_back(option);
  command.integrationTypes = {IntegrationType::GuildInstall};
  const auto body = CommandBodyJson(command);
  CHECK(
      body ==
      R"({"type":1,"name":"stats","name_localizations":{"de":"statistik"},"description":"d","options":[{"type":10,)"
      R"("name":"ratio","description":"d","choices":[{"name":"half","value":0.5}],"min_value":0.5}],)"
      R"("default_member_permissions":null,"nsfw":false,"integration_types":[0]})");

  json::Document answer;
  REQUIRE(json::Parse(
      R"({"id":"10","application_id":"20","version":"30","type":1,"name":"stats","description":"d",)"
      R"("future_field":{"x":1},"default_member_permissions":"8","contexts":[0,1],)"
      R"("options":[{"type":99,"name":"new-kind","description":"d","future":true},)"
      R"({"type":3,"name":"s","description":"d","choices":[{"name":"a","value":"b"}]}]})",
      answer));
  auto parsed = ParseCommand(answer);
  REQUIRE(parsed);
  CHECK(parsed->id == 10);
  CHECK(parsed->applicationId == 20);
  CHECK(parsed->version == 30);
  CHECK(parsed->defaultMemberPermissions == 8u);
  REQUIRE(parsed->options.size() == 2);
  CHECK(static_cast<int>(parsed->options[0].type) == 99);  // a future type is kept as its number
  CHECK(std::get<std::string>(parsed->options[1].choices[0].value) == "b");
  CHECK(parsed->contexts->size() == 2);
  json::Document broken;
  REQUIRE(json::Parse(R"([{"id":"1","name":"a"},{"name":"no id"}])", broken));
  CHECK_FALSE(ParseCommands(broken));
  REQUIRE(json::Parse(R"({"id":"0","name":"a"})", broken));
  CHECK_FALSE(ParseCommand(broken));
}

}  // namespace application_command_json_test
