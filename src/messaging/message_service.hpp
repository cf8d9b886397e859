#pragma once
// Lobby messages and DMs: the 25 newest messages of each channel, the DM channels the player has, and the
// outbox that sends each message until the platform has it exactly once (same nonce, enforce_nonce), in
// order per channel. State is written on the network thread (Gateway sink, HTTP answers) and read from any
// thread under one mutex, never held while a callback runs.
//
// Each message id is announced (MessageCreated) once, whichever of the Gateway, the send's answer or a
// history answer brings it first; a history answer announces only what is newer than what the channel
// already announced. After a new Gateway session (a READY after an earlier one, e.g. when the old session
// could not be resumed) the service fetches the history of each channel that had announced messages and
// announces what the lost session did not deliver, oldest first. DMs that carry an
// `activity` are activity invites, which the presence service handles; they are not kept here.

#include "core/completion.hpp"
#include "core/registered_callback.hpp"
#include "core/runtime.hpp"
#include "gateway/dispatch_router.hpp"
#include "gateway/gateway_connection.hpp"
#include "json/json.hpp"
#include "lobby/lobby_directory.hpp"
#include "messaging/message_json.hpp"
#include "messaging/outbox.hpp"
#include "net/http_client.hpp"
#include "social/user_directory.hpp"

#include <platformpp/lobby.hpp>
#include <platformpp/message.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace platformpp::core {
class RetryTimer;
}

namespace platformpp::messaging {

class MessageService {
 public:
  using SendDone = core::Completion<uint64_t>;
  using Done = core::Completion<>;
  using MessagesDone = core::Completion<std::vector<MessageHandle>>;
  using SummariesDone = core::Completion<std::vector<UserMessageSummary>>;

  /// Messages kept per channel.
  static constexpr std::size_t kWindow = 25;

  MessageService(core::Runtime& runtime, net::HttpClient& http, const social::UserDirectory& users,
                 const lobby::LobbyDirectory& lobbies);
  /// For tests: the outbox's policy, scheduler and clock instead of the defaults.
  MessageService(core::Runtime& runtime, net::HttpClient& http, const social::UserDirectory& users,
                 const lobby::LobbyDirectory& lobbies, OutboxPolicy policy, Outbox::Schedule schedule,
                 Outbox::Now now);
  ~MessageService();
  MessageService(const MessageService&) = delete;
  MessageService& operator=(const MessageService&) = delete;

  void SendLobbyMessage(uint64_t lobbyId, const std::string& content, const Metadata& metadata,
                        SendUserMessageCallback callback);
  void SendUserMessage(uint64_t recipientId, const std::string& content, const Metadata& metadata,
                       SendUserMessageCallback callback);
  void EditUserMessage(uint64_t recipientId, uint64_t messageId, const std::string& content,
                       EditUserMessageCallback callback);
  void DeleteUserMessage(uint64_t recipientId, uint64_t messageId, DeleteUserMessageCallback callback);
  void GetLobbyMessages(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback);
  void GetUserMessages(uint64_t recipientId, int32_t limit, GetMessagesCallback callback);
  void GetUserMessageSummaries(UserMessageSummariesCallback callback);

  std::optional<MessageHandle> Message(uint64_t messageId) const;
  std::optional<ChannelHandle> Channel(uint64_t channelId) const;
  /// The ids kept for a channel, oldest first (tests).
  std::vector<uint64_t> ChannelMessageIds(uint64_t channelId) const;

  /// The game's callbacks (Client::SetMessage*Callback).
  struct Callbacks {
    core::RegisteredCallback<MessageCreatedCallback> created;
    core::RegisteredCallback<MessageUpdatedCallback> updated;
    core::RegisteredCallback<MessageDeletedCallback> deleted;
  };
  Callbacks callbacks;
  void SetShowingChat(bool showingChat);

  /// The events OnDispatch reads (gateway::DispatchRouter).
  static std::span<const gateway::DispatchClaim> DispatchClaims() noexcept;
  /// The Gateway sink (network thread): update the state, then queue the callbacks.
  void OnDispatch(const gateway::Dispatch& dispatch);
  /// Ends queued sends with ClientDestroyed (Destroy, before the HTTP client shuts down).
  void Shutdown();

 private:
  struct ChannelRecord {
    bool lobby = false;
    bool ephemeral = false;        // a DM whose last message was ephemeral
    uint64_t otherUserId = 0;      // DMs: the other participant
    std::vector<uint64_t> ids;     // kept messages, ascending (snowflakes are ordered by time)
    std::set<uint64_t> announced;  // bounded; ids at or below announcedFloor count as announced
    uint64_t announcedFloor = 0;
    uint64_t newestAnnounced = 0;
    uint64_t catchUpFrom =
        0;  // set at a new session: a catch-up announces what is newer and not yet announced
    // The newest message the Gateway (or a catch-up) brought: where a lost session's gap starts. The
    // player's own messages, announced from their send's answer, do not move it: others' messages sent
    // before them may be in the gap.
    uint64_t newestStreamed = 0;
    // While a catch-up is in flight, new messages (live ones included) wait in `deferred`, so that the game
    // hears the gap's messages and the live ones in the platform's order (by id) when the catch-up ends.
    uint64_t catchUpRound = 0;  // of the catch-up in flight; 0: none
    std::vector<uint64_t> deferred;
  };
  enum class Event { Created, Updated, Deleted };
  struct Pending {
    Event event;
    uint64_t messageId;
    uint64_t channelId;
  };
  enum class Source { Gateway, SendAnswer, History, CatchUp };

