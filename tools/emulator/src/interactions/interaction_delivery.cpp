// How an interaction reaches its application and how the admin request that played the user learns the
// outcome. With an interactions endpoint URL: a POST signed like webhook events (Ed25519 over the real-time
// timestamp and the body), whose answer is the initial response (200 with it) or a promise to call back
// (202); without one: INTERACTION_CREATE to the bot's Gateway session on the guild's shard. The initial
// response is due 3 s after delivery on the fake clock (the tick fails the interaction then; the endpoint's
// exchange also times out at 3 s of real time), the token lives 15 minutes. The admin PUT of the endpoint URL
// checks it as the developer portal does: a request with a bad signature must be refused (401), then the
// signed PING must be answered with type 1.
#include <utility>

#include "core/json.hpp"
#include "core/json_body.hpp"
#include "interactions/interactions_module.hpp"
#include "webhook/webhook_signature.hpp"
#include "webhook/webhook_url.hpp"

namespace platformpp::emulator {

namespace {

constexpr std::chrono::milliseconds kEndpointTimeout{interaction_limit::kInitialResponseMs};

WebhookPost signed_post(const Application& app, WebhookUrl url, std::string body) {
  WebhookPost post;
  post.url = std::move(url);
  post.ca_file = app.interactions_endpoint_ca_file;
  post.timestamp = std::to_string(FakeClock::system_now_ms() / 1000);
  post.signature = sign_webhook(app.signing_secret_key, post.timestamp, body);
  post.body = std::move(body);
  post.timeout = kEndpointTimeout;
  return post;
}

std::string ping_json(const Application& app, const std::string& id, const std::string& token) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, id);
    writer.Key("application_id");
    write_string(writer, app.id);
    writer.Key("type");
    writer.Int(interaction_type::kPing);
    writer.Key("token");
    write_string(writer, token);
    writer.Key("version");
    writer.Int(1);
    writer.EndObject();
  });
}

// The answer's interaction response object, if it is one.
std::optional<rapidjson::Document> response_of(const WebhookPostResult& result) {
  rapidjson::Document body;
  parse_stored_json(result.body, body);
  if (!body.IsObject()) return std::nullopt;
  return body;
}

}  // namespace

void InteractionsModule::set_transport(WebhookTransport* transport) {
  transport_ = transport;
}

HttpResponse InteractionsModule::deliver(Interaction interaction, std::string payload) {
  const Application& app = *state_.find_application(interaction.app_id);
  interaction.waiter = std::make_shared<DeferredResponse>();
  auto waiter = interaction.waiter;
  const auto id = interaction.id;
  interaction_of_token_[interaction.token] = id;
  auto& kept = interactions_.insert_or_assign(id, std::move(interaction)).first->second;

  if (app.interactions_endpoint_url && transport_ != nullptr) {
    std::string error;
    auto url = parse_webhook_url(*app.interactions_endpoint_url, error);
    if (!url) {
      report(kept, "the interactions endpoint URL is no longer valid: " + error);
      return HttpResponse::later(std::move(waiter));
    }
    kept.delivery = Interaction::Delivery::endpoint;
    transport_->post(signed_post(app, std::move(*url), std::move(payload)),
                     [this, id](const WebhookPostResult& result) { endpoint_answered(id, result); });
    return HttpResponse::later(std::move(waiter));
  }

  // The bot's session on the shard of the guild (DMs are shard 0's), the newest if it has several.
  const GatewaySession* target = nullptr;
  for (const auto* session : gateway_.sessions_of_user(app.bot_user_id)) {
    if (!session->bot || session->app_id != app.id) continue;
    if (kept.guild_id ? !guild_in_shard(*session, *kept.guild_id) : session->shard_id != 0) continue;
    target = session;
  }
  if (target == nullptr) {
    report(kept, "the application has no interactions endpoint URL and its bot has no Gateway session");
    return HttpResponse::later(std::move(waiter));
  }
  kept.delivery = Interaction::Delivery::gateway;
  gateway_.dispatch(target->id, "INTERACTION_CREATE", payload);
  return HttpResponse::later(std::move(waiter));
}

void InteractionsModule::endpoint_answered(const std::string& interaction_id,
                                           const WebhookPostResult& result) {
  const auto it = interactions_.find(interaction_id);
  if (it == interactions_.end()) return;
  auto& interaction = it->second;
  if (interaction.response_type || interaction.expired_unanswered) return;  // called back meanwhile
  if (!result.status) {
    report(interaction, "the interactions endpoint gave no answer (" + result.error + ")");
    return;
  }
  if (*result.status == 202) return;  // it calls back through the callback route
  if (*result.status != 200) {
    report(interaction, "the interactions endpoint answered " + std::to_string(*result.status));
    return;
  }
  auto body = response_of(result);
  if (!body) {
    report(interaction, "the interactions endpoint's answer is not an interaction response");
    return;
  }
  if (auto refused = respond(interaction, *body, {}, nullptr)) {
    report(interaction, "the interactions endpoint's response was refused: " + refused->body);
  }
}

