//===- RunProgram.cpp -----------------------------------------------------===//

#include "RunProgram.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include <vector>

using namespace llvm;

namespace tensorplace {
namespace cli {

ProgramOutput runProgram(StringRef Program, ArrayRef<std::string> Args) {
  ProgramOutput Result;
  ErrorOr<std::string> Path = Program.contains('/')
                                  ? ErrorOr<std::string>(Program.str())
                                  : sys::findProgramByName(Program);
  if (!Path) {
    Result.Err = ("'" + Program + "' is not installed").str();
    return Result;
  }
  SmallString<128> OutPath, ErrPath;
  if (sys::fs::createTemporaryFile("tensorplace-run", "out", OutPath) ||
      sys::fs::createTemporaryFile("tensorplace-run", "err", ErrPath)) {
    Result.Err = "cannot create a temporary file for its output";
    return Result;
  }
  FileRemover RemoveOut(OutPath), RemoveErr(ErrPath);
  std::vector<StringRef> Argv{*Path};
  for (const std::string &A : Args)
    Argv.push_back(A);
  compat::LLVMOptional<StringRef> Redirects[] = {
      StringRef(""), StringRef(OutPath), StringRef(ErrPath)};
  std::string ExecError;
  Result.Status =
      sys::ExecuteAndWait(*Path, Argv, /*Env=*/{}, Redirects, 0, 0, &ExecError);
  if (auto Out = MemoryBuffer::getFile(OutPath))
    Result.Out = (*Out)->getBuffer().str();
  if (auto Err = MemoryBuffer::getFile(ErrPath))
    Result.Err = StringRef((*Err)->getBuffer()).trim().str();
  if (Result.Status < 0 && Result.Err.empty())
    Result.Err = ExecError;
  return Result;
}

} // namespace cli
} // namespace tensorplace
