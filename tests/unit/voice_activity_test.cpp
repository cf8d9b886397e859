// The transmit side's decisions per 20 ms frame: the VAD threshold (manual and automatic, range -100..0 dB),
// PTT and its release delay (honoured within one frame), self mute, the five silence frames after speech and
// the Speaking edges.
#include "voice/voice_activity.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace voice_activity_test {

using namespace platformpp::voice;
using Action = TransmitGate::Action;

namespace {

using Frame = std::array<int16_t, 1920>;

// A square wave of +-amplitude: its RMS level is exactly 20 log10(amplitude / 32768) dBFS.
Frame Square(int16_t amplitude) {
  Frame frame{};
  for (std::size_t i = 0; i < frame.size(); ++i)
    frame[i] = (i / 2) % 2 ? amplitude : static_cast<int16_t>(-amplitude);
  return frame;
}

const Frame kLoud = Square(8000);
const Frame kQuiet{};

}  // namespace

TEST_CASE("frame level in dBFS") {
  CHECK(FrameLevelDbfs(kQuiet) == kSilenceDbfs);
  CHECK(FrameLevelDbfs(Square(32767)) == doctest::Approx(0.0).epsilon(0.001));
  CHECK(FrameLevelDbfs(Square(3277)) == doctest::Approx(-20.0).epsilon(0.01));
  CHECK(FrameLevelDbfs(Square(33)) == doctest::Approx(-59.94).epsilon(0.01));
}

TEST_CASE("the VAD threshold is crossed by the frame level, with a hangover") {
  VoiceActivityDetector vad;
  CHECK(vad.ThresholdDb() == -60.0f);
  CHECK_FALSE(vad.Automatic());
  vad.SetHangoverFrames(0);
  CHECK(vad.Process(Square(33)));        // -59.9 dBFS: above -60
  CHECK_FALSE(vad.Process(Square(32)));  // -60.2 dBFS: below
  REQUIRE(vad.SetThreshold(false, -20.0f));
  CHECK(vad.Process(Square(3300)));
  CHECK_FALSE(vad.Process(Square(3250)));

  vad.SetHangoverFrames(3);
  CHECK(vad.Process(kLoud));
  CHECK(vad.Process(kQuiet));
  CHECK(vad.Process(kQuiet));
  CHECK(vad.Process(kQuiet));
  CHECK_FALSE(vad.Process(kQuiet));
}

TEST_CASE("the VAD threshold accepts -100..0 dB only") {
  VoiceActivityDetector vad;
  CHECK(vad.SetThreshold(false, -100.0f));
  CHECK(vad.SetThreshold(false, 0.0f));
  CHECK_FALSE(vad.SetThreshold(false, -101.0f));
  CHECK_FALSE(vad.SetThreshold(false, 1.0f));
  CHECK_FALSE(vad.SetThreshold(true, std::numeric_limits<float>::quiet_NaN()));
  CHECK(vad.ThresholdDb() == 0.0f);  // the refused calls changed nothing
  CHECK_FALSE(vad.Automatic());
}

TEST_CASE("the automatic VAD threshold follows the noise floor") {
  VoiceActivityDetector vad;
  vad.SetHangoverFrames(0);
  REQUIRE(vad.SetThreshold(true, -60.0f));
  // A steady background at -40 dBFS is voice at first (above the initial floor) but not after a few seconds.
  const Frame background = Square(328);
  bool voiced = false;
  for (int i = 0; i < 500; ++i)
    voiced = vad.Process(background);
  CHECK_FALSE(voiced);
  CHECK(vad.NoiseFloorDb() == doctest::Approx(-40.0).epsilon(0.05));
  // Speech well above the background still counts.
  CHECK(vad.Process(Square(3277)));
  // A manual -60 dB threshold would have let the background through.
  REQUIRE(vad.SetThreshold(false, -60.0f));
  CHECK(vad.Process(background));
}

