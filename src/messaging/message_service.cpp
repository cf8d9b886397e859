#include "messaging/message_service.hpp"

#include "core/retry_timer.hpp"
#include "core/validation_result.hpp"
#include "lobby/lobby_store.hpp"
#include "net/http_result.hpp"
#include "social/activity_json.hpp"
#include "social/social_store.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

namespace platformpp::messaging {
namespace {

// Announced ids kept per channel; older ones count as announced (see ChannelRecord::announcedFloor).
constexpr std::size_t kAnnouncedKept = 1024;

ClientResult NoToken() {
  return ClientResult::Failure(ErrorType::ClientNotReady, "no token: call UpdateToken first");
}

ClientResult Required(const char* path) {
  return core::ValidationResult(
      {FieldError{path, "BASE_TYPE_REQUIRED", std::string(path) + ": must not be 0"}});
}

// What a failed exchange reports: the transport's failure, or the platform's error.
ClientResult FailureOf(const net::HttpResponse& response) {
  return response.transport.Successful() ? net::ResultOf(response) : response.transport;
}

// A response that ends an outbox message with `result` (not retried: the transport did not fail).
net::HttpResponse Refused(ClientResult result) {
  net::HttpResponse response;
  response.transport = std::move(result);
  return response;
}

enum class Kind { Ready, LobbyCreate, LobbyUpdate, LobbyDelete, DmCreate, DmUpdate, DmDelete };

// The events the service reads, in Kind's order. A DM that is an activity invite (social::IsActivityInvite)
// is the presence service's: MESSAGE_CREATE has two meanings, told apart by that one rule.
constexpr gateway::DispatchClaim kClaims[] = {
    {"READY", "a new session: messages missed are fetched"},
    {"LOBBY_MESSAGE_CREATE", "lobby message"},
    {"LOBBY_MESSAGE_UPDATE", "lobby message"},
    {"LOBBY_MESSAGE_DELETE", "lobby message"},
    {"MESSAGE_CREATE", "direct message"},
    {"MESSAGE_UPDATE", "direct message"},
    {"MESSAGE_DELETE", "direct message"},
};
static_assert(std::size(kClaims) == static_cast<std::size_t>(Kind::DmDelete) + 1);

// What the outbox compares to tell that the game gave a new token: a hash of the current one (0 without).
Outbox::TokenId OutboxTokenIdentity(core::Runtime& runtime) {
  return [&runtime]() -> std::size_t {
    auto credentials = runtime.credentials.Get();
    return credentials ? std::hash<std::string>{}(credentials->token) : 0;
  };
}

}  // namespace

MessageService::MessageService(core::Runtime& runtime, net::HttpClient& http,
                               const social::UserDirectory& users, const lobby::LobbyDirectory& lobbies)
    : runtime_(runtime), http_(http), users_(users), lobbies_(lobbies) {
  timer_ = std::make_unique<core::RetryTimer>(runtime.Io());
  outbox_ = std::make_shared<Outbox>(
      OutboxPolicy{},
      [timer = timer_.get(), logger = runtime.LoggerPtr()](Outbox::Wait why, std::chrono::milliseconds delay,
                                                           std::function<void()> task) {
        if (why == Outbox::Wait::Retry) {
          logger->Info(
              "message: no answer from the platform (network error, timeout or 5xx); sending again in " +
              std::to_string(delay.count()) + " ms with the same nonce");
        } else if (why == Outbox::Wait::HoldForToken) {
          logger->Info(
              "message: HTTP 401 after a try that may have reached the platform; held until the token "
              "changes (UpdateToken), then sent again with the same nonce");
        }
        timer->After(delay, std::move(task));
      },
      [] { return Outbox::Clock::now(); }, OutboxTokenIdentity(runtime));
}

MessageService::MessageService(core::Runtime& runtime, net::HttpClient& http,
                               const social::UserDirectory& users, const lobby::LobbyDirectory& lobbies,
                               OutboxPolicy policy, Outbox::Schedule schedule, Outbox::Now now)
    : runtime_(runtime),
      http_(http),
      users_(users),
      lobbies_(lobbies),
      outbox_(std::make_shared<Outbox>(policy, std::move(schedule), std::move(now),
                                       OutboxTokenIdentity(runtime))) {}

MessageService::~MessageService() {
  Shutdown();
}

void MessageService::Shutdown() {
  if (timer_) timer_->Shutdown();
  outbox_->Shutdown();
}

net::HttpRequest MessageService::Request(std::string method, const std::string& path,
                                         std::string body) const {
  net::HttpRequest request;
  request.method = std::move(method);
  request.url = runtime_.ApiUrl(path);
  if (auto credentials = runtime_.credentials.Get())
    request.headers.emplace_back("Authorization", credentials->Header());
  if (!body.empty()) {
    request.body = std::move(body);
    request.contentType = "application/json";
  }
  return request;
}

uint64_t MessageService::SelfId() const {
  auto self = users_.CurrentUser();
  return self ? self->Id() : 0;
}

// --- Sending ----------------------------------------------------------------------------------------------

void MessageService::SendLobbyMessage(uint64_t lobbyId, const std::string& content, const Metadata& metadata,
                                      SendUserMessageCallback callback) {
  auto started = runtime_.Start<uint64_t>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (lobbyId == 0) return done(Required("lobbyId"), 0);
  SendMessage(Outbox::Kind::Lobby, lobbyId, content, metadata, std::move(done));
}

void MessageService::SendUserMessage(uint64_t recipientId, const std::string& content,
                                     const Metadata& metadata, SendUserMessageCallback callback) {
  auto started = runtime_.Start<uint64_t>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (recipientId == 0) return done(Required("recipientId"), 0);
  SendMessage(Outbox::Kind::Dm, recipientId, content, metadata, std::move(done));
}

void MessageService::SendMessage(Outbox::Kind kind, uint64_t target, const std::string& content,
                                 const Metadata& metadata, SendDone done) {
  auto errors = CheckContent(content);
  auto metadataErrors = CheckMetadata(metadata);
  errors.insert(errors.end(), metadataErrors.begin(), metadataErrors.end());
  if (!errors.empty()) return done(core::ValidationResult(std::move(errors)), 0);
  if (!runtime_.credentials.Get()) return done(NoToken(), 0);

  std::string body = MessageBody(content, metadata, outbox_->NewNonce());
  auto shared = std::make_shared<SendDone>(std::move(done));
  Outbox::Attempt attempt = [this, kind, target, body = std::move(body)](std::chrono::milliseconds timeout,
                                                                         const Outbox::Answer& answer) {
    if (!runtime_.credentials.Get()) return answer(Refused(NoToken()));
    timeout = std::min(timeout, http_.Timeout());
    auto post = [this, body, timeout, answer](const std::string& path) {
      net::HttpRequest request = Request("POST", path, body);
      request.retrySafe = true;  // the nonce with enforce_nonce makes a repeat harmless
      request.timeout = timeout;
      http_.Send(std::move(request), answer);
    };
    if (kind == Outbox::Kind::Lobby) return post("/lobbies/" + std::to_string(target) + "/messages");
    WithDmChannel(target, timeout,
                  [post, answer](std::optional<uint64_t> channelId, net::HttpResponse failed) {
                    if (!channelId) return answer(std::move(failed));
                    post("/channels/" + std::to_string(*channelId) + "/messages");
                  });
  };
  Outbox::Finish finish = [this, shared](ClientResult result, const net::HttpResponse* response) {
    if (!result.Successful() || !response) return (*shared)(std::move(result), 0);
    json::Document document;
    ClientResult parsed = net::ParseJsonResponse(*response, document);
    if (!parsed.Successful()) return (*shared)(std::move(parsed), 0);
    auto message = ParseMessage(document, SelfId());
    if (!message) {
      // Sent (the platform answered 2xx); only the answer is unusable.
      auto id = document.IsObject() ? json::GetSnowflake(document, "id") : std::nullopt;
      if (!id) {
        return (*shared)(
            ClientResult::Failure(ErrorType::HTTPError, "malformed response: message without id"), 0);
      }
      return (*shared)({}, *id);
    }
    uint64_t id = message->data.id;
    std::vector<Pending> events;
    Created(std::move(*message), Source::SendAnswer, events);
    Post(events);
    (*shared)({}, id);
  };
  outbox_->Enqueue({kind, target}, std::move(attempt), std::move(finish));
}

void MessageService::WithDmChannel(
    uint64_t recipientId, std::chrono::milliseconds timeout,
    std::function<void(std::optional<uint64_t> channelId, net::HttpResponse failed)> then) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = dmChannels_.find(recipientId); it != dmChannels_.end()) {
      uint64_t channelId = it->second;
      return then(channelId, {});
    }
  }
  rapidjson::StringBuffer body;
  {
    rapidjson::Writer<rapidjson::StringBuffer> w(body);
    w.StartObject();
    w.Key("recipient_id");
    std::string id = std::to_string(recipientId);
    w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
    w.EndObject();
  }
  net::HttpRequest request = Request("POST", "/users/@me/channels", body.GetString());
  request.retrySafe = true;  // opening a DM channel twice gives the same channel
  request.timeout = timeout;
  http_.Send(std::move(request), [this, recipientId, then = std::move(then)](net::HttpResponse response) {
    if (!response.Ok()) return then(std::nullopt, std::move(response));
    json::Document document;
    ClientResult parsed = net::ParseJsonResponse(response, document);
    auto channelId =
        parsed.Successful() && document.IsObject() ? json::GetSnowflake(document, "id") : std::nullopt;
    if (!channelId) {
      return then(std::nullopt, Refused(parsed.Successful() ? ClientResult::Failure(
                                                                  ErrorType::HTTPError,
                                                                  "malformed response: DM channel without id")
                                                            : parsed));
    }
    {
      std::lock_guard lock(mutex_);
      dmChannels_[recipientId] = *channelId;
      ChannelRecord& channel = channels_[*channelId];
      channel.otherUserId = recipientId;
    }
    then(*channelId, {});
  });
}

