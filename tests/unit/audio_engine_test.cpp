// The SDK's audio device layer (src/audio/): the engine's volume, mute and deafen math and its 10 ms -> 20 ms
// buffering (driven by a fake backend whose "device thread" is the test), the no-audio-input detector at its
// threshold, the null backend's real-time pacing, and PortAudio enumeration with the automatic fallback to
// the null backend on a machine without sound.
#include "audio/audio_device.hpp"
#include "audio/no_input_detector.hpp"
#include "audio/null_audio_backend.hpp"
#include "audio/portaudio_backend.hpp"

#include <doctest/doctest.h>

#include "test_portability.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace audio_engine_test {

using namespace platformpp::audio;

namespace {

// A backend whose device thread is the test itself: Open() keeps the sink, the test calls it.
class FakeBackend final : public AudioBackend {
 public:
  AudioStreamSink* sink = nullptr;
  AudioStreamConfig config;
  int opens = 0;

  std::string_view Name() const noexcept override { return "fake"; }
  std::vector<AudioDeviceInfo> InputDevices() override {
    return {{"fake/mic", "Mic", true}, {"fake/usb", "USB mic", false}};
  }
  std::vector<AudioDeviceInfo> OutputDevices() override { return {{"fake/speakers", "Speakers", true}}; }
  bool Open(const AudioStreamConfig& c, AudioStreamSink& s, std::string&) override {
    config = c;
    sink = &s;
    ++opens;
    return true;
  }
  void Close() noexcept override { sink = nullptr; }
  bool IsOpen() const noexcept override { return sink != nullptr; }
  bool RefreshDevices() override { return false; }
};

struct FakeEngine {
  FakeBackend* backend;
  AudioEngine engine;
  explicit FakeEngine(AudioEngineOptions options = {})
      : backend(new FakeBackend), engine(std::unique_ptr<AudioBackend>(backend), options) {
    std::string error;
    REQUIRE(engine.Start(error));
  }
  void Capture(int16_t value, std::size_t frames = kDefaultDevicePeriodFrames) {
    std::vector<int16_t> period(frames * kChannels, value);
    backend->sink->OnCapture(period);
  }
  std::vector<int16_t> Playback(std::size_t frames = kDefaultDevicePeriodFrames) {
    std::vector<int16_t> period(frames * kChannels, 1234);
    backend->sink->OnPlayback(period);
    return period;
  }
};

std::array<int16_t, kFrameSamples> Frame(int16_t value) {
  std::array<int16_t, kFrameSamples> frame;
  frame.fill(value);
  return frame;
}

}  // namespace

TEST_CASE("two 10 ms device periods make one 20 ms capture frame") {
  FakeEngine f;
  std::array<int16_t, kFrameSamples> frame{};
  f.Capture(100);
  CHECK(f.engine.CaptureFramesReady() == 0);
  CHECK_FALSE(f.engine.ReadCaptureFrame(frame));  // half a frame: not yet
  f.Capture(200);
  CHECK(f.engine.CaptureFramesReady() == 1);
  REQUIRE(f.engine.ReadCaptureFrame(frame));
  CHECK(frame[0] == 100);
  CHECK(frame[kFrameSamples / 2 - 1] == 100);
  CHECK(frame[kFrameSamples / 2] == 200);
  CHECK(frame[kFrameSamples - 1] == 200);
}

