// Every rule of Client::UpdateRichPresence (presence/activity_validation.hpp), each crossed by one.
#include "presence/activity_validation.hpp"
#include "core/validation_result.hpp"

#include <doctest/doctest.h>

#include <string>

namespace activity_validation_test {

using namespace platformpp;
using presence::CheckJoinable;
using presence::ValidateActivity;

namespace {

Activity Base() {
  Activity a;
  a.SetName("Game");
  a.SetType(ActivityTypes::Playing);
  return a;
}

std::string Chars(std::size_t n, char c = 'a') {
  return std::string(n, c);
}

// A URL of exactly `length` characters.
std::string UrlOfLength(std::size_t length, const std::string& scheme = "https://") {
  std::string url = scheme + "e.com/";
  return url + std::string(length - url.size(), 'p');
}

// The one error of `a`, which must be at `path`; its message names the field.
void CheckOnlyError(const Activity& a, const std::string& path) {
  auto errors = ValidateActivity(a);
  REQUIRE_MESSAGE(errors.size() == 1, "expected one error at " << path << ", got " << errors.size());
  CHECK(errors[0].path == path);
  CHECK(errors[0].message.find(path) != std::string::npos);
  CHECK_FALSE(errors[0].code.empty());
}

void CheckValid(const Activity& a) {
  auto errors = ValidateActivity(a);
  CHECK_MESSAGE(errors.empty(), (errors.empty() ? std::string() : errors[0].message));
}

}  // namespace

TEST_CASE("activity validation: a minimal activity is valid") {
  CheckValid(Base());
}

TEST_CASE("activity validation: type Playing, Listening, Watching or Competing only") {
  for (auto t : {ActivityTypes::Playing, ActivityTypes::Listening, ActivityTypes::Watching,
                 ActivityTypes::Competing}) {
    Activity a = Base();
    a.SetType(t);
    CheckValid(a);
  }
  for (auto t : {ActivityTypes::Streaming, ActivityTypes::CustomStatus, ActivityTypes::HangStatus,
                 static_cast<ActivityTypes>(7), static_cast<ActivityTypes>(-1)}) {
    CAPTURE(static_cast<int>(t));
    Activity a = Base();
    a.SetType(t);
    CheckOnlyError(a, "activity.type");
  }
}

TEST_CASE("activity validation: state and details are 2 to 128 code points") {
  for (const char* field : {"state", "details"}) {
    CAPTURE(field);
    const std::string path = std::string("activity.") + field;
    auto with = [&](std::string text) {
      Activity a = Base();
      if (path == "activity.state") {
        a.SetState(std::move(text));
      } else {
        a.SetDetails(std::move(text));
      }
      return a;
    };
    CheckOnlyError(with(""), path);
    CheckOnlyError(with(Chars(1)), path);
    CheckValid(with(Chars(2)));
    CheckValid(with(Chars(128)));
    CheckOnlyError(with(Chars(129)), path);
    // Counted in code points, not bytes: 128 x "é" (256 bytes) is fine, 129 is not; one emoji (4 bytes) is
    // one character, too short.
    std::string e128, e129;
    for (int i = 0; i < 128; ++i)
      e128 += "\xC3\xA9";
    e129 = e128 + "\xC3\xA9";
    CheckValid(with(e128));
    CheckOnlyError(with(e129), path);
    CheckOnlyError(with("\xF0\x9F\x8E\xAE"), path);
    CheckValid(with("\xF0\x9F\x8E\xAE\xF0\x9F\x8E\xAE"));
    // Invalid UTF-8 is refused.
    auto errors = ValidateActivity(with("ab\xFF"));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].path == path);
    CHECK(errors[0].code == "UTF8_INVALID");
  }
}

TEST_CASE("activity validation: UTF-8 decoding rules") {
  using presence::CountCodePoints;
  CHECK(CountCodePoints("") == 0u);
  CHECK(CountCodePoints("abc") == 3u);
  CHECK(CountCodePoints("\xE2\x82\xAC") == 1u);      // U+20AC
  CHECK(CountCodePoints("\xF4\x8F\xBF\xBF") == 1u);  // U+10FFFF
  CHECK_FALSE(CountCodePoints("\x80"));              // lone continuation
  CHECK_FALSE(CountCodePoints("\xC3"));              // truncated
  CHECK_FALSE(CountCodePoints("\xE2\x82"));          // truncated
  CHECK_FALSE(CountCodePoints("\xC0\xAF"));          // overlong '/'
  CHECK_FALSE(CountCodePoints("\xE0\x80\xAF"));      // overlong
  CHECK_FALSE(CountCodePoints("\xED\xA0\x80"));      // surrogate U+D800
  CHECK_FALSE(CountCodePoints("\xF4\x90\x80\x80"));  // above U+10FFFF
  CHECK_FALSE(CountCodePoints("\xF8\x88\x80\x80\x80"));
  CHECK_FALSE(CountCodePoints("\xC3\x28"));  // bad continuation
}

