// One runtime's model load and peak memory, measured in a fresh process: lite_bench
// spawns peer_child_ours, peer_child_executorch or peer_child_onnxruntime (this file,
// linked with that one runtime and nothing else, so no other runtime's libraries or
// static initializers weigh in the process) and reads back what it writes.
//
//   peer_child_<runtime> MODEL_FILE RESULT_FILE THREADS RUNS INPUT.npy...
//
// It reads the inputs, notes VmRSS (the process with its libraries loaded and the
// inputs read: the floor), loads the model (timed: the runtime's whole load, from the
// file to ready to run), runs it once (timed: the first inference, with whatever the
// runtime defers to it), RUNS-1 more times, and writes to RESULT_FILE one line
//
//   load_us=L first_run_us=F rss_before_kib=R hwm_kib=H
//
// where H is VmHWM from /proc/self/status: the process's peak resident memory, libraries,
// model, arena and outputs included. Exit status 0, or 1 with the error on stderr.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bench/host_array.h"
#include "bench/peer_runtime.h"

namespace {

// The `field` line of /proc/self/status in KiB ("VmRSS", "VmHWM"); -1 when absent.
long status_kib(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0)
      return std::strtol(line.c_str() + key.size(), nullptr, 10);
  }
  return -1;
}

double us_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
      .count();
}

std::unique_ptr<sops_bench::LoadedModel> load(const std::string& file,
                                              const std::vector<sops_bench::HostArray>& inputs,
                                              int threads) {
#if defined(SOPS_PEER_CHILD_OURS)
  return sops_bench::load_ours(file, inputs, threads);
#elif defined(SOPS_PEER_CHILD_EXECUTORCH)
  return sops_bench::load_executorch(file, inputs, threads);
#elif defined(SOPS_PEER_CHILD_ONNXRUNTIME)
  return sops_bench::load_onnxruntime(file, inputs, threads);
#else
#error "define SOPS_PEER_CHILD_OURS, SOPS_PEER_CHILD_EXECUTORCH or SOPS_PEER_CHILD_ONNXRUNTIME"
#endif
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: %s MODEL_FILE RESULT_FILE THREADS RUNS INPUT.npy... "
                 "(spawned by lite_bench)\n",
                 argv[0]);
    return 2;
  }
  const int threads = std::atoi(argv[3]);
  const int runs = std::atoi(argv[4]);
  if (threads < 1 || runs < 1) {
    std::fprintf(stderr, "%s: THREADS and RUNS must be positive integers\n", argv[0]);
    return 2;
  }
  try {
    std::vector<sops_bench::HostArray> inputs;
    for (int i = 5; i < argc; ++i) inputs.push_back(sops_bench::read_npy_host(argv[i]));
    const long rss_before = status_kib("VmRSS");
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<sops_bench::LoadedModel> model = load(argv[1], inputs, threads);
    const double load_us = us_since(start);
    const auto first = std::chrono::steady_clock::now();
    model->run();
    const double first_run_us = us_since(first);
    for (int k = 1; k < runs; ++k) model->run();
    const long hwm = status_kib("VmHWM");
    std::FILE* out = std::fopen(argv[2], "w");
    if (out == nullptr) {
      std::fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
      return 1;
    }
    std::fprintf(out, "load_us=%.1f first_run_us=%.1f rss_before_kib=%ld hwm_kib=%ld\n", load_us,
                 first_run_us, rss_before, hwm);
    std::fclose(out);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}
