// scaled_add on the GPU (under --config=cuda): the CUDA kernel's values equal the CPU
// kernel's, and a cpu tensor beside a CUDA one is an error naming both devices. Passes
// with a note where the process sees no GPU.
#include <cstdio>
#include <string>
#include <vector>

#include "backends/cuda/runtime/cuda_backend.h"
#include "my_ops/Functions.h"

namespace {

sops::Tensor on_gpu(const std::vector<float>& values) {
  sops::Tensor t =
      sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions().device(sops::kCUDA));
  sops::cuda::copy_bytes(t.data_ptr<float>(), values.data(), values.size() * sizeof(float));
  return t;
}

std::vector<float> to_host(const sops::Tensor& t) {
  std::vector<float> values(static_cast<std::size_t>(t.numel()));
  sops::cuda::copy_bytes(values.data(), t.data_ptr<float>(), values.size() * sizeof(float));
  return values;
}

}  // namespace

int main() {
  if (!sops::cuda::register_cuda_backend()) {
    std::printf("no CUDA device in this process: nothing to run\n");
    return 0;
  }
  std::vector<float> a(1000), b(1000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = 0.25f * static_cast<float>(i);
    b[i] = 1.0f - 0.5f * static_cast<float>(i);
  }
  const sops::Tensor r = my::ops::scaled_add(on_gpu(a), on_gpu(b), 3.0);
  bool ok = r.is_cuda();
  const std::vector<float> got = to_host(r);
  for (std::size_t i = 0; i < a.size(); ++i) ok = ok && got[i] == a[i] + 3.0f * b[i];
  std::printf("scaled_add on the GPU: %s\n", ok ? "equal to the CPU's values" : "WRONG");
  try {
    my::ops::scaled_add(on_gpu(a), sops::empty({1000}, sops::TensorOptions()));
    ok = false;
  } catch (const sops::Error& e) {
    std::printf("cpu beside cuda: %s\n", e.what());
    ok = ok && std::string(e.what()).find("cpu") != std::string::npos;
  }
  return ok ? 0 : 1;
}
