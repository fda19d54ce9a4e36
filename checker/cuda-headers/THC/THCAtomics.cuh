// tensorplace's CUDA headers: THC's atomics, which PyTorch 1.11 removed and
// many extensions still include. PyTorch moved them to ATen/cuda/Atomic.cuh
// (atomicAdd for at::Half, at::BFloat16 and the integer types CUDA has none
// for, gpuAtomicAdd, gpuAtomicAddNoReturn, ...), which LibTorch still
// ships, also in a CPU-only build, and which parses with these headers.
#pragma once
#include <ATen/cuda/Atomic.cuh>
#include <THC/THC.h>
