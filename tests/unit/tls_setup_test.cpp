// The TLS client contexts the SDK's connections share: one per trust while anything holds it, and the last
// one used kept warm so that Clients made one after another do not load the CA store each time.
#include "net/tls_setup.hpp"
#include "core/callback_queue.hpp"
#include "core/logger.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>

namespace tls_setup_test {

using namespace platformpp;

TEST_CASE("the TLS context for a trust is shared, and the last one stays warm after its holders go") {
  auto queue = std::make_shared<core::CallbackQueue>();
  core::Logger logger(queue);
  std::string error;
  net::TlsTrust system;  // the system store
  net::TlsTrust none;
  none.useSystemCertificates = false;

  auto first = net::ClientTlsContext(system, logger, "test", error);
  REQUIRE(first);
  auto second = net::ClientTlsContext(system, logger, "test", error);
  CHECK(second == first);

  // Every holder gone: the context lives on, and the next Client gets it back.
  std::weak_ptr<SSL_CTX> weak = first;
  first.reset();
  second.reset();
  CHECK_FALSE(weak.expired());
  auto again = net::ClientTlsContext(system, logger, "test", error);
  CHECK(again == weak.lock());
  again.reset();

  // Another trust takes the warm place: the first context is freed once nothing holds it.
  auto other = net::ClientTlsContext(none, logger, "test", error);
  REQUIRE(other);
  CHECK(other != weak.lock());
  CHECK(weak.expired());
  CHECK(error.empty());
}

}  // namespace tls_setup_test
