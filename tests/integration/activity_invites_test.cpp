// Tests of the rich presence work; filled in by it.
#include <doctest/doctest.h>
