//===- TensorplaceTidyModule.cpp - The torch-* checks for clang-tidy ------===//
//
// Loaded with `clang-tidy --load <plugin>`. Each check is a thin adapter that
// runs one rule of the analysis core and turns its findings into clang-tidy
// diagnostics; clang-tidy does header filtering, NOLINT and --fix as usual.
//
//===----------------------------------------------------------------------===//

#include "tensorplace/checker/Analysis.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"

using namespace clang;
using namespace clang::tidy;

namespace tensorplace {
namespace {

class RuleCheck : public ClangTidyCheck, private FindingSink {
public:
  RuleCheck(llvm::StringRef Name, ClangTidyContext *Context,
            const RuleInfo &Info)
      : ClangTidyCheck(Name, Context), Read(optionsOf(Info)),
        TheRule(Info.Create(*this, readOptions())) {}

  void storeOptions(ClangTidyOptions::OptionMap &Opts) override {
    for (const ConfigOption *Option : Read)
      Options.store(Opts, Option->Name, TheRule->config().get(Option->Name));
  }

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override {
    TheRule->registerMatchers(*Finder);
  }

private:
  /// Its own options only: "<check>.<Option>", else the global "<Option>",
  /// as clang-tidy's own checks read options shared between checks.
  Config readOptions() const {
    Config C;
    for (const ConfigOption *Option : Read)
      C.set(Option->Name,
            Options.getLocalOrGlobal(Option->Name, Option->Default));
    return C;
  }

  void report(const Finding &F, ASTContext &) override {
    {
      DiagnosticBuilder Warning = diag(F.Loc, "%0") << F.Message;
      for (const FixItHint &Fix : F.Fixes)
        Warning << Fix;
    } // The warning is emitted here, before its notes.
    for (const FindingNote &Note : F.Notes)
      diag(Note.Loc, "%0", DiagnosticIDs::Note) << Note.Message;
  }

  std::vector<const ConfigOption *> Read; // Before TheRule: it is read first.
  std::unique_ptr<Rule> TheRule;
};

class TensorplaceModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    for (const RuleInfo &Info : allRules())
      Factories.registerCheckFactory(
          Info.Name, [&Info](llvm::StringRef Name, ClangTidyContext *Context) {
            return std::make_unique<RuleCheck>(Name, Context, Info);
          });
  }
};

} // namespace
} // namespace tensorplace

static ClangTidyModuleRegistry::Add<tensorplace::TensorplaceModule>
    TensorplaceModuleRegistration("tensorplace",
                                  "Device-placement checks for LibTorch code.");
