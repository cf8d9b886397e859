// The web console's files (docs/emulator-state.md): GET /_emulator/ui serves index.html and
// /_emulator/ui/<name> the other files of the UI directory (flat, no build step). The live socket beside
// them (/_emulator/ui/live) is the server's (console_stream.hpp says what it sends).
#pragma once

#include <string>

#include "core/service_context.hpp"

namespace platformpp::emulator {

class ConsoleModule : public FeatureModule {
 public:
  explicit ConsoleModule(ServiceContext& context);
  // Where the files are: --ui-dir, the installed share/platformpp-emulator/ui, or the source tree's.
  void set_directory(std::string directory) { directory_ = std::move(directory); }

 private:
  HttpResponse admin_index(const RouteContext& context);
  HttpResponse admin_file(const RouteContext& context);
  [[nodiscard]] HttpResponse serve(const std::string& name) const;

  std::string directory_;
};

}  // namespace platformpp::emulator