// --- Edit, delete, history ---------------------------------------------------------------------------------

void MessageService::EditUserMessage(uint64_t recipientId, uint64_t messageId, const std::string& content,
                                     EditUserMessageCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (recipientId == 0) return done(Required("recipientId"));
  if (messageId == 0) return done(Required("messageId"));
  if (auto errors = CheckContent(content); !errors.empty())
    return done(core::ValidationResult(std::move(errors)));
  if (!runtime_.credentials.Get()) return done(NoToken());
  auto shared = std::make_shared<Done>(std::move(done));
  WithDmChannel(
      recipientId, http_.Timeout(),
      [this, shared, messageId, body = EditBody(content)](std::optional<uint64_t> channelId,
                                                          const net::HttpResponse& failed) {
        if (!channelId) return (*shared)(FailureOf(failed));
        net::HttpRequest request = Request(
            "PATCH", "/channels/" + std::to_string(*channelId) + "/messages/" + std::to_string(messageId),
            body);
        http_.Send(std::move(request),
                   [shared](const net::HttpResponse& response) { (*shared)(net::ResultOf(response)); });
      });
}

void MessageService::DeleteUserMessage(uint64_t recipientId, uint64_t messageId,
                                       DeleteUserMessageCallback callback) {
  auto started = runtime_.Start<>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (recipientId == 0) return done(Required("recipientId"));
  if (messageId == 0) return done(Required("messageId"));
  if (!runtime_.credentials.Get()) return done(NoToken());
  auto shared = std::make_shared<Done>(std::move(done));
  WithDmChannel(
      recipientId, http_.Timeout(),
      [this, shared, messageId](std::optional<uint64_t> channelId, const net::HttpResponse& failed) {
        if (!channelId) return (*shared)(FailureOf(failed));
        net::HttpRequest request = Request(
            "DELETE", "/channels/" + std::to_string(*channelId) + "/messages/" + std::to_string(messageId));
        http_.Send(std::move(request),
                   [shared](const net::HttpResponse& response) { (*shared)(net::ResultOf(response)); });
      });
}

