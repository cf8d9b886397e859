#include "voice/voice_engine.hpp"

#include "core/completion.hpp"
#include "voice/receive_pipeline.hpp"
#include "voice/send_pipeline.hpp"
#include "voice/voice_udp_socket.hpp"

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <unordered_map>

namespace platformpp::voice {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kFrame = std::chrono::milliseconds(20);
// Without a capture frame for this long (no device, or a stalled one), the thread makes its own 20 ms ticks.
constexpr auto kCaptureStall = std::chrono::milliseconds(60);
// How long the thread sleeps between looks at the capture ring and the sockets.
constexpr auto kPollSlice = std::chrono::milliseconds(4);
constexpr auto kDeviceRefreshInterval = std::chrono::seconds(2);

AudioDevice ToPublic(const audio::AudioDeviceInfo& info) {
  return AudioDevice(info.id, info.name, info.isDefault);
}

std::vector<AudioDevice> ToPublic(const std::vector<audio::AudioDeviceInfo>& list) {
  std::vector<AudioDevice> devices;
  devices.reserve(list.size());
  for (const auto& info : list)
    devices.push_back(ToPublic(info));
  return devices;
}

AudioMode GateMode(AudioModeType mode) {
  return mode == AudioModeType::PTT ? AudioMode::PTT : AudioMode::VAD;
}

void MixInto(std::span<int16_t, audio::kFrameSamples> out,
             std::span<const int16_t, audio::kFrameSamples> in) {
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<int16_t>(std::clamp<int32_t>(int32_t{out[i]} + in[i], INT16_MIN, INT16_MAX));
}

void AddCounters(dave::DaveFrameEncryptor::Counters& into, const dave::DaveFrameEncryptor::Counters& from) {
  into.encrypted += from.encrypted;
  into.passedThrough += from.passedThrough;
  into.withheld += from.withheld;
  into.failed += from.failed;
}

void AddCounters(dave::DaveFrameDecryptor::Counters& into, const dave::DaveFrameDecryptor::Counters& from) {
  into.decrypted += from.decrypted;
  into.passedThrough += from.passedThrough;
  into.drops.notEncrypted += from.drops.notEncrypted;
  into.drops.malformed += from.drops.malformed;
  into.drops.unknownSender += from.drops.unknownSender;
  into.drops.replayed += from.drops.replayed;
  into.drops.tooFarAhead += from.drops.tooFarAhead;
  into.drops.expired += from.drops.expired;
  into.drops.authentication += from.drops.authentication;
}

}  // namespace

struct CallMedia {
  uint64_t id = 0;
  uint32_t ssrc = 0;
  MediaEvents events;
  VoiceUdpSocket socket;
  bool connected = false;
  std::unique_ptr<SendPipeline> send;
  std::unique_ptr<ReceivePipeline> receive;
  // DAVE, between codec and RTP; new with each media start (a new voice session starts a new DAVE session).
  std::unique_ptr<dave::DaveFrameEncryptor> daveSend;
  std::unique_ptr<dave::DaveFrameDecryptor> daveReceive;
  UserAudioReceivedCallback received;
  UserAudioCapturedCallback captured;
  TransmitSettings transmit;
  // Kept here so that a receive pipeline created later starts with them.
  std::unordered_map<uint32_t, uint64_t> ssrcUsers;
  std::unordered_map<uint64_t, bool> localMutes;
  std::unordered_map<uint64_t, int> volumes;
  std::array<uint8_t, SendPipeline::kMaxDatagramSize> datagram{};
  std::array<uint8_t, ReceivePipeline::kMaxDatagramSize> incoming{};
  std::array<int16_t, audio::kFrameSamples> mix{};
  MediaCounters counters;  // the call's totals: `carried` and what the current pipelines counted
  MediaCounters carried;   // what the pipelines of earlier voice sessions counted

