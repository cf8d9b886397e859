// BackendClient's application commands against the emulator: a deploy script's bulk overwrite and what the
// platform answers, an upsert, an edit, a delete, the rules checked before anything is sent (nothing reaches
// the platform), the platform's own count limit, the guild scope, and the entry point of an application with
// Activities.
#include "emulator_fixture.hpp"

#include <platformpp/backend.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace application_commands_test {

namespace {

using platformpp::ClientResult;
using platformpp::ErrorType;
using namespace platformpp::backend;
using namespace std::chrono_literals;

struct Bot {
  platformpp::testkit::EmulatorAdmin::App app;
  std::unique_ptr<BackendClient> client;

  Bot() {
    static std::atomic<int> counter{0};
    auto& e = itest::Shared();
    app = e.admin->CreateApp("Commands Game " + std::to_string(counter++));
    BackendOptions options;
    options.apiBase = e.process->Connection().apiBase;
    options.caFile = e.process->Connection().caFile;
    options.botToken = app.botToken;
    options.applicationId = app.id;
    client = std::make_unique<BackendClient>(options);
  }

  template <class T, class Start>
  std::pair<ClientResult, T> Call(Start start) {
    auto out = std::make_shared<std::optional<std::pair<ClientResult, T>>>();
    start(
        [out](ClientResult result, T value) { *out = std::make_pair(std::move(result), std::move(value)); });
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!out->has_value() && std::chrono::steady_clock::now() < deadline) {
      client->WaitForCallbacks(50);
      client->RunCallbacks();
    }
    REQUIRE(out->has_value());
    return std::move(**out);
  }
  std::pair<ClientResult, std::vector<ApplicationCommand>> List(
      std::optional<uint64_t> guild = std::nullopt) {
    return Call<std::vector<ApplicationCommand>>([&](auto cb) { client->ListCommands(guild, cb); });
  }
  std::pair<ClientResult, ApplicationCommand> Create(const ApplicationCommand& command,
                                                     std::optional<uint64_t> guild = std::nullopt) {
    return Call<ApplicationCommand>([&](auto cb) { client->CreateCommand(guild, command, cb); });
  }
};

ApplicationCommandOption Option(ApplicationCommandOptionType type, const std::string& name,
                                bool required = false) {
  ApplicationCommandOption option;
  option.type = type;
  option.name = name;
  option.description = "The " + name;
  option.required = required;
  return option;
}

ApplicationCommand Stats() {
  ApplicationCommand stats;
  stats.name = "stats";
  stats.description = "Show a player's stats";
  stats.nameLocalizations = {{"fr", "statistiques"}};
  stats.options.push_back(Option(ApplicationCommandOptionType::User, "player", true));
  auto mode = Option(ApplicationCommandOptionType::Integer, "mode");
  mode.choices = {{"Solo", {}, int64_t{1}}, {"Duo", {{"fr", "Duo"}}, int64_t{2}}};
  stats.options.push_back(mode);
  auto proof = Option(ApplicationCommandOptionType::Attachment, "proof");
  proof.fileTypes = {"image", ".webm"};
  stats.options.push_back(proof);
  auto note = Option(ApplicationCommandOptionType::String, "note");
  note.minLength = 2;
  note.maxLength = 200;
  stats.options.push_back(note);
  stats.defaultMemberPermissions = 0;
  stats.contexts = std::vector<InteractionContextType>{InteractionContextType::Guild};
  return stats;
}

}  // namespace

TEST_CASE("a deploy script's bulk overwrite, an upsert, an edit and a delete") {
  Bot bot;
  ApplicationCommand profile;
  profile.type = ApplicationCommandType::User;
  profile.name = "Show Stats";
  // Named, not structured bindings: doctest's message captures them (clang-tidy's clang 14 cannot).
  auto answer = bot.Call<std::vector<ApplicationCommand>>([&](auto cb) {
    bot.client->BulkOverwriteCommands(std::nullopt, {Stats(), profile}, cb);
  });
  REQUIRE_MESSAGE(answer.first.Successful(), answer.first.ToString());
  const auto& deployed = answer.second;
  REQUIRE(deployed.size() == 2);
  const auto& stats = deployed[0];
  CHECK(stats.id != 0);
  CHECK(stats.applicationId == bot.app.id);
  CHECK_FALSE(stats.guildId);
  CHECK(stats.nameLocalizations.at("fr") == "statistiques");
  REQUIRE(stats.options.size() == 4);
  CHECK(stats.options[0].required);
  REQUIRE(stats.options[1].choices.size() == 2);
  CHECK(std::get<int64_t>(stats.options[1].choices[1].value) == 2);
  CHECK(stats.options[2].fileTypes == std::vector<std::string>{"image", ".webm"});
  CHECK(stats.options[3].maxLength == 200);
  CHECK(stats.defaultMemberPermissions == 0u);
  CHECK(stats.contexts == std::vector<InteractionContextType>{InteractionContextType::Guild});
  CHECK(deployed[1].type == ApplicationCommandType::User);
  CHECK(deployed[1].description.empty());

  // Create with the same name and type: the same command, replaced.
  auto changed = Stats();
  changed.description = "Stats, again";
  auto [upserted, again] = bot.Create(changed);
  REQUIRE(upserted.Successful());
  CHECK(again.id == stats.id);
  CHECK(again.version != stats.version);

  changed.name = "score";
  auto [edited, renamed] = bot.Call<ApplicationCommand>(
      [&](auto cb) { bot.client->EditCommand(std::nullopt, stats.id, changed, cb); });
  REQUIRE(edited.Successful());
  CHECK(renamed.name == "score");
  CHECK(bot.List().second.size() == 2);

  auto deleted = bot.Call<std::tuple<>>([&](auto cb) {
    bot.client->DeleteCommand(std::nullopt, stats.id,
                              [cb](ClientResult r) { cb(std::move(r), std::tuple<>()); });
  });
  CHECK(deleted.first.Successful());
  auto [missing, none] =
      bot.Call<ApplicationCommand>([&](auto cb) { bot.client->GetCommand(std::nullopt, stats.id, cb); });
  CHECK(missing.Type() == ErrorType::HTTPError);
  CHECK(missing.Status() == 404);
  CHECK(missing.ErrorCode() == 10063);
}

