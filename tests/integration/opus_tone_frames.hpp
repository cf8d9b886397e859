#pragma once
// A looped tone as Opus frames, one hex line per 20 ms frame, for the node peers of tests/interop that send
// audio (dave_peer.mjs): encoded by libopus here, so that the peer needs no codec of its own.

#include "voice/opus_codec.hpp"

#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>

namespace opus_tone_frames {

/// Writes 50 frames (1 s) of a `hz` tone, after 10 frames of encoder warm-up, to a temporary file named after
/// `tag` and the process; returns its path. With a whole number of cycles per second it loops without a seam.
inline std::filesystem::path Write(const std::string& tag, int hz) {
  namespace voice = platformpp::voice;
  auto path = std::filesystem::temp_directory_path() /
              ("platformpp-" + tag + "-" + std::to_string(getpid()) + ".hex");
  voice::OpusFrameEncoder encoder;
  std::ofstream out(path);
  std::array<int16_t, voice::kOpusFrameSamples> pcm{};
  std::array<uint8_t, 1275> packet{};
  for (int f = 0; f < 60; ++f) {
    for (int i = 0; i < voice::kOpusFrameSamplesPerChannel; ++i) {
      const double t = static_cast<double>(f * voice::kOpusFrameSamplesPerChannel + i) / 48000.0;
      const auto s = static_cast<int16_t>(8000 * std::sin(2 * std::numbers::pi * hz * t));
      pcm[2 * static_cast<std::size_t>(i)] = pcm[2 * static_cast<std::size_t>(i) + 1] = s;
    }
    const int n = encoder.Encode(pcm, packet);
    if (n <= 0) throw std::runtime_error("opus_tone_frames: the encoder failed");
    if (f < 10) continue;
    char hex[3];
    for (int b = 0; b < n; ++b) {
      std::snprintf(hex, sizeof hex, "%02x", packet[static_cast<std::size_t>(b)]);
      out << hex;
    }
    out << '\n';
  }
  return path;
}

}  // namespace opus_tone_frames
