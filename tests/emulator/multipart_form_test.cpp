// multipart/form-data as the message routes read it: parts with names, filenames and types; quoted and
// unquoted boundaries; what is malformed is refused whole.
#include <doctest/doctest.h>

#include <string>

#include "core/multipart_form.hpp"

namespace multipart_form_test {

using namespace platformpp::emulator;

TEST_CASE("the boundary of a multipart/form-data Content-Type") {
  CHECK(multipart_boundary("multipart/form-data; boundary=abc") == "abc");
  CHECK(multipart_boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") == "a b");
  CHECK(multipart_boundary("multipart/form-data; boundary=" + std::string(70, 'x')) == std::string(70, 'x'));
  CHECK_FALSE(multipart_boundary("multipart/form-data; boundary=" + std::string(71, 'x')));
  CHECK_FALSE(multipart_boundary("multipart/form-data"));
  CHECK_FALSE(multipart_boundary("application/json; boundary=abc"));
  CHECK_FALSE(multipart_boundary("multipart/form-data; boundary=\"unterminated"));
}

TEST_CASE("parts are read in order with their names, filenames and types") {
  const std::string body =
      "preamble\r\n--xyz\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n"
      "--xyz\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"SPOILER_a.png\"\r\n"
      "Content-Type: image/png\r\n\r\n\x89PNG\r\n--xy not the end\r\n--xyz--\r\nepilogue";
  const auto parts = parse_multipart_form(body, "xyz");
  REQUIRE(parts);
  REQUIRE(parts->size() == 2);
  CHECK((*parts)[0].name == "payload_json");
  CHECK_FALSE((*parts)[0].filename);
  CHECK((*parts)[0].body == "{\"a\":1}");
  CHECK((*parts)[1].name == "files[0]");
  CHECK((*parts)[1].filename == "SPOILER_a.png");
  CHECK((*parts)[1].content_type == "image/png");
  CHECK((*parts)[1].body == "\x89PNG\r\n--xy not the end");
}

TEST_CASE("a malformed body is refused whole") {
  const std::string part = "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nvalue\r\n";
  CHECK(parse_multipart_form(part + "--b--", "b"));
  CHECK_FALSE(parse_multipart_form(part, "b"));  // no closing delimiter
  CHECK_FALSE(parse_multipart_form("--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--", "b"));  // no name
  CHECK_FALSE(
      parse_multipart_form("--b\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nv\r\n--b--", "b"));
  CHECK_FALSE(parse_multipart_form("--b\r\nContent-Disposition: form-data; name=\"x\"\r\nv\r\n--b--", "b"));
  CHECK_FALSE(parse_multipart_form("no delimiter at all", "b"));
  std::string many;
  for (int i = 0; i < 3; ++i)
    many += part;
  CHECK(parse_multipart_form(many + "--b--", "b", 3));
  CHECK_FALSE(parse_multipart_form(many + "--b--", "b", 2));  // over max_parts
}

}  // namespace multipart_form_test