TEST_CASE("activity validation: name and texts at most 128, image keys at most 256") {
  Activity a = Base();
  a.SetName(Chars(128));
  CheckValid(a);
  a.SetName(Chars(129));
  CheckOnlyError(a, "activity.name");
  a.SetName("bad\xC3");
  CheckOnlyError(a, "activity.name");

  auto withAssets = [](auto set) {
    Activity b = Base();
    ActivityAssets assets;
    set(assets);
    b.SetAssets(assets);
    return b;
  };
  CheckValid(withAssets([](ActivityAssets& s) { s.SetLargeText(Chars(128)); }));
  CheckOnlyError(withAssets([](ActivityAssets& s) { s.SetLargeText(Chars(129)); }),
                 "activity.assets.large_text");
  CheckValid(withAssets([](ActivityAssets& s) { s.SetSmallText(Chars(128)); }));
  CheckOnlyError(withAssets([](ActivityAssets& s) { s.SetSmallText(Chars(129)); }),
                 "activity.assets.small_text");
  CheckValid(withAssets([](ActivityAssets& s) { s.SetLargeImage(Chars(256)); }));
  CheckOnlyError(withAssets([](ActivityAssets& s) { s.SetLargeImage(Chars(257)); }),
                 "activity.assets.large_image");
  CheckValid(withAssets([](ActivityAssets& s) { s.SetSmallImage(Chars(256)); }));
  CheckOnlyError(withAssets([](ActivityAssets& s) { s.SetSmallImage(Chars(257)); }),
                 "activity.assets.small_image");
}

TEST_CASE("activity validation: URLs are http(s) and at most 256 characters") {
  using Setter = void (*)(Activity&, std::string);
  struct Case {
    const char* path;
    Setter set;
  };
  const Case cases[] = {
      {"activity.state_url", [](Activity& a, std::string u) { a.SetStateUrl(std::move(u)); }},
      {"activity.details_url", [](Activity& a, std::string u) { a.SetDetailsUrl(std::move(u)); }},
      {"activity.assets.large_url",
       [](Activity& a, std::string u) {
         ActivityAssets s;
         s.SetLargeUrl(std::move(u));
         a.SetAssets(s);
       }},
      {"activity.assets.small_url",
       [](Activity& a, std::string u) {
         ActivityAssets s;
         s.SetSmallUrl(std::move(u));
         a.SetAssets(s);
       }},
      {"activity.buttons.0.url",
       [](Activity& a, std::string u) {
         ActivityButton b;
         b.SetLabel("Go");
         b.SetUrl(std::move(u));
         a.AddButton(b);
       }},
  };
  for (const auto& c : cases) {
    CAPTURE(c.path);
    auto with = [&](std::string url) {
      Activity a = Base();
      c.set(a, std::move(url));
      return a;
    };
    CheckValid(with(UrlOfLength(256)));
    CheckValid(with(UrlOfLength(256, "http://")));
    CheckValid(with("HTTPS://Example.com"));
    CheckOnlyError(with(UrlOfLength(257)), c.path);
    CheckOnlyError(with("ftp://example.com/x"), c.path);
    CheckOnlyError(with("javascript:alert(1)"), c.path);
    CheckOnlyError(with("https://"), c.path);
    CheckOnlyError(with("https:///path"), c.path);
    CheckOnlyError(with("https://exa mple.com"), c.path);
    CheckOnlyError(with("example.com"), c.path);
    CheckOnlyError(with(""), c.path);
  }
}

TEST_CASE("activity validation: at most 2 buttons, labels 1 to 32") {
  auto button = [](std::string label) {
    ActivityButton b;
    b.SetLabel(std::move(label));
    b.SetUrl("https://example.com");
    return b;
  };
  Activity a = Base();
  a.AddButton(button("One"));
  a.AddButton(button("Two"));
  CheckValid(a);
  a.AddButton(button("Three"));
  CheckOnlyError(a, "activity.buttons");

  Activity b = Base();
  b.AddButton(button(Chars(32)));
  CheckValid(b);
  Activity c = Base();
  c.AddButton(button("ok"));
  c.AddButton(button(Chars(33)));
  CheckOnlyError(c, "activity.buttons.1.label");
  Activity d = Base();
  d.AddButton(button(""));
  CheckOnlyError(d, "activity.buttons.0.label");
  Activity e = Base();
  e.AddButton(button("x"));
  CheckValid(e);
}

TEST_CASE("activity validation: party id and join secret 2 to 128, sizes") {
  auto withParty = [](std::string id, int32_t current, int32_t max) {
    Activity a = Base();
    ActivityParty p;
    p.SetId(std::move(id));
    p.SetCurrentSize(current);
    p.SetMaxSize(max);
    a.SetParty(p);
    return a;
  };
  CheckOnlyError(withParty(Chars(1), 1, 4), "activity.party.id");
  CheckValid(withParty(Chars(2), 1, 4));
  CheckValid(withParty(Chars(128), 1, 4));
  CheckOnlyError(withParty(Chars(129), 1, 4), "activity.party.id");
  CheckValid(withParty("", 0, 0));  // no id: allowed (not joinable)
  CheckValid(withParty("pp", 4, 4));
  CheckOnlyError(withParty("pp", 5, 4), "activity.party.size");
  CheckOnlyError(withParty("pp", -1, 4), "activity.party.size");
  CheckOnlyError(withParty("pp", 0, -1), "activity.party.size");
  CheckValid(withParty("pp", 0, 0));

  auto withSecret = [](std::string join) {
    Activity a = Base();
    ActivitySecrets s;
    s.SetJoin(std::move(join));
    a.SetSecrets(s);
    return a;
  };
  CheckOnlyError(withSecret(Chars(1)), "activity.secrets.join");
  CheckValid(withSecret(Chars(2)));
  CheckValid(withSecret(Chars(128)));
  CheckOnlyError(withSecret(Chars(129)), "activity.secrets.join");
  CheckValid(withSecret(""));
}

