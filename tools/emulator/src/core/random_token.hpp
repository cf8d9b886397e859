// Unguessable tokens (access/refresh/bot tokens, client secrets) from OpenSSL's CSPRNG.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace platformpp::emulator {

// base64url without padding of `bytes` random bytes. Throws std::runtime_error if the CSPRNG fails.
std::string random_token(std::size_t bytes = 32);
std::string base64url_encode(std::string_view data);

}  // namespace platformpp::emulator
