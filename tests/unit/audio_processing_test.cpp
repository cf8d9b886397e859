// Microphone processing (src/audio/audio_processing.hpp, speexdsp): the echo canceller removes a synthetic
// echo, noise suppression lowers stationary noise, AGC raises a quiet talker, every switch off is a bit-exact
// passthrough, and the AEC dump writes WAV files of the right length and a summary.
#include "audio/audio_processing.hpp"

#include <doctest/doctest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#ifdef _WIN32
// <windows.h> (Asio's, in a unity batch) defines `near` and `far` as nothing; this file names variables so.
#undef near
#undef far
#endif

namespace audio_processing_test {

using namespace platformpp::audio;

namespace {

using Frame = std::array<int16_t, kFrameSamples>;
constexpr std::size_t kFramesPerSecond = 50;

int16_t Clip(double v) {
  return static_cast<int16_t>(std::lround(std::clamp(v, -32768.0, 32767.0)));
}

// Mono signal -> stereo frames (both channels equal).
std::vector<Frame> ToFrames(const std::vector<double>& mono) {
  std::vector<Frame> frames(mono.size() / kFrameSamplesPerChannel);
  for (std::size_t f = 0; f < frames.size(); ++f) {
    for (std::size_t i = 0; i < kFrameSamplesPerChannel; ++i) {
      frames[f][2 * i] = frames[f][2 * i + 1] = Clip(mono[f * kFrameSamplesPerChannel + i]);
    }
  }
  return frames;
}

std::vector<double> Noise(std::size_t n, double sd, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist(0.0, sd);
  std::vector<double> out(n);
  for (auto& v : out)
    v = dist(rng);
  return out;
}

double EnergyDb(const std::vector<Frame>& frames, std::size_t from, std::size_t to) {
  double sum = 0;
  for (std::size_t f = from; f < to; ++f) {
    for (int16_t s : frames[f])
      sum += static_cast<double>(s) * s;
  }
  return 10.0 * std::log10(sum / static_cast<double>((to - from) * kFrameSamples) + 1e-9);
}

void Only(AudioProcessor& p, bool aec, bool ns, bool agc) {
  p.SetEchoCancellation(aec);
  p.SetNoiseSuppression(ns);
  p.SetAutomaticGainControl(agc);
}

// Runs `near` through the processor with `far` as the echo reference, one frame each.
std::vector<Frame> Run(AudioProcessor& p, const std::vector<Frame>& near, const std::vector<Frame>* far) {
  std::vector<Frame> out(near.size());
  for (std::size_t f = 0; f < near.size(); ++f) {
    if (far != nullptr) p.FeedFarEnd((*far)[f]);
    p.ProcessCapture(near[f], out[f]);
  }
  return out;
}

// Far-end noise, and at the microphone its echo through a short room response: 4 ms direct path, two
// reflections, a little sensor noise.
struct EchoScene {
  std::vector<Frame> far;
  std::vector<Frame> near;
  explicit EchoScene(std::size_t seconds) {
    const std::size_t n = seconds * kSampleRate;
    const auto farSignal = Noise(n, 3000, 1);
    const auto sensor = Noise(n, 5, 2);
    const std::array<std::pair<std::size_t, double>, 3> taps{{{192, 0.5}, {480, -0.25}, {1100, 0.1}}};
    std::vector<double> nearSignal(n);
    for (std::size_t i = 0; i < n; ++i) {
      double v = sensor[i];
      for (auto [delay, gain] : taps) {
        if (i >= delay) v += gain * farSignal[i - delay];
      }
      nearSignal[i] = v;
    }
    far = ToFrames(farSignal);
    near = ToFrames(nearSignal);
  }
};

}  // namespace

TEST_CASE("the echo canceller removes a synthetic echo") {
  EchoScene scene(8);
  AudioProcessor p;
  Only(p, true, false, false);
  const auto out = Run(p, scene.near, &scene.far);
  const std::size_t end = scene.near.size();
  const double before = EnergyDb(scene.near, end - 2 * kFramesPerSecond, end);
  const double after = EnergyDb(out, end - 2 * kFramesPerSecond, end);
  MESSAGE("echo " << before << " dB, after the canceller " << after << " dB");
  CHECK(after <= before - 20.0);
}

TEST_CASE("without the canceller the echo passes") {
  EchoScene scene(2);
  AudioProcessor p;
  Only(p, false, false, false);
  const auto out = Run(p, scene.near, &scene.far);
  CHECK(out == scene.near);
}

TEST_CASE("noise suppression lowers stationary noise") {
  const auto noise = ToFrames(Noise(std::size_t{4} * kSampleRate, 1000, 3));  // about -30 dBFS
  AudioProcessor p;
  Only(p, false, true, false);
  const auto out = Run(p, noise, nullptr);
  const std::size_t end = noise.size();
  const double before = EnergyDb(noise, end - kFramesPerSecond, end);
  const double after = EnergyDb(out, end - kFramesPerSecond, end);
  MESSAGE("noise " << before << " dB, suppressed " << after << " dB");
  CHECK(after <= before - 10.0);
}

TEST_CASE("automatic gain control raises a quiet talker") {
  // Voiced bursts (a 150 Hz harmonic series) of 200 ms every 300 ms, about -45 dBFS while on.
  const std::size_t n = std::size_t{8} * kSampleRate;
  const auto floor = Noise(n, 2, 4);
  std::vector<double> talk(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / kSampleRate;
    const bool on = std::fmod(t, 0.3) < 0.2;
    double v = 0;
    for (int h = 1; h <= 8; ++h)
      v += std::sin(2 * std::numbers::pi * 150 * h * t) / h;
    talk[i] = (on ? 60.0 * v : 0.0) + floor[i];
  }
  const auto quiet = ToFrames(talk);
  AudioProcessor p;
  Only(p, false, false, true);
  const auto out = Run(p, quiet, nullptr);
  const std::size_t end = quiet.size();
  const double before = EnergyDb(quiet, end - 2 * kFramesPerSecond, end);
  const double after = EnergyDb(out, end - 2 * kFramesPerSecond, end);
  MESSAGE("talker " << before << " dB, after AGC " << after << " dB");
  CHECK(after >= before + 10.0);
}

TEST_CASE("with every switch off the frame passes bit-exact, and each switch takes effect at run time") {
  // Different left and right channels: the passthrough keeps stereo as it is.
  const auto left = Noise(kSampleRate, 2000, 5);
  const auto right = Noise(kSampleRate, 500, 6);
  std::vector<Frame> in(kFramesPerSecond);
  for (std::size_t f = 0; f < in.size(); ++f) {
    for (std::size_t i = 0; i < kFrameSamplesPerChannel; ++i) {
      in[f][2 * i] = Clip(left[f * kFrameSamplesPerChannel + i]);
      in[f][2 * i + 1] = Clip(right[f * kFrameSamplesPerChannel + i]);
    }
  }
  const auto far = ToFrames(Noise(kSampleRate, 3000, 7));
  AudioProcessor p;
  CHECK(p.EchoCancellation());  // all on by default
  CHECK(p.NoiseSuppression());
  CHECK(p.AutomaticGainControl());
  for (int which = 0; which < 3; ++which) {
    CAPTURE(which);
    Only(p, which == 0, which == 1, which == 2);
    CHECK(Run(p, in, &far) != in);  // on: the signal is processed
    Only(p, false, false, false);
    CHECK(Run(p, in, &far) == in);  // off again: untouched
  }
  // In place works too.
  auto copy = in;
  for (auto& frame : copy)
    p.ProcessCapture(frame, frame);
  CHECK(copy == in);
}

namespace {

struct Wav {
  std::string riff, wave, fmt, data;
  uint16_t format = 0, channels = 0, bits = 0;
  uint32_t rate = 0, riffSize = 0, dataSize = 0;
  std::size_t fileSize = 0;
};

uint32_t Le(const std::string& s, std::size_t at, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

Wav ReadWav(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  Wav wav;
  wav.fileSize = bytes.size();
  REQUIRE(bytes.size() >= 44);
  wav.riff = bytes.substr(0, 4);
  wav.riffSize = Le(bytes, 4, 4);
  wav.wave = bytes.substr(8, 4);
  wav.fmt = bytes.substr(12, 4);
  wav.format = static_cast<uint16_t>(Le(bytes, 20, 2));
  wav.channels = static_cast<uint16_t>(Le(bytes, 22, 2));
  wav.rate = Le(bytes, 24, 4);
  wav.bits = static_cast<uint16_t>(Le(bytes, 34, 2));
  wav.data = bytes.substr(36, 4);
  wav.dataSize = Le(bytes, 40, 4);
  return wav;
}

}  // namespace

TEST_CASE("the AEC dump writes three WAV files of the processed length and a summary") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("platformpp_aec_dump_" + std::to_string(std::random_device{}()));
  EchoScene scene(3);
  AudioProcessor p;
  std::string error;
  REQUIRE(p.StartAecDump(dir, error));
  CHECK(p.AecDumpActive());
  Run(p, scene.near, &scene.far);
  p.StopAecDump();
  CHECK_FALSE(p.AecDumpActive());
  Run(p, scene.near, &scene.far);  // after Stop nothing more is written