TEST_CASE("the rules are checked before anything is sent; the platform's count limit comes back") {
  Bot bot;
  auto bad = Stats();
  bad.name = "Stats";                                                                 // not lowercase
  bad.options.push_back(Option(ApplicationCommandOptionType::String, "late", true));  // after optional ones
  bad.options[2].fileTypes.emplace_back("pdf");
  auto [refused, nothing] = bot.Create(bad);
  CHECK(refused.Type() == ErrorType::ValidationError);
  const auto paths = [](const ClientResult& r) {
    std::vector<std::string> out;
    for (const auto& error : r.FieldErrors())
      out.push_back(error.path);
    return out;
  };
  CHECK(paths(refused) == std::vector<std::string>{"name", "options.2.file_types.2", "options.4"});
  CHECK(bot.List().second.empty());  // nothing reached the platform

  std::vector<ApplicationCommand> many(26, Stats());
  for (std::size_t i = 0; i < many.size(); ++i)
    many[i].name = "c" + std::to_string(i);
  many[3].options.assign(26, Option(ApplicationCommandOptionType::String, "x"));
  auto [bulkRefused, none] = bot.Call<std::vector<ApplicationCommand>>(
      [&](auto cb) { bot.client->BulkOverwriteCommands(std::nullopt, many, cb); });
  CHECK(bulkRefused.Type() == ErrorType::ValidationError);
  CHECK(paths(bulkRefused).front() == "3.options");

  ApplicationCommand simple;
  simple.description = "d";
  for (int i = 0; i < 100; ++i) {
    simple.name = "c" + std::to_string(i);
    REQUIRE(bot.Create(simple).first.Successful());
  }
  simple.name = "c100";
  auto [tooMany, ignored] = bot.Create(simple);
  CHECK(tooMany.Type() == ErrorType::HTTPError);
  CHECK(tooMany.ErrorCode() == 30032);
}

TEST_CASE("guild scope and the entry point of an application with Activities") {
  Bot bot;
  auto [unknownGuild, none] = bot.Create(Stats(), 12345);
  CHECK(unknownGuild.Status() == 404);
  CHECK(unknownGuild.ErrorCode() == 10004);  // the path named the guild

  ApplicationCommand entry;
  entry.type = ApplicationCommandType::PrimaryEntryPoint;
  entry.name = "Launch";
  entry.description = "Race now";
  entry.handler = EntryPointCommandHandlerType::AppHandler;
  auto [guildOnly, nothing] = bot.Create(entry, 12345);
  CHECK(guildOnly.Type() == ErrorType::ValidationError);  // entry points are global: refused before sending

  auto [noActivities, refused] = bot.Create(entry);  // a handler needs Activities: the platform says no
  CHECK(noActivities.Status() == 400);
  auto& admin = *itest::Shared().admin;
  const auto switched = admin.Request("POST", "/applications/" + std::to_string(bot.app.id) + "/activities",
                                      R"({"enabled":true})");
  REQUIRE(switched.status == 200);
  auto [listed, commands] = bot.List();
  REQUIRE(commands.size() == 1);
  CHECK(commands[0].type == ApplicationCommandType::PrimaryEntryPoint);
  CHECK(commands[0].name == "Launch");
  CHECK(commands[0].handler == EntryPointCommandHandlerType::DiscordLaunchActivity);
  auto replaced = bot.Create(entry);  // same name and type: the default one, now the app's
  REQUIRE_MESSAGE(replaced.first.Successful(), replaced.first.ToString());
  const auto& launch = replaced.second;
  CHECK(launch.id == commands[0].id);
  CHECK(launch.handler == EntryPointCommandHandlerType::AppHandler);
}

}  // namespace application_commands_test
