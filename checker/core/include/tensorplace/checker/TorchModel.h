//===- TorchModel.h - LibTorch types and names, as the rules see them -----===//
//
// Everything the rules know about LibTorch's API lives here: which records
// are tensors, modules and module holders, which built-in modules hold no
// state, and which code is the user's (as opposed to system or LibTorch
// headers, where nothing is ever reported).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_TORCHMODEL_H
#define TENSORPLACE_CHECKER_TORCHMODEL_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tensorplace {

/// True for paths inside LibTorch's own headers (Debian's /usr/include/{ATen,
/// c10,torch/csrc,torch/headeronly} or a pip torch's torch/include, one that
/// holds ATen), wherever they are installed.
bool isLibTorchPath(llvm::StringRef Path);

/// Decides, with a per-file cache, whether a location is in code the user
/// wrote: not a system header, not a LibTorch header, not a builtin buffer.
/// Macro locations count where they are expanded.
class UserCodeFilter {
public:
  explicit UserCodeFilter(const clang::SourceManager &SM) : SM(SM) {}
  bool isUserCode(clang::SourceLocation Loc);

private:
  const clang::SourceManager &SM;
  llvm::DenseMap<clang::FileID, bool> Cache;
};

/// The record behind a type, through references, pointers-to-member aside,
/// typedefs and, for dependent template specialisations, the template's
/// pattern. Null when there is none or it has no definition.
const clang::CXXRecordDecl *recordOf(clang::QualType T);

/// at::Tensor or at::TensorBase (torch::Tensor is at::Tensor).
bool isTensorRecord(const clang::CXXRecordDecl *RD);
bool isTensorType(clang::QualType T);

/// c10::Device (at::Device, torch::Device).
bool isDeviceType(clang::QualType T);

/// c10::TensorOptions (at::TensorOptions, torch::TensorOptions).
bool isTensorOptionsType(clang::QualType T);

/// c10::DeviceType, the type of torch::kCUDA and torch::kCPU.
bool isDeviceTypeEnum(clang::QualType T);

/// An expression whose value is a tensor or a pointer to one: the object of
/// x.cuda() or p->cuda().
bool isTensorObject(const clang::Expr *Object);

/// The device a literal names: torch::kCUDA, c10::DeviceType::CUDA, "cuda",
/// "cuda:1"; torch::kCPU, "cpu". Spelling is set to how it is written.
enum class DeviceLiteral { None, CUDA, CPU };
DeviceLiteral deviceLiteral(const clang::Stmt *S, std::string &Spelling);

/// x.cpu() or x.to(torch::kCPU): a copy of a tensor on the host.
bool isHostCopy(const clang::Expr *E);

/// A tensor, or a standard container, optional, pair or tuple (or a
/// torch::OrderedDict) whose elements are tensor-like. References are not:
/// they do not own state.
bool isTensorLikeType(clang::QualType T);

/// torch::nn::Module or a class derived from it, also through dependent bases
/// such as Cloneable<Net<T>> in a class template.
bool isModuleClass(const clang::CXXRecordDecl *RD);

/// Derived, directly or not, from torch::nn::Cloneable<T>.
bool isCloneableClass(const clang::CXXRecordDecl *RD);

/// One declaration per function: template instantiations map to their
/// pattern, redeclarations to the canonical declaration.
const clang::FunctionDecl *canonicalFunction(const clang::FunctionDecl *F);

/// torch::nn::Module or torch::nn::Cloneable<T> itself.
bool isFrontendModuleBase(const clang::CXXRecordDecl *RD);

/// Derived, directly or not, from torch::autograd::Function<T>: a custom
/// autograd function, whose static backward() the autograd engine calls.
bool isAutogradFunctionClass(const clang::CXXRecordDecl *RD);

/// A member of this type holds module state: tensors, module handles or
/// modules held by value (or containers of them).
bool isStateMemberType(clang::QualType T);

/// torch::nn::AnyModule: a type-erased module handle, registered with
/// register_module(name, any.ptr()).
bool isAnyModuleType(clang::QualType T);

/// A TorchScript module (torch::jit::Module, also named
/// torch::jit::script::Module) or a std::shared_ptr to one.
bool isScriptModuleType(clang::QualType T);

