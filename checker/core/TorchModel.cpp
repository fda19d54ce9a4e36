//===- TorchModel.cpp -----------------------------------------------------===//

#include "tensorplace/checker/TorchModel.h"
#include "tensorplace/checker/Config.h"

#include "tensorplace/checker/LLVMCompat.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstring>

using namespace clang;

namespace tensorplace {

bool isLibTorchPath(llvm::StringRef Path) {
  // Debian: /usr/include/{ATen,c10,caffe2,torch/csrc}, and from LibTorch 2.x
  // torch/headeronly (c10's macros and core types moved there); pip and the
  // LibTorch archives: <prefix>/torch/include/...; a PyTorch source tree:
  // aten/src/ATen, torch/csrc/api/include and torch/headeronly.
  static const char *const Markers[] = {
      "/include/ATen/",          "/include/c10/",      "/include/caffe2/",
      "/include/torch/csrc/",    "/torch/headeronly/", "/aten/src/ATen/",
      "/torch/csrc/api/include/"};
  for (const char *M : Markers)
    if (Path.contains(M))
      return true;
  // The rest of a pip torch's or a LibTorch archive's include directory
  // (torch/extension.h, pybind11, kineto): a torch/include that holds ATen.
  // A project's own torch/include (headers of its Torch front end) does not.
  size_t At = Path.find("/torch/include/");
  if (At == llvm::StringRef::npos)
    return false;
  llvm::SmallString<256> Aten(Path.take_front(At + strlen("/torch/include/")));
  llvm::sys::path::append(Aten, "ATen");
  return llvm::sys::fs::is_directory(Aten);
}

bool UserCodeFilter::isUserCode(SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  SourceLocation Expansion = SM.getExpansionLoc(Loc);
  FileID File = SM.getFileID(Expansion);
  auto It = Cache.find(File);
  if (It != Cache.end())
    return It->second;
  bool User = false;
  if (!SM.isInSystemHeader(Expansion))
    // A FileEntryRef: FileEntry::getName() is gone in LLVM 19.
    if (auto Entry = SM.getFileEntryRefForID(File))
      User = !isLibTorchPath(Entry->getName());
  Cache[File] = User;
  return User;
}

static bool isInNamespace(const Decl *D, llvm::StringRef Outer,
                          llvm::StringRef Inner = "") {
  // Matches D's enclosing namespaces against Outer[::Inner], skipping inline
  // namespaces (libstdc++'s __cxx11, for instance).
  llvm::SmallVector<llvm::StringRef, 2> Names;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (!NS->isInline())
        Names.push_back(NS->getName());
    } else if (!isa<TranslationUnitDecl>(DC) && !isa<LinkageSpecDecl>(DC)) {
      return false; // Nested in a class or function.
    }
  }
  if (Inner.empty())
    return Names.size() == 1 && Names[0] == Outer;
  return Names.size() == 2 && Names[1] == Outer && Names[0] == Inner;
}

static bool isNamed(const NamedDecl *D, llvm::StringRef Name) {
  return D && D->getDeclName().isIdentifier() && D->getName() == Name;
}

const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD->getDefinition() ? RD->getDefinition() : RD;
  if (const auto *TST = T->getAs<TemplateSpecializationType>()) {
    if (const auto *CTD = dyn_cast_or_null<ClassTemplateDecl>(
            TST->getTemplateName().getAsTemplateDecl())) {
      const CXXRecordDecl *Pattern = CTD->getTemplatedDecl();
      return Pattern->getDefinition() ? Pattern->getDefinition() : Pattern;
    }
  }
  return nullptr;
}

/// Template arguments of a specialisation, resolved or dependent.
static llvm::SmallVector<QualType, 2> typeArguments(QualType T) {
  llvm::SmallVector<QualType, 2> Args;
  T = T.getNonReferenceType();
  if (const auto *CTSD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl())) {
    for (const TemplateArgument &A : CTSD->getTemplateArgs().asArray())
      Args.push_back(A.getKind() == TemplateArgument::Type ? A.getAsType()
                                                           : QualType());
    return Args;
  }
  if (const auto *TST = T->getAs<TemplateSpecializationType>())
    for (const TemplateArgument &A : TST->template_arguments())
      Args.push_back(A.getKind() == TemplateArgument::Type ? A.getAsType()
                                                           : QualType());
  return Args;
}

