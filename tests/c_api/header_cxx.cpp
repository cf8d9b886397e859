// The C header compiles alone as C++ with every warning on.
#include <platformpp/platformpp_c.h>

int platformpp_header_cxx_check();
int platformpp_header_cxx_check() {
  return PLATFORMPP_C_API_VERSION;
}
