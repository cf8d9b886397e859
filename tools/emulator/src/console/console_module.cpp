#include "console/console_module.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/api_error.hpp"

namespace platformpp::emulator {

namespace {

// The file types the page is made of; anything else is not served.
const char* content_type(std::string_view name) {
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos) return nullptr;
  const auto extension = name.substr(dot + 1);
  if (extension == "html") return "text/html; charset=utf-8";
  if (extension == "css") return "text/css; charset=utf-8";
  if (extension == "js") return "text/javascript; charset=utf-8";
  if (extension == "svg") return "image/svg+xml";
  if (extension == "png") return "image/png";
  return nullptr;
}

// A plain file name: no directories, no hidden files.
bool plain_name(std::string_view name) {
  return !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-' || c == '_';
  });
}

}  // namespace

ConsoleModule::ConsoleModule(ServiceContext& context) : FeatureModule(context) {
  admin_router_.add("GET", "/ui", bind(&ConsoleModule::admin_index));
  admin_router_.add("GET", "/ui/", bind(&ConsoleModule::admin_index));
  admin_router_.add("GET", "/ui/{name}", bind(&ConsoleModule::admin_file));
}

HttpResponse ConsoleModule::admin_index(const RouteContext&) {
  return serve("index.html");
}

HttpResponse ConsoleModule::admin_file(const RouteContext& context) {
  return serve(context.params.at("name"));
}

HttpResponse ConsoleModule::serve(const std::string& name) const {
  const char* type = content_type(name);
  if (!plain_name(name) || type == nullptr || directory_.empty()) {
    return error_response(404, error_code::kGeneral, "404: Not Found");
  }
  std::ifstream file(directory_ + "/" + name, std::ios::binary);
  if (!file) return error_response(404, error_code::kGeneral, "404: Not Found");
  std::ostringstream body;
  body << file.rdbuf();
  HttpResponse response;
  response.status = 200;
  response.body = body.str();
  response.headers.emplace_back("Content-Type", type);
  response.headers.emplace_back("Cache-Control", "no-cache");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  // The page runs only its own files and talks only to this emulator.
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  return response;
}

}  // namespace platformpp::emulator