bool isTensorRecord(const CXXRecordDecl *RD) {
  if (!RD)
    return false;
  if ((isNamed(RD, "Tensor") || isNamed(RD, "TensorBase")) &&
      isInNamespace(RD, "at"))
    return true;
  const CXXRecordDecl *Def = RD->getDefinition();
  if (!Def)
    return false;
  for (const CXXBaseSpecifier &Base : Def->bases())
    if (isTensorRecord(recordOf(Base.getType())))
      return true;
  return false;
}

bool isTensorType(QualType T) {
  return !T.isNull() && !T->isPointerType() && isTensorRecord(recordOf(T));
}

/// A record named Name in c10 or at (LibTorch defines the device types in c10
/// and re-exports them from at and torch).
static bool isC10Record(QualType T, llvm::StringRef Name) {
  if (T.isNull() || T->isPointerType())
    return false;
  const CXXRecordDecl *RD = recordOf(T);
  return isNamed(RD, Name) &&
         (isInNamespace(RD, "c10") || isInNamespace(RD, "at"));
}

bool isDeviceType(QualType T) { return isC10Record(T, "Device"); }

bool isTensorOptionsType(QualType T) { return isC10Record(T, "TensorOptions"); }

bool isDeviceTypeEnum(QualType T) {
  if (T.isNull())
    return false;
  const auto *ET = T.getNonReferenceType()->getAs<EnumType>();
  return ET && isNamed(ET->getDecl(), "DeviceType") &&
         (isInNamespace(ET->getDecl(), "c10") ||
          isInNamespace(ET->getDecl(), "at"));
}

bool isTensorObject(const Expr *Object) {
  if (!Object)
    return false;
  QualType T = Object->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return isTensorType(T);
}

/// torch::kCUDA, c10::DeviceType::CUDA, "cuda", "cuda:1"; the CPU spellings.
DeviceLiteral deviceLiteral(const Stmt *S, std::string &Spelling) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const ValueDecl *D = Ref->getDecl();
    if (!D->getDeclName().isIdentifier() || !isDeviceTypeEnum(D->getType()))
      return DeviceLiteral::None;
    Spelling = D->getName().str();
    if (Spelling == "kCUDA" || Spelling == "CUDA")
      return DeviceLiteral::CUDA;
    if (Spelling == "kCPU" || Spelling == "CPU")
      return DeviceLiteral::CPU;
    return DeviceLiteral::None;
  }
  if (const auto *Str = dyn_cast<StringLiteral>(S)) {
    if (Str->getCharByteWidth() != 1) // Wide literals name no device.
      return DeviceLiteral::None;
    Spelling = Str->getString().str();
    if (tensorplace::compat::startsWith(llvm::StringRef(Spelling), "cuda"))
      return DeviceLiteral::CUDA;
    if (Spelling == "cpu")
      return DeviceLiteral::CPU;
  }
  return DeviceLiteral::None;
}

/// x.cpu() and x.to(torch::kCPU): the host copy that the flow follows.
bool isHostCopy(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || !isTensorObject(memberCallObject(Call)))
    return false;
  llvm::StringRef Name = calleeName(Call);
  if (Name == "cpu")
    return true;
  if (Name != "to" || Call->getNumArgs() == 0)
    return false;
  std::string Spelling;
  const Expr *Arg = skipValuePlumbing(Call->getArg(0));
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg)) {
    if (Construct->getNumArgs() == 0)
      break;
    Arg = skipValuePlumbing(Construct->getArg(0));
  }
  return deviceLiteral(Arg->IgnoreParenImpCasts(), Spelling) ==
         DeviceLiteral::CPU;
}

namespace {
enum class ElementArgs { None, First, Second, All };
}

/// Which template arguments of a standard (or LibTorch) wrapper hold its
/// elements: the mapped type of maps, every member of pairs and tuples.
static ElementArgs elementArgsOf(const CXXRecordDecl *RD) {
  if (!RD)
    return ElementArgs::None;
  if (RD->isInStdNamespace()) {
    llvm::StringRef Name = RD->getName();
    if (Name == "vector" || Name == "array" || Name == "deque" ||
        Name == "list" || Name == "forward_list" || Name == "optional")
      return ElementArgs::First;
    if (Name == "map" || Name == "unordered_map" || Name == "multimap" ||
        Name == "unordered_multimap")
      return ElementArgs::Second;
    if (Name == "pair" || Name == "tuple")
      return ElementArgs::All;
    return ElementArgs::None;
  }
  if (isNamed(RD, "optional") && isInNamespace(RD, "c10"))
    return ElementArgs::First;
  if (isNamed(RD, "OrderedDict") && isInNamespace(RD, "torch"))
    return ElementArgs::Second;
  return ElementArgs::None;
}

