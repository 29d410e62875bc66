// check(): a CUDA runtime call's error as a sops::Error naming the call.
#pragma once

#include <cuda_runtime.h>

#include "runtime/error.h"

namespace sops::cuda {

inline void check(cudaError_t e, const char* call) {
  if (SOPS_UNLIKELY(e != cudaSuccess)) {
    (void)cudaGetLastError();  // the error is reported once, here
    raise(Error(detail::str(call, " failed: ", cudaGetErrorString(e))));
  }
}

}  // namespace sops::cuda
