// Heap allocations per run through a RunState (lite/run_state.h), counted by the
// allocator's calls: this binary replaces the global operator new (every C++ heap
// allocation: std::vector, std::shared_ptr, TensorImpl, Storage, ...) and wraps the CPU
// tensor allocator (tensor data, which the runtime takes from malloc directly; no other
// code of the runtime or the kernels calls malloc). Each example model runs through a
// state on its stored inputs (the dynamic ones at their first listed size): the first
// run makes the plan and the state's objects; runs 2..4 must each make exactly the
// allocations listed below per model (zero where the model reaches it), so that a
// regression (or an improvement, which then updates the list) fails. The test prints,
// per model, the nodes that still allocate and how many times.
//
// The outputs: the state's equal the allocating path's (Memory::Allocating) bit for bit,
// and the stored eager PyTorch outputs within 1e-5 (relative to their largest value);
// RunState::run(inputs, outputs) copies them into the caller's tensors.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <execinfo.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "aten/UnboxingFunctions.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/npy.h"
#include "lite/run_state.h"
#include "lite/tensor_copy.h"
#include "runtime/allocator.h"
#include "runtime/parallel.h"

namespace {

// Counted while `counting` is set on the thread that counts (gtest's own allocations
// on other threads, if any, are not).
std::atomic<int64_t> g_news{0};
thread_local bool t_counting = false;
// RUN_STATE_ALLOCATION_TRACE=<model>: each counted allocation's call stack to stderr (for
// finding where a node allocates: addr2line -f -C -e the test binary's offsets).
thread_local bool t_tracing = false;

void trace_allocation() {
  if (!t_tracing) return;
  t_tracing = false;  // backtrace itself may allocate
  void* frames[24];
  const int n = backtrace(frames, 24);
  backtrace_symbols_fd(frames, n, 2);
  write(2, "--\n", 3);
  t_tracing = true;
}

void* counted_new(std::size_t n) {
  if (t_counting) {
    g_news.fetch_add(1, std::memory_order_relaxed);
    trace_allocation();
  }
  if (n == 0) n = 1;
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* counted_new_aligned(std::size_t n, std::align_val_t al) {
  if (t_counting) g_news.fetch_add(1, std::memory_order_relaxed);
  const auto a = static_cast<std::size_t>(al);
  void* p = std::aligned_alloc(a, (std::max<std::size_t>(n, 1) + a - 1) / a * a);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

// The replaced global allocation functions (all the forms a program can call).
void* operator new(std::size_t n) { return counted_new(n); }
void* operator new[](std::size_t n) { return counted_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t al) { return counted_new_aligned(n, al); }
void* operator new[](std::size_t n, std::align_val_t al) { return counted_new_aligned(n, al); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace sops::lite {
namespace {

class RunStateAllocationsTest : public ::testing::Test {
 protected:
  // One thread, as lite_bench --threads=1 times it: with more, a parallel region's
  // scheduling may allocate, and how often depends on the workers' timing.
  static void SetUpTestSuite() {
    aten::register_aten_kernels();
    set_num_threads(1);
  }
};

// Counts the CPU tensor allocator's calls, and hands them to the default.
class CountingAllocator : public Allocator {
 public:
  explicit CountingAllocator(Allocator* inner) : inner_(inner) {}
  DataPtr allocate(std::size_t nbytes) override {
    if (t_counting) {
      ++count_;
      trace_allocation();
    }
    return inner_->allocate(nbytes);
  }
  void copy_data(void* dst, const void* src, std::size_t nbytes) const override {
    inner_->copy_data(dst, src, nbytes);
  }
  int64_t count() const { return count_; }

 private:
  Allocator* inner_;
  std::atomic<int64_t> count_{0};
};

// Every allocation counted so far: operator new's and the tensor allocator's.
int64_t allocations(const CountingAllocator& tensors) { return g_news.load() + tensors.count(); }

struct Example {
  const char* env;  // the model file's variable (the BUILD file sets it)
  const char* name;
  const char* prefix;  // of the .npy files beside the model: "" or "size0_"
  // The allocations each run after the first makes (see the file comment).
  int64_t allocations_per_run;
};

std::string sibling(const std::string& model_path, const std::string& file) {
  return model_path.substr(0, model_path.rfind('/') + 1) + file;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

std::vector<Tensor> read_arrays(const std::string& model_path, const std::string& stem) {
  std::vector<Tensor> arrays;
  for (int k = 0;; ++k) {
    const std::string path = sibling(model_path, stem + std::to_string(k) + ".npy");
    if (!exists(path)) break;
    arrays.push_back(read_npy(path));
  }
  return arrays;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  const Tensor x = contiguous_copy(a);
  const Tensor y = contiguous_copy(b);
  return std::memcmp(x.data_ptr(), y.data_ptr(), row_major_nbytes(x, "output")) == 0;
}

// The largest |a - e| over the largest |e| (float outputs) or whether they are equal.
double relative_error(const Tensor& a, const Tensor& e) {
  if (a.sizes() != e.sizes()) return INFINITY;
  const Tensor x = contiguous_copy(a);
  const Tensor y = contiguous_copy(e);
  if (x.scalar_type() != ScalarType::Float || y.scalar_type() != ScalarType::Float) {
    return same_bytes(x, y) ? 0.0 : INFINITY;
  }
  const float* p = x.data_ptr<float>();
  const float* q = y.data_ptr<float>();
  double diff = 0;
  double scale = 1e-30;
  for (int64_t k = 0; k < x.numel(); ++k) {
    diff = std::max(diff, std::fabs(static_cast<double>(p[k]) - q[k]));
    scale = std::max(scale, std::fabs(static_cast<double>(q[k])));
  }
  return diff / scale;
}

TEST_F(RunStateAllocationsTest, ExampleModelsAllocateOnlyWhatIsListed) {
  const Example examples[] = {
      {"MLP_MODEL", "mlp", "", 0},
      {"CNN_MODEL", "cnn", "", 31},
      {"TRANSFORMER_MODEL", "transformer", "", 83},
      {"BERT_MODEL", "bert", "", 167},
      {"LLAMA_MODEL", "llama", "", 233},
      {"VIT_SWIN_MODEL", "vit_swin", "", 1056},
      {"CONVGN_MODEL", "convgn", "", 118},
      {"BERT_DYNAMIC_MODEL", "bert_dynamic", "size0_", 252},
      {"LLAMA_DYNAMIC_MODEL", "llama_dynamic", "size0_", 362},
  };
  CountingAllocator counter(get_allocator(DeviceType::CPU));
  const ScopedAllocator scope(DeviceType::CPU, &counter);
  std::cout
      << "| model | nodes | allocations per run: Memory::Allocating | Program::run | "
         "RunState runs 2, 3, 4 | | | state memory (bytes) |\n|---|---|---|---|---|---|---|---|\n";
  for (const Example& e : examples) {
    const char* path = std::getenv(e.env);
    ASSERT_NE(path, nullptr) << e.env << " is not set (the BUILD file sets it)";
    const std::shared_ptr<const Model> model = read_model_file(path);
    const std::vector<Tensor> inputs = read_arrays(path, std::string(e.prefix) + "input");
    const std::vector<Tensor> eager = read_arrays(path, std::string(e.prefix) + "expected");
    ASSERT_EQ(inputs.size(), model->inputs.size()) << e.name;
    const Program program(model, OperatorRegistry::global(), Limits(), Memory::Planned);
    const Program allocating(model, OperatorRegistry::global(), Limits(), Memory::Allocating);
    const std::vector<Tensor> expected = allocating.run(inputs);

    RunState state(program);
    state.run(inputs);  // makes the plan, the memory and the state's objects
    const std::size_t n = model->nodes.size();
    std::vector<int64_t> by_node(n, 0);  // made before counting: the observer allocates nothing
    std::vector<int64_t> first_by_node;
    int64_t per_run[3] = {0, 0, 0};
    for (int r = 0; r < 3; ++r) {
      std::fill(by_node.begin(), by_node.end(), 0);
      int64_t seen = 0;
      const NodeObserver observe = [&](std::size_t i, const std::vector<Value>&) {
        if (t_tracing) std::fprintf(stderr, "== after node %zu\n", i);
        const int64_t now = allocations(counter);
        by_node[i] = now - seen;
        seen = now;
      };
      t_counting = true;
      const char* trace = std::getenv("RUN_STATE_ALLOCATION_TRACE");
      t_tracing = r == 0 && trace != nullptr && std::string(trace) == e.name;
      const int64_t start = allocations(counter);
      seen = start;
      const std::vector<Tensor>& outputs = state.run(inputs, observe);
      per_run[r] = allocations(counter) - start;
      t_counting = false;
      t_tracing = false;
      if (r == 0) first_by_node = by_node;
      ASSERT_EQ(outputs.size(), expected.size()) << e.name;
      for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_TRUE(same_bytes(outputs[k], expected[k])) << e.name << " output " << k;
        if (k < eager.size()) {
          EXPECT_LT(relative_error(outputs[k], eager[k]), 1e-5) << e.name << " output " << k;
        }
      }
    }
    // Into the caller's tensors.
    std::vector<Tensor> mine;
    for (const Tensor& t : expected) mine.push_back(empty(t.sizes(), t.options()));
    state.run(inputs, mine);
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_TRUE(same_bytes(mine[k], expected[k])) << e.name << " output " << k;
    }

    // For comparison (printed): one Program::run of each kind, after a first one.
    auto count_run = [&](const Program& p) {
      p.run(inputs);
      t_counting = true;
      const int64_t start = allocations(counter);
      p.run(inputs);
      const int64_t made = allocations(counter) - start;
      t_counting = false;
      return made;
    };
    const int64_t allocating_per_run = count_run(allocating);
    const int64_t pooled_per_run = count_run(program);

    std::map<std::string, int64_t> by_operator;
    std::string allocating_nodes;
    for (std::size_t i = 0; i < n; ++i) {
      if (first_by_node[i] == 0) continue;
      const std::string& op = model->operators[model->nodes[i].op];
      by_operator[op] += first_by_node[i];
      allocating_nodes +=
          " " + model->nodes[i].name + "(" + op + "):" + std::to_string(first_by_node[i]);
    }
    std::cout << "| " << e.name << " | " << n << " | " << allocating_per_run << " | "
              << pooled_per_run << " | " << per_run[0] << " | " << per_run[1] << " | " << per_run[2]
              << " | " << state.memory_bytes() << " |\n";
    // The nodes whose out= variant `autogen:` wrote (the functional kernel, then a copy):
    // they run the functional kernel instead (lite/planned_run.cc) and allocate its result.
    std::string autogen_out;
    for (std::size_t i = 0; i < n; ++i) {
      if (!program.calls_operator(i)) continue;
      const std::string& op = model->operators[model->nodes[i].op];
      const std::string out = op.find('.') == std::string::npos ? op + ".out" : op + "_out";
      const RegisteredOperator* o = OperatorRegistry::global().find(out);
      if (o != nullptr && o->schema().generated) autogen_out += " " + model->nodes[i].name;
    }
    std::cout << "  functional, as the out= variant is autogen's:"
              << (autogen_out.empty() ? " none" : autogen_out) << "\n";

    std::cout << "  by operator:";
    for (const auto& [op, count] : by_operator) std::cout << " " << op << ":" << count;
    std::cout << "\n  nodes:" << (allocating_nodes.empty() ? " none" : allocating_nodes) << "\n";
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(per_run[r], e.allocations_per_run) << e.name << " run " << r + 2;
    }
  }
}

}  // namespace
}  // namespace sops::lite
