//===- SpacedChevrons.cpp -------------------------------------------------===//

#include "SpacedChevrons.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace tensorplace {

namespace {

struct RawToken {
  tok::TokenKind Kind;
  unsigned Offset;
  unsigned Length;
  llvm::StringRef Text;
};

std::vector<RawToken> rawTokens(llvm::StringRef Code,
                                const LangOptions &LangOpts) {
  std::vector<RawToken> Tokens;
  // The lexer needs a null character after the text.
  std::string Text = Code.str();
  Lexer Lex(SourceLocation::getFromRawEncoding(1), LangOpts, Text.c_str(),
            Text.c_str(), Text.c_str() + Text.size());
  Token T;
  while (!Lex.LexFromRawLexer(T)) {
    unsigned Offset = T.getLocation().getRawEncoding() - 1;
    Tokens.push_back({T.getKind(), Offset, T.getLength(),
                      Code.substr(Offset, T.getLength())});
  }
  return Tokens;
}

/// Tokens I and I + 1 are Double and Single, `<<` `<` or `>>` `>`: with
/// nothing but whitespace and comments between them, since the lexer reads
/// `<<<` and `>>>` written together as one token in CUDA.
bool isSpacedPair(const std::vector<RawToken> &Tokens, size_t I,
                  tok::TokenKind Double, tok::TokenKind Single) {
  return I + 1 < Tokens.size() && Tokens[I].Kind == Double &&
         Tokens[I + 1].Kind == Single;
}

/// Closes up the spaced pair at tokens I, I + 1 into a triple chevron.
void closeUp(std::string &Text, const std::vector<RawToken> &Tokens, size_t I,
             char Chevron) {
  unsigned From = Tokens[I].Offset, Second = Tokens[I + 1].Offset;
  std::string Gap = Text.substr(From + 2, Second - From - 2);
  Text.replace(From, Second + 1 - From, std::string(3, Chevron) + Gap);
}

} // namespace

SpacedLaunches findSpacedLaunches(llvm::StringRef Code,
                                  const LangOptions &LangOpts) {
  SpacedLaunches Out;
  Out.Rewritten = Code.str();
  // Cheap test first: most files have no `<<` or `>>` followed by a space
  // or a comment.
  if (llvm::none_of(
          std::initializer_list<llvm::StringRef>{"<< ", "<<\t", "<<\n", "<<\r",
                                                 "<</", ">> ", ">>\t", ">>\n",
                                                 ">>\r", ">>/"},
          [&](llvm::StringRef Gap) { return Code.contains(Gap); }))
    return Out;
  std::vector<RawToken> Tokens = rawTokens(Code, LangOpts);
  for (size_t I = 0; I < Tokens.size(); ++I) {
    bool SpacedOpen = isSpacedPair(Tokens, I, tok::lessless, tok::less) &&
                      !(I > 0 && Tokens[I - 1].Kind == tok::raw_identifier &&
                        Tokens[I - 1].Text == "operator");
    if (!SpacedOpen && Tokens[I].Kind != tok::lesslessless)
      continue;
    // The closing chevrons: the first `>>>` or `>> >` outside parentheses,
    // brackets and braces, followed by the kernel's arguments; a `;` at that
    // level, or a closing bracket of an enclosing one, ends the search.
    size_t Close = 0;
    bool ClosedSpaced = false;
    int Depth = 0;
    for (size_t J = I + (SpacedOpen ? 2 : 1); J < Tokens.size(); ++J) {
      tok::TokenKind K = Tokens[J].Kind;
      if (K == tok::l_paren || K == tok::l_square || K == tok::l_brace)
        ++Depth;
      else if (K == tok::r_paren || K == tok::r_square || K == tok::r_brace) {
        if (--Depth < 0)
          break;
      } else if (Depth == 0 && K == tok::semi)
        break;
      if (Depth != 0)
        continue;
      bool Spaced = isSpacedPair(Tokens, J, tok::greatergreater, tok::greater);
      size_t Next = J + (Spaced ? 2 : 1);
      if ((Spaced || K == tok::greatergreatergreater) && Next < Tokens.size() &&
          Tokens[Next].Kind == tok::l_paren) {
        Close = J;
        ClosedSpaced = Spaced;
        break;
      }
    }
    if (!SpacedOpen && !ClosedSpaced)
      continue; // `<<<` ... `>>>`, as Clang reads it, or not a launch.
    Out.Launches.push_back(Tokens[I].Offset);
    if (!Close) {
      Out.Unclosed.push_back(Tokens[I].Offset);
      continue;
    }
    if (SpacedOpen)
      closeUp(Out.Rewritten, Tokens, I, '<');
    if (ClosedSpaced)
      closeUp(Out.Rewritten, Tokens, Close, '>');
    I = Close;
  }
  return Out;
}

