#include "scenario/scenario_file.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <unordered_map>
#include <utility>

namespace platformpp::emulator {

namespace {

// RapidJSON's input stream over the file's text that counts the lines it has read: its DOM knows no lines.
class LineCountingStream {
 public:
  using Ch = char;
  explicit LineCountingStream(std::string_view text) : text_(text) {}
  [[nodiscard]] Ch Peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  Ch Take() {
    if (position_ >= text_.size()) return '\0';
    const char c = text_[position_++];
    if (c == '\n') ++line_;
    return c;
  }
  [[nodiscard]] std::size_t Tell() const { return position_; }
  // Only for in-place parsing, which this stream is never used for.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch /*unused*/) {}
  void Flush() {}
  std::size_t PutEnd(Ch* /*unused*/) { return 0; }
  [[nodiscard]] int line() const noexcept { return line_; }

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  int line_ = 1;
};

// Each value's line, in the order a DOM walk meets them (the SAX events' order): keys and ends are not
// values.
class LineRecorder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, LineRecorder> {
 public:
  LineRecorder(const LineCountingStream& stream, std::vector<int>& lines) : stream_(stream), lines_(lines) {}
  bool Default() {
    lines_.push_back(stream_.line());
    return true;
  }
  // Deeper than kMaxDepth stops the pass: the DOM's walks (numbering, writing a step's body) recurse.
  bool StartObject() { return Default() && ++depth_ <= kMaxDepth; }
  bool StartArray() { return Default() && ++depth_ <= kMaxDepth; }
  bool Key(const char* /*unused*/, rapidjson::SizeType /*unused*/, bool /*unused*/) { return true; }
  bool EndObject(rapidjson::SizeType /*unused*/) {
    --depth_;
    return true;
  }
  bool EndArray(rapidjson::SizeType /*unused*/) {
    --depth_;
    return true;
  }
  [[nodiscard]] bool too_deep() const noexcept { return depth_ > kMaxDepth; }

  static constexpr int kMaxDepth = 64;

 private:
  const LineCountingStream& stream_;
  std::vector<int>& lines_;
  int depth_ = 0;
};

using Lines = std::unordered_map<const rapidjson::Value*, int>;

void number_lines(const rapidjson::Value& value, const std::vector<int>& order, std::size_t& next,
                  Lines& lines) {
  lines[&value] = next < order.size() ? order[next] : 0;
  ++next;
  if (value.IsObject()) {
    for (const auto& member : value.GetObject())
      number_lines(member.value, order, next, lines);
  } else if (value.IsArray()) {
    for (const auto& element : value.GetArray())
      number_lines(element, order, next, lines);
  }
}

int line_of_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::string scenario_body_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

bool is_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

bool is_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {
    // A UTF-8 byte order mark (what some Windows editors save) is not part of the JSON.
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    if (text_.substr(0, kByteOrderMark.size()) == kByteOrderMark) text_.remove_prefix(kByteOrderMark.size());
  }

