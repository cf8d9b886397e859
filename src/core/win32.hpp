#pragma once
// Windows-only helpers shared by the layers that call Win32 directly (IPC named pipes, the system browser,
// the trust store, log files): UTF-8/UTF-16 conversion, error text, and the current user's SID. Compiled only
// for Windows; the header includes no Windows header, so that <windows.h> stays in the files that need it.
#ifdef _WIN32

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace platformpp::core::win32 {

/// UTF-8 to UTF-16 (the W functions' strings). Invalid UTF-8 becomes U+FFFD.
std::wstring Widen(std::string_view utf8);

/// UTF-16 to UTF-8. Unpaired surrogates become U+FFFD.
std::string Narrow(std::wstring_view utf16);

/// FormatMessage's text for a Win32 error code (GetLastError), without the trailing line break, followed by
/// the code in decimal.
std::string ErrorText(uint32_t code);

/// A SID in its binary form (what EqualSid compares).
using Sid = std::vector<uint8_t>;

/// The user this process runs as (its token's TokenUser SID); nullopt when the token cannot be read.
std::optional<Sid> CurrentUserSid();

/// The SID of `text` ("S-1-5-18"); nullopt when it is not a SID string.
std::optional<Sid> SidFromString(std::string_view text);

/// The string form ("S-1-5-21-...") of `sid`; empty when it is not a valid SID.
std::string SidToString(const Sid& sid);

/// `arg` quoted for a CreateProcessW command line so that the C runtime's parser reads it back unchanged
/// (backslashes doubled only before a quote, quotes escaped).
std::wstring QuoteArgument(std::string_view arg);

}  // namespace platformpp::core::win32

#endif  // _WIN32
