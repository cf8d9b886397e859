// The names of the connection status enums and the thread names (include/platformpp/client_status.hpp). They
// live with the Gateway, whose connection the status describes and which logs every change by name.
#include <platformpp/client_status.hpp>

namespace platformpp {

std::string ClientStatusToString(ClientStatus status) {
  switch (status) {
    case ClientStatus::Disconnected:
      return "Disconnected";
    case ClientStatus::Connecting:
      return "Connecting";
    case ClientStatus::Connected:
      return "Connected";
    case ClientStatus::Ready:
      return "Ready";
    case ClientStatus::Reconnecting:
      return "Reconnecting";
    case ClientStatus::Disconnecting:
      return "Disconnecting";
    case ClientStatus::HttpWait:
      return "HttpWait";
  }
  return "Unknown";
}

std::string ClientErrorToString(ClientError error) {
  switch (error) {
    case ClientError::None:
      return "None";
    case ClientError::ConnectionFailed:
      return "ConnectionFailed";
    case ClientError::UnexpectedClose:
      return "UnexpectedClose";
    case ClientError::ConnectionCanceled:
      return "ConnectionCanceled";
  }
  return "Unknown";
}

std::string ClientThreadToString(ClientThread thread) {
  switch (thread) {
    case ClientThread::Client:
      return "Client";
    case ClientThread::Voice:
      return "Voice";
    case ClientThread::Network:
      return "Network";
  }
  return "Unknown";
}

}  // namespace platformpp