TEST_CASE("input volume scales capture: 100 is unity, 50 halves, out of range is clamped") {
  FakeEngine f;
  std::array<int16_t, kFrameSamples> frame{};
  f.Capture(-1001, kFrameSamplesPerChannel);
  REQUIRE(f.engine.ReadCaptureFrame(frame));
  CHECK(frame[0] == -1001);  // bit-exact at 100

  f.engine.SetInputVolume(50);
  CHECK(f.engine.InputVolume() == 50);
  f.Capture(1002, kFrameSamplesPerChannel);
  REQUIRE(f.engine.ReadCaptureFrame(frame));
  CHECK(frame[0] == 501);
  CHECK(frame[5] == frame[0]);

  f.engine.SetInputVolume(150);
  CHECK(f.engine.InputVolume() == 100);
  f.engine.SetInputVolume(-1);
  CHECK(f.engine.InputVolume() == 0);
  f.Capture(30000, kFrameSamplesPerChannel);
  REQUIRE(f.engine.ReadCaptureFrame(frame));
  CHECK(frame == Frame(0));
  f.engine.SetInputVolume(std::numeric_limits<float>::quiet_NaN());
  CHECK(f.engine.InputVolume() == 0);  // NaN ignored
}

TEST_CASE("the gain saturates instead of wrapping and unity is bit-exact") {
  std::vector<int16_t> samples = {32767, -32768, 3, -3, 0};
  AudioEngine::ApplyGain(samples, 1.0f);
  CHECK(samples == std::vector<int16_t>{32767, -32768, 3, -3, 0});
  AudioEngine::ApplyGain(samples, 0.25f);
  CHECK(samples == std::vector<int16_t>{8192, -8192, 1, -1, 0});
  CHECK(AudioEngine::VolumeToGain(100) == 1.0f);
  CHECK(AudioEngine::VolumeToGain(100.5f) == 1.0f);
  CHECK(AudioEngine::VolumeToGain(99) == doctest::Approx(0.99f));
  CHECK(AudioEngine::VolumeToGain(0) == 0.0f);
  CHECK(AudioEngine::VolumeToGain(-0.5f) == 0.0f);
}

TEST_CASE("self-mute captures paced silence; unmuting restores the signal") {
  FakeEngine f;
  std::array<int16_t, kFrameSamples> frame{};
  f.engine.SetSelfMute(true);
  f.Capture(5000, kFrameSamplesPerChannel);
  REQUIRE(f.engine.ReadCaptureFrame(frame));  // still one frame per 20 ms
  CHECK(frame == Frame(0));
  f.engine.SetSelfMute(false);
  f.Capture(5000, kFrameSamplesPerChannel);
  REQUIRE(f.engine.ReadCaptureFrame(frame));
  CHECK(frame == Frame(5000));
}

TEST_CASE("playback: output volume, deafen, and silence on underflow") {
  FakeEngine f;
  // Nothing queued: silence, counted.
  auto period = f.Playback();
  CHECK(period == std::vector<int16_t>(kDefaultDevicePeriodFrames * kChannels, 0));
  CHECK(f.engine.PlaybackUnderflowSamples() == kDefaultDevicePeriodFrames * kChannels);

  REQUIRE(f.engine.WritePlaybackFrame(Frame(4000)));
  f.engine.SetOutputVolume(25);
  CHECK(f.Playback() == std::vector<int16_t>(kDefaultDevicePeriodFrames * kChannels, 1000));
  f.engine.SetSelfDeaf(true);
  CHECK(f.Playback() == std::vector<int16_t>(kDefaultDevicePeriodFrames * kChannels, 0));
  // Deafened periods still consume the queue, so undeafening does not replay old audio.
  CHECK(f.engine.PlaybackSamplesQueued() == 0);
  f.engine.SetSelfDeaf(false);
  f.engine.SetOutputVolume(100);
  REQUIRE(f.engine.WritePlaybackFrame(Frame(-7)));
  CHECK(f.Playback() == std::vector<int16_t>(kDefaultDevicePeriodFrames * kChannels, -7));
}

TEST_CASE("a full playback ring refuses the frame that does not fit") {
  AudioEngineOptions options;
  options.playbackRingSamples = 2 * kFrameSamples;  // rounded up to 4096: two frames fit, not three
  FakeEngine f(options);
  CHECK(f.engine.WritePlaybackFrame(Frame(1)));
  CHECK(f.engine.WritePlaybackFrame(Frame(2)));
  CHECK_FALSE(f.engine.WritePlaybackFrame(Frame(3)));
  CHECK(f.engine.PlaybackOverflowSamples() == kFrameSamples);
}

