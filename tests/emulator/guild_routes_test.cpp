// Tests of the emulator guilds work; filled in by it.
#include <doctest/doctest.h>
