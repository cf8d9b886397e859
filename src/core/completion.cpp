#include "core/completion.hpp"

namespace platformpp::core {

ClientResult DestroyedResult() {
  static const ClientResult result =
      ClientResult::Failure(ErrorType::ClientDestroyed, "the Client was destroyed");
  return result;
}

ClientResult DroppedResult() {
  return ClientResult::Failure(ErrorType::Aborted, "the operation was abandoned before it completed");
}

}  // namespace platformpp::core