  Scenario parse() {
    // The DOM and the pass that numbers its values read the same stream type with the same flags, so that
    // they agree on every byte: Document::Parse(text, size) skipped a lone leading 0xEF as the start of a
    // byte order mark, which this stream did not, and every step's line became 0 (libFuzzer). Iterative: a
    // deeply nested file is refused, not a stack overflow.
    constexpr unsigned kFlags = rapidjson::kParseIterativeFlag;
    LineCountingStream text_stream(text_);
    document_.ParseStream<kFlags>(text_stream);
    if (document_.HasParseError()) {
      throw ScenarioError(file_ + ":" + std::to_string(line_of_offset(text_, document_.GetErrorOffset())) +
                          ": not JSON: " + rapidjson::GetParseError_En(document_.GetParseError()));
    }
    std::vector<int> order;
    LineCountingStream stream(text_);
    LineRecorder recorder(stream, order);
    rapidjson::Reader reader;
    reader.Parse<kFlags>(stream, recorder);
    if (recorder.too_deep()) {
      throw ScenarioError(file_ + ":" + std::to_string(stream.line()) + ": nested deeper than " +
                          std::to_string(LineRecorder::kMaxDepth) + " levels");
    }
    std::size_t next = 0;
    number_lines(document_, order, next, lines_);

    if (!document_.IsObject()) fail(document_, "a scenario is a JSON object");
    const auto format = document_.FindMember("scenario");
    if (format == document_.MemberEnd()) fail(document_, "\"scenario\": 1 is missing (the format's version)");
    if (!format->value.IsInt() || format->value.GetInt() < 1) fail(format->value, "\"scenario\" is 1");
    if (format->value.GetInt() > kScenarioFormat) {
      fail(format->value, "written for format " + std::to_string(format->value.GetInt()) +
                              "; this emulator reads format " + std::to_string(kScenarioFormat) +
                              " (a newer emulator reads it)");
    }
    Scenario scenario;
    scenario.file = file_;
    const rapidjson::Value* timeline = nullptr;
    for (const auto& member : document_.GetObject()) {
      const std::string_view key(member.name.GetString(), member.name.GetStringLength());
      const auto& value = member.value;
      if (key == "scenario" || key == "description") {
        if (key == "description" && !value.IsString()) fail(value, "\"description\" is a string");
        continue;
      }
      if (key == "timeline") {
        timeline = &value;
        continue;
      }
      if (key != "applications" && key != "users" && key != "tokens" && key != "friendships" &&
          key != "steps")
        fail(value, "unknown section \"" + std::string(key) +
                        "\" (sections: applications, users, tokens, friendships, steps, timeline)");
      if (!value.IsArray()) fail(value, "\"" + std::string(key) + "\" is an array");
      for (const auto& element : value.GetArray()) {
        ScenarioStep step = key == "applications"  ? sugar(element, "POST", "/apps")
                            : key == "users"       ? sugar(element, "POST", "/users")
                            : key == "tokens"      ? token(element)
                            : key == "friendships" ? friendship(element)
                                                   : generic(element, false);
        check_references(step, element);
        scenario.setup.push_back(std::move(step));
      }
    }
    if (timeline != nullptr) {
      if (!timeline->IsArray()) fail(*timeline, "\"timeline\" is an array");
      std::vector<std::pair<ScenarioStep, const rapidjson::Value*>> steps;
      for (const auto& element : timeline->GetArray())
        steps.emplace_back(generic(element, true), &element);
      std::stable_sort(steps.begin(), steps.end(),
                       [](const auto& a, const auto& b) { return *a.first.at_ms < *b.first.at_ms; });
      for (auto& [step, element] : steps) {
        check_references(step, *element);
        scenario.timeline.push_back(std::move(step));
      }
    }
    return scenario;
  }

 private:
  [[noreturn]] void fail(const rapidjson::Value& at, const std::string& what) const {
    const auto found = lines_.find(&at);
    const int line = found != lines_.end() ? found->second : 1;
    throw ScenarioError(file_ + ":" + std::to_string(line) + ": " + what);
  }

  // `as`, when present: a new name.
  void take_name(const rapidjson::Value& object, ScenarioStep& step) {
    const auto as = object.FindMember("as");
    if (as == object.MemberEnd()) return;
    if (!as->value.IsString() || !is_name({as->value.GetString(), as->value.GetStringLength()}))
      fail(as->value, "\"as\" is a name: letters, digits and '_', not starting with a digit");
    step.bind_as = as->value.GetString();
  }

  // A section whose elements are the admin route's body, with "as".
  ScenarioStep sugar(const rapidjson::Value& element, const char* method, const char* path) {
    if (!element.IsObject())
      fail(element, std::string("each element is an object: the body of ") + method + " " + path);
    ScenarioStep step = start(element, method, path);
    take_name(element, step);
    rapidjson::Document body;
    body.CopyFrom(element, body.GetAllocator());
    body.RemoveMember("as");
    step.body = scenario_body_text(body);
    return step;
  }

