// Stand-in for LibTorch's <c10/util/Optional.h>: the stand-in torch.h declares it all.
#pragma once
#include <torch/torch.h>
