// The kernel benchmark's workloads: one table both sides (ours and libtorch's) build
// from, so that each times the same operation on the same input values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sops_bench {

struct Workload {
  const char* name;
  const char* what;  // the operation and shapes, as printed
  bool small;        // a shape mobile models use (the "ahead of libtorch" goal)
};

// Printed in this order. Names are the keys the two sides switch on.
inline const std::vector<Workload>& workloads() {
  static const std::vector<Workload> v = {
      {"add", "add [1M] + [1M] float32", false},
      {"add_broadcast", "add [1024,1024] + [1024]", false},
      {"relu", "relu [1M]", false},
      {"sum", "sum [1M] (all)", false},
      {"sum_dim1", "sum [1024,1024] over dim 1", false},
      {"softmax", "_softmax [256,1024] dim 1", false},
      {"log_softmax", "_log_softmax [256,1024] dim 1", false},
      {"layer_norm", "native_layer_norm [512,768]", false},
      {"mm256", "mm 256x256 @ 256x256", false},
      {"mm512", "mm 512x512 @ 512x512", false},
      {"addmm", "addmm [512] + [64,512] @ [512,512]", false},
      {"conv2d", "convolution [8,64,56,56] * [64,64,3,3] pad 1", false},
      {"depthwise", "convolution [8,64,56,56] * [64,1,3,3] pad 1 groups 64", false},
      {"max_pool2d", "max_pool2d_with_indices [8,64,56,56] 3x3 stride 2", false},
      {"avg_pool2d", "avg_pool2d [8,64,56,56] 3x3 stride 2", false},
      {"batch_norm", "_native_batch_norm_legit_no_training [8,64,56,56]", false},
      {"transpose_copy", "copy_ of [1024,1024].t() into a contiguous tensor", false},
      {"sin", "sin [1M]", false},
      {"gather", "gather [1024,1024] dim 1, index [1024,256]", false},
      {"index_select", "index_select [32000,256] dim 0, index [2048]", false},
      {"index_tensor", "index.Tensor [32000,256] [index [2048]]", false},
      {"cumsum", "cumsum [1024,1024] dim 1", false},
      {"sort", "sort [256,1024] dim 1", false},
      {"topk", "topk [256,1024] k 16 dim 1", false},
      {"var", "var [512,768] dim 1", false},
      {"group_norm", "native_group_norm [8,64,56,56] 32 groups", false},
      {"upsample_bilinear", "upsample_bilinear2d [8,64,28,28] to 56x56", false},
      {"add_small", "add [256] + [256]", true},
      {"mm_small", "mm [16,64] @ [64,64]", true},
      {"addmm_small", "addmm [64] + [1,128] @ [128,64]", true},
      {"conv2d_small", "convolution [1,16,32,32] * [16,16,3,3] pad 1", true},
  };
  return v;
}

// The value of element i of input number `input` of a workload: small, varied and the
// same on both sides.
inline float input_value(int input, int64_t i) {
  return static_cast<float>((i * 7919 + input * 104729) % 1001) / 500.0f - 1.0f;
}

// The value of element i of an index tensor into a dimension of size n.
inline int64_t index_value(int64_t i, int64_t n) { return (i * 7919) % n; }

// A workload made on one side: run() repeats the operation (its result freed or kept
// in place like a model would); checksum() is the sum of the result's elements.
struct Prepared {
  std::function<void()> run;
  std::function<double()> checksum;
};

}  // namespace sops_bench
