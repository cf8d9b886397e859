#include "auth/authorizer.hpp"

#include "auth/pkce.hpp"
#include "net/loopback_redirect_listener.hpp"
#include "net/url.hpp"

#include <cerrno>
#include <cstring>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace platformpp::auth {

struct Authorizer::Pending {
  AuthorizeCompletion completion;
  std::unique_ptr<net::LoopbackRedirectListener> listener;
  std::string state;
  std::string redirectUri;
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
}

Authorizer::Authorizer(core::ClientCore& core) : core_(core) {}

Authorizer::~Authorizer() {
  Shutdown();
}

void Authorizer::SetUrlOpener(UrlOpener opener) {
  std::lock_guard lock(mutex_);
  opener_ = opener ? std::make_shared<UrlOpener>(std::move(opener)) : nullptr;
}

void Authorizer::Authorize(AuthorizationArgs args, AuthorizeCompletion completion) {
  auto fail = [&](std::string message) {
    completion(Failed(ErrorType::ValidationError, std::move(message)), {}, {});
  };
  if (!args) return fail("args: not a valid AuthorizationArgs (nullobj)");
  uint64_t applicationId = args.ClientId() ? args.ClientId() : core_.applicationId.load();
  if (applicationId == 0) return fail("args.ClientId: not set (set it or call SetApplicationId)");
  if (args.Scopes().empty()) return fail("args.Scopes: required (e.g. GetDefaultCommunicationScopes())");
  if (args.State() && args.State()->empty()) return fail("args.State: must not be empty when set");

  Abort();  // one at a time: the previous one ends as Aborted

  auto pending = std::make_shared<Pending>();
  pending->completion = std::move(completion);
  // At least 128 bits, checked when the browser comes back.
  pending->state = args.State() ? *args.State() : SecureRandomToken(24);
  core_.Log().Secrets().AddSecret(pending->state);

  std::weak_ptr<Pending> weak = pending;
  auto finish = [this, weak](ClientResult result, std::string code) {
    if (auto which = weak.lock()) Finish(which, std::move(result), std::move(code));
  };
  try {
    pending->listener = std::make_unique<net::LoopbackRedirectListener>(
        core_.Io(),
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
            core_.Log().Secrets().AddSecret(*code);
            finish({}, std::move(*code));
          }
          return true;
        },
        core_.Options().authorizeTimeout,
        [finish] {
          finish(Failed(ErrorType::AuthorizationFailed, "Authorize timed out waiting for the browser"), {});
        });
  } catch (const std::exception& e) {
    return pending->completion(Failed(ErrorType::NetworkError, e.what()), {}, {});
  }
  pending->redirectUri = "http://127.0.0.1:" + std::to_string(pending->listener->Port()) + "/callback";

  std::string url = core_.Options().webBase +
                    "/oauth2/authorize?response_type=code&client_id=" + std::to_string(applicationId) +
                    "&scope=" + net::UrlEncode(args.Scopes()) + "&state=" + net::UrlEncode(pending->state) +
                    "&redirect_uri=" + net::UrlEncode(pending->redirectUri);
  if (args.CodeChallenge()) {
    url += "&code_challenge=" + net::UrlEncode(args.CodeChallenge()->Challenge()) +
           "&code_challenge_method=S256";
  }
  if (args.Nonce()) url += "&nonce=" + net::UrlEncode(*args.Nonce());
  if (args.IntegrationType())
    url += "&integration_type=" + std::to_string(static_cast<int>(*args.IntegrationType()));

  std::shared_ptr<UrlOpener> opener;
  {
    std::lock_guard lock(mutex_);
    pending_ = pending;
    opener = opener_;
  }
  core_.Log().Info("Authorize: waiting for the browser on " + pending->redirectUri);
  // The opener is the game's code (or starts a browser): it runs inside RunCallbacks like every callback.
  core::PostEvent(core_.Queue(), [this, opener, url, weak] {
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
  core::PostEvent(core_.Queue(), [this] { StopRetired(); });
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
