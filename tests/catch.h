// Catch2 for the tests: version 2 (one header, tests/catch_main.cpp) or 3
// (catch_all.hpp and its own main), whichever the build found.
#pragma once

#if TENSORPLACE_CATCH2_MAJOR >= 3
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
