#include "scenario/scenario_player.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>
#include <stdexcept>
#include <utility>

#include "core/json.hpp"

namespace platformpp::emulator {

namespace {

std::string player_json_text(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

// The text an answer's member stands for inside a longer string: a string as it is, a number or a boolean
// as JSON writes it.
std::string reference_text(const rapidjson::Value& value, const std::string& reference) {
  if (value.IsString()) return {value.GetString(), value.GetStringLength()};
  if (value.IsNumber() || value.IsBool()) return player_json_text(value);
  throw std::invalid_argument("${" + reference + "} is " + (value.IsNull() ? "null" : "an object or array") +
                              ", which a string cannot hold");
}

// An answer's first 300 bytes, for a message.
std::string answer_excerpt(const std::string& body) {
  return body.size() <= 300 ? body : body.substr(0, 300) + "...";
}

}  // namespace

ScenarioPlayer::ScenarioPlayer(Scenario scenario, Call call)
    : scenario_(std::move(scenario)), call_(std::move(call)), outcomes_(scenario_.timeline.size()) {}

void ScenarioPlayer::run_setup(std::int64_t now_ms) {
  for (const auto& step : scenario_.setup) {
    int status = 0;
    const auto error = run(step, status);
    if (!error.empty()) throw ScenarioError(scenario_.file + ":" + std::to_string(step.line) + ": " + error);
  }
  started_ms_ = now_ms;
  started_ = true;
}

void ScenarioPlayer::tick(std::int64_t now_ms) {
  if (!started_) return;
  while (next_ < scenario_.timeline.size() && started_ms_ + *scenario_.timeline[next_].at_ms <= now_ms) {
    const auto& step = scenario_.timeline[next_];
    auto& outcome = outcomes_[next_];
    ++next_;
    outcome.ran = true;
    outcome.ran_at_ms = now_ms;
    outcome.error = run(step, outcome.status);
    if (!outcome.error.empty()) {
      std::fprintf(stderr, "platformpp-emulator: scenario %s:%d (at %lld ms): %s\n", scenario_.file.c_str(),
                   step.line, static_cast<long long>(*step.at_ms), outcome.error.c_str());
    }
  }
}

std::string ScenarioPlayer::run(const ScenarioStep& step, int& status) {
  std::string target;
  std::string authorization;
  std::string body;
  try {
    target = (step.api ? "/api/v10" : "/_emulator") + substitute(step.path);
    if (step.api && !step.token.empty()) {
      // A bot's token is given as "Bot <token>"; anything else is a user's access token.
      const auto token = substitute(step.token);
      authorization = token.rfind("Bot ", 0) == 0 ? token : "Bearer " + token;
    }
    if (!step.body.empty()) {
      rapidjson::Document document;
      parse_stored_json(step.body, document);
      resolve(document, document.GetAllocator());
      body = player_json_text(document);
    }
  } catch (const std::invalid_argument& e) {
    return step.label + ": " + e.what();
  }
  const auto answer = call_(step.method, target, authorization, body);
  status = answer.status;
  if (answer.status >= 400) {
    return step.label + " answered " + std::to_string(answer.status) + ": " + answer_excerpt(answer.body);
  }
  if (!step.bind_as.empty()) {
    rapidjson::Document document;
    if (!parse_json(answer.body, document))
      document.SetObject();  // a 204: the name is bound to an empty answer
    answers_[step.bind_as] = std::move(document);
  }
  return {};
}

const rapidjson::Value& ScenarioPlayer::lookup(const std::string& reference) const {
  const auto dot = reference.find('.');
  const std::string name = reference.substr(0, dot);
  const auto found = answers_.find(name);
  if (found == answers_.end())
    throw std::invalid_argument("${" + reference + "}: \"" + name +
                                "\" has no answer (its step failed or is later)");
  const rapidjson::Value* value = &found->second;
  if (dot == std::string::npos) {
    // A bare name is the answer's id.
    if (!value->IsObject() || !value->HasMember("id"))
      throw std::invalid_argument("${" + name + "}: its answer has no \"id\"; name a member: ${" + name +
                                  ".member}");
    return (*value)["id"];
  }
  std::size_t from = dot + 1;
  while (from <= reference.size()) {
    const auto end = reference.find('.', from);
    const std::string part =
        reference.substr(from, end == std::string::npos ? std::string::npos : end - from);
    if (value->IsObject() && value->HasMember(part.c_str())) {
      value = &(*value)[part.c_str()];
    } else if (value->IsArray() && !part.empty() &&
               part.find_first_not_of("0123456789") == std::string::npos && part.size() < 9 &&
               std::stoul(part) < value->Size()) {
      value = &(*value)[static_cast<rapidjson::SizeType>(std::stoul(part))];
    } else {
      throw std::invalid_argument("${" + reference + "}: the answer of \"" + name + "\" has no \"" + part +
                                  "\"");
    }
    if (end == std::string::npos) break;
    from = end + 1;
  }
  return *value;
}

std::string ScenarioPlayer::resolve_reference(const std::string& reference) const {
  return player_json_text(lookup(reference));
}

std::string ScenarioPlayer::substitute(const std::string& text) const {
  std::string out;
  std::size_t from = 0;
  while (true) {
    const auto start = text.find("${", from);
    if (start == std::string::npos) break;
    const auto end = text.find('}', start + 2);  // closed: the parser checked
    out.append(text, from, start - from);
    const std::string reference = text.substr(start + 2, end - start - 2);
    out += reference_text(lookup(reference), reference);
    from = end + 1;
  }
  out.append(text, from, std::string::npos);
  return out;
}

void ScenarioPlayer::resolve(rapidjson::Value& value, rapidjson::Document::AllocatorType& allocator) const {
  if (value.IsString()) {
    const std::string text(value.GetString(), value.GetStringLength());
    if (text.find("${") == std::string::npos) return;
    const auto end = text.find('}');
    if (text.rfind("${", 0) == 0 && end == text.size() - 1) {
      value.CopyFrom(lookup(text.substr(2, text.size() - 3)), allocator);  // its own JSON type
    } else {
      const auto replaced = substitute(text);
      value.SetString(replaced.c_str(), static_cast<rapidjson::SizeType>(replaced.size()), allocator);
    }
  } else if (value.IsObject()) {
    for (auto& member : value.GetObject())
      resolve(member.value, allocator);
  } else if (value.IsArray()) {
    for (auto& element : value.GetArray())
      resolve(element, allocator);
  }
}

std::string ScenarioPlayer::status_json() const {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("file");
  writer.String(scenario_.file.c_str());
  writer.Key("setup_steps");
  writer.Uint64(scenario_.setup.size());
  writer.Key("started_ms");
  writer.Int64(started_ms_);
  writer.Key("names");
  writer.StartObject();
  for (const auto& [name, answer] : answers_) {
    writer.Key(name.c_str());
    answer.Accept(writer);
  }
  writer.EndObject();
  writer.Key("timeline");
  writer.StartArray();
  for (std::size_t i = 0; i < scenario_.timeline.size(); ++i) {
    const auto& step = scenario_.timeline[i];
    const auto& outcome = outcomes_[i];
    writer.StartObject();
    writer.Key("line");
    writer.Int(step.line);
    writer.Key("at_ms");
    writer.Int64(*step.at_ms);
    writer.Key("call");
    writer.String(step.label.c_str());
    writer.Key("ran");
    writer.Bool(outcome.ran);
    if (outcome.ran) {
      writer.Key("ran_at_ms");
      writer.Int64(outcome.ran_at_ms);
      writer.Key("status");
      writer.Int(outcome.status);
      if (!outcome.error.empty()) {
        writer.Key("error");
        writer.String(outcome.error.c_str());
      }
    }
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace platformpp::emulator
