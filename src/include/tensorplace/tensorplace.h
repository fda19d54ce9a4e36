#pragma once

// tensorplace: LibTorch modules whose device placement is right by construction, and the tools
// to see where their tensors are.

#include <tensorplace/nn/buffer_containers.h>
#include <tensorplace/nn/device_checked.h>
#include <tensorplace/nn/lazy.h>
#include <tensorplace/nn/member.h>
#include <tensorplace/placement.h>
#include <tensorplace/to_device.h>
#include <tensorplace/torch_compat.h>