  void RefreshCounters() {
    counters = carried;
    if (send) {
      const auto& sent = send->GetCounters();
      counters.framesSent += sent.framesSent;
      counters.silenceFramesSent += sent.silenceFramesSent;
    }
    if (receive) {
      const auto& got = receive->GetCounters();
      counters.packetsReceived += got.packetsReceived;
      counters.packetsAccepted += got.accepted;
      counters.tampered += got.tampered;
      counters.replayed += got.replayed;
      counters.malformed += got.malformed;
      counters.lost += got.lost;
      counters.concealed += got.concealed;
      counters.framesDecoded += got.framesDecoded;
    }
    if (daveSend) AddCounters(counters.e2eeSend, daveSend->GetCounters());
    if (daveReceive) AddCounters(counters.e2eeReceive, daveReceive->GetCounters());
  }
  // Before a new voice session replaces the pipelines: the call's statistics span all of its sessions.
  void CarryCounters() {
    RefreshCounters();
    carried = counters;
  }

  void ApplyTransmit() {
    if (!send) return;
    TransmitGate& gate = send->Gate();
    gate.SetSelfMute(transmit.selfMute || transmit.selfDeaf);
    gate.SetAudioMode(GateMode(transmit.mode));
    gate.SetPttReleaseDelayMs(transmit.pttReleaseDelayMs);
    gate.SetPttActive(transmit.pttActive);
    gate.Vad().SetThreshold(transmit.vadAutomatic, transmit.vadThresholdDb);
  }

  void InstallReceiveCallback() {
    if (!receive) return;
    if (!received) {
      receive->SetUserAudioCallback({});
      return;
    }
    receive->SetUserAudioCallback([cb = received](uint64_t userId, int16_t* pcm, int samplesPerChannel,
                                                  int sampleRate, int channels, bool& mute) {
      cb(userId, pcm, static_cast<uint64_t>(samplesPerChannel), sampleRate, static_cast<uint64_t>(channels),
         mute);
    });
  }
};

struct VoiceEngine::State {
  std::unique_ptr<audio::AudioEngine> audio;
  audio::AudioProcessor processor;
  std::vector<std::unique_ptr<CallMedia>> calls;
  std::array<int16_t, audio::kFrameSamples> capture{};
  std::array<int16_t, audio::kFrameSamples> output{};
  bool deviceChangeWanted = false;  // a device change callback is registered: poll the devices
  bool noInputWanted = false;
  uint64_t noInputChangesSeen = 0;
  float noInputThreshold = -100.0f;
  Clock::time_point lastFrame{};
  Clock::time_point nextDeviceRefresh{};
  std::string inputDevice, outputDevice;  // empty: the system default

  CallMedia* Find(uint64_t id) {
    for (auto& call : calls)
      if (call->id == id) return call.get();
    return nullptr;
  }
  bool AnyMediaFlowing() const {
    return std::any_of(calls.begin(), calls.end(), [](const auto& call) { return call->send != nullptr; });
  }
};

VoiceEngine::VoiceEngine(core::Runtime& runtime) : runtime_(runtime) {}

VoiceEngine::~VoiceEngine() {
  Stop();
}

void VoiceEngine::Stop() {
  {
    std::lock_guard lock(commandsMutex_);
    if (stopped_) return;
    stopped_ = true;
    stopping_.store(true);
  }
  if (thread_.joinable()) thread_.join();
  commands_.clear();
}

void VoiceEngine::EnsureThread() {
  // commandsMutex_ held.
  if (thread_.joinable() || stopped_) return;
  state_ = std::make_unique<State>();
  thread_ = std::thread([this] { Run(); });
}

bool VoiceEngine::Post(Command command) {
  std::lock_guard lock(commandsMutex_);
  if (stopped_) return false;
  EnsureThread();
  commands_.push_back(std::move(command));
  return true;
}

// --- the voice thread
// ---------------------------------------------------------------------------------------

