#include "core/runtime.hpp"

#include <platformpp/io_context.hpp>

namespace platformpp::core {

namespace {
void TrimTrailingSlashes(std::string& url) {
  while (!url.empty() && url.back() == '/')
    url.pop_back();
}
}  // namespace

Runtime::Runtime(ClientOptions options)
    : options_(std::move(options)),
      queue_(std::make_shared<CallbackQueue>()),
      logger_(std::make_shared<Logger>(queue_)),
      voiceLogger_(std::make_shared<Logger>(queue_)),
      io_(options_.ioContext ? options_.ioContext : std::make_shared<IoContext>(1)) {
  TrimTrailingSlashes(options_.apiBase);
  TrimTrailingSlashes(options_.webBase);
}

std::string Runtime::VoiceLogDir() const {
  std::lock_guard lock(voiceLogDirMutex_);
  return voiceLogDir_;
}

void Runtime::SetVoiceLogDir(std::string dir) {
  std::lock_guard lock(voiceLogDirMutex_);
  voiceLogDir_ = std::move(dir);
}

}  // namespace platformpp::core