TEST_CASE("device selection: unknown ids are refused, a known one reopens the running stream") {
  FakeEngine f;
  std::string error;
  CHECK_FALSE(f.engine.SetInputDevice("fake/nope", error));
  CHECK(error == "unknown input device");
  CHECK(f.backend->opens == 1);
  CHECK(f.engine.SetInputDevice("fake/usb", error));
  CHECK(f.backend->opens == 2);
  CHECK(f.backend->config.inputDeviceId == "fake/usb");
  CHECK(f.engine.InputDeviceId() == "fake/usb");
  CHECK(f.engine.SetOutputDevice("", error));  // the default, already selected: nothing to do
  CHECK(f.backend->opens == 2);
  CHECK_FALSE(f.engine.SetOutputDevice("fake/mic", error));  // an input is not an output
}

namespace {

// A constant signal of amplitude `a` has an RMS level of exactly 20 log10(a / 32768) dBFS.
float ConstantLevel(int16_t a) {
  return static_cast<float>(20.0 * std::log10(a / 32768.0));
}

}  // namespace

TEST_CASE("the level of a period in dBFS") {
  std::vector<int16_t> samples(960, 3277);
  CHECK(NoInputDetector::LevelDbfs(samples) == doctest::Approx(ConstantLevel(3277)).epsilon(1e-4));
  CHECK(NoInputDetector::LevelDbfs(samples) == doctest::Approx(-20.0).epsilon(1e-3));
  std::vector<int16_t> silence(960, 0);
  CHECK(std::isinf(NoInputDetector::LevelDbfs(silence)));
  CHECK(NoInputDetector::LevelDbfs(silence) < 0);
}

TEST_CASE("no audio input: a level one dB below the threshold for the hold time trips it, one above not") {
  constexpr int16_t kAmplitude = 33;  // about -60 dBFS
  const float level = ConstantLevel(kAmplitude);
  std::vector<int16_t> period(std::size_t{480} * 2, kAmplitude);

  SUBCASE("one dB above the threshold: input present") {
    NoInputDetector detector(960);
    detector.SetThresholdDbfs(level - 1.0f);
    for (int i = 0; i < 100; ++i)
      detector.Process(period, 2);
    CHECK_FALSE(detector.NoInput());
    CHECK(detector.Changes() == 0);
  }
  SUBCASE("one dB below the threshold: no input once the hold time has passed, not before") {
    NoInputDetector detector(960);
    detector.SetThresholdDbfs(level + 1.0f);
    detector.Process(period, 2);  // 480 of 960 samples
    CHECK_FALSE(detector.NoInput());
    detector.Process(period, 2);
    CHECK(detector.NoInput());
    CHECK(detector.Changes() == 1);
    detector.Process(period, 2);
    CHECK(detector.Changes() == 1);  // a state, not repeated events
    // One loud period brings the input back at once.
    std::vector<int16_t> loud(std::size_t{480} * 2, 1000);
    detector.Process(loud, 2);
    CHECK_FALSE(detector.NoInput());
    CHECK(detector.Changes() == 2);
    detector.Process(period, 2);  // the hold time starts over
    CHECK_FALSE(detector.NoInput());
  }
}

TEST_CASE("the no-input threshold is clamped to [-100, 0] dBFS and digital silence is below any of them") {
  NoInputDetector detector(480);
  CHECK(detector.ThresholdDbfs() == -100.0f);
  detector.SetThresholdDbfs(-150);
  CHECK(detector.ThresholdDbfs() == -100.0f);
  detector.SetThresholdDbfs(3);
  CHECK(detector.ThresholdDbfs() == 0.0f);
  detector.SetThresholdDbfs(-100);
  std::vector<int16_t> silence(std::size_t{480} * 2, 0);
  detector.Process(silence, 2);
  CHECK(detector.NoInput());
  // The quietest non-zero signal (RMS 1 LSB, about -90 dBFS) is above -100.
  std::vector<int16_t> lsb(std::size_t{480} * 2, 1);
  detector.Process(lsb, 2);
  CHECK_FALSE(detector.NoInput());
}

