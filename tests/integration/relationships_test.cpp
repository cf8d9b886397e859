// Tests of the relationships/users/guilds work; filled in by it.
#include <doctest/doctest.h>
