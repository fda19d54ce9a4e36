// Catch2 for every test: Catch2 3 (Debian 13 and later) or Catch2 2 (Debian 12).
//
// The tests are written with Catch2 3's names; on Catch2 2 this header supplies the two that
// differ there (Catch2 2 has `Approx` in the global namespace and calls the substring matcher
// `Contains`).
#pragma once

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>

#include <string>

namespace Catch {
using Detail::Approx;
namespace Matchers {
inline StdString::ContainsMatcher ContainsSubstring(
    const std::string& str, CaseSensitive::Choice case_sensitivity = CaseSensitive::Yes) {
  return Contains(str, case_sensitivity);
}
}  // namespace Matchers
}  // namespace Catch
#endif
