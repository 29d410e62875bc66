// The libtorch side of the benchmarks, behind plain functions: libtorch's headers
// are compiled in libtorch_baseline.cc only, never beside ours.
#pragma once

#include <cstdint>
#include <string>

#include "bench/workloads.h"

namespace sops_bench {

// Whether libtorch was linked in (false: the functions below return -1).
bool libtorch_available();
// The linked libtorch's version ("2.13.0+cpu"), or how to get one.
const char* libtorch_version();

// ns per call, averaged over `calls` calls, of a functional add of two 1-element
// float32 CPU tensors: at::cpu::add (static entry point) and at::add (dispatcher).
double libtorch_cpu_add_ns(int64_t calls);
double libtorch_add_ns(int64_t calls);

// ns per boxed call, averaged over `calls` calls, of aten::add.Tensor through
// c10::Dispatcher (findSchemaOrThrow once, then OperatorHandle::callBoxed), the stack
// refilled each call with two 1-element float32 CPU tensors and alpha=1. Sets
// libtorch's intra-op threads to 1 (at::set_num_threads(1)) and checks the sum once.
double libtorch_boxed_add_ns(int64_t calls);

// The kernel benchmark's workload `name` (bench/workloads.h) on libtorch; run is empty
// for a name it does not know or without libtorch.
Prepared libtorch_workload(const std::string& name);
// at::set_num_threads.
void libtorch_set_num_threads(int n);

}  // namespace sops_bench
