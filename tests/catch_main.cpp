// The test runner's main, built once for every test executable. Catch2 2 compiles its runner
// into the translation unit that defines CATCH_CONFIG_RUNNER; Catch2 3 keeps it in its library.
#define CATCH_CONFIG_RUNNER
#include "catch.h"

int main(int argc, char* argv[]) {
  return Catch::Session().run(argc, argv);
}
