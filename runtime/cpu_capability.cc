#include "runtime/cpu_capability.h"

#include <cstdlib>
#include <cstring>

namespace sops {

bool detect_cpu_avx2() {
  const char* env = std::getenv("SOPS_CPU_CAPABILITY");
  if (env != nullptr && std::strcmp(env, "default") == 0) return false;
#if SOPS_HAVE_AVX2_CLONES
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace sops
