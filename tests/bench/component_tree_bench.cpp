// Component trees of the largest size the platform takes, checked (CheckComponents) and written
// (ComponentsJson) as a message send does, against RapidJSON alone writing the same document from a DOM
// (Document::Accept into a Writer: the bare baseline), measured in the same process. Two trees: an
// IS_COMPONENTS_V2 message of 40 components with every text at its longest, and a legacy message of 5 action
// rows of 5 buttons. Prints each ratio (check + write over bare write), medians of the rounds. Fails only
// when the work is wrong (the tree refused, or the two writers disagree), never on timing.
#include "backend/component_json.hpp"
#include "json/json.hpp"

#include <platformpp/components.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_mode.hpp"

using namespace platformpp;
using Clock = std::chrono::steady_clock;

namespace {

const int kIterations = platformpp::bench::Sized(2000, 100);
const int kRounds = platformpp::bench::Sized(7, 1);

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::string Id(int n) {
  std::string id = std::to_string(n);
  return id + std::string(100 - id.size(), 'x');  // the longest custom id
}

Component LongButton(int n) {
  return Component::Button(ButtonStyle::Secondary, std::string(80, 'b'), Id(n));
}

// 40 components: a Container holding 7 Sections (3 Text Displays and a Button each), a Media Gallery of 10
// items, an Action Row of one Button, and a Separator: 1 + 35 + 1 + 2 + 1.
std::vector<Component> V2Tree() {
  std::vector<Component> children;
  int n = 0;
  for (int s = 0; s < 7; ++s) {
    std::vector<Component> texts(3, Component::TextDisplay(std::string(4000, 't')));
    children.push_back(Component::Section(std::move(texts), LongButton(n++)));
  }
  std::vector<MediaGalleryItem> items(10);
  for (auto& item : items) {
    item.media.url = "https://cdn.example.com/" + std::string(200, 'm') + ".png";
    item.description = std::string(1024, 'd');
  }
  children.push_back(Component::MediaGallery(std::move(items)));
  children.push_back(Component::ActionRow({LongButton(n++)}));
  children.push_back(Component::Separator(true, SeparatorSpacing::Large));
  return {Component::Container(std::move(children), 0xFFFFFF)};
}

std::vector<Component> LegacyTree() {
  std::vector<Component> rows;
  int n = 0;
  for (int r = 0; r < 5; ++r) {
    std::vector<Component> buttons;
    buttons.reserve(5);
    for (int b = 0; b < 5; ++b)
      buttons.push_back(LongButton(n++));
    rows.push_back(Component::ActionRow(std::move(buttons)));
  }
  return rows;
}

// Runs one tree; false when the work is wrong.
bool Run(const char* name, const std::vector<Component>& tree, ComponentSurface surface) {
  if (!CheckComponents(tree, surface).empty()) {
    std::printf("error: the %s tree is refused\n", name);
    return false;
  }
  const std::string expected = backend::ComponentsJson(tree);
  json::Document document;
  if (!json::Parse(expected, document)) {
    std::printf("error: the %s tree does not parse back\n", name);
    return false;
  }
  std::size_t bareBytes = 0;
  std::size_t sdkBytes = 0;
  std::vector<double> bare;
  std::vector<double> sdk;
  for (int round = 0; round < kRounds; ++round) {
    auto start = Clock::now();
    for (int i = 0; i < kIterations; ++i) {
      rapidjson::StringBuffer buffer;
      rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
      document.Accept(writer);
      bareBytes += buffer.GetSize();
      if (i == 0 && round == 0 && std::string(buffer.GetString(), buffer.GetSize()) != expected) {
        std::printf("error: the %s tree: RapidJSON and the SDK write different documents\n", name);
        return false;
      }
    }
    bare.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kIterations);
    start = Clock::now();
    for (int i = 0; i < kIterations; ++i) {
      sdkBytes += CheckComponents(tree, surface).size();
      sdkBytes += backend::ComponentsJson(tree).size();
    }
    sdk.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kIterations);
  }
  if (sdkBytes != bareBytes) {
    std::printf("error: the %s tree: %zu bytes written by the SDK, %zu by RapidJSON\n", name, sdkBytes,
                bareBytes);
    return false;
  }
  const double b = Median(bare);
  const double s = Median(sdk);
  std::printf(
      "%s (%zu bytes): RapidJSON write %.1f us, CheckComponents + ComponentsJson %.1f us (medians of %d)\n",
      name, expected.size(), b, s, kRounds);
  std::printf("%s ratio: %.2fx\n", name, s / b);
  return true;
}

}  // namespace

int main() {
  const bool v2 = Run("v2 40 components", V2Tree(), ComponentSurface::MessageV2);
  const bool legacy = Run("legacy 5x5 buttons", LegacyTree(), ComponentSurface::Message);
  return v2 && legacy ? 0 : 1;
}
