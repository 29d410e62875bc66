// What the kernels of testdata/two_backend_ops.yaml record: which of them ran.
#pragma once

#include <string>
#include <vector>

namespace two::ops::testing {

// The kernels that ran, in order ("add_out_cpu", "neg_cuda", ...); tests clear it.
std::vector<std::string>& calls();

}  // namespace two::ops::testing