void MessageService::GetLobbyMessages(uint64_t lobbyId, int32_t limit, GetMessagesCallback callback) {
  auto started = runtime_.Start<std::vector<MessageHandle>>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (lobbyId == 0) return done(Required("lobbyId"), {});
  if (auto errors = CheckHistoryLimit(limit); !errors.empty())
    return done(core::ValidationResult(std::move(errors)), {});
  if (!runtime_.credentials.Get()) return done(NoToken(), {});
  FetchHistory("/lobbies/" + std::to_string(lobbyId) + "/messages?limit=" + std::to_string(limit), limit,
               Source::History, std::make_shared<MessagesDone>(std::move(done)));
}

void MessageService::GetUserMessages(uint64_t recipientId, int32_t limit, GetMessagesCallback callback) {
  auto started = runtime_.Start<std::vector<MessageHandle>>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (recipientId == 0) return done(Required("recipientId"), {});
  if (auto errors = CheckHistoryLimit(limit); !errors.empty())
    return done(core::ValidationResult(std::move(errors)), {});
  if (!runtime_.credentials.Get()) return done(NoToken(), {});
  auto shared = std::make_shared<MessagesDone>(std::move(done));
  WithDmChannel(recipientId, http_.Timeout(),
                [this, shared, limit](std::optional<uint64_t> channelId, const net::HttpResponse& failed) {
                  if (!channelId) return (*shared)(FailureOf(failed), {});
                  FetchHistory(
                      "/channels/" + std::to_string(*channelId) + "/messages?limit=" + std::to_string(limit),
                      limit, Source::History, shared);
                });
}

