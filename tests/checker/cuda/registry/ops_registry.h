// An extension's table of ops: each launcher registers itself by name with a
// static initializer (REGISTER_OP), and a dispatcher calls the op it is
// asked for through the table.
#pragma once
#include <torch/torch.h>

#include <string>
#include <unordered_map>

using UnaryOp = void (*)(const at::Tensor&);
using BinaryOp = void (*)(const at::Tensor&, const at::Tensor&);
using ScalarOp = void (*)(const at::Tensor&, float);

std::unordered_map<std::string, UnaryOp>& unary_ops();
std::unordered_map<std::string, BinaryOp>& binary_ops();

struct UnaryOpRegistrar {
  UnaryOpRegistrar(const char* name, UnaryOp op) {
    unary_ops()[name] = op;
  }
};

#define REGISTER_UNARY_OP(name, fn) static UnaryOpRegistrar unary_op_##name(#name, fn)
#define REGISTER_BINARY_OP(name, fn) \
  static const bool binary_op_##name = binary_ops().emplace(#name, &fn).second
