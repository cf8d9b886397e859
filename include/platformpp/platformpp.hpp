#pragma once
// Everything platformpp offers a game, in one include.

#include <platformpp/activity.hpp>
#include <platformpp/authorization.hpp>
#include <platformpp/backend.hpp>
#include <platformpp/call.hpp>
#include <platformpp/channel_pins.hpp>
#include <platformpp/client.hpp>
#include <platformpp/client_result.hpp>
#include <platformpp/components.hpp>
#include <platformpp/guild_audit_log.hpp>
#include <platformpp/guild_members.hpp>
#include <platformpp/guild_roles.hpp>
#include <platformpp/interactions.hpp>
#include <platformpp/interactions_endpoint.hpp>
#include <platformpp/interactions_gateway.hpp>
#include <platformpp/io_context.hpp>
#include <platformpp/lobby.hpp>
#include <platformpp/logging.hpp>
#include <platformpp/message.hpp>
#include <platformpp/message_payload.hpp>
#include <platformpp/premium.hpp>
#include <platformpp/social.hpp>
#include <platformpp/version.hpp>
#include <platformpp/webhook_events.hpp>
