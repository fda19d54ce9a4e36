// tensorplace's CUDA headers: declared in <cub/cub.cuh>.
#pragma once
#include <cub/cub.cuh>
