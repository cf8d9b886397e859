// The structure-aware stage of the JSON-consuming fuzz targets: a libFuzzer custom mutator that finds the
// JSON in an input (the whole input, or one of its lines: the targets put a frame or a body on a line of its
// own), parses it and changes it the way a careless or hostile client would while keeping it valid JSON: a
// value of another type, huge, negative and fractional numbers, deep nesting, long strings, duplicate,
// removed and added members, a subtree copied elsewhere. Byte-level mutation (LLVMFuzzerMutate) still gets a
// share of the calls, and all of them when no JSON is found, so headers, selectors and broken JSON keep being
// explored.
//
// Include it in one target file only (it defines LLVMFuzzerCustomMutator). Without libFuzzer (the standalone
// CTest replay, which does not mutate structurally) it defines nothing.
#pragma once

#if defined(PLATFORMPP_LIBFUZZER)

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace platformpp_fuzz {

class JsonMutator {
 public:
  explicit JsonMutator(unsigned int seed) : random_(seed) {}

  // Mutates input in place; its new size, or 0 when it found no JSON to change.
  size_t mutate(uint8_t* data, size_t size, size_t max_size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::pair<size_t, size_t>> candidates;  // (offset, length) of segments that parse
    if (parses(input)) candidates.emplace_back(0, size);
    for (size_t start = 0; start < size && candidates.size() < 64;) {
      const size_t end = std::min(input.find('\n', start), size);
      if (end > start && (input[start] == '{' || input[start] == '[') && (start != 0 || end != size) &&
          parses(input.substr(start, end - start))) {
        candidates.emplace_back(start, end - start);
      }
      start = end + 1;
    }
    if (candidates.empty()) return 0;
    const auto [offset, length] = candidates[pick(candidates.size())];
    document_.Parse<rapidjson::kParseIterativeFlag>(input.data() + offset, length);
    if (document_.HasParseError()) return 0;
    // The writer and the walk below recurse: no deeper than this (the targets' parsers are iterative, and
    // inputs this deep have made their point).
    if (depth(document_) > kMaxDepth) return 0;
    // A few changes at once now and then: wrong types often only matter together with other changes.
    const int changes = pick(4) == 0 ? 1 + static_cast<int>(pick(4)) : 1;
    for (int n = 0; n < changes; ++n)
      change(max_size);
    rapidjson::StringBuffer out;
    rapidjson::Writer<rapidjson::StringBuffer> writer(out);
    if (!document_.Accept(writer)) return 0;
    const size_t new_size = size - length + out.GetSize();
    if (new_size > max_size) return 0;
    std::string result;
    result.reserve(new_size);
    result.append(input.substr(0, offset));
    result.append(out.GetString(), out.GetSize());
    result.append(input.substr(offset + length));
    std::memcpy(data, result.data(), result.size());
    return result.size();
  }

 private:
  using Value = rapidjson::Value;

  static bool parses(std::string_view text) {
    rapidjson::Document document;
    document.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
    return !document.HasParseError() && (document.IsObject() || document.IsArray());
  }

  size_t pick(size_t n) { return n == 0 ? 0 : static_cast<size_t>(random_() % n); }

  // Nesting depth, without recursion.
  static size_t depth(const Value& root) {
    size_t deepest = 0;
    std::vector<std::pair<const Value*, size_t>> stack{{&root, 1}};
    while (!stack.empty()) {
      const auto [value, level] = stack.back();
      stack.pop_back();
      deepest = std::max(deepest, level);
      if (value->IsObject()) {
        for (const auto& member : value->GetObject())
          stack.emplace_back(&member.value, level + 1);
      } else if (value->IsArray()) {
        for (const auto& element : value->GetArray())
          stack.emplace_back(&element, level + 1);
      }
    }
    return deepest;
  }

  // Every value of the document, the root first (preorder).
  void collect(Value& value, std::vector<Value*>& out) {
    out.push_back(&value);
    if (value.IsObject()) {
      for (auto& member : value.GetObject())
        collect(member.value, out);
    } else if (value.IsArray()) {
      for (auto& element : value.GetArray())
        collect(element, out);
    }
  }

  void change(size_t max_size) {
    std::vector<Value*> values;
    collect(document_, values);
    depth_ = depth(document_);
    Value& target = *values[pick(values.size())];
    auto& allocator = document_.GetAllocator();
    switch (pick(10)) {
      case 0:  // another type: what a parser that trusts a field's type trips over
        other_type(target);
        break;
      case 1:  // an edge of the number range
        target = edge_number();
        break;
      case 2: {  // a long string, or a string of a number
        static const char* const kNumeric[] = {
            "0", "-1", "1e999", "18446744073709551616", "9223372036854775808", "1.5",
            "",  " ",  "null",  "\xF0\x9F\x8E\xAE"};
        if (pick(2) == 0) {
          target.SetString(kNumeric[pick(std::size(kNumeric))], allocator);
        } else {
          // Past every length limit (names 100, content 2,000, payloads 4,096), within the input's room.
          const size_t length = std::min<size_t>(size_t{1} << (4 + pick(13)), max_size / 2 + 1);
          std::string text;
          const std::string_view unit = pick(4) == 0 ? std::string_view("\xC3\xA9") : std::string_view("a");
          while (text.size() < length)
            text.append(unit);
          target.SetString(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), allocator);
        }
        break;
      }
      case 3: {  // deep nesting around the value
        const size_t depth = std::min<size_t>(size_t{1} << (2 + pick(12)), max_size / 4 + 1);
        if (depth_ + depth > kMaxDepth) break;
        Value inner(target, allocator);
        for (size_t level = 0; level < depth; ++level) {
          Value wrapper;
          if (pick(2) == 0) {
            wrapper.SetArray();
            wrapper.PushBack(inner, allocator);
          } else {
            wrapper.SetObject();
            wrapper.AddMember("a", inner, allocator);
          }
          inner = wrapper;
        }
        target = inner;
        break;
      }
      case 4:  // a member twice: which one wins is up to the parser
        if (target.IsObject() && target.MemberCount() > 0) {
          auto member = target.MemberBegin() + static_cast<std::ptrdiff_t>(pick(target.MemberCount()));
          Value name(member->name, allocator);
          Value copy;
          if (pick(2) == 0) {
            copy.CopyFrom(member->value, allocator);
          } else {
            other_type(copy);
          }
          target.AddMember(name, copy, allocator);
        }
        break;
      case 5:  // a member or element less
        if (target.IsObject() && target.MemberCount() > 0) {
          target.EraseMember(target.MemberBegin() + static_cast<std::ptrdiff_t>(pick(target.MemberCount())));
        } else if (target.IsArray() && !target.Empty()) {
          target.Erase(target.Begin() + static_cast<std::ptrdiff_t>(pick(target.Size())));
        }
        break;
      case 6: {  // a member more, named as the protocol's members often are
        static const char* const kNames[] = {"id",    "type",  "name",  "op",      "d",          "t",   "s",
                                             "token", "flags", "nonce", "content", "components", "data"};
        if (target.IsObject()) {
          Value value;
          other_type(value);
          target.AddMember(Value(kNames[pick(std::size(kNames))], allocator), value, allocator);
        } else if (target.IsArray()) {
          Value value;
          value.CopyFrom(*values[pick(values.size())], allocator);
          target.PushBack(value, allocator);
        }
        break;
      }
      case 7: {  // many copies of one element: counts past a limit
        if (target.IsArray() && !target.Empty()) {
          const size_t copies = 1 + pick(std::min<size_t>(300, max_size / 8 + 1));
          Value element;
          element.CopyFrom(target[static_cast<rapidjson::SizeType>(pick(target.Size()))], allocator);
          for (size_t n = 0; n < copies; ++n)
            target.PushBack(Value(element, allocator), allocator);
        }
        break;
      }
      case 8: {  // a subtree of the document elsewhere (a valid value of the wrong place)
        Value copy;
        copy.CopyFrom(*values[pick(values.size())], allocator);
        target = copy;
        break;
      }
      default:  // a nearby number: off-by-one at a bound
        if (target.IsInt64()) {
          const auto n = target.GetInt64();
          target.SetInt64(pick(2) == 0 ? (n == INT64_MIN ? n : n - 1) : (n == INT64_MAX ? n : n + 1));
        } else {
          target = edge_number();
        }
        break;
    }
  }

  Value edge_number() {
    switch (pick(12)) {
      case 0:
        return Value(INT64_MAX);
      case 1:
        return Value(INT64_MIN);
      case 2:
        return Value(UINT64_MAX);
      case 3:
        return Value(1e308);
      case 4:
        return Value(-1e308);
      case 5:
        return Value(0.5);
      case 6:
        return Value(-0.0);
      case 7:
        return Value(-1);
      case 8:
        return Value(std::int64_t{2147483648});  // INT32_MAX + 1
      case 9:
        return Value(std::int64_t{9007199254740993});  // past a double's exact integers
      case 10:
        return Value(1e-300);
      default:
        return Value(0);
    }
  }

  void other_type(Value& target) {
    auto& allocator = document_.GetAllocator();
    switch (pick(7)) {
      case 0:
        target.SetNull();
        break;
      case 1:
        target.SetBool(pick(2) == 0);
        break;
      case 2:
        target = edge_number();
        break;
      case 3:
        target.SetString("1", allocator);
        break;
      case 4:
        target.SetArray();
        break;
      case 5:
        target.SetObject();
        break;
      default: {
        // A string made of the value as text: "5" for 5, "{...}" for an object.
        rapidjson::StringBuffer text;
        rapidjson::Writer<rapidjson::StringBuffer> writer(text);
        target.Accept(writer);
        target.SetString(text.GetString(), static_cast<rapidjson::SizeType>(text.GetSize()), allocator);
        break;
      }
    }
  }

  static constexpr size_t kMaxDepth = 10000;

  std::minstd_rand random_;
  rapidjson::Document document_;
  size_t depth_ = 0;
};

}  // namespace platformpp_fuzz

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  // One call in four stays byte-level even on JSON: the non-JSON parts of an input need mutating too.
  if (seed % 4 != 0) {
    platformpp_fuzz::JsonMutator mutator(seed);
    if (const size_t mutated = mutator.mutate(data, size, max_size); mutated != 0) return mutated;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

#endif  // PLATFORMPP_LIBFUZZER