void MessageService::FetchHistory(const std::string& path, int32_t limit, Source source,
                                  const std::shared_ptr<MessagesDone>& done, uint64_t catchUpChannel,
                                  uint64_t catchUpRound, int catchUpAttempt) {
  http_.Send(Request("GET", path), [this, done, limit, source, catchUpChannel, catchUpRound, catchUpAttempt,
                                    path](const net::HttpResponse& response) {
    json::Document document;
    ClientResult result = net::ParseJsonResponse(response, document);
    if (result.Successful() && !document.IsArray())
      result = ClientResult::Failure(ErrorType::HTTPError, "malformed response: history is not a list");
    if (!result.Successful()) {
      if (!done) {
        runtime_.Log().Warning("message catch-up after a new session failed: " + result.ToString());
        CatchUpFailed(path, catchUpChannel, catchUpRound, catchUpAttempt);
      }
      if (done) (*done)(std::move(result), {});
      return;
    }
    uint64_t self = SelfId();
    std::vector<ParsedMessage> messages;
    std::size_t skipped = 0;
    for (const auto& item : document.GetArray()) {
      if (social::IsActivityInvite(item)) continue;  // an invite in the history: not a chat message
      if (auto message = ParseMessage(item, self)) {
        messages.push_back(std::move(*message));
      } else {
        ++skipped;
      }
    }
    if (skipped > 0)
      runtime_.Log().Warning("message history: " + std::to_string(skipped) + " malformed messages skipped");
    // Newest first on the wire; the game gets (and the store takes) them oldest first.
    std::sort(messages.begin(), messages.end(),
              [](const ParsedMessage& a, const ParsedMessage& b) { return a.data.id < b.data.id; });
    if (messages.size() > static_cast<std::size_t>(limit))
      messages.erase(messages.begin(), messages.end() - limit);
    std::vector<MessageHandle> handles;
    handles.reserve(messages.size());
    std::vector<Pending> events;
    for (auto& message : messages) {
      MessageHandle::Data data = message.data;
      if (auto author = users_.User(data.authorId)) data.author = std::move(author);
      handles.emplace_back(std::move(data));
      Created(std::move(message), source, events);
    }
    if (source == Source::CatchUp) {
      EndCatchUp(catchUpChannel, catchUpRound, events);
      runtime_.Log().Info("message catch-up of channel " + std::to_string(catchUpChannel) + ": " +
                          std::to_string(messages.size()) +
                          " messages read; with the live ones that waited, " + std::to_string(events.size()) +
                          " announced");
    }
    Post(events);
    if (done) (*done)({}, std::move(handles));
  });
}

