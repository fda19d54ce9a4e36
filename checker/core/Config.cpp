//===- Config.cpp ---------------------------------------------------------===//

#include "tensorplace/checker/Config.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace tensorplace {

bool Config::operator==(const Config &Other) const {
  return FactoryFunctions == Other.FactoryFunctions &&
         RegistrationHelpers == Other.RegistrationHelpers &&
         ModuleBaseClasses == Other.ModuleBaseClasses &&
         IgnoredModuleTypes == Other.IgnoredModuleTypes &&
         ForwardMethods == Other.ForwardMethods;
}

bool Config::sameModuleModel(const Config &Other) const {
  return RegistrationHelpers == Other.RegistrationHelpers &&
         ModuleBaseClasses == Other.ModuleBaseClasses &&
         IgnoredModuleTypes == Other.IgnoredModuleTypes &&
         ForwardMethods == Other.ForwardMethods;
}

llvm::ArrayRef<ConfigOption> configOptions() {
  static const ConfigOption Options[] = {
      {"FactoryFunctions", "",
       "extra tensor factories, checked like torch::zeros", false},
      {"RegistrationHelpers", "",
       "functions or macros that register their tensor or module argument",
       true},
      {"ModuleBaseClasses", "",
       "classes whose subclasses are modules, besides torch::nn::Module", true},
      {"IgnoredModuleTypes", "", "module types that hold no state", true},
      {"ForwardMethods", "forward;operator()",
       "module methods that start a forward path", true},
  };
  return Options;
}

/// The list behind an option's name (const or not, as the Config is).
template <typename ConfigT>
static auto field(ConfigT &C, llvm::StringRef Option)
    -> decltype(&C.ForwardMethods) {
  if (Option == "FactoryFunctions")
    return &C.FactoryFunctions;
  if (Option == "RegistrationHelpers")
    return &C.RegistrationHelpers;
  if (Option == "ModuleBaseClasses")
    return &C.ModuleBaseClasses;
  if (Option == "IgnoredModuleTypes")
    return &C.IgnoredModuleTypes;
  if (Option == "ForwardMethods")
    return &C.ForwardMethods;
  return nullptr;
}

bool Config::set(llvm::StringRef Option, llvm::StringRef Value) {
  std::vector<std::string> *List = field(*this, Option);
  if (!List)
    return false;
  List->clear();
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Value.split(Items, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    Item.consume_front("::");
    if (!Item.empty())
      List->push_back(Item.str());
  }
  return true;
}

std::string Config::get(llvm::StringRef Option) const {
  const std::vector<std::string> *List = field(*this, Option);
  return List ? llvm::join(*List, ";") : std::string();
}

static thread_local const Config *Active = nullptr;

const Config &activeConfig() {
  static const Config Defaults;
  return Active ? *Active : Defaults;
}

ActiveConfigScope::ActiveConfigScope(const Config &C) : Saved(Active) {
  Active = &C;
}

ActiveConfigScope::~ActiveConfigScope() { Active = Saved; }

bool nameIsListed(const NamedDecl *D, llvm::ArrayRef<std::string> Names) {
  if (!D || Names.empty() || !D->getDeclName().isIdentifier())
    return false;
  std::string Qualified;
  for (const std::string &Name : Names) {
    if (llvm::StringRef(Name).contains("::")) {
      if (Qualified.empty())
        Qualified = D->getQualifiedNameAsString();
      llvm::StringRef Q(Qualified);
      if (Q == Name ||
          (tensorplace::compat::endsWith(Q, Name) &&
           tensorplace::compat::endsWith(Q.drop_back(Name.size()), "::")))
        return true;
    } else if (D->getName() == Name) {
      return true;
    }
  }
  return false;
}

bool isInListedMacro(SourceLocation Loc, const SourceManager &SM,
                     llvm::ArrayRef<std::string> Names) {
  if (Names.empty())
    return false;
  LangOptions LO;
  for (unsigned Depth = 0; Loc.isMacroID() && Depth < 32; ++Depth) {
    llvm::StringRef Macro = Lexer::getImmediateMacroName(Loc, SM, LO);
    if (llvm::is_contained(Names, Macro))
      return true;
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return false;
}

} // namespace tensorplace
