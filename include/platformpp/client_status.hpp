#pragma once
// The state of a Client's realtime connection, as Client::GetStatus and its status callback report it, and
// the names of the Client's threads. Client::Status, Client::Error and Client::Thread are these enums under
// the platform's own Social SDK names; their values match it.

#include <cstdint>
#include <functional>
#include <string>

namespace platformpp {

/// Connection status of a Client (Client::Status).
enum class ClientStatus : int32_t {
  Disconnected = 0,
  Connecting = 1,
  Connected = 2,
  Ready = 3,
  Reconnecting = 4,
  Disconnecting = 5,
  HttpWait = 6,
};

/// Why a Client ended up Disconnected without being asked to (Client::Error).
enum class ClientError : int32_t {
  None = 0,
  ConnectionFailed = 1,
  UnexpectedClose = 2,
  ConnectionCanceled = 3,
};

/// The Client's threads whose priority Client::SetThreadPriority sets (Client::Thread).
enum class ClientThread : int32_t {
  Client = 0,
  Voice = 1,
  Network = 2,
};

/// A status change of the realtime connection, inside RunCallbacks, in order; GetStatus already returns the
/// new status (or a later one). `error` and `errorDetail` explain a Disconnected that was not asked for:
/// - ConnectionFailed, 401: Connect without a token (UpdateToken first), or GET /gateway refused the token
///   (401/403: the HTTP status).
/// - UnexpectedClose, the Gateway close code: the server closed with a code that forbids reconnecting
///   (4004 authentication failed, 4010-4014 shard/version/intents).
/// Otherwise None and 0.
using StatusChangedCallback =
    std::function<void(ClientStatus status, ClientError error, int32_t errorDetail)>;

/// The enumerator's name ("Ready", ...); "Unknown" for a value outside the enum.
std::string ClientStatusToString(ClientStatus status);
/// The enumerator's name ("ConnectionFailed", ...); "Unknown" for a value outside the enum.
std::string ClientErrorToString(ClientError error);
/// The enumerator's name ("Voice", ...); "Unknown" for a value outside the enum.
std::string ClientThreadToString(ClientThread thread);

}  // namespace platformpp