template <typename Pred>
static bool anyElementType(QualType T, Pred &&IsElement) {
  const CXXRecordDecl *RD = recordOf(T);
  ElementArgs Which = elementArgsOf(RD);
  if (Which == ElementArgs::None)
    return false;
  llvm::SmallVector<QualType, 2> Args = typeArguments(T);
  for (unsigned I = 0; I < Args.size(); ++I) {
    if (Args[I].isNull())
      continue;
    bool Relevant = Which == ElementArgs::All ||
                    (Which == ElementArgs::First && I == 0) ||
                    (Which == ElementArgs::Second && I == 1);
    if (Relevant && IsElement(Args[I]))
      return true;
  }
  return false;
}

bool isTensorLikeType(QualType T) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return false;
  if (isTensorType(T))
    return true;
  return anyElementType(T, [](QualType E) { return isTensorLikeType(E); });
}

static bool
isModuleClassImpl(const CXXRecordDecl *RD,
                  llvm::SmallPtrSetImpl<const CXXRecordDecl *> &Seen) {
  if (!RD || !Seen.insert(RD).second)
    return false;
  if (isNamed(RD, "Module") && isInNamespace(RD, "torch", "nn"))
    return true;
  // A project's own module base, configured (ModuleBaseClasses) because its
  // derivation from torch::nn::Module is not visible here.
  if (nameIsListed(RD, activeConfig().ModuleBaseClasses))
    return true;
  const CXXRecordDecl *Def = RD->getDefinition();
  if (!Def)
    return false;
  for (const CXXBaseSpecifier &Base : Def->bases())
    if (isModuleClassImpl(recordOf(Base.getType()), Seen))
      return true;
  return false;
}

bool isModuleClass(const CXXRecordDecl *RD) {
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Seen;
  return isModuleClassImpl(RD, Seen);
}

/// RD, or a class it derives from directly or not (through public bases
/// only, when PublicOnly), is one Match accepts.
static bool inHierarchy(const CXXRecordDecl *RD, bool PublicOnly,
                        llvm::function_ref<bool(const CXXRecordDecl *)> Match) {
  llvm::SmallPtrSet<const CXXRecordDecl *, 8> Seen;
  llvm::SmallVector<const CXXRecordDecl *, 8> Work{RD};
  while (!Work.empty()) {
    const CXXRecordDecl *Current = Work.pop_back_val();
    if (!Current || !Seen.insert(Current).second)
      continue;
    if (Match(Current))
      return true;
    if (const CXXRecordDecl *Def = Current->getDefinition())
      for (const CXXBaseSpecifier &Base : Def->bases())
        if (!PublicOnly || Base.getAccessSpecifier() == AS_public)
          Work.push_back(recordOf(Base.getType()));
  }
  return false;
}

/// RD is, or derives directly or not from, the class Outer::Inner::Name
/// (a template's specializations included).
static bool derivesFrom(const CXXRecordDecl *RD, llvm::StringRef Name,
                        llvm::StringRef Outer, llvm::StringRef Inner) {
  return inHierarchy(RD, false, [&](const CXXRecordDecl *C) {
    return isNamed(C, Name) && isInNamespace(C, Outer, Inner);
  });
}

bool isPublicModuleClass(const CXXRecordDecl *RD) {
  return inHierarchy(RD, true, isFrontendModuleBase);
}

bool isCloneableClass(const CXXRecordDecl *RD) {
  return derivesFrom(RD, "Cloneable", "torch", "nn");
}

const FunctionDecl *canonicalFunction(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  return F->getCanonicalDecl();
}

bool isFrontendModuleBase(const CXXRecordDecl *RD) {
  return RD && (isNamed(RD, "Module") || isNamed(RD, "Cloneable")) &&
         isInNamespace(RD, "torch", "nn");
}

