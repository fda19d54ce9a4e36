//===- RuleDocs.cpp - The docs' lists of checks, from the rule table ------===//
//
//   tensorplace_rule_docs <source dir>           rewrite the generated blocks
//   tensorplace_rule_docs --check <source dir>   exit 1 when they are stale
//
// The README's table of checks and the list in docs/checks/README.md are
// generated from allRules(), between the markers below; nothing else in those
// files is touched. `cmake --build build --target update-rule-docs` runs it on
// the source tree, and the test checker.rule_docs_are_current fails when a
// rule was added or changed without it.
//
//===----------------------------------------------------------------------===//

#include "tensorplace/checker/Analysis.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

using namespace tensorplace;

static const char Begin[] =
    "<!-- generated from the rule table (checker/core/Analysis.cpp) by "
    "`cmake --build build --target update-rule-docs`: do not edit -->\n";
static const char End[] = "<!-- end of generated list -->\n";

static std::string readmeTable() {
  std::string Text = "| check | finds |\n|---|---|\n";
  for (const RuleInfo &R : allRules())
    Text += std::string("| [") + R.Name + "](docs/checks/" + R.Name +
            ".md) | " + R.Summary + (R.HasFixIts ? " (fix-it)" : "") + " |\n";
  return Text;
}

static std::string docsIndex() {
  std::string Text;
  for (const RuleInfo &R : allRules())
    Text += std::string("- [") + R.Name + "](" + R.Name + ".md): " + R.Summary +
            (R.HasFixIts ? " (has a fix-it)" : "") + ".\n";
  return Text;
}

/// Text with the block between the markers replaced by Block; "" when the
/// markers are missing.
static std::string withBlock(llvm::StringRef Text, const std::string &Block) {
  size_t B = Text.find(Begin), E = Text.find(End);
  if (B == llvm::StringRef::npos || E == llvm::StringRef::npos || E < B)
    return "";
  B += sizeof(Begin) - 1;
  return (Text.substr(0, B) + Block + Text.substr(E)).str();
}

int main(int argc, char **argv) {
  bool Check = argc == 3 && llvm::StringRef(argv[1]) == "--check";
  if (argc != 2 + Check) {
    llvm::errs() << "usage: tensorplace_rule_docs [--check] <source dir>\n";
    return 2;
  }
  std::string Root = argv[argc - 1];
  int Status = 0;
  for (const auto &[Path, Block] :
       {std::pair<std::string, std::string>{Root + "/README.md", readmeTable()},
        {Root + "/docs/checks/README.md", docsIndex()}}) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer) {
      llvm::errs() << "tensorplace_rule_docs: cannot read '" << Path
                   << "': " << Buffer.getError().message() << "\n";
      return 2;
    }
    llvm::StringRef Text = (*Buffer)->getBuffer();
    std::string Updated = withBlock(Text, Block);
    if (Updated.empty()) {
      llvm::errs() << "tensorplace_rule_docs: '" << Path
                   << "' has no generated block; put these two lines where "
                      "the list goes:\n"
                   << Begin << End;
      return 2;
    }
    if (Updated == Text)
      continue;
    if (Check) {
      llvm::errs() << "tensorplace_rule_docs: the list of checks in '" << Path
                   << "' is not the rule table's; run `cmake --build build "
                      "--target update-rule-docs`. It should read:\n"
                   << Block;
      Status = 1;
      continue;
    }
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Updated;
    OS.close();
    if (EC || OS.has_error()) {
      llvm::errs() << "tensorplace_rule_docs: cannot write '" << Path << "'\n";
      OS.clear_error();
      return 2;
    }
    llvm::outs() << "updated " << Path << "\n";
  }
  return Status;
}