void VoiceEngine::Run() {
  State& state = *state_;
  std::vector<Command> batch;
  batch.reserve(64);
  core::Logger& log = runtime_.VoiceLog();

  const auto startOrStopAudio = [&] {
    const bool want = state.AnyMediaFlowing();
    if (!want && !state.audio) return;
    audio::AudioEngine& engine = EnsureAudio(state);
    if (want && !engine.IsRunning()) {
      std::string error;
      if (!engine.Start(error)) log.Warning("voice: audio devices failed to open: " + error);
      state.lastFrame = Clock::now();
    } else if (!want && engine.IsRunning()) {
      engine.Stop();
    }
  };

  // One 20 ms frame: capture -> callbacks -> processing -> every call's send; every call's playout -> mix.
  const auto processFrame = [&](bool fromDevice, Clock::time_point now) {
    auto capture = std::span<int16_t, audio::kFrameSamples>(state.capture);
    if (!fromDevice) std::fill(state.capture.begin(), state.capture.end(), int16_t{0});
    for (auto& call : state.calls)
      if (call->send && call->captured)
        call->captured(state.capture.data(), audio::kFrameSamplesPerChannel, audio::kSampleRate,
                       audio::kChannels);
    state.processor.SetEchoCancellation(aec_.load(std::memory_order_relaxed));
    state.processor.SetNoiseSuppression(ns_.load(std::memory_order_relaxed));
    state.processor.SetAutomaticGainControl(agc_.load(std::memory_order_relaxed));
    state.processor.ProcessCapture(capture, capture);

    std::fill(state.output.begin(), state.output.end(), int16_t{0});
    const uint64_t nowMs = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
    for (auto& call : state.calls) {
      if (!call->send) continue;
      const auto result = call->send->ProcessFrame(capture, call->datagram);
      if (result.speakingStarted && call->events.speakingChanged) call->events.speakingChanged(true);
      if (result.size > 0) call->socket.Send(std::span<const uint8_t>(call->datagram.data(), result.size));
      if (result.speakingStopped && call->events.speakingChanged) call->events.speakingChanged(false);
      call->socket.MaybeSendKeepalive(now);

      call->receive->PlayoutTick(nowMs, call->mix);
      if (!call->transmit.selfDeaf) MixInto(state.output, call->mix);

      call->RefreshCounters();
    }
    if (state.audio && state.audio->IsRunning()) {
      state.audio->WritePlaybackFrame(state.output);
      state.processor.FeedFarEnd(state.output);
    }
  };

  const auto publishCounters = [&] {
    std::unique_lock lock(countersMutex_, std::try_to_lock);
    if (!lock) return;
    counters_.resize(state.calls.size());
    for (std::size_t i = 0; i < state.calls.size(); ++i)
      counters_[i] = {state.calls[i]->id, state.calls[i]->counters};
  };

  const auto receiveAll = [&](Clock::time_point now) {
    const uint64_t nowMs = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count());
    for (auto& call : state.calls) {
      if (!call->connected) continue;
      for (int i = 0; i < 64; ++i) {  // bounded: a flood cannot starve the capture side
        const auto got = call->socket.Receive(call->incoming);
        if (got.status != VoiceUdpSocket::ReceiveStatus::Packet) break;
        if (call->receive)
          call->receive->OnDatagram(std::span<const uint8_t>(call->incoming.data(), got.size), nowMs);
      }
    }
  };

  while (!stopping_.load(std::memory_order_acquire)) {
    {
      std::unique_lock lock(commandsMutex_, std::try_to_lock);
      if (lock) batch.swap(commands_);
    }
    if (!batch.empty()) {
      for (Command& command : batch)
        command(state);
      batch.clear();
      startOrStopAudio();
    }

    const auto now = Clock::now();
    if (!state.AnyMediaFlowing()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }

    receiveAll(now);
    bool processed = false;
    if (state.audio && state.audio->IsRunning()) {
      // The device's clock paces the frames.
      for (int i = 0; i < 4 && state.audio->ReadCaptureFrame(state.capture); ++i) {
        processFrame(true, Clock::now());
        state.lastFrame = Clock::now();
        processed = true;
      }
    }
    if (!processed && now - state.lastFrame >= kCaptureStall) {
      // No device frames: keep the calls going with silence at the frame rate.
      processFrame(false, now);
      state.lastFrame = now - kCaptureStall + kFrame;
      processed = true;
    }
    if (processed) publishCounters();

    if (state.audio && state.noInputWanted) {
      const uint64_t changes = state.audio->NoInputState().Changes();
      if (changes != state.noInputChangesSeen) {
        state.noInputChangesSeen = changes;
        const bool detected = !state.audio->NoInputState().NoInput();
        noInputCallback_.Post(runtime_.Queue(), detected);
      }
    }
    if (state.audio && state.deviceChangeWanted && now >= state.nextDeviceRefresh) {
      state.nextDeviceRefresh = now + kDeviceRefreshInterval;
      if (state.audio->RefreshDevices()) {
        deviceChangeCallback_.Post(runtime_.Queue(), ToPublic(state.audio->InputDevices()),
                                   ToPublic(state.audio->OutputDevices()));
      }
    }

    // Sleep until a datagram arrives or the next look at the capture ring is due.
    if (state.calls.size() == 1 && state.calls[0]->connected) {
      state.calls[0]->socket.Poll(std::chrono::duration_cast<std::chrono::microseconds>(kPollSlice));
    } else {
      std::this_thread::sleep_for(kPollSlice);
    }
  }

  // Shutdown on this thread: PortAudio streams are closed by the thread that opened them.
  if (state.processor.AecDumpActive()) state.processor.StopAecDump();
  if (state.audio) state.audio->Stop();
  state.calls.clear();
  state.audio.reset();
}

