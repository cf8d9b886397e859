// Messages the backend sends: CheckMessagePayload crossing each limit by one, the JSON and multipart bodies
// (files as files[n] with payload_json, spoilers as is_spoiler and the SPOILER_ prefix), and the lenient
// reading of the message object the platform answers with.
#include "backend/message_json.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace message_payload_test {

using namespace platformpp;
using namespace platformpp::backend;

namespace {

using Paths = std::vector<std::string>;

Paths Broken(const MessagePayload& payload, MessagePayloadUse use = MessagePayloadUse::Create,
             bool interaction = true) {
  Paths paths;
  for (const auto& error : CheckMessagePayload(payload, use, interaction))
    paths.push_back(error.path);
  return paths;
}

std::string Codes(const MessagePayload& payload) {
  std::string codes;
  for (const auto& error : CheckMessagePayload(payload, MessagePayloadUse::Create, true))
    codes += error.code + ";";
  return codes;
}

MessagePayload WithEmbed(Embed embed) {
  MessagePayload payload;
  payload.embeds = std::vector<Embed>{std::move(embed)};
  return payload;
}

std::string BodyOf(const MessagePayload& payload) {
  json::Document holder;
  return json::Serialize(MessagePayloadValue(payload, holder.GetAllocator()));
}

}  // namespace

TEST_CASE("content: at most 2000 characters, counted in code points") {
  CHECK(Broken(MessagePayload::Text(std::string(2000, 'a'))).empty());
  CHECK(Broken(MessagePayload::Text(std::string(2001, 'a'))) == Paths{"content"});
  std::string accented;
  for (int i = 0; i < 2000; ++i)
    accented += "\xC3\xA9";  // é: 2 bytes, 1 character
  CHECK(Broken(MessagePayload::Text(accented)).empty());
  CHECK(Broken(MessagePayload::Text(accented + "e")) == Paths{"content"});
  CHECK(Broken(MessagePayload::Text("\xC3")) == Paths{"content"});  // not UTF-8
}

TEST_CASE("a new message needs something to show; an edit does not") {
  CHECK(Broken(MessagePayload{}) == Paths{""});
  CHECK(Broken(MessagePayload::Text("")) == Paths{""});
  CHECK(Broken(MessagePayload{}, MessagePayloadUse::Edit).empty());
  MessagePayload file;
  file.files.push_back(FileUpload{"a.png", "x", "", false, ""});
  CHECK(Broken(file).empty());
  MessagePayload components;
  components.components =
      std::vector<Component>{Component::ActionRow({Component::Button(ButtonStyle::Primary, "Go", "go")})};
  CHECK(Broken(components).empty());
}

TEST_CASE("embeds: at most 10, each limit crossed by one, 6000 characters together") {
  MessagePayload ten;
  ten.embeds = std::vector<Embed>(10);
  for (auto& embed : *ten.embeds)
    embed.title = "t";
  CHECK(Broken(ten).empty());
  ten.embeds->emplace_back();
  CHECK(Broken(ten) == Paths{"embeds"});

  const auto limit = [](auto set, std::size_t max, const std::string& path) {
    Embed embed;
    set(embed, std::string(max, 'x'));
    CHECK(Broken(WithEmbed(embed)).empty());
    set(embed, std::string(max + 1, 'x'));
    CHECK(Broken(WithEmbed(embed)) == Paths{path});
  };
  limit([](Embed& e, std::string t) { e.title = std::move(t); }, 256, "embeds.0.title");
  limit([](Embed& e, std::string t) { e.description = std::move(t); }, 4096, "embeds.0.description");
  limit(
      [](Embed& e, std::string t) {
        e.footer = EmbedFooter{std::move(t), ""};
      },
      2048, "embeds.0.footer.text");
  limit(
      [](Embed& e, std::string t) {
        e.author = EmbedAuthor{std::move(t), "", ""};
      },
      256, "embeds.0.author.name");
  limit(
      [](Embed& e, std::string t) {
        e.fields = {EmbedField{std::move(t), "v", false}};
      },
      256, "embeds.0.fields.0.name");
  limit(
      [](Embed& e, std::string t) {
        e.fields = {EmbedField{"n", std::move(t), false}};
      },
      1024, "embeds.0.fields.0.value");

  Embed fields;
  fields.fields.assign(25, EmbedField{"n", "v", true});
  CHECK(Broken(WithEmbed(fields)).empty());
  fields.fields.push_back(EmbedField{"n", "v", true});
  CHECK(Broken(WithEmbed(fields)) == Paths{"embeds.0.fields"});
  fields.fields.assign(1, EmbedField{"", "v", false});
  CHECK(Broken(WithEmbed(fields)) == Paths{"embeds.0.fields.0.name"});

  Embed color;
  color.color = 0xFFFFFF;
  CHECK(Broken(WithEmbed(color)).empty());
  color.color = 0x1000000;
  CHECK(Broken(WithEmbed(color)) == Paths{"embeds.0.color"});

  // 6000 together: two embeds of 4096 + 1904 descriptions pass, one more character fails.
  MessagePayload total;
  total.embeds = std::vector<Embed>(2);
  (*total.embeds)[0].description = std::string(4096, 'a');
  (*total.embeds)[1].description = std::string(1904, 'b');
  CHECK(Broken(total).empty());
  (*total.embeds)[1].title = "c";
  CHECK(Broken(total) == Paths{"embeds"});
  CHECK(Codes(total) == "MAX_EMBED_SIZE_EXCEEDED;");
}