TEST_CASE("VAD mode: speaking starts on the first loud frame, ends with five silence frames, then nothing") {
  TransmitGate gate;
  gate.Vad().SetHangoverFrames(0);
  CHECK(gate.Process(kQuiet).action == Action::None);
  auto first = gate.Process(kLoud);
  CHECK(first.action == Action::Audio);
  CHECK(first.speakingStarted);
  auto second = gate.Process(kLoud);
  CHECK(second.action == Action::Audio);
  CHECK_FALSE(second.speakingStarted);
  for (int i = 0; i < TransmitGate::kSilenceFramesAfterSpeech; ++i) {
    auto decision = gate.Process(kQuiet);
    CHECK(decision.action == Action::Silence);
    CHECK(decision.speakingStopped == (i == TransmitGate::kSilenceFramesAfterSpeech - 1));
  }
  CHECK_FALSE(gate.Speaking());
  for (int i = 0; i < 20; ++i)
    CHECK(gate.Process(kQuiet).action == Action::None);
}

TEST_CASE("speech resuming during the silence frames continues the same spurt") {
  TransmitGate gate;
  gate.Vad().SetHangoverFrames(0);
  gate.Process(kLoud);
  CHECK(gate.Process(kQuiet).action == Action::Silence);
  auto again = gate.Process(kLoud);
  CHECK(again.action == Action::Audio);
  CHECK_FALSE(again.speakingStarted);
  for (int i = 0; i < 5; ++i)
    CHECK(gate.Process(kQuiet).action == Action::Silence);  // a fresh run of five
  CHECK(gate.Process(kQuiet).action == Action::None);
}

TEST_CASE("PTT transmits while active and for the release delay, within one frame") {
  struct Case {
    uint32_t delayMs;
    int frames;  // ceil(delay / 20): the audio after release lasts delay..delay+19 ms
  };
  for (Case c : {Case{0, 0}, Case{1, 1}, Case{20, 1}, Case{21, 2}, Case{50, 3}, Case{100, 5}}) {
    CAPTURE(c.delayMs);
    TransmitGate gate;
    gate.SetAudioMode(AudioMode::PTT);
    gate.SetPttReleaseDelayMs(c.delayMs);
    CHECK(gate.Process(kLoud).action == Action::None);  // PTT ignores the VAD
    gate.SetPttActive(true);
    auto pressed = gate.Process(kQuiet);  // and transmits quiet frames while held
    CHECK(pressed.action == Action::Audio);
    CHECK(pressed.speakingStarted);
    gate.SetPttActive(false);
    int audio = 0;
    while (gate.Process(kLoud).action == Action::Audio)
      ++audio;
    CHECK(audio == c.frames);
    const uint32_t sentMs = static_cast<uint32_t>(audio) * 20;
    CHECK(sentMs >= c.delayMs);
    CHECK(sentMs < c.delayMs + 20);
  }
}

TEST_CASE("pressing PTT again cancels the rest of the release delay") {
  TransmitGate gate;
  gate.SetAudioMode(AudioMode::PTT);
  gate.SetPttReleaseDelayMs(200);
  gate.SetPttActive(true);
  gate.Process(kQuiet);
  gate.SetPttActive(false);
  gate.Process(kQuiet);
  gate.SetPttActive(true);
  gate.SetPttActive(false);  // a fresh delay of 10 frames
  int audio = 0;
  while (gate.Process(kQuiet).action == Action::Audio)
    ++audio;
  CHECK(audio == 10);
}

TEST_CASE("self mute stops audio after the five silence frames; Uninit sends nothing") {
  TransmitGate gate;
  gate.Process(kLoud);
  gate.SetSelfMute(true);
  int silence = 0;
  for (int i = 0; i < 30; ++i) {
    auto decision = gate.Process(kLoud);
    CHECK(decision.action != Action::Audio);
    if (decision.action == Action::Silence) ++silence;
  }
  CHECK(silence == 5);
  gate.SetSelfMute(false);
  CHECK(gate.Process(kLoud).speakingStarted);

  TransmitGate uninit;
  uninit.SetAudioMode(AudioMode::Uninit);
  CHECK(uninit.Process(kLoud).action == Action::None);
}

}  // namespace voice_activity_test
