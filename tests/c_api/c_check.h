/* CHECK for the pure-C tests: reports a failed condition and counts it in `failures` (each test defines it).
 */
#ifndef PLATFORMPP_TESTS_C_CHECK_H
#define PLATFORMPP_TESTS_C_CHECK_H

#include <stdio.h>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#endif
