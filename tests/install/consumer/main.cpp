#include <platformpp/platformpp.hpp>

#include <cstdio>

int main() {
  platformpp::Client client;
  int calls = 0;
  client.FetchCurrentUser(platformpp::AuthorizationTokenType::Bearer, "",
                          [&](platformpp::ClientResult result, uint64_t, std::string) {
                            calls += result.Type() == platformpp::ErrorType::ValidationError ? 1 : 100;
                          });
  client.RunCallbacks();
  std::printf("consumer: platformpp %s, %d callback\n", PLATFORMPP_VERSION_STRING, calls);
  return calls == 1 ? 0 : 1;
}
