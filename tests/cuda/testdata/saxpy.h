// y = a * x + y on the GPU, for the CUDA rules' test.
#pragma once

#include <string>
#include <vector>

namespace sops_cuda_test {

// How many CUDA devices the runtime sees (0 when none, or no driver).
int device_count();

// Copies x and y to the GPU, runs the kernel, copies y back; an error's text, or "".
std::string saxpy(float a, const std::vector<float>& x, std::vector<float>& y);

}  // namespace sops_cuda_test
