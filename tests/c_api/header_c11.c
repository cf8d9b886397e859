/* The C header compiles alone as strict C11 with every warning on, and the umbrella header included after one
 * of its parts still declares the others (the parts do not claim the umbrella's include guard). */
#include <platformpp/platformpp_c_core.h>

#include <platformpp/platformpp_c.h>

int platformpp_header_c11_check(void);
int platformpp_header_c11_check(void) {
  /* Declared by the presence and voice parts, which the umbrella header includes after the core part. */
  platformpp_activity* (*create_activity)(void) = platformpp_activity_create;
  platformpp_call_status (*call_status)(const platformpp_call*) = platformpp_call_get_status;
  (void)create_activity;
  (void)call_status;
  return PLATFORMPP_C_API_VERSION;
}
