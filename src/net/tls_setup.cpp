#include "net/tls_setup.hpp"

#include "core/logger.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>

#include <windows.h>

#include <wincrypt.h>

#include <filesystem>
#include <system_error>
#else
#include <arpa/inet.h>

#include <sys/stat.h>
#endif

#include <compare>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace platformpp::net {
namespace {

bool IsIpLiteral(const std::string& host) {
  unsigned char address[16];
  return ::inet_pton(AF_INET, host.c_str(), address) == 1 ||
         ::inet_pton(AF_INET6, host.c_str(), address) == 1;
}

std::string LastOpenSslError() {
  char text[256];
  ERR_error_string_n(ERR_get_error(), text, sizeof text);
  ERR_clear_error();
  return text;
}

}  // namespace

namespace {

/// What a context was made from; a file counts as the same while its identity, size and modification time
/// are (the emulator, say, writes a new CA file at the same path when it restarts).
struct TrustKey {
  bool system = false;
  std::string certFile;  // SSL_CERT_FILE, when the system store is used
  std::string caFile;
  std::vector<int64_t> stamps;
  auto operator<=>(const TrustKey&) const =
      default;  // NOLINT(modernize-use-nullptr): clang-tidy 14 misreads it
};

void Stamp(const std::string& path, std::vector<int64_t>& stamps) {
#ifdef _WIN32
  // No inode here: the size and the modification time (in the file system's own ticks) say it changed.
  std::error_code sizeError;
  std::error_code timeError;
  const std::filesystem::path file(path);
  const auto size = path.empty() ? 0 : std::filesystem::file_size(file, sizeError);
  const auto time =
      path.empty() ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(file, timeError);
  if (path.empty() || sizeError || timeError) {
    stamps.insert(stamps.end(), {-1, -1});
    return;
  }
  stamps.insert(stamps.end(),
                {static_cast<int64_t>(size), static_cast<int64_t>(time.time_since_epoch().count())});
#else
  struct stat info {};
  if (path.empty() || ::stat(path.c_str(), &info) != 0) {
    stamps.insert(stamps.end(), {-1, -1, -1, -1, -1});
    return;
  }
  stamps.insert(stamps.end(), {static_cast<int64_t>(info.st_dev), static_cast<int64_t>(info.st_ino),
                               static_cast<int64_t>(info.st_size), static_cast<int64_t>(info.st_mtim.tv_sec),
                               static_cast<int64_t>(info.st_mtim.tv_nsec)});
#endif
}

struct SharedContext {
  std::weak_ptr<SSL_CTX> context;
  std::vector<std::string> warnings;  // about the system store, said to every Client that uses it
};

struct ContextCache {
  std::mutex mutex;
  std::map<TrustKey, SharedContext> contexts;
  // The context last handed out stays alive after its last holder goes: a process that makes one Client at a
  // time (a C# game disposing and re-creating, a test suite) would otherwise load the CA store again for
  // each, which costs tens of milliseconds on every Client's first request. One context, so at most one
  // store's memory is kept beyond its users.
  std::shared_ptr<SSL_CTX> warm;
};

ContextCache& Cache() {
  // Weak references, and one strong one to the last context used: see ContextCache::warm.
  static ContextCache* cache = new ContextCache;  // never destroyed: Clients may outlive static destructors
  return *cache;
}

#ifdef _WIN32
// The system's trust on Windows is the certificate store, not a directory: every certificate of the current
// user's and the machine's "ROOT" store goes into the context's X509_STORE. Returns how many were added.
int AddWindowsRootStore(SSL_CTX* ctx, std::vector<std::string>& warnings) {
  HCERTSTORE store = ::CertOpenSystemStoreW(0, L"ROOT");
  if (!store) {
    warnings.emplace_back("cannot open the Windows certificate store ROOT");
    return 0;
  }
  X509_STORE* trusted = SSL_CTX_get_cert_store(ctx);
  int added = 0;
  for (PCCERT_CONTEXT cert = ::CertEnumCertificatesInStore(store, nullptr); cert;
       cert = ::CertEnumCertificatesInStore(store, cert)) {
    const unsigned char* der = cert->pbCertEncoded;
    X509* x509 = d2i_X509(nullptr, &der, static_cast<long>(cert->cbCertEncoded));
    if (!x509) continue;  // a certificate OpenSSL cannot parse cannot anchor a chain it checks either
    if (X509_STORE_add_cert(trusted, x509) == 1) ++added;
    X509_free(x509);
  }
  ERR_clear_error();  // duplicates (the same root in both stores) are not failures
  ::CertCloseStore(store, 0);
  return added;
}
#endif

std::shared_ptr<SSL_CTX> MakeContext(const TlsTrust& trust, const char* certFile,
                                     std::vector<std::string>& warnings, std::string& error) {
  std::shared_ptr<SSL_CTX> context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  if (!context) {
    error = "cannot create a TLS context: " + LastOpenSslError();
    return nullptr;
  }
  SSL_CTX* ctx = context.get();
  SSL_CTX_set_options(ctx, SSL_OP_ALL);
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  // Idle connections (a Client connected to the Gateway, a pooled HTTP connection) give their buffers back.
  SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
  if (trust.useSystemCertificates) {
#ifdef _WIN32
    // Not OpenSSL's default directory: on Windows it is a path any user may be able to create.
    if (AddWindowsRootStore(ctx, warnings) == 0)
      warnings.emplace_back("no certificate in the Windows certificate store ROOT");
#else
    if (SSL_CTX_set_default_verify_dir(ctx) != 1) {
      warnings.emplace_back("cannot use the system's certificate directory");
      ERR_clear_error();
    }
#endif
    if (certFile && SSL_CTX_load_verify_locations(ctx, certFile, nullptr) != 1)
      warnings.push_back(std::string("cannot load SSL_CERT_FILE ") + certFile + ": " + LastOpenSslError());
  }
  if (!trust.caFile.empty() && SSL_CTX_load_verify_locations(ctx, trust.caFile.c_str(), nullptr) != 1) {
    error = "cannot load the CA file " + trust.caFile + ": " + LastOpenSslError();
    return nullptr;
  }
  return context;
}

}  // namespace