TEST_CASE("flags: the settable ones only; EPHEMERAL only on interaction messages") {
  MessagePayload payload = MessagePayload::Text("hi");
  payload.flags =
      message_flags::SuppressEmbeds | message_flags::SuppressNotifications | message_flags::Ephemeral;
  CHECK(Broken(payload).empty());
  CHECK(Broken(payload, MessagePayloadUse::Create, false) == Paths{"flags"});
  payload.flags = message_flags::Loading;
  CHECK(Broken(payload) == Paths{"flags"});
  payload.flags = message_flags::HasSnapshot;
  CHECK(Broken(payload) == Paths{"flags"});
}

TEST_CASE("IS_COMPONENTS_V2 refuses content and embeds, and checks the v2 layout") {
  MessagePayload payload;
  payload.flags = message_flags::IsComponentsV2;
  payload.components = std::vector<Component>{Component::TextDisplay("# Stats")};
  CHECK(Broken(payload).empty());
  payload.content = "hi";
  CHECK(Broken(payload) == Paths{"content"});
  payload.content.reset();
  payload.embeds = std::vector<Embed>{Embed{}};
  CHECK(Broken(payload) == Paths{"embeds"});
  payload.embeds.reset();
  // A Text Display is a v2 component: refused without the flag.
  payload.flags.reset();
  CHECK(!Broken(payload).empty());
  CHECK(Broken(payload).front().rfind("components", 0) == 0);
  // v2 with no component shows nothing.
  MessagePayload empty;
  empty.flags = message_flags::IsComponentsV2;
  empty.content = "";
  CHECK(Broken(empty) == Paths{""});
}

TEST_CASE("allowed mentions: the parse kinds, 100 ids, parse and lists exclusive") {
  MessagePayload payload = MessagePayload::Text("hi");
  payload.allowedMentions = AllowedMentions{};
  payload.allowedMentions->users.assign(100, 1);
  payload.allowedMentions->roles.assign(100, 2);
  CHECK(Broken(payload).empty());
  payload.allowedMentions->users.push_back(1);
  payload.allowedMentions->roles.push_back(2);
  CHECK(Broken(payload) == Paths{"allowed_mentions.users", "allowed_mentions.roles"});
  payload.allowedMentions = AllowedMentions{{"users", "everyone"}, {}, {7}, false};
  CHECK(Broken(payload) == Paths{"allowed_mentions.users"});
  payload.allowedMentions = AllowedMentions{{"roles"}, {7}, {}, false};
  CHECK(Broken(payload) == Paths{"allowed_mentions.roles"});
  payload.allowedMentions = AllowedMentions{{"channels"}, {}, {}, false};
  CHECK(Broken(payload) == Paths{"allowed_mentions.parse.0"});
}

