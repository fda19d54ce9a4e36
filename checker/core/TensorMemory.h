//===- TensorMemory.h - Which expressions read a tensor's memory ----------===//
//
// The facts under torch-cuda-launch-without-guard: what a kernel launch (or
// an argument given to a function that launches) reads of tensors' memory,
// x.data_ptr<float>() or x.packed_accessor32<...>(), also through locals;
// which tensors a function allocated itself on the current device; and which
// of a function's pointer parameters a launch reads, for launches whose
// memory comes from the callers.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLACE_CHECKER_TENSORMEMORY_H
#define TENSORPLACE_CHECKER_TENSORMEMORY_H

#include "FunctionBody.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace tensorplace {

/// What one expression reads of tensor memory: the tensor objects (x in
/// x.data_ptr<float>(), x.packed_accessor32<...>(), x converted by a
/// constructor of the project's, also through a local initialised from one),
/// and whether some read's tensor is not known (in a template, x.data_ptr<T>()
/// on an object of dependent type) or lies beyond three locals.
struct TensorDataReads {
  llvm::SmallVector<const clang::Expr *, 4> Tensors;
  bool Dependent = false;
  bool Truncated = false;
  bool any() const { return !Tensors.empty() || Dependent; }

  void scan(const clang::Stmt *S, unsigned Depth = 0);
};

/// Every tensor in Reads is a local that Body's function allocated on the
/// current CUDA device and never re-binds (torch::empty(sizes, torch::kCUDA),
/// at::zeros(sizes, at::device(at::kCUDA).dtype(at::kFloat))): a kernel,
/// which runs on the current device too, cannot meet memory of another
/// device through them.
bool readsOnlyLocalCurrentDeviceTensors(const TensorDataReads &Reads,
                                        const FunctionBody &Body);

/// What Arg, an argument of a call in Body's function, hands over of tensor
/// memory: none; only memory of tensors the function allocated itself on the
/// current device (readsOnlyLocalCurrentDeviceTensors), which needs no guard
/// but is still ordered by streams; or a tensor's memory from anywhere
/// (x.data_ptr<float>(), a vector of data pointers' data()).
enum class HandedMemory { None, LocalCurrentDevice, Tensor };
HandedMemory handedTensorMemory(const clang::Expr *Arg,
                                const FunctionBody &Body);

/// Arg hands over a tensor's memory that the function did not itself
/// allocate on the current device (HandedMemory::Tensor).
bool passesTensorMemory(const clang::Expr *Arg, const FunctionBody &Body);

/// The indices of F's pointer parameters whose memory Launch's arguments
/// read: named directly, with arithmetic or casts (in + offset), or through
/// a local initialised from one (up to three locals deep).
llvm::SmallVector<unsigned, 4>
pointerParametersRead(const clang::CallExpr *Launch,
                      const clang::FunctionDecl *F);

/// The parameter that Call's argument I binds to: I, or I - 1 for a member
/// operator call, whose first argument is the object. -1 when none does
/// (a variadic argument).
int parameterIndexOf(const clang::CallExpr *Call, const clang::FunctionDecl *F,
                     unsigned I);

} // namespace tensorplace

#endif
