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
  Disconnected = 0,   ///< No realtime connection: before Connect, after Disconnect, or after a final error.
  Connecting = 1,     ///< Opening the first connection of a Connect.
  Connected = 2,      ///< The socket is open; identifying (or resuming) the session.
  Ready = 3,          ///< The session is up and the Client's state is loaded (READY or RESUMED received).
  Reconnecting = 4,   ///< The connection was lost or failed; waiting to try again, or trying again.
  Disconnecting = 5,  ///< Closing the connection after Disconnect.
  HttpWait = 6,       ///< Asking the HTTP API where the realtime connection is (GET /gateway).
};

/// Why a Client ended up Disconnected without being asked to (Client::Error).
enum class ClientError : int32_t {
  None = 0,                ///< Not an error: the connection ended because it was asked to, or is up.
  ConnectionFailed = 1,    ///< No token, or GET /gateway refused it; errorDetail is 401 or the HTTP status.
  UnexpectedClose = 2,     ///< The server closed with a code that forbids reconnecting (errorDetail).
  ConnectionCanceled = 3,  ///< Not reported by platformpp; kept for the platform SDK's numbering.
};

/// The Client's threads whose priority Client::SetThreadPriority sets (Client::Thread).
enum class ClientThread : int32_t {
  Client = 0,   ///< Kept for the platform SDK's numbering; SetThreadPriority ignores it.
  Voice = 1,    ///< The voice thread: microphone processing, sending, receiving and mixing of calls.
  Network = 2,  ///< The network thread (or threads); SetThreadPriority ignores it.
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
