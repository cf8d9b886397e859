#include <doctest/doctest.h>

#include <string>

#include "core/validation.hpp"

namespace validation_test {

using namespace platformpp::emulator;

TEST_CASE("usernames are 2 to 32 characters") {
  CHECK(check_username("a"));
  CHECK_FALSE(check_username("ab"));
  CHECK_FALSE(check_username(std::string(32, 'x')));
  CHECK(check_username(std::string(33, 'x')));
  CHECK(check_username("a")->code == "BASE_TYPE_BAD_LENGTH");
}

TEST_CASE("usernames use [a-z0-9_.] without consecutive periods") {
  CHECK_FALSE(check_username("player_one.2"));
  CHECK(check_username("Player"));
  CHECK(check_username("has space"));
  CHECK(check_username("a..b"));
  CHECK_FALSE(check_username("a.b.c"));
  CHECK(check_username("caf\xc3\xa9"));
  CHECK(check_username("a-b")->code == "USERNAME_INVALID_CHARACTERS");
}

TEST_CASE("application names are 1 to 100 characters (code points)") {
  CHECK(check_app_name(""));
  CHECK_FALSE(check_app_name("x"));
  CHECK_FALSE(check_app_name(std::string(100, 'x')));
  CHECK(check_app_name(std::string(101, 'x')));
  std::string accented;
  for (int i = 0; i < 100; ++i)
    accented += "\xc3\xa9";  // 100 code points, 200 bytes
  CHECK_FALSE(check_app_name(accented));
}

TEST_CASE("global names are 1 to 32 characters") {
  CHECK(check_global_name(""));
  CHECK_FALSE(check_global_name("X"));
  CHECK_FALSE(check_global_name(std::string(32, 'x')));
  CHECK(check_global_name(std::string(33, 'x')));
}

}  // namespace validation_test