void InteractionsModule::report(Interaction& interaction, std::optional<std::string> error) {
  if (error && !interaction.response_type) interaction.expired_unanswered = true;
  if (!interaction.waiter) return;
  auto waiter = std::move(interaction.waiter);
  interaction.waiter.reset();
  waiter->set(HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                                   writer.StartObject();
                                   writer.Key("interaction");
                                   writer.StartObject();
                                   writer.Key("id");
                                   write_string(writer, interaction.id);
                                   writer.Key("type");
                                   writer.Int(interaction.type);
                                   writer.Key("token");
                                   write_string(writer, interaction.token);
                                   writer.Key("channel_id");
                                   write_string(writer, interaction.channel_id);
                                   writer.EndObject();
                                   writer.Key("response");
                                   if (interaction.response_json) {
                                     write_raw(writer, *interaction.response_json, rapidjson::kObjectType);
                                   } else {
                                     writer.Null();
                                   }
                                   if (interaction.original_message_id) {
                                     writer.Key("message_id");
                                     write_string(writer, *interaction.original_message_id);
                                   }
                                   if (error) {
                                     writer.Key("error");
                                     write_string(writer, *error);
                                   }
                                   writer.EndObject();
                                 })));
}

void InteractionsModule::tick() {
  const auto now = clock_.now_ms();
  for (auto it = interactions_.begin(); it != interactions_.end();) {
    auto& interaction = it->second;
    if (!interaction.response_type && !interaction.expired_unanswered &&
        now - interaction.created_ms > interaction_limit::kInitialResponseMs) {
      report(interaction, "the application did not respond within 3 s");
    }
    if (now - interaction.created_ms > interaction_limit::kTokenLifetimeMs) {
      if (interaction.waiter) interaction.waiter->abandon();
      interaction_of_token_.erase(interaction.token);
      it = interactions_.erase(it);
    } else {
      ++it;
    }
  }
}

// {url, ca_file?} (null url: interactions go to the Gateway again). The developer portal's check first: a
// request with a bad signature, which the endpoint must refuse with 401, then the signed PING, which it
// must answer with {"type": 1}; the URL is taken only then.
HttpResponse InteractionsModule::admin_put_interactions_endpoint(const RouteContext& context) {
  Application* app = state_.find_application_mutable(context.params.at("app_id"));
  if (app == nullptr) return unknown_application();
  rapidjson::Document body;
  if (auto error = read_json_object(context.request, body)) return std::move(*error);
  FieldErrors errors;
  BodyFields fields(body, errors);
  if (const auto it = body.FindMember("url"); it != body.MemberEnd() && it->value.IsNull()) {
    app->interactions_endpoint_url.reset();
    app->interactions_endpoint_ca_file.reset();
    return HttpResponse::json(200, R"({"url":null})");
  }
  const auto url_text = fields.string("url", true);
  const auto ca_file = fields.string("ca_file", false);
  std::optional<WebhookUrl> url;
  if (url_text) {
    std::string reason;
    url = parse_webhook_url(*url_text, reason);
    if (!url) fields.add_issue("url", {"URL_TYPE_INVALID_URL", reason});
  }
  if (!errors.empty()) return invalid_form_body(errors);
  if (transport_ == nullptr) {
    return error_response(503, error_code::kGeneral,
                          "Interactions endpoints need the emulator's network side, which is not running.");
  }
  auto answer = std::make_shared<DeferredResponse>();
  const auto refuse = [answer](const std::string& why) {
    FieldErrors url_errors;
    url_errors.add({"url"}, {"APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID",
                             "The specified interactions endpoint url could not be verified: " + why});
    answer->set(invalid_form_body(url_errors));
  };
  Application probe = *app;
  probe.interactions_endpoint_url = url_text;
  probe.interactions_endpoint_ca_file = ca_file;
  const auto ping = ping_json(probe, snowflakes_.next_string(), snowflakes_.next_string());
  auto forged = signed_post(probe, *url, ping);
  forged.signature[0] = forged.signature[0] == '0' ? '1' : '0';  // one digit off: a bad signature
  transport_->post(std::move(forged), [this, answer, refuse, probe, url = *url, ping,
                                       app_id = app->id](const WebhookPostResult& forged_result) {
    if (!forged_result.status) return refuse("no answer (" + forged_result.error + ")");
    if (*forged_result.status != 401) {
      return refuse("a request with a bad signature was answered " + std::to_string(*forged_result.status) +
                    " (it must be refused with 401)");
    }
    if (transport_ == nullptr) return refuse("the emulator is stopping");
    transport_->post(signed_post(probe, url, ping), [this, answer, refuse, app_id,
                                                     probe](const WebhookPostResult& result) {
      if (!result.status) return refuse("no answer to the PING (" + result.error + ")");
      const auto pong = response_of(result);
      const auto type =
          pong && pong->HasMember("type") && (*pong)["type"].IsInt() ? (*pong)["type"].GetInt() : 0;
      if (*result.status != 200 || type != callback_type::kPong) {
        return refuse("the PING was answered " + std::to_string(*result.status) + " without {\"type\": 1}");
      }
      Application* verified = state_.find_application_mutable(app_id);
      if (verified == nullptr) return refuse("the application is gone");
      verified->interactions_endpoint_url = probe.interactions_endpoint_url;
      verified->interactions_endpoint_ca_file = probe.interactions_endpoint_ca_file;
      answer->set(HttpResponse::json(200, to_json([&](JsonWriter& writer) {
                                       writer.StartObject();
                                       writer.Key("url");
                                       write_optional_string(writer, verified->interactions_endpoint_url);
                                       writer.Key("ca_file");
                                       write_optional_string(writer, verified->interactions_endpoint_ca_file);
                                       writer.EndObject();
                                     })));
    });
  });
  return HttpResponse::later(std::move(answer));
}

}  // namespace platformpp::emulator
