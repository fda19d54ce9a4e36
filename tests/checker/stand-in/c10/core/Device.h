// Stand-in for LibTorch's <c10/core/Device.h>: the stand-in torch.h declares it all.
#pragma once
#include <torch/torch.h>