/// If RD is, or derives from, torch::nn::ModuleHolder<Impl>: Impl's type.
static QualType holderContainedType(const CXXRecordDecl *RD,
                                    unsigned Depth = 0) {
  if (!RD || Depth > 8)
    return QualType();
  if (isNamed(RD, "ModuleHolder") && isInNamespace(RD, "torch", "nn")) {
    if (const auto *CTSD = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
      const TemplateArgumentList &Args = CTSD->getTemplateArgs();
      if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Type)
        return Args[0].getAsType();
    }
    return QualType();
  }
  const CXXRecordDecl *Def = RD->getDefinition();
  if (!Def)
    return QualType();
  for (const CXXBaseSpecifier &Base : Def->bases()) {
    QualType BaseType = Base.getType();
    if (const auto *TST = BaseType->getAs<TemplateSpecializationType>()) {
      // A dependent ModuleHolder<X> base in a class template.
      const auto *TD = TST->getTemplateName().getAsTemplateDecl();
      if (TD && isNamed(TD, "ModuleHolder") &&
          isInNamespace(TD, "torch", "nn")) {
        llvm::SmallVector<QualType, 2> Args = typeArguments(BaseType);
        return Args.empty() ? QualType() : Args[0];
      }
    }
    QualType Contained = holderContainedType(recordOf(BaseType), Depth + 1);
    if (!Contained.isNull())
      return Contained;
  }
  return QualType();
}

const CXXRecordDecl *heldModuleClass(QualType T) {
  if (T.isNull() || T->isPointerType())
    return nullptr;
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return nullptr;
  if (RD->isInStdNamespace() && RD->getName() == "shared_ptr") {
    llvm::SmallVector<QualType, 2> Args = typeArguments(T);
    if (Args.empty() || Args[0].isNull())
      return nullptr;
    const CXXRecordDecl *Pointee = recordOf(Args[0]);
    return isModuleClass(Pointee) ? Pointee : nullptr;
  }
  QualType Contained = holderContainedType(RD);
  if (Contained.isNull())
    return nullptr;
  const CXXRecordDecl *Impl = recordOf(Contained);
  return isModuleClass(Impl) ? Impl : nullptr;
}

bool isModuleHandleLikeType(QualType T, const CXXRecordDecl **Held) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return false;
  if (const CXXRecordDecl *Impl = heldModuleClass(T)) {
    if (Held)
      *Held = Impl;
    return true;
  }
  return anyElementType(
      T, [Held](QualType E) { return isModuleHandleLikeType(E, Held); });
}

bool isAutogradFunctionClass(const CXXRecordDecl *RD) {
  return derivesFrom(RD, "Function", "torch", "autograd");
}

bool isAnyModuleType(QualType T) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return false;
  const CXXRecordDecl *RD = recordOf(T);
  return RD && isNamed(RD, "AnyModule") && isInNamespace(RD, "torch", "nn");
}

bool isScriptModuleType(QualType T) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType())
    return false;
  const CXXRecordDecl *RD = recordOf(T);
  if (RD && RD->isInStdNamespace() && RD->getDeclName().isIdentifier() &&
      RD->getName() == "shared_ptr") {
    llvm::SmallVector<QualType, 2> Args = typeArguments(T);
    RD = Args.empty() || Args[0].isNull() ? nullptr : recordOf(Args[0]);
  }
  return RD && isNamed(RD, "Module") && isInNamespace(RD, "torch", "jit");
}

bool isStateMemberType(QualType T) {
  return isTensorLikeType(T) || isModuleHandleLikeType(T) ||
         isModuleValueLikeType(T);
}

bool isLibTorchModuleClass(const CXXRecordDecl *RD) {
  return RD && isInNamespace(RD, "torch", "nn");
}

const CXXRecordDecl *pointedModuleClass(QualType T) {
  const auto *Pointer = T->getAs<PointerType>();
  // recordOf: a class template's pattern for Block<T> * in a template.
  const CXXRecordDecl *Pointee =
      Pointer ? recordOf(Pointer->getPointeeType()) : nullptr;
  return Pointee && isModuleClass(Pointee) ? Pointee : nullptr;
}

bool isModuleValueLikeType(QualType T, const CXXRecordDecl **Held) {
  if (T.isNull() || T->isReferenceType() || T->isPointerType() ||
      T->isDependentType())
    return false;
  if (heldModuleClass(T))
    return false;
  if (const CXXRecordDecl *RD = recordOf(T))
    if (isModuleClass(RD)) {
      if (Held)
        *Held = RD;
      return true;
    }
  return anyElementType(
      T, [Held](QualType E) { return isModuleValueLikeType(E, Held); });
}