void MessageService::GetUserMessageSummaries(UserMessageSummariesCallback callback) {
  auto started = runtime_.Start<std::vector<UserMessageSummary>>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  auto& done = *started;
  if (!runtime_.credentials.Get()) return done(NoToken(), {});
  auto shared = std::make_shared<SummariesDone>(std::move(done));
  http_.Send(Request("GET", "/users/@me/message-summaries"), [this,
                                                              shared](const net::HttpResponse& response) {
    json::Document document;
    ClientResult result = net::ParseJsonResponse(response, document);
    if (!result.Successful()) return (*shared)(std::move(result), {});
    if (!document.IsArray()) {
      return (*shared)(
          ClientResult::Failure(ErrorType::HTTPError, "malformed response: summaries are not a list"), {});
    }
    std::vector<UserMessageSummary> summaries;
    {
      std::lock_guard lock(mutex_);
      for (const auto& item : document.GetArray()) {
        if (!item.IsObject()) continue;
        auto user = json::GetSnowflake(item, "user_id");
        auto last = json::GetSnowflake(item, "last_message_id");
        if (!user || !last) continue;
        summaries.emplace_back(*user, *last);
        if (auto channelId = json::GetSnowflake(item, "channel_id")) {
          dmChannels_[*user] = *channelId;
          channels_[*channelId].otherUserId = *user;
        }
      }
    }
    (*shared)({}, std::move(summaries));
  });
}

// --- State
// --------------------------------------------------------------------------------------------------

std::optional<MessageHandle> MessageService::Message(uint64_t messageId) const {
  MessageHandle::Data data;
  {
    std::lock_guard lock(mutex_);
    if (auto it = messages_.find(messageId); it != messages_.end()) {
      data = it->second.data;
    } else if (auto held = pins_->Held(messageId)) {
      data = std::move(*held);
    } else {
      return std::nullopt;
    }
  }
  // The author as the Client knows them now (presence, relationship), else as the message carried them.
  if (auto author = users_.User(data.authorId)) data.author = std::move(author);
  return MessageHandle(std::move(data));
}

std::optional<ChannelHandle> MessageService::Channel(uint64_t channelId) const {
  if (channelId == 0) return std::nullopt;
  if (auto lobby = lobbies_.Get(channelId)) {
    auto linked = lobby->LinkedChannel();
    return ChannelHandle(channelId, linked ? linked->Name() : std::string(), lobby->LobbyMemberIds(),
                         ChannelType::Lobby);
  }
  uint64_t other = 0;
  bool ephemeral = false;
  std::string carriedName;
  {
    std::lock_guard lock(mutex_);
    auto it = channels_.find(channelId);
    if (it == channels_.end()) return std::nullopt;
    if (it->second.lobby) return ChannelHandle(channelId, std::string(), {}, ChannelType::Lobby);
    other = it->second.otherUserId;
    ephemeral = it->second.ephemeral;
    for (auto id = it->second.ids.rbegin(); id != it->second.ids.rend() && carriedName.empty(); ++id) {
      const auto& data = messages_.at(*id).data;
      if (data.authorId == other && data.author) carriedName = data.author->DisplayName();
    }
  }
  std::string name = carriedName;
  if (auto user = users_.User(other)) name = user->DisplayName();
  std::vector<uint64_t> recipients;
  if (uint64_t self = SelfId()) recipients.push_back(self);
  if (other != 0) recipients.push_back(other);
  return ChannelHandle(channelId, std::move(name), std::move(recipients),
                       ephemeral ? ChannelType::EphemeralDm : ChannelType::Dm);
}

std::vector<uint64_t> MessageService::ChannelMessageIds(uint64_t channelId) const {
  std::lock_guard lock(mutex_);
  auto it = channels_.find(channelId);
  return it == channels_.end() ? std::vector<uint64_t>() : it->second.ids;
}

MessageService::ChannelRecord& MessageService::ChannelFor(const ParsedMessage& message) {
  ChannelRecord& channel = channels_[message.data.channelId];
  if (message.data.lobbyId) {
    channel.lobby = true;
  } else {
    channel.ephemeral = message.Ephemeral();
    uint64_t other = message.data.recipientId;
    uint64_t self = 0;
    if (auto user = users_.CurrentUser()) self = user->Id();
    if (self != 0 && message.data.authorId != self) other = message.data.authorId;
    if (other != 0) {
      channel.otherUserId = other;
      dmChannels_[other] = message.data.channelId;
    }
  }
  return channel;
}