  // A user or application given by name (bound earlier), by reference or by id, as a reference.
  std::string entity(const rapidjson::Value& object, const char* member) {
    const auto found = object.FindMember(member);
    if (found == object.MemberEnd()) fail(object, std::string("\"") + member + "\" is missing");
    if (!found->value.IsString()) fail(found->value, std::string("\"") + member + "\" is a name or an id");
    return reference_to(found->value);
  }

  // A string naming an answer bound earlier, holding a reference, or an id: as a reference (or the id).
  std::string reference_to(const rapidjson::Value& value) {
    std::string text = value.GetString();
    if (text.find("${") != std::string::npos || is_digits(text)) return text;
    if (!is_name(text) || names_.count(text) == 0) fail(value, "\"" + text + "\" names no step before it");
    return "${" + text + "}";
  }

  ScenarioStep token(const rapidjson::Value& element) {
    if (!element.IsObject()) fail(element, "a token is an object: user, app, scopes, as");
    for (const auto& member : element.GetObject()) {
      const std::string_view key(member.name.GetString(), member.name.GetStringLength());
      if (key != "user" && key != "app" && key != "scopes" && key != "as")
        fail(member.value, "unknown member \"" + std::string(key) + "\" of a token (user, app, scopes, as)");
    }
    ScenarioStep step = start(element, "POST", "/tokens");
    take_name(element, step);
    const auto scopes = element.FindMember("scopes");
    if (scopes == element.MemberEnd()) fail(element, "\"scopes\" is missing");
    rapidjson::Document body(rapidjson::kObjectType);
    auto& allocator = body.GetAllocator();
    body.AddMember("user_id", rapidjson::Value(entity(element, "user").c_str(), allocator), allocator);
    body.AddMember("app_id", rapidjson::Value(entity(element, "app").c_str(), allocator), allocator);
    body.AddMember("scopes", rapidjson::Value(scopes->value, allocator), allocator);
    step.body = scenario_body_text(body);
    return step;
  }

  ScenarioStep friendship(const rapidjson::Value& element) {
    if (!element.IsArray() || element.Size() != 2 || !element[0].IsString() || !element[1].IsString())
      fail(element, "a friendship is a pair of users: [\"alice\", \"bob\"]");
    ScenarioStep step = start(element, "POST", "/friendships");
    rapidjson::Document pair(rapidjson::kObjectType);
    auto& allocator = pair.GetAllocator();
    pair.AddMember("user_id", rapidjson::Value(reference_to(element[0]).c_str(), allocator), allocator);
    pair.AddMember("other_user_id", rapidjson::Value(reference_to(element[1]).c_str(), allocator), allocator);
    step.body = scenario_body_text(pair);
    return step;
  }

