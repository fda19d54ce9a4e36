// tensorplace's CUDA headers: what extensions written for PyTorch 1.10 and
// before use of THC, which PyTorch 1.11 removed (THCGeneral.h,
// THCDeviceUtils.cuh). Declarations only.
#pragma once
#include <THC/THCDeviceUtils.cuh>
#include <THC/THCGeneral.h>