bool MessageService::Keep(ChannelRecord& channel, ParsedMessage message) {
  uint64_t id = message.data.id;
  if (auto it = messages_.find(id); it != messages_.end()) {
    // The newer state of the same message (an edit, moderation metadata) wins.
    if (message.data.editedTimestamp >= it->second.data.editedTimestamp) it->second = std::move(message);
    return true;
  }
  if (channel.ids.size() >= kWindow && id < channel.ids.front()) {
    pins_->HoldIfPinned(std::move(message));
    return false;
  }
  channel.ids.insert(std::upper_bound(channel.ids.begin(), channel.ids.end(), id), id);
  messages_.emplace(id, std::move(message));
  if (channel.ids.size() > kWindow) {
    auto oldest = messages_.find(channel.ids.front());
    pins_->HoldIfPinned(std::move(oldest->second));
    messages_.erase(oldest);
    channel.ids.erase(channel.ids.begin());
  }
  return true;
}

void MessageService::Pins::Pin(uint64_t id) {
  std::lock_guard lock(mutex);
  ++count[id];
}

void MessageService::Pins::Unpin(uint64_t id) {
  std::lock_guard lock(mutex);
  auto it = count.find(id);
  if (it == count.end() || --it->second > 0) return;
  count.erase(it);
  held.erase(id);
}

void MessageService::Pins::HoldIfPinned(ParsedMessage message) {
  std::lock_guard lock(mutex);
  const uint64_t id = message.data.id;
  if (!count.contains(id)) return;
  auto [it, added] = held.try_emplace(id, std::move(message));
  if (!added && message.data.editedTimestamp >= it->second.data.editedTimestamp)
    it->second = std::move(message);
}

std::optional<MessageHandle::Data> MessageService::Pins::Held(uint64_t id) {
  std::lock_guard lock(mutex);
  auto it = held.find(id);
  if (it == held.end()) return std::nullopt;
  return it->second.data;
}

void MessageService::Pins::Drop(uint64_t id) {
  std::lock_guard lock(mutex);
  held.erase(id);
}

bool MessageService::MarkAnnounced(ChannelRecord& channel, uint64_t id) {
  if (id <= channel.announcedFloor || !channel.announced.insert(id).second) return false;
  if (channel.announced.size() > kAnnouncedKept) {
    channel.announcedFloor = *channel.announced.begin();
    channel.announced.erase(channel.announced.begin());
  }
  channel.newestAnnounced = std::max(channel.newestAnnounced, id);
  return true;
}

void MessageService::Created(ParsedMessage message, Source source, std::vector<Pending>& events) {
  uint64_t id = message.data.id;
  uint64_t channelId = message.data.channelId;
  std::lock_guard lock(mutex_);
  ChannelRecord& channel = ChannelFor(message);
  // A history answer announces only what is newer than what the channel announced already: the gap a lost
  // Gateway session left. Older history is the game's to read, not news.
  bool announce = true;
  if (source == Source::History) {
    announce = channel.newestAnnounced != 0 && id > channel.newestAnnounced;
  } else if (source == Source::CatchUp) {
    announce = channel.catchUpFrom != 0 && id > channel.catchUpFrom;
  }
  if (source == Source::Gateway || source == Source::CatchUp)
    channel.newestStreamed = std::max(channel.newestStreamed, id);
  // Announced with the catch-up's messages, in id order, when it ends; or now.
  const bool wait = announce && channel.catchUpRound != 0 && source != Source::History;
  const bool now = announce && !wait && MarkAnnounced(channel, id);
  if (wait || now) pins_->Pin(id);  // before Keep: the window may let it go at once
  Keep(channel, std::move(message));
  if (wait) channel.deferred.push_back(id);
  if (now) events.push_back(Pending{Event::Created, id, channelId});
}

void MessageService::CatchUpFailed(const std::string& path, uint64_t channelId, uint64_t round, int attempt) {
  constexpr int kAttempts = 5;
  if (timer_ && attempt + 1 < kAttempts) {
    timer_->After(std::chrono::seconds(1 << attempt), [this, path, channelId, round, attempt] {
      {
        std::lock_guard lock(mutex_);
        auto it = channels_.find(channelId);
        if (it == channels_.end() || it->second.catchUpRound != round) return;  // a newer one took over
      }
      FetchHistory(path, kMaxHistoryLimit, Source::CatchUp, nullptr, channelId, round, attempt + 1);
    });
    return;
  }
  runtime_.Log().Warning("message catch-up: given up after " + std::to_string(kAttempts) +
                         " attempts; messages of the lost session may be missing");
  std::vector<Pending> events;
  EndCatchUp(channelId, round, events);
  Post(events);
}