TEST_CASE("files: at most 10 with the kept attachments, names and descriptions checked") {
  MessagePayload payload;
  for (int i = 0; i < 10; ++i)
    payload.files.push_back(FileUpload{"f" + std::to_string(i) + ".txt", "x", "", false, ""});
  CHECK(Broken(payload).empty());
  payload.files.push_back(FileUpload{"g.txt", "x", "", false, ""});
  CHECK(Broken(payload) == Paths{"attachments"});
  payload.files.pop_back();
  payload.keptAttachments = std::vector<KeptAttachment>{KeptAttachment{5, {}, {}}};
  CHECK(Broken(payload, MessagePayloadUse::Edit) == Paths{"attachments"});

  MessagePayload one;
  one.files.push_back(FileUpload{"a.txt", "x", std::string(1024, 'd'), false, ""});
  CHECK(Broken(one).empty());
  one.files[0].description += 'd';
  CHECK(Broken(one) == Paths{"files.0.description"});
  one.files[0] = FileUpload{"", "x", "", false, ""};
  CHECK(Broken(one) == Paths{"files.0.filename"});
  one.files[0].name = "../etc/passwd";
  CHECK(Broken(one) == Paths{"files.0.filename"});
  one.files[0].name = "a\r\nb";
  CHECK(Broken(one) == Paths{"files.0.filename"});

  MessagePayload kept;
  kept.keptAttachments = std::vector<KeptAttachment>{KeptAttachment{0, std::string(1025, 'd'), true}};
  CHECK(Broken(kept, MessagePayloadUse::Edit) == Paths{"attachments.0.id", "attachments.0.description"});
}

TEST_CASE("file size: each file within the limit given, 10 MiB by default for interactions") {
  MessagePayload payload;
  payload.files.push_back(FileUpload{"a.bin", std::string(100, 'x'), "", false, ""});
  payload.files.push_back(FileUpload{"b.bin", std::string(101, 'x'), "", false, ""});
  Paths paths;
  for (const auto& error : CheckMessagePayload(payload, MessagePayloadUse::Create, true, 100))
    paths.push_back(error.path);
  CHECK(paths == Paths{"files.1"});
  CHECK(CheckMessagePayload(payload, MessagePayloadUse::Create, true).empty());  // unknown limit: not checked
  MessagePayload big;
  big.files.push_back(FileUpload{"big.bin", std::string(kDefaultAttachmentSizeLimit, 'x'), "", false, ""});
  CHECK(CheckMessagePayload(big, MessagePayloadUse::Create, true, kDefaultAttachmentSizeLimit).empty());
  big.files[0].bytes.push_back('x');
  CHECK(CheckMessagePayload(big, MessagePayloadUse::Create, true, kDefaultAttachmentSizeLimit).size() == 1);
}

TEST_CASE("the JSON body: unset fields are not sent, ids as strings, files as attachments with ids 0..n-1") {
  CHECK(BodyOf(MessagePayload{}) == "{}");
  MessagePayload payload = MessagePayload::Text("hello");
  payload.flags = message_flags::Ephemeral;
  payload.allowedMentions = AllowedMentions{{}, {}, {42}, false};
  Embed embed;
  embed.title = "T";
  embed.fields = {EmbedField{"n", "v", true}};
  embed.footer = EmbedFooter{"f", ""};
  embed.imageUrl = "attachment://a.png";
  payload.embeds = std::vector<Embed>{embed};
  payload.files.push_back(FileUpload{"a.png", "PNG", "alt", false, "image/png"});
  payload.files.push_back(FileUpload{"b.png", "PNG", "", true, ""});
  CHECK(
      BodyOf(payload) ==
      R"({"content":"hello","embeds":[{"title":"T","footer":{"text":"f"},"image":{"url":"attachment://a.png"},)"
      R"("fields":[{"name":"n","value":"v","inline":true}]}],"allowed_mentions":{"parse":[],"users":["42"]},)"
      R"("flags":64,"attachments":[{"id":0,"filename":"a.png","description":"alt"},)"
      R"({"id":1,"filename":"SPOILER_b.png","is_spoiler":true}]})");
  MessagePayload edit;
  edit.keptAttachments = std::vector<KeptAttachment>{KeptAttachment{99, std::string("new"), false}};
  CHECK(BodyOf(edit) == R"({"attachments":[{"id":"99","description":"new","is_spoiler":false}]})");
}

