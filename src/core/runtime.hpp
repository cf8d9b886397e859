#pragma once
// What every part of one Client stands on: its options, the callback queue, the logs, the network context,
// the clock, and who the Client is (application id and credentials). Features receive it by reference from
// the composition (client/), together with the collaborators they name in their constructors; nothing here
// knows any feature.

#include "core/callback_queue.hpp"
#include "core/completion.hpp"
#include "core/credentials.hpp"
#include "core/logger.hpp"

#include <platformpp/client_options.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace platformpp::core {

class Runtime {
 public:
  /// `options` with apiBase and webBase without a trailing '/'. Starts the network thread unless the
  /// options share an IoContext.
  explicit Runtime(ClientOptions options);
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const ClientOptions& Options() const noexcept { return options_; }
  /// `apiBase` + `path` ("/users/@me").
  std::string ApiUrl(std::string_view path) const { return options_.apiBase + std::string(path); }
  std::chrono::system_clock::time_point Now() const {
    return options_.clock ? options_.clock() : std::chrono::system_clock::now();
  }

  CallbackQueue& Queue() noexcept { return *queue_; }
  std::shared_ptr<CallbackQueue> QueuePtr() const noexcept { return queue_; }
  /// True from the first step of the Client's destruction on: operations end with ClientDestroyed.
  bool Destroying() const noexcept { return queue_->ShuttingDown(); }
  template <class... Args>
  Completion<Args...> MakeCompletion(typename Completion<Args...>::Callback callback) {
    return Completion<Args...>(queue_, std::move(callback));
  }
  /// A new operation's completion; none while the Client is being destroyed, when the callback has already
  /// been queued to hear ClientDestroyed (what dropping a completion reports).
  template <class... Args>
  std::optional<Completion<Args...>> Start(typename Completion<Args...>::Callback callback) {
    auto completion = MakeCompletion<Args...>(std::move(callback));
    if (Destroying()) return std::nullopt;
    return completion;
  }

  Logger& Log() noexcept { return *logger_; }
  std::shared_ptr<Logger> LoggerPtr() const noexcept { return logger_; }
  /// The voice engine's own log (AddVoiceLogCallback, SetVoiceLogDir): calls, media, devices.
  Logger& VoiceLog() noexcept { return *voiceLogger_; }
  std::shared_ptr<Logger> VoiceLoggerPtr() const noexcept { return voiceLogger_; }
  /// SetVoiceLogDir's directory (where SetAecDump writes too); empty when unset.
  std::string VoiceLogDir() const;
  void SetVoiceLogDir(std::string dir);

  /// The network context; null after ReleaseIo.
  IoContext& Io() noexcept { return *io_; }
  IoContext* IoIfAny() noexcept { return io_.get(); }
  /// The last step of destruction: joins our network thread (or lets go of a shared context).
  void ReleaseIo() noexcept { io_.reset(); }

  std::atomic<uint64_t> applicationId{0};
  CredentialStore credentials;

 private:
  ClientOptions options_;
  std::shared_ptr<CallbackQueue> queue_;
  std::shared_ptr<Logger> logger_;
  std::shared_ptr<Logger> voiceLogger_;
  std::shared_ptr<IoContext> io_;
  mutable std::mutex voiceLogDirMutex_;
  std::string voiceLogDir_;
};

}  // namespace platformpp::core
