#include "ops_registry.h"

std::unordered_map<std::string, UnaryOp>& unary_ops() {
  static std::unordered_map<std::string, UnaryOp> ops;
  return ops;
}
std::unordered_map<std::string, BinaryOp>& binary_ops() {
  static std::unordered_map<std::string, BinaryOp> ops;
  return ops;
}

void run_unary(const std::string& name, const at::Tensor& x) {
  at::DeviceGuard guard(x.device());
  unary_ops().at(name)(x);
}

void run_binary(const std::string& name, const at::Tensor& x, const at::Tensor& y) {
  binary_ops().at(name)(x, y);
}

void fill_launch(const at::Tensor& x, float v);

void fill(const at::Tensor& x) {
  at::DeviceGuard guard(x.device());
  fill_launch(x, 1.f);
}
