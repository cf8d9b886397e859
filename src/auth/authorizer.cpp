#include "auth/authorizer.hpp"

#include "auth/pkce.hpp"
#include "ipc/ipc_connection.hpp"
#include "json/json.hpp"
#include "net/loopback_redirect_listener.hpp"
#include "net/url.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#ifdef _WIN32
#include "core/win32.hpp"

#include <windows.h>

#include <objbase.h>
#include <shellapi.h>
#else
#include <spawn.h>
#include <sys/wait.h>
#endif

namespace platformpp::auth {

struct Authorizer::Pending {
  AuthorizeCompletion completion;
  std::unique_ptr<net::LoopbackRedirectListener> listener;  // mutex_; the browser flow only
  std::string state;
  std::string redirectUri;  // set before the code can come back
  AuthorizationArgs args;
  uint64_t applicationId = 0;
};

namespace {

ClientResult Failed(ErrorType type, std::string message, std::string oauthError = {}) {
  ClientResult::Details details;
  details.type = type;
  details.error = std::move(message);
  details.oauthError = std::move(oauthError);
  return ClientResult(std::move(details));
}

}  // namespace

std::string MobileRedirectUri(const AuthorizationArgs& args, uint64_t applicationId) {
  if (args.CustomSchemeParam() && !args.CustomSchemeParam()->empty()) {
    return *args.CustomSchemeParam() + ":/authorize/callback";
  }
  return "discord-" + std::to_string(applicationId) + ":/authorize/callback";
}

bool OpenWithSystemBrowser(const std::string& url) {
#if defined(_WIN32)
  // ShellExecute runs programs and opens files as readily as URLs: only a web address goes to it.
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return false;
  // The shell may hand the URL to a COM-based handler; it asks for COM on the calling thread (an apartment of
  // our own only when the thread has none yet: a game's thread keeps whatever it chose).
  HRESULT com = ::CoInitializeEx(nullptr, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  std::wstring wide = core::win32::Widen(url);
  HINSTANCE result = ::ShellExecuteW(nullptr, L"open", wide.c_str(), nullptr, nullptr, SW_SHOWNORMAL);
  if (SUCCEEDED(com)) ::CoUninitialize();
  // Values above 32 mean success (the documented convention of this old API).
  return reinterpret_cast<INT_PTR>(result) > 32;
#else
#if defined(__APPLE__)
  const char* program = "open";
#else
  const char* program = "xdg-open";
#endif
  std::vector<char*> argv = {const_cast<char*>(program), const_cast<char*>(url.c_str()), nullptr};
  pid_t pid = -1;
  if (::posix_spawnp(&pid, program, nullptr, nullptr, argv.data(), environ) != 0) return false;
  int status = 0;
  ::waitpid(pid, &status, 0);  // xdg-open hands the URL over and exits
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
#endif
}

Authorizer::Authorizer(core::Runtime& runtime, ipc::IpcLink& ipc) : runtime_(runtime), ipc_(ipc) {}

Authorizer::~Authorizer() {
  Shutdown();
}

void Authorizer::SetUrlOpener(UrlOpener opener) {
  std::lock_guard lock(mutex_);
  opener_ = opener ? std::make_shared<UrlOpener>(std::move(opener)) : nullptr;
}

std::shared_ptr<UrlOpener> Authorizer::Opener() {
  std::lock_guard lock(mutex_);
  return opener_;
}

void Authorizer::Authorize(AuthorizationArgs args, AuthorizationCallback callback) {
  auto started = runtime_.Start<std::string, std::string>(std::move(callback));
  if (!started) return;  // destroying: the callback hears ClientDestroyed
  AuthorizeCompletion& completion = *started;
  auto fail = [&](std::string message) {
    completion(Failed(ErrorType::ValidationError, std::move(message)), {}, {});
  };
  if (!args) return fail("args: not a valid AuthorizationArgs (nullobj)");
  uint64_t applicationId = args.ClientId() ? args.ClientId() : runtime_.applicationId.load();
  if (applicationId == 0) return fail("args.ClientId: not set (set it or call SetApplicationId)");
  if (args.Scopes().empty()) return fail("args.Scopes: required (e.g. GetDefaultCommunicationScopes())");
  if (args.State() && args.State()->empty()) return fail("args.State: must not be empty when set");

  Abort();  // one at a time: the previous one ends as Aborted

  auto pending = std::make_shared<Pending>();
  pending->completion = std::move(completion);
  // At least 128 bits, checked when the code comes back.
  pending->state = args.State() ? *args.State() : SecureRandomToken(24);
  runtime_.Log().Secrets().AddSecret(pending->state);
  pending->args = std::move(args);
  pending->applicationId = applicationId;
  {
    std::lock_guard lock(mutex_);
    pending_ = pending;
  }

  // The desktop client first, when one answers; the browser otherwise.
  ipc::IpcConnection* ipc = ipc_.Connection(applicationId);
  if (!ipc) return StartBrowser(pending);
  std::weak_ptr<Pending> weak = pending;
  ipc->WhenSettled([this, weak, ipc](bool ready) {
    auto which = weak.lock();
    if (!which) return;
    if (ready) return AuthorizeOverIpc(which, *ipc);
    core::PostEvent(runtime_.Queue(), [this, weak] {
      if (auto still = weak.lock()) StartBrowser(still);
    });
  });
}

void Authorizer::AuthorizeOverIpc(const std::shared_ptr<Pending>& pending, ipc::IpcConnection& ipc) {
  const AuthorizationArgs& args = pending->args;
  pending->redirectUri = MobileRedirectUri(args, pending->applicationId);
  json::Document body(rapidjson::kObjectType);
  auto& a = body.GetAllocator();
  auto text = [&a](const std::string& value) {
    return json::Value(value.c_str(), static_cast<rapidjson::SizeType>(value.size()), a);
  };
  body.AddMember("client_id", text(std::to_string(pending->applicationId)), a);
  json::Value scopes(rapidjson::kArrayType);
  for (std::string_view rest = args.Scopes(); !rest.empty();) {
    auto space = rest.find(' ');
    std::string scope(rest.substr(0, space));
    if (!scope.empty()) scopes.PushBack(text(scope), a);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  body.AddMember("scopes", scopes, a);
  body.AddMember("state", text(pending->state), a);
  body.AddMember("redirect_uri", text(pending->redirectUri), a);
  if (args.CodeChallenge()) {
    body.AddMember("code_challenge", text(args.CodeChallenge()->Challenge()), a);
    body.AddMember("code_challenge_method", "S256", a);
  }
  if (args.Nonce()) body.AddMember("nonce", text(*args.Nonce()), a);
  if (args.IntegrationType())
    body.AddMember("integration_type", static_cast<int>(*args.IntegrationType()), a);

  runtime_.Log().Info("Authorize: asking the desktop client");
  std::weak_ptr<Pending> weak = pending;
  ipc.Send("AUTHORIZE", json::Serialize(body), std::nullopt, runtime_.Options().authorizeTimeout,
           [this, weak](const ipc::IpcReply& reply) {
             auto which = weak.lock();
             if (!which) return;
             if (reply.ok) return FinishFromIpc(which, reply.dataJson);
             if (reply.errorCode == ipc::IpcReply::kNotConnected ||
                 reply.errorCode == ipc::IpcReply::kConnectionLost) {
               // The desktop client went away before it answered: the browser can still do it.
               runtime_.Log().Warning("Authorize: the desktop client went away; trying the browser");
               core::PostEvent(runtime_.Queue(), [this, weak] {
                 if (auto still = weak.lock()) StartBrowser(still);
               });
               return;
             }
             if (reply.errorCode == ipc::IpcReply::kTimeout) {
               return Finish(which,
                             Failed(ErrorType::AuthorizationFailed,
                                    "Authorize timed out waiting for the desktop client"),
                             {});
             }
             ClientResult::Details details;
             // 5000: the OAuth2 step failed (the player refused, most often); anything else is the RPC's.
             details.type = reply.errorCode == 5000 ? ErrorType::AuthorizationFailed : ErrorType::RPCError;
             details.errorCode = reply.errorCode;
             details.error = "the desktop client refused Authorize: " + reply.message;
             Finish(which, ClientResult(std::move(details)), {});
           });
}

void Authorizer::FinishFromIpc(const std::shared_ptr<Pending>& which, const std::string& dataJson) {
  json::Document data;
  data.Parse(dataJson.data(), dataJson.size());
  std::string code, state;
  bool hasState = false;
  if (data.IsObject()) {
    if (auto value = json::GetString(data, "code")) code = *value;
    if (auto value = json::GetString(data, "state")) {
      hasState = true;
      state = *value;
    }
  }
  if (hasState && state != which->state) {
    return Finish(
        which,
        Failed(ErrorType::AuthorizationFailed, "the desktop client's state does not match the request's"),
        {});
  }
  if (code.empty()) {
    return Finish(which,
                  Failed(ErrorType::AuthorizationFailed, "the desktop client's answer carries no code"), {});
  }
  runtime_.Log().Secrets().AddSecret(code);
  Finish(which, {}, std::move(code));
}

void Authorizer::StartBrowser(const std::shared_ptr<Pending>& pending) {
  {
    std::lock_guard lock(mutex_);
    if (pending != pending_) return;  // aborted or replaced meanwhile
  }
  const AuthorizationArgs& args = pending->args;
  std::weak_ptr<Pending> weak = pending;
  auto finish = [this, weak](ClientResult result, std::string code) {
    if (auto which = weak.lock()) Finish(which, std::move(result), std::move(code));
  };
  std::unique_ptr<net::LoopbackRedirectListener> listener;
  try {
    listener = std::make_unique<net::LoopbackRedirectListener>(
        runtime_.Io(),
        [this, finish, state = pending->state](const std::string& target) {
          std::string_view path = std::string_view(target).substr(0, target.find('?'));
          if (path != "/callback") return false;
          auto code = net::QueryParameter(target, "code");
          auto error = net::QueryParameter(target, "error");
          auto returned = net::QueryParameter(target, "state");
          if (!returned || *returned != state) {
            finish(
                Failed(ErrorType::AuthorizationFailed, "the redirect's state does not match the request's"),
                {});
          } else if (error) {
            finish(Failed(ErrorType::AuthorizationFailed,
                          net::QueryParameter(target, "error_description").value_or(*error), *error),
                   {});
          } else if (!code || code->empty()) {
            finish(Failed(ErrorType::AuthorizationFailed, "the redirect carries no code"), {});
          } else {
            runtime_.Log().Secrets().AddSecret(*code);
            finish({}, std::move(*code));
          }
          return true;
        },
        runtime_.Options().authorizeTimeout,
        [finish] {
          finish(Failed(ErrorType::AuthorizationFailed, "Authorize timed out waiting for the browser"), {});
        });
  } catch (const std::exception& e) {
    return Finish(pending, Failed(ErrorType::NetworkError, e.what()), {});
  }
  std::string redirectUri = "http://127.0.0.1:" + std::to_string(listener->Port()) + "/callback";
  std::shared_ptr<UrlOpener> opener;
  {
    std::lock_guard lock(mutex_);
    if (pending != pending_) {
      retired_.push_back(std::move(listener));  // aborted while the listener started
    } else {
      pending->redirectUri = redirectUri;
      pending->listener = std::move(listener);
      opener = opener_;
    }
  }
  if (!pending->listener) return StopRetired();

  std::string url = runtime_.Options().webBase + "/oauth2/authorize?response_type=code&client_id=" +
                    std::to_string(pending->applicationId) + "&scope=" + net::UrlEncode(args.Scopes()) +
                    "&state=" + net::UrlEncode(pending->state) +
                    "&redirect_uri=" + net::UrlEncode(redirectUri);
  if (args.CodeChallenge()) {
    url += "&code_challenge=" + net::UrlEncode(args.CodeChallenge()->Challenge()) +
           "&code_challenge_method=S256";
  }
  if (args.Nonce()) url += "&nonce=" + net::UrlEncode(*args.Nonce());
  if (args.IntegrationType())
    url += "&integration_type=" + std::to_string(static_cast<int>(*args.IntegrationType()));

  runtime_.Log().Info("Authorize: waiting for the browser on " + redirectUri);
  // The opener is the game's code (or starts a browser): it runs inside RunCallbacks like every callback.
  core::PostEvent(runtime_.Queue(), [this, opener, url, weak] {
    bool opened = opener ? (*opener)(url) : OpenWithSystemBrowser(url);
    if (auto which = weak.lock(); which && !opened) {
      Finish(which, Failed(ErrorType::AuthorizationFailed, "no browser could be opened for Authorize"), {});
    }
    StopRetired();
  });
}

void Authorizer::Finish(const std::shared_ptr<Pending>& which, ClientResult result, std::string code) {
  {
    std::lock_guard lock(mutex_);
    if (which != pending_) return;
    pending_.reset();
    if (which->listener) retired_.push_back(std::move(which->listener));
  }
  which->completion(std::move(result), std::move(code), which->redirectUri);
  // Stop the retired listener from the game thread, once it gets there.
  core::PostEvent(runtime_.Queue(), [this] { StopRetired(); });
}

void Authorizer::StopRetired() {
  std::vector<std::unique_ptr<net::LoopbackRedirectListener>> retired;
  {
    std::lock_guard lock(mutex_);
    retired.swap(retired_);
  }
  for (auto& listener : retired)
    listener->Stop();
}

void Authorizer::Abort() {
  std::shared_ptr<Pending> aborted;
  {
    std::lock_guard lock(mutex_);
    aborted = std::move(pending_);
  }
  if (aborted) {
    aborted->completion(Failed(ErrorType::Aborted, "Authorize was aborted"), {}, {});
    if (aborted->listener) aborted->listener->Stop();
  }
  StopRetired();
}

void Authorizer::Shutdown() {
  std::shared_ptr<Pending> pending;
  {
    std::lock_guard lock(mutex_);
    pending = std::move(pending_);
  }
  if (pending && pending->listener) pending->listener->Stop();
  StopRetired();
}

}  // namespace platformpp::auth