void MessageService::EndCatchUp(uint64_t channelId, uint64_t round, std::vector<Pending>& events) {
  std::lock_guard lock(mutex_);
  auto it = channels_.find(channelId);
  if (it == channels_.end() || it->second.catchUpRound != round) return;  // a newer catch-up owns it
  ChannelRecord& channel = it->second;
  channel.catchUpRound = 0;
  auto deferred = std::exchange(channel.deferred, {});
  std::sort(deferred.begin(), deferred.end());
  for (const uint64_t id : deferred) {
    if (MarkAnnounced(channel, id))
      events.push_back(Pending{Event::Created, id, channelId});  // the pin goes with the event
    else
      pins_->Unpin(id);
  }
}

void MessageService::Updated(ParsedMessage message, std::vector<Pending>& events) {
  uint64_t id = message.data.id;
  uint64_t channelId = message.data.channelId;
  std::lock_guard lock(mutex_);
  ChannelRecord& channel = ChannelFor(message);
  pins_->Pin(id);
  if (auto it = messages_.find(id); it != messages_.end()) {
    it->second = std::move(message);
  } else {
    Keep(channel, std::move(message));
  }
  events.push_back(Pending{Event::Updated, id, channelId});
}

void MessageService::Deleted(uint64_t messageId, uint64_t channelId, std::vector<Pending>& events) {
  std::lock_guard lock(mutex_);
  messages_.erase(messageId);
  pins_->Drop(messageId);  // a deleted message is gone, also for a callback still queued
  if (auto it = channels_.find(channelId); it != channels_.end()) {
    auto& ids = it->second.ids;
    ids.erase(std::remove(ids.begin(), ids.end(), messageId), ids.end());
    MarkAnnounced(it->second, messageId);  // a late copy of a deleted message is not news
  }
  events.push_back(Pending{Event::Deleted, messageId, channelId});
}

// --- Gateway (network thread)
// -------------------------------------------------------------------------------

void MessageService::CatchUp(const std::vector<PrivateChannel>& privateChannels) {
  struct Fetch {
    uint64_t id;
    bool lobby;
    uint64_t round = 0;
  };
  std::vector<Fetch> fetches;
  {
    std::lock_guard lock(mutex_);
    // The newest message the lost session brought, in any channel: ids are ordered by time, so a DM channel
    // this Client announced nothing in has its gap's messages after it.
    uint64_t gapStart = 0;
    for (const auto& [id, channel] : channels_)
      gapStart = std::max(gapStart, channel.newestStreamed);
    for (const auto& [id, lastMessageId] : privateChannels) {
      if (const auto known = channels_.find(id);
          known != channels_.end() &&
          (known->second.lobby || known->second.newestAnnounced != 0 || known->second.catchUpRound != 0))
        continue;  // caught up below, or already being caught up
      if (gapStart == 0 || lastMessageId <= gapStart) continue;  // nothing after the gap's start
      channels_[id].catchUpFrom = gapStart;
      fetches.push_back({id, false});
    }
    for (auto& [id, channel] : channels_) {
      if (channel.newestAnnounced == 0) continue;
      // The gap starts after the newest message the lost session delivered; a channel that only announced
      // the player's own messages, after the oldest of those (older history is not news). A catch-up still
      // unfinished (failed, being tried again) keeps its older start: its gap is not filled yet.
      uint64_t oldestAnnounced = channel.announcedFloor != 0 ? channel.announcedFloor
                                 : channel.announced.empty() ? channel.newestAnnounced
                                                             : *channel.announced.begin();
      if (channel.catchUpRound == 0)
        channel.catchUpFrom = channel.newestStreamed != 0 ? channel.newestStreamed : oldestAnnounced;
      fetches.push_back({id, channel.lobby});
    }
  }
  if (!runtime_.credentials.Get()) return;
  // A lobby the player left is not fetched (the store took READY's lobbies before this sink).
  std::erase_if(fetches, [this](const Fetch& fetch) { return fetch.lobby && !lobbies_.Get(fetch.id); });
  {
    std::lock_guard lock(mutex_);
    for (auto& fetch : fetches)
      fetch.round = channels_[fetch.id].catchUpRound = ++catchUpRounds_;
  }
  runtime_.Log().Info("message catch-up after a new session: " + std::to_string(fetches.size()) +
                      " channels");
  for (const auto& fetch : fetches) {
    std::string path = (fetch.lobby ? "/lobbies/" : "/channels/") + std::to_string(fetch.id) +
                       "/messages?limit=" + std::to_string(kMaxHistoryLimit);
    FetchHistory(path, kMaxHistoryLimit, Source::CatchUp, nullptr, fetch.id, fetch.round);
  }
}