std::shared_ptr<SSL_CTX> ClientTlsContext(const TlsTrust& trust, core::Logger& logger,
                                          std::string_view component, std::string& error) {
  const char* certFile = nullptr;
  if (const char* file = std::getenv("SSL_CERT_FILE"); trust.useSystemCertificates && file && *file)
    certFile = file;
  TrustKey key;
  key.system = trust.useSystemCertificates;
  key.certFile = certFile ? certFile : "";
  key.caFile = trust.caFile;
  Stamp(key.certFile, key.stamps);
  Stamp(key.caFile, key.stamps);

  ContextCache& cache = Cache();
  std::shared_ptr<SSL_CTX> context;
  std::vector<std::string> warnings;
  {
    // Held while a missing context is made, so that Clients starting together load the store once.
    std::lock_guard lock(cache.mutex);
    std::erase_if(cache.contexts, [](const auto& entry) { return entry.second.context.expired(); });
    if (auto found = cache.contexts.find(key); found != cache.contexts.end()) {
      context = found->second.context.lock();
      warnings = found->second.warnings;
    }
    if (!context) {
      context = MakeContext(trust, certFile, warnings, error);
      if (context) cache.contexts[key] = SharedContext{context, warnings};
    }
    if (context) cache.warm = context;
  }
  for (const auto& warning : warnings)
    logger.Warning(std::string(component) + ": " + warning);
  return context;
}

void ExpectPeerName(SSL* ssl, const std::string& host) {
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  if (IsIpLiteral(host)) {
    X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, host.c_str());
    X509_VERIFY_PARAM_set1_host(param, host.c_str(), host.size());
  }
}

}  // namespace platformpp::net