const CXXRecordDecl *objectModuleClass(const Expr *Object) {
  if (!Object)
    return nullptr;
  QualType T = Object->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  if (const CXXRecordDecl *Held = heldModuleClass(T))
    return Held;
  const CXXRecordDecl *RD = recordOf(T);
  return isModuleClass(RD) ? RD : nullptr;
}

bool isModuleObject(const Expr *Object) {
  return objectModuleClass(Object) != nullptr;
}

bool isStatelessBuiltinModule(const CXXRecordDecl *Impl) {
  static const llvm::StringSet<> Stateless = {
      // Activations (PReLU has a weight; RReLU samples in training only).
      "ELUImpl", "SELUImpl", "HardshrinkImpl", "HardtanhImpl", "LeakyReLUImpl",
      "LogSigmoidImpl", "SoftmaxImpl", "SoftminImpl", "LogSoftmaxImpl",
      "Softmax2dImpl", "ReLUImpl", "ReLU6Impl", "CELUImpl", "GLUImpl",
      "GELUImpl", "SiLUImpl", "MishImpl", "SigmoidImpl", "SoftplusImpl",
      "SoftshrinkImpl", "SoftsignImpl", "TanhImpl", "TanhshrinkImpl",
      "ThresholdImpl",
      // Pooling.
      "AvgPool1dImpl", "AvgPool2dImpl", "AvgPool3dImpl", "MaxPool1dImpl",
      "MaxPool2dImpl", "MaxPool3dImpl", "AdaptiveAvgPool1dImpl",
      "AdaptiveAvgPool2dImpl", "AdaptiveAvgPool3dImpl", "AdaptiveMaxPool1dImpl",
      "AdaptiveMaxPool2dImpl", "AdaptiveMaxPool3dImpl", "MaxUnpool1dImpl",
      "MaxUnpool2dImpl", "MaxUnpool3dImpl", "LPPool1dImpl", "LPPool2dImpl",
      // Padding.
      "ReflectionPad1dImpl", "ReflectionPad2dImpl", "ReflectionPad3dImpl",
      "ReplicationPad1dImpl", "ReplicationPad2dImpl", "ReplicationPad3dImpl",
      "ZeroPad2dImpl", "ConstantPad1dImpl", "ConstantPad2dImpl",
      "ConstantPad3dImpl",
      // Reshaping, identity, resampling and other pure functions.
      "FlattenImpl", "UnflattenImpl", "IdentityImpl", "UpsampleImpl",
      "PixelShuffleImpl", "PixelUnshuffleImpl", "FoldImpl", "UnfoldImpl",
      "CosineSimilarityImpl", "PairwiseDistanceImpl", "FunctionalImpl",
      "LocalResponseNormImpl", "CrossMapLRN2dImpl",
      // Losses without a weight tensor (NLL, CrossEntropy, BCE, BCEWithLogits,
      // MultiMargin and MultiLabelSoftMargin register one, so they are not
      // here).
      "L1LossImpl", "MSELossImpl", "KLDivLossImpl", "SmoothL1LossImpl",
      "HuberLossImpl", "HingeEmbeddingLossImpl", "CosineEmbeddingLossImpl",
      "MultiLabelMarginLossImpl", "SoftMarginLossImpl", "TripletMarginLossImpl",
      "TripletMarginWithDistanceLossImpl", "CTCLossImpl", "PoissonNLLLossImpl",
      "MarginRankingLossImpl"};
  // Configured (IgnoredModuleTypes) by the class's name or, as
  // TORCH_MODULE(Gelu) users write it, by its holder's (GeluImpl).
  const std::vector<std::string> &Ignored = activeConfig().IgnoredModuleTypes;
  if (nameIsListed(Impl, Ignored))
    return true;
  if (!Ignored.empty() && Impl && Impl->getDeclName().isIdentifier() &&
      tensorplace::compat::endsWith(Impl->getName(), "Impl")) {
    std::vector<std::string> Holders;
    for (const std::string &Name : Ignored)
      Holders.push_back(Name + "Impl");
    if (nameIsListed(Impl, Holders))
      return true;
  }
  return Impl && Impl->getDeclName().isIdentifier() &&
         isInNamespace(Impl, "torch", "nn") && Stateless.count(Impl->getName());
}

