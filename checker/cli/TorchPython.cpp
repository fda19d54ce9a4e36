//===- TorchPython.cpp ----------------------------------------------------===//

#include "TorchPython.h"
#include "RunProgram.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace tensorplace {
namespace cli {

namespace {

/// Prints what cpp_extension would pass the compiler, as JSON. LibTorch 2.13
/// and later need C++20; older ones build with C++17 (1.13's C++14 headers
/// accept it). include_paths() with no argument leaves out the CUDA
/// toolkit's directories: tensorplace parses CUDA with its own headers.
constexpr const char *Query = R"py(
import json, sysconfig
import torch
from torch.utils import cpp_extension
version = torch.__version__.split("+")[0].split(".")
major, minor = int(version[0]), int(version[1])
print(json.dumps({
    "version": torch.__version__,
    "include": list(cpp_extension.include_paths()) + [sysconfig.get_paths()["include"]],
    "std": "c++20" if (major, minor) >= (2, 13) else "c++17",
    "abi": int(torch._C._GLIBCXX_USE_CXX11_ABI),
}))
)py";

} // namespace

Expected<TorchExtensionFlags> torchExtensionFlags(StringRef Python) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "--torch-python=" + Python +
                                 ": cannot ask its torch for an extension's "
                                 "flags: " +
                                 Why);
  };
  ProgramOutput Run = runProgram(Python, {"-c", Query});
  if (Run.Status != 0)
    return Fail(Run.Err.empty()
                    ? "it exited with status " + std::to_string(Run.Status)
                    : StringRef(Run.Err).rsplit('\n').second);
  Expected<json::Value> Parsed = json::parse(Run.Out);
  if (!Parsed)
    return Fail("it printed no JSON (" + toString(Parsed.takeError()) + ")");
  const json::Object *O = Parsed->getAsObject();
  const json::Array *Include = O ? O->getArray("include") : nullptr;
  std::optional<StringRef> Std =
      O ? compat::toStd(O->getString("std")) : std::nullopt;
  std::optional<int64_t> Abi =
      O ? compat::toStd(O->getInteger("abi")) : std::nullopt;
  if (!Include || !Std || !Abi)
    return Fail("it printed an unexpected answer: " + Run.Out);
  TorchExtensionFlags Result;
  if (auto Version = compat::toStd(O->getString("version")))
    Result.TorchVersion = Version->str();
  Result.Flags = {"-std=" + Std->str(),
                  "-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(*Abi),
                  // What cpp_extension defines for every extension.
                  "-DTORCH_API_INCLUDE_EXTENSION_H",
                  "-DTORCH_EXTENSION_NAME=tensorplace_checked"};
  for (const json::Value &Dir : *Include)
    if (auto Text = compat::toStd(Dir.getAsString())) {
      Result.Flags.push_back("-isystem");
      Result.Flags.push_back(Text->str());
    }
  return std::move(Result);
}

} // namespace cli
} // namespace tensorplace
