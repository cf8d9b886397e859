#include "audio/audio_processing.hpp"

#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <system_error>

namespace platformpp::audio {

namespace {

void PutLe16(unsigned char* p, uint16_t v) {
  p[0] = static_cast<unsigned char>(v & 0xFF);
  p[1] = static_cast<unsigned char>(v >> 8);
}

void PutLe32(unsigned char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<unsigned char>((v >> (8 * i)) & 0xFF);
}

// The canonical 44-byte header of a PCM WAV file with `samples` mono 16-bit samples.
std::array<unsigned char, 44> WavHeader(uint32_t samples) {
  std::array<unsigned char, 44> h{};
  const uint32_t dataBytes = samples * 2;
  std::copy_n("RIFF", 4, h.begin());
  PutLe32(&h[4], 36 + dataBytes);
  std::copy_n("WAVEfmt ", 8, h.begin() + 8);
  PutLe32(&h[16], 16);
  PutLe16(&h[20], 1);  // PCM
  PutLe16(&h[22], 1);  // mono
  PutLe32(&h[24], kSampleRate);
  PutLe32(&h[28], kSampleRate * 2);
  PutLe16(&h[32], 2);
  PutLe16(&h[34], 16);
  std::copy_n("data", 4, h.begin() + 36);
  PutLe32(&h[40], dataBytes);
  return h;
}

double Energy(std::span<const int16_t> samples) {
  double sum = 0;
  for (int16_t s : samples)
    sum += static_cast<double>(s) * s;
  return sum;
}

void Downmix(std::span<const int16_t, kFrameSamples> stereo,
             std::span<int16_t, kFrameSamplesPerChannel> mono) {
  for (std::size_t i = 0; i < kFrameSamplesPerChannel; ++i) {
    mono[i] = static_cast<int16_t>((static_cast<int>(stereo[2 * i]) + stereo[2 * i + 1]) / 2);
  }
}

// Far-end frames quieter than this (-60 dBFS RMS) do not count for the ERLE: there is no echo to remove.
constexpr double kFarActiveEnergy = 32768.0 * 32768.0 * 1e-6 * kFrameSamplesPerChannel;

// fopen of a path as the system spells it: UTF-16 on Windows, where narrow names use the ANSI code page.
std::FILE* OpenFile(const std::filesystem::path& path, const char* mode) {
#ifdef _WIN32
  std::wstring wideMode(mode, mode + std::char_traits<char>::length(mode));
  return ::_wfopen(path.c_str(), wideMode.c_str());
#else
  return std::fopen(path.c_str(), mode);
#endif
}

}  // namespace

bool WavWriter::Open(const std::filesystem::path& path) {
  Close();
  file_ = OpenFile(path, "wb");
  if (file_ == nullptr) return false;
  samples_ = 0;
  const auto header = WavHeader(0);
  std::fwrite(header.data(), 1, header.size(), file_);
  return true;
}

void WavWriter::Write(std::span<const int16_t> samples) noexcept {
  if (file_ == nullptr) return;
  while (!samples.empty()) {
    const std::size_t n = std::min(samples.size(), bytes_.size() / 2);
    for (std::size_t i = 0; i < n; ++i)
      PutLe16(&bytes_[2 * i], static_cast<uint16_t>(samples[i]));
    samples_ += static_cast<uint32_t>(std::fwrite(bytes_.data(), 2, n, file_));
    samples = samples.subspan(n);
  }
}

void WavWriter::Close() noexcept {
  if (file_ == nullptr) return;
  const auto header = WavHeader(samples_);
  if (std::fseek(file_, 0, SEEK_SET) == 0) std::fwrite(header.data(), 1, header.size(), file_);
  std::fclose(file_);
  file_ = nullptr;
}

AudioProcessor::AudioProcessor(AudioProcessingOptions options) : options_(options) {
  // 10 ms blocks: the preprocessor's overlap-add delays its output by one block, so a 20 ms block would add
  // 20 ms of latency to every call; two 10 ms blocks per frame halve that.
  const int frame = static_cast<int>(kProcessingBlockSamples);
  echo_ = speex_echo_state_init(frame, kSampleRate * options_.echoTailMs / 1000);
  int rate = kSampleRate;
  speex_echo_ctl(echo_, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
  preprocess_ = speex_preprocess_state_init(frame, kSampleRate);
  int on = 1;
  int suppress = options_.noiseSuppressDb;
  float level = options_.agcLevel;
  speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_DENOISE, &on);
  speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &suppress);
  speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_AGC, &on);
  speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_AGC_LEVEL, &level);
  speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_ECHO_STATE, echo_);
}

AudioProcessor::~AudioProcessor() {
  StopAecDump();
  speex_preprocess_state_destroy(preprocess_);
  speex_echo_state_destroy(echo_);
}