/// RD derives from torch::nn::Module through public bases only, so that a
/// std::shared_ptr to it converts to one to Module (register_module() needs
/// that); `class Net : torch::nn::Module` derives privately.
bool isPublicModuleClass(const clang::CXXRecordDecl *RD);

/// A class of LibTorch's module library, declared in namespace torch::nn
/// (LinearImpl, SequentialImpl, Module).
bool isLibTorchModuleClass(const clang::CXXRecordDecl *RD);

/// For a module handle -- a torch::nn::ModuleHolder (torch::nn::Linear, a user
/// TORCH_MODULE) or a std::shared_ptr to a module class -- the module class it
/// holds; null for anything else.
const clang::CXXRecordDecl *heldModuleClass(clang::QualType T);

/// For a raw pointer to a module class (Block *, torch::nn::LinearImpl *),
/// the module class; null for anything else.
const clang::CXXRecordDecl *pointedModuleClass(clang::QualType T);

/// A module object held by value -- a module class itself (ResidualImpl r;),
/// or a standard container / optional of them (std::vector<Block> blocks;) --
/// as opposed to a handle. register_module() takes a handle, so a member of
/// this type can never be registered. Sets \p Held to the module class.
/// Dependent types are not judged.
bool isModuleValueLikeType(clang::QualType T,
                           const clang::CXXRecordDecl **Held = nullptr);

/// The module class of an expression whose object is a module: a module, a
/// pointer to one, or a module handle (seq in seq->push_back(...)); null
/// for anything else.
const clang::CXXRecordDecl *objectModuleClass(const clang::Expr *Object);
/// objectModuleClass() is not null.
bool isModuleObject(const clang::Expr *Object);

/// A module handle, or a standard container / optional of module handles.
/// Sets \p Held to the module class held (for containers, of the elements).
bool isModuleHandleLikeType(clang::QualType T,
                            const clang::CXXRecordDecl **Held = nullptr);

/// A built-in torch::nn module that owns no parameters or buffers and does
/// not change behaviour with train()/eval(): activations, pooling, padding,
/// flatten, identity, upsample, and the losses that take no weight tensor.
bool isStatelessBuiltinModule(const clang::CXXRecordDecl *Impl);

/// A built-in loss module made with default options: its weight tensor, if it
/// has one, is undefined, so it holds no state. \p Creation is the
/// construction expression, null for a holder member with no initializer.
bool isDefaultLoss(const clang::CXXRecordDecl *Impl,
                   const clang::Expr *Creation);

/// Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict: modules
/// whose state is whatever is put in them.
bool isContainerModule(const clang::CXXRecordDecl *Impl);

/// What puts a module into a container module: seq->push_back(m),
/// list->extend(...), dict->update(...), insert, append, emplace_back.
bool isModuleContainerInsertName(llvm::StringRef Name);

/// v.push_back(x), m.emplace(k, x), ...: the call stores its arguments.
bool isElementInsertName(llvm::StringRef Name);

/// One of LibTorch's tensor factories by name: zeros, empty, arange, tensor,
/// from_blob, ...
bool isTensorFactoryName(llvm::StringRef Name);

/// Declared directly in namespace at or torch (torch::zeros, at::zeros).
bool isTorchNamespaceFunction(const clang::NamedDecl *D);

/// The name a call is made by, also for calls not yet resolved in templates
/// (this->register_buffer(...) under a dependent base). Empty when unnamed.
llvm::StringRef calleeName(const clang::CallExpr *Call);

/// The object a member call is made on (x in x.to(d), *p in p->to(d)),
/// resolved or dependent; null for other calls.
const clang::Expr *memberCallObject(const clang::CallExpr *Call);

/// The member of the enclosing class that E names: a member expression's
/// field or, in a template, `this->name` not resolved yet (a dependent member
/// expression on `this`), found by name in the class. Null otherwise.
const clang::FieldDecl *namedField(const clang::Expr *E);

/// `this` or `*this`: the module whose method the expression is written in,
/// handed on as a whole (`fill(*this)`).
bool isThisObject(const clang::Expr *E);

/// Skips parentheses, implicit casts, temporaries, cleanups and copy or move
/// constructions, down to the expression that produces the value.
const clang::Expr *skipValuePlumbing(const clang::Expr *E);

} // namespace tensorplace

#endif
