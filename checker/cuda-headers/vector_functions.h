// tensorplace's CUDA headers: make_float2, make_int4, ... are declared with
// the vector types (vector_types.h), as the toolkit's vector_functions.h
// declares them.
#pragma once
#include <vector_types.h>
