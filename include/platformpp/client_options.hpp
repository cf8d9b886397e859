#pragma once
// ClientOptions: the settings a Client is constructed with (Client(ClientOptions)).

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace platformpp {

class IoContext;

/// How a Client is set up: where the platform is, what to trust, which threads and clocks to use, and how
/// to reach the local desktop client. Every field has a default that talks to the platform itself.
struct ClientOptions {
  /// Base address of the HTTP API, version included.
  std::string apiBase = "https://discord.com/api/v10";
  /// PEM file of extra certificate authorities to trust (e.g. the emulator's `ca_file`).
  std::string caFile;
  /// Trust the system's certificate store as well. TLS peer and host name verification is always on. Clients
  /// of one process with the same trust settings (and unchanged files) share one loaded store.
  bool useSystemCertificates = true;
  /// Share network threads with other Clients; null gives this Client a network thread of its own.
  std::shared_ptr<IoContext> ioContext;
  /// Appended to the SDK's own User-Agent.
  std::string userAgentSuffix;
  /// Where the platform's authorize page lives (the browser flow of Authorize).
  std::string webBase = "https://discord.com";
  /// How long Authorize waits for the browser to come back.
  std::chrono::milliseconds authorizeTimeout{std::chrono::minutes(5)};
  /// The wall clock the SDK reads for token expiry; empty = the system clock. Tests inject a fake one.
  std::function<std::chrono::system_clock::time_point()> clock;
  /// The IPC name prefix: sockets `<dir>/<ipcName>-ipc-<0..9>`, Windows pipes `\\?\pipe\<ipcName>-ipc-<n>`.
  std::string ipcName = "discord";
  /// Where to look for the IPC socket; empty = `$XDG_RUNTIME_DIR`, `$TMPDIR`, `$TMP`, `$TEMP`, else `/tmp`
  /// (plus the snap and flatpak subdirectories there). Not used on Windows (pipes have no directory).
  std::string ipcDirectory;
  /// Talk to the local desktop client at all (Authorize tries it first; account-link requests need it).
  bool ipcEnabled = true;
  /// Opts this Client's Gateway session in to channel obfuscation ahead of the platform's date for everyone
  /// (Identify capability `1 << 15`): channels the user cannot view arrive named `___hidden___`, flagged
  /// CHANNEL_OBFUSCATED, with one overwrite denying VIEW_CHANNEL. The platform calls this switch temporary
  /// and for testing (its developer portal's Private Channel Obfuscation toggle does the same for a whole
  /// application), so it is off unless a test asks for it.
  bool channelObfuscationOptIn = false;
};

}  // namespace platformpp