std::span<const gateway::DispatchClaim> MessageService::DispatchClaims() noexcept {
  return kClaims;
}

void MessageService::OnDispatch(const gateway::Dispatch& dispatch) {
  std::optional<std::size_t> claim = gateway::FindClaim(kClaims, dispatch.type);
  if (!claim) return;
  const auto kind = static_cast<Kind>(*claim);
  if (kind == Kind::Ready) {
    bool again;
    {
      std::lock_guard lock(mutex_);
      again = std::exchange(readySeen_, true);
    }
    if (!again) return;
    // READY's private channels: the player's DM channels with their newest message. A DM in a channel this
    // Client never saw, sent while it had no session, is news it can only learn of here.
    std::vector<PrivateChannel> privateChannels;
    if (const json::Value* data = dispatch.Data()) {
      if (const auto it = data->FindMember("private_channels");
          it != data->MemberEnd() && it->value.IsArray()) {
        for (const auto& item : it->value.GetArray()) {
          if (!item.IsObject()) continue;
          const auto id = json::GetSnowflake(item, "id");
          const auto last = json::GetSnowflake(item, "last_message_id");
          if (id && last) privateChannels.push_back({*id, *last});
        }
      }
    }
    CatchUp(privateChannels);
    return;
  }
  const json::Value* data = dispatch.Data();
  if (data == nullptr) {
    runtime_.Log().Warning(std::string(dispatch.type) + ": ignored, `d` is not a JSON object");
    return;
  }
  const json::Value& document = *data;
  std::vector<Pending> events;
  switch (kind) {
    case Kind::LobbyDelete:
    case Kind::DmDelete: {
      auto id = json::GetSnowflake(document, "id");
      auto channelId = json::GetSnowflake(document, "channel_id");
      if (!channelId) channelId = json::GetSnowflake(document, "lobby_id");
      if (!id || !channelId) {
        runtime_.Log().Warning(std::string(dispatch.type) + ": ignored, no message or channel id");
        return;
      }
      Deleted(*id, *channelId, events);
      break;
    }
    default: {
      bool lobby = kind == Kind::LobbyCreate || kind == Kind::LobbyUpdate;
      if (!lobby) {
        // Guild channel messages are not the SDK's.
        if (const json::Value* guild = json::Member(document, "guild_id"); guild && !guild->IsNull()) return;
        if (social::IsActivityInvite(document)) return;  // the presence service's
      }
      auto message = ParseMessage(document, SelfId());
      if (!message || (lobby && !message->data.lobbyId)) {
        runtime_.Log().Warning(std::string(dispatch.type) + ": ignored, not a well-formed message");
        return;
      }
      if (kind == Kind::LobbyCreate || kind == Kind::DmCreate) {
        Created(std::move(*message), Source::Gateway, events);
      } else {
        Updated(std::move(*message), events);
      }
    }
  }
  Post(events);
}

void MessageService::Post(const std::vector<Pending>& events) {
  core::CallbackQueue& queue = runtime_.Queue();
  // Run by the event on the game thread, after the game's callback.
  auto release = [pins = pins_](uint64_t id) { return [pins, id] { pins->Unpin(id); }; };
  for (const Pending& pending : events) {
    switch (pending.event) {
      case Event::Created:
        callbacks.created.PostThen(queue, release(pending.messageId), pending.messageId);
        break;
      case Event::Updated:
        callbacks.updated.PostThen(queue, release(pending.messageId), pending.messageId);
        break;
      case Event::Deleted:
        callbacks.deleted.Post(queue, pending.messageId, pending.channelId);
        break;
    }
  }
}

void MessageService::SetShowingChat(bool showingChat) {
  std::lock_guard lock(mutex_);
  showingChat_ = showingChat;
}

}  // namespace platformpp::messaging
