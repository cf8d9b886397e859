/* The C header compiles alone as strict C11 with every warning on. */
#include <platformpp/platformpp_c.h>

int platformpp_header_c11_check(void);
int platformpp_header_c11_check(void) {
  return PLATFORMPP_C_API_VERSION;
}
