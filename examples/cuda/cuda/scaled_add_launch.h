// The nvcc-built launcher behind scaled_add's CUDA impl: plain pointers in, so that it
// needs neither the generated headers nor anything but the CUDA runtime.
#pragma once

#include <cstdint>

namespace my::ops::cuda {

// out[i] = a[i] + alpha * b[i] for i < n, queued on the current stream of the current device.
void launch_scaled_add(const float* a, const float* b, float alpha, float* out, int64_t n);

}  // namespace my::ops::cuda