TEST_CASE("the engine runs the no-input detector on the raw capture, before volume and mute") {
  AudioEngineOptions options;
  options.noInputHoldSamples = 960;
  FakeEngine f(options);
  f.engine.SetNoAudioInputThreshold(-40);
  f.engine.SetInputVolume(0);
  f.engine.SetSelfMute(true);
  f.Capture(1000);  // about -30 dBFS: above the threshold despite volume 0 and mute
  f.Capture(1000);
  CHECK_FALSE(f.engine.NoInputState().NoInput());
  f.Capture(100);  // about -50 dBFS
  f.Capture(100);
  CHECK(f.engine.NoInputState().NoInput());
  CHECK(f.engine.NoInputState().LastLevelDbfs() == doctest::Approx(ConstantLevel(100)).epsilon(1e-4));
}

TEST_CASE("the null backend is never ahead of real time: 50 periods of 20 ms take at least a second") {
  struct Counter final : AudioStreamSink {
    std::atomic<int> captures{0};
    std::atomic<int> playbacks{0};
    std::atomic<bool> silent{true};
    void OnCapture(std::span<const int16_t> s) noexcept override {
      for (int16_t v : s) {
        if (v != 0) silent = false;
      }
      if (s.size() != kFrameSamples) silent = false;
      ++captures;
    }
    void OnPlayback(std::span<int16_t> s) noexcept override {
      std::fill(s.begin(), s.end(), int16_t{1});
      ++playbacks;
    }
  } counter;
  NullAudioBackend backend;
  AudioStreamConfig config;
  config.periodFrames = kFrameSamplesPerChannel;
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(backend.Open(config, counter, error));
  CHECK(backend.IsOpen());
  // Never ahead of real time: deadlines are absolute, so at 500 ms at most 25 periods can have run.
  std::this_thread::sleep_until(start + std::chrono::milliseconds(500));
  CHECK(counter.captures.load() <= 25);
  while (counter.captures.load() < 50 &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  backend.Close();
  CHECK_FALSE(backend.IsOpen());
  CHECK(counter.captures.load() >= 50);
  CHECK(elapsed >=
        std::chrono::milliseconds(1000));  // a lower bound only: how late it is, test time shows below
  CHECK(counter.playbacks.load() == counter.captures.load());
  CHECK(counter.silent.load());
  const int after = counter.captures.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  CHECK(counter.captures.load() == after);  // closed means no more calls
}

// The pacing rule exactly, on test time: a period falls due every 20 ms, a lag of up to kMaxCatchUpPeriods is
// caught up at once, a longer stall resynchronises (one period, then the next 20 ms later) instead of
// bursting.
TEST_CASE(
    "the null backend on test time: one period per 20 ms, catch-up within the limit, resync beyond it") {
  struct Counter final : AudioStreamSink {
    std::atomic<int> captures{0};
    void OnCapture(std::span<const int16_t>) noexcept override { ++captures; }
    void OnPlayback(std::span<int16_t> s) noexcept override { std::fill(s.begin(), s.end(), int16_t{0}); }
  } counter;
  NullAudioBackend backend(NullAudioBackend::ManualTime{});
  AudioStreamConfig config;
  config.periodFrames = kFrameSamplesPerChannel;  // 20 ms
  std::string error;
  REQUIRE(backend.Open(config, counter, error));
  using std::chrono::milliseconds;
  backend.AdvanceTestTime(milliseconds(19));
  CHECK(backend.Periods() == 0);  // one millisecond short of the first period
  backend.AdvanceTestTime(milliseconds(1));
  CHECK(backend.Periods() == 1);
  backend.AdvanceTestTime(milliseconds(20) * 4);
  CHECK(backend.Periods() == 5);
  // A lag of exactly the limit is caught up in one burst.
  backend.AdvanceTestTime(milliseconds(20) * NullAudioBackend::kMaxCatchUpPeriods);
  CHECK(backend.Periods() == 5 + NullAudioBackend::kMaxCatchUpPeriods);
  CHECK(counter.captures.load() == static_cast<int>(backend.Periods()));
  // Beyond it (a stall of two periods more): one period, then the device starts over from now.
  backend.AdvanceTestTime(milliseconds(20) * (NullAudioBackend::kMaxCatchUpPeriods + 2));
  CHECK(backend.Periods() == 6 + NullAudioBackend::kMaxCatchUpPeriods);
  backend.AdvanceTestTime(milliseconds(19));
  CHECK(backend.Periods() == 6 + NullAudioBackend::kMaxCatchUpPeriods);
  backend.AdvanceTestTime(milliseconds(1));
  CHECK(backend.Periods() == 7 + NullAudioBackend::kMaxCatchUpPeriods);
  backend.Close();
  CHECK_FALSE(backend.IsOpen());
}

TEST_CASE("an engine on the null backend delivers paced silent frames and plays into nothing") {
  AudioEngine engine(std::make_unique<NullAudioBackend>());
  CHECK(engine.Backend().Name() == "null");
  CHECK(engine.InputDevices().size() == 1);
  CHECK(engine.InputDevices()[0].isDefault);
  std::string error;
  REQUIRE(engine.Start(error));
  REQUIRE(engine.WritePlaybackFrame(Frame(300)));
  std::array<int16_t, kFrameSamples> frame{};
  frame.fill(1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  bool got = false;
  while (!(got = engine.ReadCaptureFrame(frame)) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(got);
  CHECK(frame == Frame(0));
  while (engine.PlaybackSamplesQueued() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK(engine.PlaybackSamplesQueued() == 0);  // consumed by the null device
  CHECK(engine.SetInputDevice(NullAudioBackend::kInputId, error));
  CHECK(engine.IsRunning());
  engine.Stop();
  CHECK_FALSE(engine.IsRunning());
}

namespace {

// Sets or clears an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      platformpp_test::SetEnv(name, value);
    } else {
      platformpp_test::UnsetEnv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      platformpp_test::SetEnv(name_, old_->c_str());
    } else {
      platformpp_test::UnsetEnv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("the null backend is chosen when asked for, explicitly or through PLATFORMPP_AUDIO=null") {
  {
    ScopedEnv env("PLATFORMPP_AUDIO", nullptr);
    CHECK(MakeAudioBackend(true)->Name() == "null");
  }
  ScopedEnv env("PLATFORMPP_AUDIO", "null");
  CHECK(MakeAudioBackend(false)->Name() == "null");
}

TEST_CASE("PortAudio enumeration, and the fallback to the null backend without sound devices") {
  ScopedEnv env("PLATFORMPP_AUDIO", nullptr);
  auto portAudio = PortAudioBackend::CreateAnyway();
  auto chosen = MakeAudioBackend(false);
  if (!portAudio) {
    MESSAGE("PortAudio does not initialise here");
    CHECK(chosen->Name() == "null");
    return;
  }
  const auto inputs = portAudio->InputDevices();
  const auto outputs = portAudio->OutputDevices();
  MESSAGE("PortAudio: " << inputs.size() << " input(s), " << outputs.size() << " output(s)");
  // Ids are unique per direction and the same on a second enumeration.
  for (const auto* list : {&inputs, &outputs}) {
    std::set<std::string> ids;
    int defaults = 0;
    for (const auto& d : *list) {
      CHECK(ids.insert(d.id).second);
      CHECK_FALSE(d.id.empty());
      defaults += d.isDefault ? 1 : 0;
    }
    CHECK(defaults <= 1);
  }
  CHECK(portAudio->InputDevices() == inputs);
  CHECK(portAudio->OutputDevices() == outputs);
  // Re-scanning with nothing open works and, with the same hardware, finds the same devices.
  CHECK_FALSE(portAudio->RefreshDevices());
  CHECK(portAudio->InputDevices() == inputs);
  // The automatic choice follows the defaults: no default device, no PortAudio.
  CHECK(chosen->Name() == (portAudio->HasDefaultDevices() ? "portaudio" : "null"));
  CHECK((PortAudioBackend::Create() != nullptr) == portAudio->HasDefaultDevices());
  // An unknown device is refused without opening anything.
  struct Silent final : AudioStreamSink {
    void OnCapture(std::span<const int16_t>) noexcept override {}
    void OnPlayback(std::span<int16_t> s) noexcept override { std::fill(s.begin(), s.end(), int16_t{0}); }
  } sink;
  AudioStreamConfig config;
  config.inputDeviceId = "no such host/no such device";
  std::string error;
  CHECK_FALSE(portAudio->Open(config, sink, error));
  CHECK(error == "unknown input device");
  CHECK_FALSE(portAudio->IsOpen());
}

TEST_CASE(
    "PortAudio runs a duplex stream through the sink and stops calling it on Close (ALSA null device)") {
  // ALSA's "null" PCM as the default device gives this test a device to open on a machine without sound. It
  // does not pace (callbacks come as fast as the thread runs), so only the plumbing is checked here; the
  // pacing of real devices is theirs.
  const std::filesystem::path alsaConf = "/usr/share/alsa/alsa.conf";
  if (!std::filesystem::exists(alsaConf)) {
    MESSAGE("no " << alsaConf << ": skipped");
    return;
  }
  const auto conf = std::filesystem::temp_directory_path() /
                    ("platformpp_asound_" + std::to_string(std::random_device{}()) + ".conf");
  {
    std::ofstream out(conf);
    out << "<" << alsaConf.string() << ">\npcm.!default { type null }\n";
  }
  ScopedEnv env("ALSA_CONFIG_PATH", conf.string().c_str());
  auto backend = PortAudioBackend::CreateAnyway();
  REQUIRE(backend);
  const auto inputs = backend->InputDevices();
  const auto it = std::find_if(inputs.begin(), inputs.end(), [](const auto& d) { return d.isDefault; });
  if (it == inputs.end() || it->id != "ALSA/default") {
    MESSAGE("no ALSA default device through PortAudio: skipped");
    std::filesystem::remove(conf);
    return;
  }
  CHECK(backend->HasDefaultDevices());

  struct Counter final : AudioStreamSink {
    std::atomic<int> captures{0};
    std::atomic<int> playbacks{0};
    std::atomic<bool> sizesRight{true};
    void OnCapture(std::span<const int16_t> s) noexcept override {
      if (s.size() != kDefaultDevicePeriodFrames * kChannels) sizesRight = false;
      ++captures;
    }
    void OnPlayback(std::span<int16_t> s) noexcept override {
      if (s.size() != kDefaultDevicePeriodFrames * kChannels) sizesRight = false;
      std::fill(s.begin(), s.end(), int16_t{0});
      ++playbacks;
    }
  } counter;
  std::string error;
  REQUIRE_MESSAGE(backend->Open(AudioStreamConfig{}, counter, error), error);
  CHECK(backend->IsOpen());
  std::string again;
  CHECK_FALSE(backend->Open(AudioStreamConfig{}, counter, again));  // one set of streams at a time
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while ((counter.captures.load() < 10 || counter.playbacks.load() < 10) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK_FALSE(backend->RefreshDevices());  // not while a stream is open
  backend->Close();
  CHECK_FALSE(backend->IsOpen());
  CHECK(counter.captures.load() >= 10);
  CHECK(counter.playbacks.load() >= 10);
  CHECK(counter.sizesRight.load());
  const int captures = counter.captures.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK(counter.captures.load() == captures);
  backend.reset();
  std::filesystem::remove(conf);
}

}  // namespace audio_engine_test