TEST_CASE("nonce and message_reference: channel messages only, on create; the reference on the wire") {
  MessagePayload reply = MessagePayload::Text("gg");
  reply.nonce = "n-1";
  reply.enforceNonce = true;
  MessageReference reference;
  reference.messageId = 90;
  reference.channelId = 91;
  reference.guildId = 92;
  reference.failIfNotExists = true;
  reply.messageReference = reference;
  CHECK(Broken(reply, MessagePayloadUse::Create, false).empty());
  CHECK(BodyOf(reply) ==
        R"({"content":"gg","nonce":"n-1","enforce_nonce":true,)"
        R"("message_reference":{"type":0,"message_id":"90","channel_id":"91","guild_id":"92",)"
        R"("fail_if_not_exists":true}})");
  // The webhook routes and edits would drop them: refused instead.
  CHECK(Broken(reply) == Paths{"nonce", "enforce_nonce", "message_reference"});
  CHECK(Broken(reply, MessagePayloadUse::Edit, false) ==
        Paths{"nonce", "enforce_nonce", "message_reference"});
  reply.messageReference->type = static_cast<MessageReferenceType>(2);
  reply.messageReference->guildId = 0;
  CHECK(Broken(reply, MessagePayloadUse::Create, false) ==
        Paths{"message_reference.type", "message_reference.guild_id"});
  reply.nonce = std::string(26, 'n');
  reply.messageReference.reset();
  CHECK(Broken(reply, MessagePayloadUse::Create, false) == Paths{"nonce"});
  reply.nonce.reset();
  CHECK(Broken(reply, MessagePayloadUse::Create, false) == Paths{"enforce_nonce"});

  // A forward needs nothing else, and may carry nothing else to show.
  MessagePayload forward = MessagePayload::Forward(81, 80);
  CHECK(Broken(forward, MessagePayloadUse::Create, false).empty());
  CHECK(BodyOf(forward) == R"({"message_reference":{"type":1,"message_id":"80","channel_id":"81"}})");
  forward.flags = message_flags::SuppressNotifications;
  CHECK(Broken(forward, MessagePayloadUse::Create, false).empty());
  forward.flags = message_flags::IsComponentsV2;
  forward.content = "look";
  forward.tts = true;
  forward.embeds = std::vector<Embed>{Embed{}};
  forward.files.push_back(FileUpload{"a.png", "PNG", "", false, ""});
  CHECK(Broken(forward, MessagePayloadUse::Create, false) ==
        Paths{"content", "embeds", "attachments", "tts", "flags", "content", "embeds"});
}

TEST_CASE("IS_VOICE_MESSAGE may be set on a new message") {
  MessagePayload voice;
  voice.flags = message_flags::IsVoiceMessage;
  voice.files.push_back(FileUpload{"voice-message.ogg", "OggS", "", false, "audio/ogg"});
  CHECK(Broken(voice, MessagePayloadUse::Create, false).empty());
  voice.flags = *voice.flags | message_flags::Ephemeral;
  CHECK(Broken(voice, MessagePayloadUse::Create, false) == Paths{"flags"});
}

TEST_CASE("files go as multipart/form-data: payload_json then files[n]") {
  CHECK(EncodeBody("{}", {}).contentType == "application/json");
  std::vector<FileUpload> files = {FileUpload{"a.txt", "AAA", "", false, "text/plain"},
                                   FileUpload{"SPOILER_b.bin", std::string("\0\1", 2), "", true, ""}};
  EncodedBody body = EncodeBody(R"({"content":"x"})", files);
  REQUIRE(body.contentType.rfind("multipart/form-data; boundary=", 0) == 0);
  const std::string boundary = body.contentType.substr(std::string("multipart/form-data; boundary=").size());
  const std::string expected =
      "--" + boundary + "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n" +
      "Content-Type: application/json\r\n\r\n{\"content\":\"x\"}\r\n" + "--" + boundary +
      "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.txt\"\r\n" +
      "Content-Type: text/plain\r\n\r\nAAA\r\n" + "--" + boundary +
      "\r\nContent-Disposition: form-data; name=\"files[1]\"; filename=\"SPOILER_b.bin\"\r\n" +
      "Content-Type: application/octet-stream\r\n\r\n" + std::string("\0\1", 2) + "\r\n--" + boundary +
      "--\r\n";
  CHECK(body.body == expected);
  // An already prefixed spoiler is not prefixed twice; a name with a quote is escaped in the header.
  CHECK(UploadName(files[1]) == "SPOILER_b.bin");
  EncodedBody quoted = EncodeBody("{}", {FileUpload{"a\"b.txt", "x", "", false, ""}});
  CHECK(quoted.body.find("filename=\"a\\\"b.txt\"") != std::string::npos);
}