namespace {

unsigned unreadLaunchDiagnostic(DiagnosticsEngine &Diags) {
  return Diags.getCustomDiagID(
      DiagnosticsEngine::Error,
      "kernel launch written with spaces inside its chevrons ('<< <') "
      "that tensorplace cannot read as a launch (%select{it has no closing "
      "'>> >' before the kernel's arguments|it is in a header, and only the "
      "main file's are read}0); write '<<<' and '>>>'");
}

/// Headers are lexed from their own text, which the analysis does not
/// rewrite: each spaced launch in the user's headers is named when the
/// header is entered, ahead of the errors it causes.
class HeaderLaunches : public PPCallbacks {
public:
  HeaderLaunches(SourceManager &SM, DiagnosticsEngine &Diags,
                 const LangOptions &LangOpts)
      : SM(SM), Diags(Diags), LangOpts(LangOpts) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind FileType,
                   FileID PrevFID) override {
    if (Reason != EnterFile || FileType != SrcMgr::C_User)
      return;
    FileID File = SM.getFileID(Loc);
    auto Entry = SM.getFileEntryRefForID(File);
    if (File == SM.getMainFileID() || !Entry ||
        !Seen.insert(Entry->getUID()).second)
      return;
    auto Buffer = SM.getBufferOrNone(File);
    if (!Buffer)
      return;
    SpacedLaunches Found = findSpacedLaunches(Buffer->getBuffer(), LangOpts);
    SourceLocation Start = SM.getLocForStartOfFile(File);
    for (unsigned Offset : Found.Launches)
      Diags.Report(Start.getLocWithOffset(Offset),
                   unreadLaunchDiagnostic(Diags))
          << 1;
  }

private:
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  const LangOptions &LangOpts;
  llvm::DenseSet<unsigned> Seen;
};

class SpacedChevronsConsumer : public SemaConsumer {
public:
  void Initialize(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().CUDA)
      return;
    SourceManager &SM = Ctx.getSourceManager();
    FileID Main = SM.getMainFileID();
    auto Entry = SM.getFileEntryRefForID(Main);
    auto Buffer = SM.getBufferOrNone(Main);
    if (!Entry || !Buffer)
      return;
    SpacedLaunches Found =
        findSpacedLaunches(Buffer->getBuffer(), Ctx.getLangOpts());
    // Replaced before the preprocessor enters the main file (the consumer
    // is initialised before the parse starts), so that it lexes the
    // rewritten text; it has the same length and lines as the file.
    if (Found.Launches.size() > Found.Unclosed.size())
      SM.overrideFileContents(
          *Entry, llvm::MemoryBuffer::getMemBufferCopy(
                      Found.Rewritten, Buffer->getBufferIdentifier()));
    SourceLocation Start = SM.getLocForStartOfFile(Main);
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    for (unsigned Offset : Found.Unclosed)
      Diags.Report(Start.getLocWithOffset(Offset),
                   unreadLaunchDiagnostic(Diags))
          << 0;
  }

  void InitializeSema(Sema &S) override {
    if (!S.getLangOpts().CUDA)
      return;
    Preprocessor &PP = S.getPreprocessor();
    PP.addPPCallbacks(std::make_unique<HeaderLaunches>(
        PP.getSourceManager(), PP.getDiagnostics(), S.getLangOpts()));
  }
};

} // namespace

std::unique_ptr<ASTConsumer> newSpacedChevronsConsumer() {
  return std::make_unique<SpacedChevronsConsumer>();
}

} // namespace tensorplace