  const uint32_t frames = static_cast<uint32_t>(scene.near.size());
  for (const char* name :
       {AudioProcessor::kFarEndFile, AudioProcessor::kNearEndFile, AudioProcessor::kProcessedFile}) {
    CAPTURE(name);
    const Wav wav = ReadWav(dir / name);
    CHECK(wav.riff == "RIFF");
    CHECK(wav.wave == "WAVE");
    CHECK(wav.fmt == "fmt ");
    CHECK(wav.format == 1);
    CHECK(wav.channels == 1);
    CHECK(wav.rate == 48000);
    CHECK(wav.bits == 16);
    CHECK(wav.data == "data");
    CHECK(wav.dataSize == frames * kFrameSamplesPerChannel * 2);
    CHECK(wav.riffSize == 36 + wav.dataSize);
    CHECK(wav.fileSize == 44 + wav.dataSize);
  }

  std::ifstream file(dir / AudioProcessor::kSummaryFile);
  std::string json((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  file.close();  // Windows cannot remove a directory while a file in it is open
  rapidjson::Document summary;
  summary.Parse(json.c_str());
  REQUIRE_FALSE(summary.HasParseError());
  CHECK(summary["frames"].GetUint() == frames);
  CHECK(summary["far_end_active_frames"].GetUint() == frames);
  CHECK(summary["aec_frames"].GetUint() == frames);
  CHECK(summary["sample_rate"].GetInt() == 48000);
  REQUIRE(summary["erle_db"].IsNumber());
  CHECK(summary["erle_db"].GetDouble() > 6.0);  // the canceller did remove echo over the dump
  std::filesystem::remove_all(dir);
}

TEST_CASE("the AEC dump refuses a directory it cannot create") {
  AudioProcessor p;
  std::string error;
  CHECK_FALSE(p.StartAecDump("/proc/platformpp_no_such_dir/dump", error));
  CHECK_FALSE(error.empty());
  CHECK_FALSE(p.AecDumpActive());
}

}  // namespace audio_processing_test