  // {"admin" | "api": "METHOD /path", "token", "body", "as", "at"}
  ScenarioStep generic(const rapidjson::Value& element, bool timed) {
    if (!element.IsObject())
      fail(element, "a step is an object: {\"admin\": \"POST /path\", \"body\": {...}}");
    for (const auto& member : element.GetObject()) {
      const std::string_view key(member.name.GetString(), member.name.GetStringLength());
      if (key != "admin" && key != "api" && key != "token" && key != "body" && key != "as" &&
          !(timed && key == "at") && key != "comment")
        fail(member.value, "unknown member \"" + std::string(key) +
                               "\" of a step (admin or api, token, body, as" + (timed ? ", at" : "") +
                               ", comment)");
    }
    const auto admin = element.FindMember("admin");
    const auto api = element.FindMember("api");
    if ((admin == element.MemberEnd()) == (api == element.MemberEnd()))
      fail(element, "a step has one of \"admin\" and \"api\": the call, e.g. \"POST /gateway/drop\"");
    const auto& call = admin != element.MemberEnd() ? admin->value : api->value;
    if (!call.IsString()) fail(call, "the call is a string: \"METHOD /path\"");
    const std::string text = call.GetString();
    const auto space = text.find(' ');
    const std::string method = space == std::string::npos ? std::string() : text.substr(0, space);
    const std::string path = space == std::string::npos ? std::string() : text.substr(space + 1);
    if (method != "GET" && method != "POST" && method != "PUT" && method != "PATCH" && method != "DELETE")
      fail(call, "the call is \"METHOD /path\", METHOD one of GET, POST, PUT, PATCH, DELETE");
    if (path.empty() || path[0] != '/' || path.find(' ') != std::string::npos)
      fail(call, "the call's path starts with '/' and has no space");
    ScenarioStep step = start(element, method, path);
    step.api = api != element.MemberEnd();
    const auto token = element.FindMember("token");
    if (step.api) {
      // Without one, the call carries no Authorization (/oauth2/token, /partner-sdk/token).
      if (token != element.MemberEnd()) {
        if (!token->value.IsString() || token->value.GetStringLength() == 0)
          fail(token->value,
               "\"token\" is whose call it is: \"${alice_token.access_token}\", \"Bot ${game.bot_token}\"");
        step.token = token->value.GetString();
      }
    } else if (token != element.MemberEnd()) {
      fail(token->value, "\"token\" is for \"api\" steps: admin calls carry the admin token");
    }
    const auto body = element.FindMember("body");
    if (body != element.MemberEnd()) step.body = scenario_body_text(body->value);
    take_name(element, step);
    if (timed) {
      const auto at = element.FindMember("at");
      if (at == element.MemberEnd())
        fail(element, "a timeline step has \"at\": when, after the setup (\"5s\")");
      std::optional<std::int64_t> ms;
      if (at->value.IsInt64() && at->value.GetInt64() >= 0) ms = at->value.GetInt64();
      if (at->value.IsString()) ms = parse_scenario_duration(at->value.GetString());
      if (!ms)
        fail(at->value, "\"at\" is a time after the setup: \"250ms\", \"5s\", \"2m\", \"3h\", \"30d\"");
      step.at_ms = ms;
    }
    return step;
  }

  ScenarioStep start(const rapidjson::Value& element, std::string method, std::string path) {
    ScenarioStep step;
    step.line = lines_.count(&element) != 0 ? lines_.at(&element) : 1;
    step.label = method + " " + path;
    step.method = std::move(method);
    step.path = std::move(path);
    return step;
  }

  // Every name a step refers to was bound before it; then its own name is bound.
  void check_references(const ScenarioStep& step, const rapidjson::Value& element) {
    for (const std::string* text : {&step.path, &step.token, &step.body}) {
      const auto names = scenario_references(*text);
      if (!names) fail(element, "a reference is \"${name}\" or \"${name.member}\", a name that \"as\" gave");
      for (const auto& name : *names)
        if (names_.count(name) == 0) fail(element, "\"${" + name + "}\" refers to no step before it");
    }
    if (step.bind_as.empty()) return;
    if (!names_.insert(step.bind_as).second) fail(element, "\"" + step.bind_as + "\" is already a name");
  }

  std::string_view text_;
  std::string file_;
  rapidjson::Document document_;
  Lines lines_;
  std::set<std::string> names_;
};

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& file_name) {
  return Parser(text, file_name).parse();
}

std::optional<std::int64_t> parse_scenario_duration(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  std::int64_t amount = 0;
  std::from_chars(text.data(), text.data() + digits, amount);
  const auto unit = text.substr(digits);
  std::int64_t scale = 0;
  if (unit.empty() || unit == "ms")
    scale = 1;
  else if (unit == "s")
    scale = 1000;
  else if (unit == "m")
    scale = 60'000;
  else if (unit == "h")
    scale = 3'600'000;
  else if (unit == "d")
    scale = 86'400'000;
  else
    return std::nullopt;
  return amount * scale;  // 9 digits of days fit in 64 bits
}

std::optional<std::vector<std::string>> scenario_references(std::string_view text) {
  std::vector<std::string> names;
  std::size_t from = 0;
  while ((from = text.find("${", from)) != std::string_view::npos) {
    const auto end = text.find('}', from + 2);
    if (end == std::string_view::npos) return std::nullopt;
    const auto inside = text.substr(from + 2, end - from - 2);
    const auto name = inside.substr(0, inside.find('.'));
    if (!is_name(name)) return std::nullopt;
    names.emplace_back(name);
    from = end + 1;
  }
  return names;
}

}  // namespace platformpp::emulator
