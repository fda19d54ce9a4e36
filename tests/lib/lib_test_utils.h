// Helpers shared by the module library's tests.
#pragma once

#include <c10/util/Exception.h>

#include <functional>
#include <string>

namespace tensorplace::test {

/// The message of the c10::Error that `f` throws (without LibTorch's
/// backtrace), or "<no error>" when it throws none.
inline std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "<no error>";
}

}  // namespace tensorplace::test
