#include "auth/oauth_error.hpp"

#include <string>

#include "core/json.hpp"

namespace platformpp::emulator {

HttpResponse oauth_error(std::string_view error, std::string_view description, std::optional<int> code) {
  const bool client_error = error == oauth_error_code::kInvalidClient;
  auto response = HttpResponse::json(client_error ? 401 : 400, to_json([&](JsonWriter& writer) {
                                       writer.StartObject();
                                       writer.Key("error");
                                       write_string(writer, error);
                                       writer.Key("error_description");
                                       write_string(writer, description);
                                       if (code) {
                                         writer.Key("code");
                                         writer.Int(*code);
                                       }
                                       writer.EndObject();
                                     }));
  if (client_error) response.set_header("WWW-Authenticate", "Basic realm=\"platformpp-emulator\"");
  response.set_header("Cache-Control", "no-store");
  return response;
}

}  // namespace platformpp::emulator
