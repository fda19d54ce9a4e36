//===- RuleSupport.h - Small helpers shared by the rules ------------------===//

#ifndef TENSORPLACE_CHECKER_RULESUPPORT_H
#define TENSORPLACE_CHECKER_RULESUPPORT_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tensorplace {

/// The name a member is conventionally registered under: the member's name
/// without a trailing underscore (weight_ -> "weight").
inline std::string registeredName(llvm::StringRef Member) {
  while (Member.size() > 1 && Member.endswith("_"))
    Member = Member.drop_back();
  return Member.str();
}

/// 'NetImpl::forward', 'make_head': how a function is named in messages.
inline std::string describeFunction(const clang::FunctionDecl *F) {
  return F->getQualifiedNameAsString();
}

} // namespace tensorplace

#endif