  void SendMessage(Outbox::Kind kind, uint64_t target, const std::string& content, const Metadata& metadata,
                   SendDone done);
  /// The DM channel with `recipientId` (cached, else POST /users/@me/channels), then `then` with its id, or
  /// with the failed response.
  void WithDmChannel(uint64_t recipientId, std::chrono::milliseconds timeout,
                     std::function<void(std::optional<uint64_t> channelId, net::HttpResponse failed)> then);
  net::HttpRequest Request(std::string method, const std::string& path, std::string body = {}) const;
  /// GET of a history route; `done` null for a catch-up (after a new Gateway session), whose failures are
  /// only logged.
  void FetchHistory(const std::string& path, int32_t limit, Source source,
                    const std::shared_ptr<MessagesDone>& done, uint64_t catchUpChannel = 0,
                    uint64_t catchUpRound = 0, int catchUpAttempt = 0);
  /// A catch-up's fetch failed: tried again after 1, 2, 4 and 8 s (a new token or a 5xx burst's end may
  /// come meanwhile), its channel's new messages still waiting; after the last, ended as it is.
  void CatchUpFailed(const std::string& path, uint64_t channelId, uint64_t round, int attempt);
  /// The end of a channel's catch-up (answered or failed): what waited is announced, in id order.
  void EndCatchUp(uint64_t channelId, uint64_t round, std::vector<Pending>& events);
  /// A DM channel of READY's `private_channels`: its id and newest message.
  struct PrivateChannel {
    uint64_t id;
    uint64_t lastMessageId;
  };
  /// After a READY that follows an earlier one: the history of each channel that announced messages, and
  /// of each private channel it never announced in whose newest message is after the gap's start, for what
  /// the lost session did not deliver.
  void CatchUp(const std::vector<PrivateChannel>& privateChannels);

  // Store (takes mutex_; queues events into `events`).
  void Created(ParsedMessage message, Source source, std::vector<Pending>& events);
  void Updated(ParsedMessage message, std::vector<Pending>& events);
  void Deleted(uint64_t messageId, uint64_t channelId, std::vector<Pending>& events);
  // mutex_ held:
  ChannelRecord& ChannelFor(const ParsedMessage& message);
  /// Keeps `message` in its channel's window when it is among the 25 newest; false when it is not kept. What
  /// falls out of the window (it, or the oldest kept) stays readable while pinned (Pins).
  bool Keep(ChannelRecord& channel, ParsedMessage message);
  /// Marks `id` announced; false when it already was.
  static bool MarkAnnounced(ChannelRecord& channel, uint64_t id);
  uint64_t SelfId() const;
  void Post(const std::vector<Pending>& events);

  core::Runtime& runtime_;
  net::HttpClient& http_;
  const social::UserDirectory& users_;
  const lobby::LobbyDirectory& lobbies_;
  std::unique_ptr<core::RetryTimer> timer_;
  std::shared_ptr<Outbox> outbox_;

  /// Messages named by a MessageCreated or MessageUpdated the game has not run yet (queued, or waiting for
  /// a catch-up to end): a message the 25-message window lets go meanwhile is held here until that callback
  /// ran, so the game can always read the message a callback names. Shared with the queued events, which
  /// release their pin on the game thread. Lock order: mutex_, then this mutex.
  struct Pins {
    std::mutex mutex;
    std::unordered_map<uint64_t, int> count;           // pins per message id
    std::unordered_map<uint64_t, ParsedMessage> held;  // pinned messages the window let go
    void Pin(uint64_t id);
    void Unpin(uint64_t id);
    /// Holds `message` when its id is pinned (the newer state wins); drops it otherwise.
    void HoldIfPinned(ParsedMessage message);
    /// The held message's data, if any.
    std::optional<MessageHandle::Data> Held(uint64_t id);
    /// Lets a held message go (it was deleted), pinned or not.
    void Drop(uint64_t id);
  };

  mutable std::mutex mutex_;
  std::shared_ptr<Pins> pins_ = std::make_shared<Pins>();
  std::unordered_map<uint64_t, ParsedMessage> messages_;  // the kept ones of every channel
  std::unordered_map<uint64_t, ChannelRecord> channels_;  // by channel id (a lobby's is its id)
  std::unordered_map<uint64_t, uint64_t> dmChannels_;     // recipient -> DM channel id
  bool showingChat_ = false;
  bool readySeen_ = false;      // a READY came before: the next one starts a new session with a possible gap
  uint64_t catchUpRounds_ = 0;  // numbers each channel's catch-up (ChannelRecord::catchUpRound)
};

}  // namespace platformpp::messaging
