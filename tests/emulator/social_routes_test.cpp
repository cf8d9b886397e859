// Tests of the emulator social work; filled in by it.
#include <doctest/doctest.h>