TEST_CASE("activity validation: invite cover image is an https URL or an asset key") {
  auto with = [](std::string cover) {
    Activity a = Base();
    ActivityAssets s;
    s.SetInviteCoverImage(std::move(cover));
    a.SetAssets(s);
    return a;
  };
  const std::string path = "activity.assets.invite_cover_image";
  CheckValid(with("https://cdn.example.com/cover.png"));
  CheckValid(with("cover_art-2.v1"));
  CheckValid(with(Chars(256)));
  CheckValid(with(UrlOfLength(256)));
  CheckOnlyError(with(Chars(257)), path);
  CheckOnlyError(with(UrlOfLength(257)), path);
  CheckOnlyError(with("http://cdn.example.com/cover.png"), path);  // https only
  CheckOnlyError(with("cover art"), path);
  CheckOnlyError(with(""), path);
}

TEST_CASE("activity validation: supported platforms are known bits") {
  Activity a = Base();
  a.SetSupportedPlatforms(0xFF);
  CheckValid(a);
  a.SetSupportedPlatforms(0x100);
  CheckOnlyError(a, "activity.supported_platforms");
  a.SetSupportedPlatforms(0);
  CheckOnlyError(a, "activity.supported_platforms");
}

TEST_CASE("activity validation: the status display type's field must be set") {
  Activity a = Base();
  a.SetStatusDisplayType(StatusDisplayTypes::State);
  CheckOnlyError(a, "activity.status_display_type");
  a.SetState("In a match");
  CheckValid(a);
  a.SetStatusDisplayType(StatusDisplayTypes::Details);
  CheckOnlyError(a, "activity.status_display_type");
  a.SetDetails("Ranked");
  CheckValid(a);
  a.SetStatusDisplayType(StatusDisplayTypes::Name);
  CheckValid(a);
  a.SetName("");
  CheckOnlyError(a, "activity.status_display_type");
  a.SetStatusDisplayType(static_cast<StatusDisplayTypes>(3));
  CheckOnlyError(a, "activity.status_display_type");
}

TEST_CASE("activity validation: every error is reported, as one ValidationError") {
  Activity a = Base();
  a.SetType(ActivityTypes::Streaming);
  a.SetState("x");
  a.SetDetailsUrl("ftp://x");
  auto errors = ValidateActivity(a);
  REQUIRE(errors.size() == 3);
  ClientResult result = core::ValidationResult(errors);
  CHECK(result.Type() == ErrorType::ValidationError);
  REQUIRE(result.FieldErrors().size() == 3);
  CHECK(result.Error().find("activity.type") != std::string::npos);
  CHECK(result.Error().find("activity.state") != std::string::npos);
  CHECK(result.Error().find("activity.details_url") != std::string::npos);
  CHECK(core::ValidationResult({}).Successful());
}

TEST_CASE("activity joinability: party id, room left and join secret") {
  auto joinable = [] {
    Activity a = Base();
    ActivityParty p;
    p.SetId("party");
    p.SetCurrentSize(1);
    p.SetMaxSize(2);
    a.SetParty(p);
    ActivitySecrets s;
    s.SetJoin("secret");
    a.SetSecrets(s);
    return a;
  };
  CHECK(CheckJoinable(joinable()).empty());

  auto none = CheckJoinable(std::nullopt);
  REQUIRE(none.size() == 1);
  CHECK(none[0].path == "activity");

  Activity full = joinable();
  auto p = *full.Party();
  p.SetCurrentSize(2);
  full.SetParty(p);
  auto fullErrors = CheckJoinable(full);
  REQUIRE(fullErrors.size() == 1);
  CHECK(fullErrors[0].path == "activity.party.size");

  Activity noId = joinable();
  p = *noId.Party();
  p.SetId("");
  noId.SetParty(p);
  REQUIRE(CheckJoinable(noId).size() == 1);
  CHECK(CheckJoinable(noId)[0].path == "activity.party.id");

  Activity noParty = joinable();
  noParty.SetParty(std::nullopt);
  REQUIRE(CheckJoinable(noParty).size() == 1);
  CHECK(CheckJoinable(noParty)[0].path == "activity.party.id");

  Activity noSecret = joinable();
  noSecret.SetSecrets(std::nullopt);
  REQUIRE(CheckJoinable(noSecret).size() == 1);
  CHECK(CheckJoinable(noSecret)[0].path == "activity.secrets.join");
}

}  // namespace activity_validation_test