TEST_CASE("the answered message: typed fields, interaction metadata with its user, forwards, unknown kept") {
  const auto message = ParseChannelMessage(R"({
    "id": "10", "channel_id": "20", "type": 20, "content": "hi", "timestamp": "2026-01-01T00:00:00.000000+00:00",
    "edited_timestamp": null, "flags": 64, "tts": false, "application_id": "30", "webhook_id": "30",
    "author": {"id": "30", "username": "bot", "bot": true, "global_name": null},
    "attachments": [{"id": "40", "filename": "SPOILER_a.png", "size": 12, "url": "https://cdn/a.png",
                     "proxy_url": "https://media/a.png", "content_type": "image/png", "flags": 8,
                     "description": "alt", "width": 3, "height": 4},
                    {"filename": "no id"}],
    "embeds": [{"title": "T", "color": 255, "fields": [{"name": "n", "value": "v", "inline": true}],
                "video": {"url": "https://v"}}],
    "components": [{"type": 1, "id": 1, "components": [{"type": 2, "id": 2, "style": 1, "label": "Go",
                                                          "custom_id": "go"}]},
                   {"type": 99, "id": 3, "future": true}],
    "interaction_metadata": {"id": "50", "type": 2, "name": "stats",
                             "user": {"id": "60", "username": "player"},
                             "authorizing_integration_owners": {"0": "70"}},
    "message_reference": {"type": 1, "message_id": "80", "channel_id": "81", "guild_id": "82"},
    "message_snapshots": [{"message": {"content": "copied", "timestamp": "t", "flags": 0,
                                       "attachments": [], "embeds": [], "components": []}}],
    "poll": {"question": {"text": "?"}}
  })");
  REQUIRE(message);
  CHECK(message->id == 10);
  CHECK(message->channelId == 20);
  CHECK(message->type == 20);
  CHECK(message->content == "hi");
  CHECK(!message->editedTimestamp);
  CHECK(message->flags == message_flags::Ephemeral);
  CHECK(message->author.id == 30);
  CHECK(message->author.bot);
  CHECK(message->author.globalName.empty());
  REQUIRE(message->attachments.size() == 1);
  CHECK(message->attachments[0].Spoiler());
  CHECK(message->attachments[0].description == "alt");
  CHECK(message->attachments[0].size == 12);
  CHECK(message->attachments[0].width == 3);
  REQUIRE(message->embeds.size() == 1);
  CHECK(message->embeds[0].color == 255u);
  CHECK(message->embeds[0].fields.size() == 1);
  CHECK(message->embeds[0].rawJson.find("video") != std::string::npos);
  REQUIRE(message->components.size() == 2);
  CHECK(message->components[0].components.size() == 1);
  CHECK(static_cast<int>(message->components[1].type) == 99);
  REQUIRE(message->interactionMetadata);
  CHECK(message->interactionMetadata->id == 50);
  CHECK(message->interactionMetadata->user.id == 60);
  CHECK(message->interactionMetadata->name == "stats");
  REQUIRE(message->messageReference);
  CHECK(message->messageReference->type == MessageReferenceType::Forward);
  CHECK(message->messageReference->messageId == 80u);
  REQUIRE(message->messageSnapshots.size() == 1);
  CHECK(message->messageSnapshots[0].content == "copied");
  CHECK(message->rawJson.find("\"poll\"") != std::string::npos);

  CHECK(!ParseChannelMessage("{}"));
  CHECK(!ParseChannelMessage("[]"));
  CHECK(!ParseChannelMessage("not json"));
  // Wrong types are left at their defaults, not fatal.
  const auto odd = ParseChannelMessage(R"({"id":"1","content":5,"flags":"x","attachments":{},"author":[]})");
  REQUIRE(odd);
  CHECK(odd->content.empty());
  CHECK(odd->flags == 0);
  CHECK(odd->attachments.empty());
}

}  // namespace message_payload_test