// --- commands ---------------------------------------------------------------------------------------------

void VoiceEngine::OpenMedia(uint64_t callId, std::string ip, uint16_t port, uint32_t ssrc,
                            MediaEvents events) {
  Post([this, callId, ip = std::move(ip), port, ssrc, events = std::move(events)](State& state) mutable {
    CallMedia* call = state.Find(callId);
    if (!call) {
      state.calls.push_back(std::make_unique<CallMedia>());
      call = state.calls.back().get();
      call->id = callId;
    }
    call->ssrc = ssrc;
    call->events = std::move(events);
    std::string error;
    std::optional<media_wire::DiscoveredAddress> address;
    if (call->socket.Connect(ip, port, &error)) address = call->socket.DiscoverAddress(ssrc, {}, &error);
    call->connected = address.has_value();
    if (!address) runtime_.VoiceLog().Warning("voice: media connection failed: " + error);
    if (call->events.discovered) call->events.discovered(std::move(address), error);
  });
}

void VoiceEngine::StartMedia(uint64_t callId, media_wire::TransportMode mode,
                             const media_wire::TransportKey& key) {
  Post([callId, mode, key](State& state) {
    CallMedia* call = state.Find(callId);
    if (!call || !call->connected) return;
    call->CarryCounters();
    call->send = std::make_unique<SendPipeline>(call->ssrc, mode, key);
    call->receive = std::make_unique<ReceivePipeline>(mode, key);
    call->daveSend = std::make_unique<dave::DaveFrameEncryptor>();
    call->daveReceive = std::make_unique<dave::DaveFrameDecryptor>();
    call->send->SetFrameEncryptor(call->daveSend.get());
    call->receive->SetFrameDecryptor(call->daveReceive.get());
    for (const auto& [ssrc, user] : call->ssrcUsers)
      call->receive->MapSsrc(ssrc, user);
    for (const auto& [user, mute] : call->localMutes)
      call->receive->SetLocalMute(user, mute);
    for (const auto& [user, volume] : call->volumes)
      call->receive->SetUserVolume(user, volume);
    call->InstallReceiveCallback();
    call->ApplyTransmit();
  });
}

void VoiceEngine::UpdateE2ee(uint64_t callId, E2eeUpdate update) {
  Post([callId, update = std::move(update)](State& state) {
    CallMedia* call = state.Find(callId);
    if (!call || !call->daveSend || !call->daveReceive) return;  // media of another voice session
    const uint64_t nowMs = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count());
    update(*call->daveSend, *call->daveReceive, nowMs);
  });
}

void VoiceEngine::CloseMedia(uint64_t callId, std::function<void()> closed) {
  auto shared = std::make_shared<std::function<void()>>(std::move(closed));
  const bool posted = Post([callId, shared](State& state) {
    auto it =
        std::find_if(state.calls.begin(), state.calls.end(), [&](const auto& c) { return c->id == callId; });
    if (it != state.calls.end()) state.calls.erase(it);
    // The call's audio callbacks went with it: none of them runs from here on.
    if (*shared) (*shared)();
  });
  if (!posted && *shared) (*shared)();  // no voice thread any more: nothing can run them
  std::lock_guard lock(countersMutex_);
  std::erase_if(counters_, [&](const auto& entry) { return entry.first == callId; });
}

void VoiceEngine::ResetTransport(uint64_t callId) {
  Post([callId](State& state) {
    CallMedia* call = state.Find(callId);
    if (!call) return;
    // The player stops speaking with the old server: the speaking edge is balanced.
    if (call->send && call->send->Gate().Speaking() && call->events.speakingChanged)
      call->events.speakingChanged(false);
    call->CarryCounters();
    call->send.reset();
    call->receive.reset();
    call->daveSend.reset();
    call->daveReceive.reset();
    call->socket.Close();
    call->connected = false;
    call->ssrc = 0;
    call->ssrcUsers.clear();
    call->events = {};
  });
}

