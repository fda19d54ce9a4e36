//===- Rule.h - A tensorplace rule, independent of any front end ----------===//

#ifndef TENSORPLACE_CHECKER_RULE_H
#define TENSORPLACE_CHECKER_RULE_H

#include "tensorplace/checker/Config.h"
#include "tensorplace/checker/Finding.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace tensorplace {

class CallGraph;
class DeviceGuards;
class ModuleFacts;

/// A rule registers AST matchers and reports findings to a sink. Findings
/// outside user code (system and LibTorch headers) and findings silenced by
/// NOLINT, NOLINTNEXTLINE or a NOLINTBEGIN/NOLINTEND region are dropped here,
/// so every front end sees the same findings.
class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  /// Options: what the project set for this rule (defaults unless set). A
  /// rule copies out the options it reads here, as clang-tidy checks do.
  Rule(llvm::StringRef Name, FindingSink &Sink, const Config &Options)
      : Name(Name), Sink(Sink), TheConfig(Options) {}
  llvm::StringRef name() const { return Name; }
  llvm::StringRef getID() const override { return Name; }
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  /// The project's options for this rule (defaults unless set).
  const Config &config() const { return TheConfig; }
  /// Forgets the previous translation unit's call graph and module facts.
  void onStartOfTranslationUnit() override;

protected:
  void report(Finding F, clang::ASTContext &Ctx);
  /// The front end settles findings that wait on other files (see
  /// Finding::PendingOn).
  bool acceptsPending() const { return Sink.acceptsPending(); }
  FindingSink &sink() const { return Sink; }
  /// While On is set, every finding reported waits on those functions
  /// about Member, carries a note at each call of them, and offers no fix-it
  /// (the functions out of sight may assign the member too).
  struct PendingContext {
    std::vector<std::string> On;
    /// Where each is called, and its name as written for the notes.
    std::vector<std::pair<clang::SourceLocation, std::string>> Calls;
    /// The calls themselves: one given the member may register it under
    /// its parameter's name, which no summary can tie to the member.
    std::vector<const clang::CallExpr *> CallExprs;
    std::string Member;
  } Pending;
  /// Prepares Pending for Class's members: false when some of its setup is
  /// out of sight and cannot be settled by the front end (say nothing about
  /// its members); true otherwise, with Pending.On set when the findings
  /// must wait on functions defined in other files.
  bool prepareHiddenSetup(const ModuleFacts &Facts,
                          const clang::CXXRecordDecl *Class);
  /// The translation unit's call graph, built by the first rule that asks
  /// and shared by the others (one per thread, so that files can be
  /// analysed in parallel).
  static const CallGraph &callGraph(clang::ASTContext &Ctx);
  /// Where a device is made current in the translation unit, over its call
  /// graph; built once and shared the same way.
  static const DeviceGuards &deviceGuards(clang::ASTContext &Ctx);
  /// Gives the translation unit's function summaries to a sink that settles
  /// pending findings, once per translation unit, whichever rule runs.
  void sendSummaries(clang::ASTContext &Ctx);

private:
  std::string Name;
  FindingSink &Sink;
  Config TheConfig;
};

/// A rule decided over the whole translation unit's module facts. The facts
/// are built once per translation unit and shared by every module rule.
class ModuleRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) final;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;

protected:
  virtual void check(const ModuleFacts &Facts, clang::ASTContext &Ctx) = 0;
};

/// Matches a check name against a clang-tidy glob, where '*' matches any run
/// of characters ("torch-*", "torch-discarded-*").
bool matchesGlob(llvm::StringRef Glob, llvm::StringRef Check);

/// True when a NOLINT comment on the line, a NOLINTNEXTLINE on the line
/// before, or an enclosing NOLINTBEGIN/NOLINTEND region names \p Check (or
/// names no check, or a glob matching it), as clang-tidy reads them.
bool isSuppressedByNolint(clang::SourceLocation Loc, llvm::StringRef Check,
                          const clang::SourceManager &SM);

} // namespace tensorplace

#endif