void AudioProcessor::ApplySwitches() noexcept {
  const bool aec = aec_.load(std::memory_order_relaxed);
  const bool ns = ns_.load(std::memory_order_relaxed);
  const bool agc = agc_.load(std::memory_order_relaxed);
  if (aec != aecApplied_) {
    // A canceller switched back on restarts from scratch: the echo path may have changed meanwhile.
    if (aec) speex_echo_state_reset(echo_);
    speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_ECHO_STATE, aec ? echo_ : nullptr);
    aecApplied_ = aec;
  }
  if (ns != nsApplied_) {
    int v = ns ? 1 : 0;
    speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_DENOISE, &v);
    nsApplied_ = ns;
  }
  if (agc != agcApplied_) {
    int v = agc ? 1 : 0;
    speex_preprocess_ctl(preprocess_, SPEEX_PREPROCESS_SET_AGC, &v);
    agcApplied_ = agc;
  }
}

void AudioProcessor::FeedFarEnd(std::span<const int16_t, kFrameSamples> playback) noexcept {
  if (farCount_ == kFarEndQueueFrames) {  // the capture side stalled: keep the newest
    farHead_ = (farHead_ + 1) % kFarEndQueueFrames;
    --farCount_;
  }
  Downmix(playback, farQueue_[(farHead_ + farCount_) % kFarEndQueueFrames]);
  ++farCount_;
}

void AudioProcessor::ProcessCapture(std::span<const int16_t, kFrameSamples> in,
                                    std::span<int16_t, kFrameSamples> out) noexcept {
  ApplySwitches();
  Downmix(in, near_);
  if (farCount_ > 0) {
    far_ = farQueue_[farHead_];
    farHead_ = (farHead_ + 1) % kFarEndQueueFrames;
    --farCount_;
  } else {
    far_.fill(0);  // nothing played: no echo reference
  }

  const bool farActive = Energy(far_) >= kFarActiveEnergy;
  if (!aecApplied_ && !nsApplied_ && !agcApplied_) {
    if (in.data() != out.data()) std::copy(in.begin(), in.end(), out.begin());
    cancelled_ = near_;
  } else {
    if (aecApplied_) {
      for (std::size_t at = 0; at < kFrameSamplesPerChannel; at += kProcessingBlockSamples)
        speex_echo_cancellation(echo_, near_.data() + at, far_.data() + at, cancelled_.data() + at);
    } else {
      cancelled_ = near_;
    }
    if (dumping_ && aecApplied_ && farActive) {
      nearEnergy_ += Energy(near_);
      cancelledEnergy_ += Energy(cancelled_);
      ++dumpAecFrames_;
    }
    MonoFrame& result = cancelled_;  // processed in place from here on
    if (nsApplied_ || agcApplied_) {
      for (std::size_t at = 0; at < kFrameSamplesPerChannel; at += kProcessingBlockSamples)
        speex_preprocess_run(preprocess_, result.data() + at);
    }
    for (std::size_t i = 0; i < kFrameSamplesPerChannel; ++i)
      out[2 * i] = out[2 * i + 1] = result[i];
  }

  if (dumping_) {
    farWav_.Write(far_);
    nearWav_.Write(near_);
    MonoFrame processed;
    Downmix(out, processed);
    processedWav_.Write(processed);
    ++dumpFrames_;
    if (farActive) ++dumpFarActiveFrames_;
  }
}

bool AudioProcessor::StartAecDump(const std::filesystem::path& directory, std::string& error) {
  StopAecDump();
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) {
    error = "cannot create the AEC dump directory: " + ec.message();
    return false;
  }
  if (!farWav_.Open(directory / kFarEndFile) || !nearWav_.Open(directory / kNearEndFile) ||
      !processedWav_.Open(directory / kProcessedFile)) {
    farWav_.Close();
    nearWav_.Close();
    processedWav_.Close();
    error = "cannot create the AEC dump files";
    return false;
  }
  dumpDirectory_ = directory;
  dumpFrames_ = dumpFarActiveFrames_ = dumpAecFrames_ = 0;
  nearEnergy_ = cancelledEnergy_ = 0;
  dumping_ = true;
  return true;
}

void AudioProcessor::StopAecDump() noexcept {
  if (!dumping_) return;
  dumping_ = false;
  farWav_.Close();
  nearWav_.Close();
  processedWav_.Close();
  // ERLE: null when there was nothing to measure (no far end, or the canceller off).
  char erle[32] = "null";
  if (dumpAecFrames_ > 0 && nearEnergy_ > 0) {
    std::snprintf(erle, sizeof erle, "%.2f",
                  10.0 * std::log10(nearEnergy_ / std::max(cancelledEnergy_, 1.0)));
  }
  std::FILE* summary = OpenFile(dumpDirectory_ / kSummaryFile, "wb");
  if (summary == nullptr) return;
  std::fprintf(summary,
               "{\"sample_rate\": %d, \"channels\": 1, \"frame_samples\": %zu, \"frames\": %llu, "
               "\"far_end_active_frames\": %llu, \"aec_frames\": %llu, \"erle_db\": %s, "
               "\"files\": [\"%s\", \"%s\", \"%s\"]}\n",
               kSampleRate, kFrameSamplesPerChannel, static_cast<unsigned long long>(dumpFrames_),
               static_cast<unsigned long long>(dumpFarActiveFrames_),
               static_cast<unsigned long long>(dumpAecFrames_), erle, kFarEndFile, kNearEndFile,
               kProcessedFile);
  std::fclose(summary);
}

}  // namespace platformpp::audio