namespace {
CallMedia* FindOrAdd(std::vector<std::unique_ptr<CallMedia>>& calls, uint64_t id) {
  for (auto& call : calls)
    if (call->id == id) return call.get();
  calls.push_back(std::make_unique<CallMedia>());
  calls.back()->id = id;
  return calls.back().get();
}
}  // namespace

void VoiceEngine::SetAudioCallbacks(uint64_t callId, UserAudioReceivedCallback received,
                                    UserAudioCapturedCallback captured) {
  Post([callId, received = std::move(received), captured = std::move(captured)](State& state) mutable {
    CallMedia* call = FindOrAdd(state.calls, callId);
    call->received = std::move(received);
    call->captured = std::move(captured);
    call->InstallReceiveCallback();
  });
}

void VoiceEngine::MapSsrc(uint64_t callId, uint32_t ssrc, uint64_t userId) {
  Post([callId, ssrc, userId](State& state) {
    CallMedia* call = FindOrAdd(state.calls, callId);
    call->ssrcUsers[ssrc] = userId;
    if (call->receive) call->receive->MapSsrc(ssrc, userId);
  });
}

void VoiceEngine::UnmapUser(uint64_t callId, uint64_t userId) {
  Post([callId, userId](State& state) {
    CallMedia* call = state.Find(callId);
    if (!call) return;
    std::erase_if(call->ssrcUsers, [&](const auto& entry) { return entry.second == userId; });
    if (call->receive) call->receive->UnmapUser(userId);
  });
}

void VoiceEngine::SetLocalMute(uint64_t callId, uint64_t userId, bool mute) {
  Post([callId, userId, mute](State& state) {
    CallMedia* call = FindOrAdd(state.calls, callId);
    call->localMutes[userId] = mute;
    if (call->receive) call->receive->SetLocalMute(userId, mute);
  });
}

void VoiceEngine::SetUserVolume(uint64_t callId, uint64_t userId, int percent) {
  Post([callId, userId, percent](State& state) {
    CallMedia* call = FindOrAdd(state.calls, callId);
    call->volumes[userId] = percent;
    if (call->receive) call->receive->SetUserVolume(userId, percent);
  });
}

void VoiceEngine::SetTransmit(uint64_t callId, const TransmitSettings& settings) {
  Post([callId, settings](State& state) {
    CallMedia* call = FindOrAdd(state.calls, callId);
    call->transmit = settings;
    call->ApplyTransmit();
  });
}

MediaCounters VoiceEngine::Counters(uint64_t callId) const {
  std::lock_guard lock(countersMutex_);
  for (const auto& [id, counters] : counters_)
    if (id == callId) return counters;
  return {};
}

// The two queries end exactly once: with the answer, or, when the Client goes before the audio thread
// answers (the queued work is then dropped), with nothing inside the destroy (core::PlainCompletion).
void VoiceEngine::GetDevices(bool input, std::function<void(std::vector<AudioDevice>)> done) {
  auto completion =
      std::make_shared<core::PlainCompletion<std::vector<AudioDevice>>>(runtime_.QueuePtr(), std::move(done));
  Post([this, input, completion](State& state) {
    audio::AudioEngine& engine = EnsureAudio(state);
    (*completion)(ToPublic(input ? engine.InputDevices() : engine.OutputDevices()));
  });
}

void VoiceEngine::GetCurrentDevice(bool input, std::function<void(AudioDevice)> done) {
  auto completion =
      std::make_shared<core::PlainCompletion<AudioDevice>>(runtime_.QueuePtr(), std::move(done));
  Post([this, input, completion](State& state) {
    audio::AudioEngine& engine = EnsureAudio(state);
    const std::string& id = input ? engine.InputDeviceId() : engine.OutputDeviceId();
    AudioDevice current;
    for (const auto& info : input ? engine.InputDevices() : engine.OutputDevices())
      if (id.empty() ? info.isDefault : info.id == id) current = ToPublic(info);
    (*completion)(std::move(current));
  });
}