bool isDefaultLoss(const CXXRecordDecl *Impl, const Expr *Creation) {
  if (!Impl || !Impl->getDeclName().isIdentifier() ||
      !tensorplace::compat::endsWith(Impl->getName(), "LossImpl") ||
      !isInNamespace(Impl, "torch", "nn"))
    return false;
  if (!Creation)
    return true; // A holder member with no initializer.
  const auto *Construct =
      dyn_cast<CXXConstructExpr>(skipValuePlumbing(Creation));
  return Construct && Construct->getNumArgs() == 0;
}

bool isModuleContainerInsertName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name,
      {"push_back", "emplace_back", "extend", "insert", "append", "update"});
}

bool isElementInsertName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name, {"push_back", "emplace_back", "push_front", "emplace_front",
             "insert", "emplace", "insert_or_assign", "try_emplace", "assign"});
}

bool isTensorFactoryName(llvm::StringRef Name) {
  return tensorplace::compat::isOneOf(
      Name,
      {"zeros", "ones", "empty", "full", "rand", "randn", "randint", "randperm",
       "arange", "linspace", "logspace", "eye", "tensor", "from_blob"});
}

bool isTorchNamespaceFunction(const NamedDecl *D) {
  const auto *NS =
      dyn_cast<NamespaceDecl>(D->getDeclContext()->getRedeclContext());
  if (!NS || !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return false;
  return NS->getName() == "at" || NS->getName() == "torch";
}

bool isContainerModule(const CXXRecordDecl *Impl) {
  if (!Impl || !Impl->getDeclName().isIdentifier() ||
      !isInNamespace(Impl, "torch", "nn"))
    return false;
  llvm::StringRef Name = Impl->getName();
  return Name == "SequentialImpl" || Name == "ModuleListImpl" ||
         Name == "ModuleDictImpl" || Name == "ParameterListImpl" ||
         Name == "ParameterDictImpl";
}

llvm::StringRef calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    return FD->getDeclName().isIdentifier() ? FD->getName() : "";
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  DeclarationName Name;
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    Name = ME->getMemberDecl()->getDeclName();
  else if (const auto *UME = dyn_cast<UnresolvedMemberExpr>(Callee))
    Name = UME->getMemberName();
  else if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    Name = DME->getMember();
  else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    Name = ULE->getName();
  else if (const auto *DRE = dyn_cast<DependentScopeDeclRefExpr>(Callee))
    Name = DRE->getDeclName();
  else if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee))
    Name = Ref->getDecl()->getDeclName();
  // An empty name (a callee lost to error recovery) is an "identifier"
  // without IdentifierInfo.
  const IdentifierInfo *Id =
      Name.isIdentifier() ? Name.getAsIdentifierInfo() : nullptr;
  return Id ? Id->getName() : "";
}

const Expr *memberCallObject(const CallExpr *Call) {
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(Call))
    return MCE->getImplicitObjectArgument();
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *UME = dyn_cast<UnresolvedMemberExpr>(Callee))
    return UME->isImplicitAccess() ? nullptr : UME->getBase();
  if (const auto *DME = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return DME->isImplicitAccess() ? nullptr : DME->getBase();
  return nullptr;
}

const FieldDecl *namedField(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *Dependent = dyn_cast<CXXDependentScopeMemberExpr>(E);
  if (!Dependent || !Dependent->getMember().isIdentifier() ||
      (!Dependent->isImplicitAccess() &&
       !isa<CXXThisExpr>(Dependent->getBase()->IgnoreParenImpCasts())))
    return nullptr;
  QualType Object = Dependent->getBaseType();
  if (Object->isPointerType())
    Object = Object->getPointeeType();
  const CXXRecordDecl *Class = recordOf(Object);
  if (!Class)
    return nullptr;
  for (const NamedDecl *D : Class->lookup(Dependent->getMember()))
    if (const auto *Field = dyn_cast<FieldDecl>(D))
      return Field;
  return nullptr;
}

bool isThisObject(const Expr *E) {
  E = skipValuePlumbing(E)->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      Deref && Deref->getOpcode() == UO_Deref)
    E = Deref->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

const Expr *skipValuePlumbing(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(Next))
      Next = EWC->getSubExpr();
    else if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = BTE->getSubExpr();
    else if (const auto *FCE = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = FCE->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(Next)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (CE->getNumArgs() == 1 && Ctor && Ctor->isCopyOrMoveConstructor())
        Next = CE->getArg(0);
    }
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

} // namespace tensorplace
