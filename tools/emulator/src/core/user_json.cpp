#include "core/user_json.hpp"

#include "core/json.hpp"

namespace platformpp::emulator {

std::string deleted_user_json(std::string_view id) {
  User deleted;
  deleted.id = std::string(id);
  deleted.username = "Deleted User";
  return user_json(deleted);
}

std::string user_json(const User& user, bool show_premium, bool pii) {
  return to_json([&](JsonWriter& writer) {
    writer.StartObject();
    writer.Key("id");
    write_string(writer, user.id);
    writer.Key("username");
    write_string(writer, user.username);
    writer.Key("global_name");
    write_optional_string(writer, user.global_name);
    writer.Key("discriminator");
    writer.String("0");
    writer.Key("avatar");
    write_optional_string(writer, user.avatar);
    writer.Key("bot");
    writer.Bool(user.bot);
    writer.Key("flags");
    writer.Int(0);
    writer.Key("public_flags");
    writer.Int(0);
    if (pii) {
      writer.Key("mfa_enabled");
      writer.Bool(false);
      writer.Key("locale");
      writer.String("en-US");
    }
    writer.Key("premium_type");
    writer.Int(show_premium ? user.premium_type : 0);
    writer.Key("primary_guild");
    if (user.primary_guild) {
      writer.StartObject();
      writer.Key("identity_guild_id");
      write_string(writer, user.primary_guild->identity_guild_id);
      writer.Key("identity_enabled");
      writer.Bool(true);
      writer.Key("tag");
      write_string(writer, user.primary_guild->tag);
      writer.Key("badge");
      write_optional_string(writer, user.primary_guild->badge);
      writer.EndObject();
    } else {
      writer.Null();
    }
    writer.Key("provisional");
    writer.Bool(user.provisional);
    if (user.restricted) {
      writer.Key("restricted");
      writer.Bool(true);
    }
    writer.EndObject();
  });
}

}  // namespace platformpp::emulator