void VoiceEngine::SetDevice(bool input, std::string id,
                            std::function<void(bool ok, std::string error)> done) {
  Post([this, input, id = std::move(id), done = std::move(done)](State& state) mutable {
    audio::AudioEngine& engine = EnsureAudio(state);
    std::string error;
    const bool ok = input ? engine.SetInputDevice(id, error) : engine.SetOutputDevice(id, error);
    done(ok, std::move(error));
  });
}

void VoiceEngine::SetDeviceChangeCallback(DeviceChangeCallback callback) {
  const bool wanted = static_cast<bool>(callback);
  deviceChangeCallback_.Set(std::move(callback));
  Post([wanted](State& state) {
    state.deviceChangeWanted = wanted;
    state.nextDeviceRefresh = {};
  });
}

void VoiceEngine::SetNoAudioInputCallback(NoAudioInputCallback callback) {
  const bool wanted = static_cast<bool>(callback);
  noInputCallback_.Set(std::move(callback));
  Post([wanted](State& state) {
    state.noInputWanted = wanted;
    if (state.audio) state.noInputChangesSeen = state.audio->NoInputState().Changes();
  });
}

void VoiceEngine::SetNoAudioInputThreshold(float dbfs) {
  Post([dbfs](State& state) {
    state.noInputThreshold = dbfs;
    if (state.audio) state.audio->SetNoAudioInputThreshold(dbfs);
  });
}

void VoiceEngine::SetInputVolume(float volume) {
  inputVolume_.store(std::clamp(volume, 0.0f, 100.0f));
  Post([volume](State& state) {
    if (state.audio) state.audio->SetInputVolume(volume);
  });
}

void VoiceEngine::SetOutputVolume(float volume) {
  outputVolume_.store(std::clamp(volume, 0.0f, 100.0f));
  Post([volume](State& state) {
    if (state.audio) state.audio->SetOutputVolume(volume);
  });
}

void VoiceEngine::SetEchoCancellation(bool on) {
  aec_.store(on);
}
void VoiceEngine::SetNoiseSuppression(bool on) {
  ns_.store(on);
}
void VoiceEngine::SetAutomaticGainControl(bool on) {
  agc_.store(on);
}

void VoiceEngine::SetAecDump(bool on, std::filesystem::path directory) {
  Post([this, on, directory = std::move(directory)](State& state) {
    if (!on) {
      state.processor.StopAecDump();
      return;
    }
    std::string error;
    if (!state.processor.StartAecDump(directory, error))
      runtime_.VoiceLog().Warning("voice: AEC dump not started: " + error);
  });
}

void VoiceEngine::SetThreadPriority(int32_t priority) {
  Post([this, priority](State&) {
#ifdef _WIN32
    // Windows has five ordinary levels for a thread; the nice scale's -20..19 maps onto them in steps of ten.
    // Above normal needs no privilege.
    int level = THREAD_PRIORITY_NORMAL;
    if (priority >= 10) {
      level = THREAD_PRIORITY_HIGHEST;
    } else if (priority > 0) {
      level = THREAD_PRIORITY_ABOVE_NORMAL;
    } else if (priority <= -10) {
      level = THREAD_PRIORITY_LOWEST;
    } else if (priority < 0) {
      level = THREAD_PRIORITY_BELOW_NORMAL;
    }
    if (!::SetThreadPriority(::GetCurrentThread(), level))
      runtime_.VoiceLog().Info("voice: thread priority not changed (not permitted)");
#else
    // A nice value for this thread only (Linux: a thread id is a valid PRIO_PROCESS target). Raising priority
    // needs CAP_SYS_NICE; without it the call fails and the thread keeps its priority.
    const int nice = std::clamp(-priority, -20, 19);
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), nice) != 0)
      runtime_.VoiceLog().Info("voice: thread priority not changed (not permitted)");
#endif
  });
}

audio::AudioEngine& VoiceEngine::EnsureAudio(State& state) {
  if (!state.audio) {
    state.audio = std::make_unique<audio::AudioEngine>(audio::MakeAudioBackend());
    state.audio->SetInputVolume(inputVolume_.load());
    state.audio->SetOutputVolume(outputVolume_.load());
    state.audio->SetNoAudioInputThreshold(state.noInputThreshold);
    runtime_.VoiceLog().Info(std::string("voice: audio backend ") +
                             std::string(state.audio->Backend().Name()));
  }
  return *state.audio;
}

}  // namespace platformpp::voice
