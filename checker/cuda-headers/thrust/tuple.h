// Stand-in: see detail/tensorplace_thrust.h.
#pragma once
#include "detail/tensorplace_thrust.h"
