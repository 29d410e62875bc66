// The lite runtime benchmark: process start, model load and inference of the example
// models (models/), ours against libtorch's TorchScript in the same run.
//
//   tools/bazel run -c opt //bench:lite_bench [-- --threads=1 --rounds=9 --starts=21
//                                               --only=mlp,cnn --profile=1 --no-baseline=1
//                                               --peer-models=DIR --peers-only=1 --children=3]
//
// 1. Process start: `lite_runtime run models/mlp/model.sopsm ...` spawned and waited for,
//    `--starts` times; and libtorch's equivalent, this binary re-executed with
//    --child-libtorch (torch::jit::load + one forward, then exit).
// 2. Model load: read_model_file + Program, against torch::jit::load.
// 3. Inference: Program::run against the TorchScript module's forward, run like eager
//    PyTorch (bench/libtorch_lite_baseline.h), both at --threads, outputs compared first.
// 4. Dynamic exports (models/NAME_dynamic) against the static ones, on the same inputs.
// 5. Side by side with ExecuTorch (portable, XNNPACK) and ONNX Runtime where built in, on
//    the example models and MobileNetV2/ResNet18 (bench/lite_peers.h; --peer-models=DIR
//    from bench/peers/export_peer_models.py; --peers-only=1 runs this section alone).
// Not a test: timings are never asserted.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "aten/UnboxingFunctions.h"
#include "bench/libtorch_baseline.h"
#include "bench/libtorch_lite_baseline.h"
#include "bench/lite_node_profile.h"
#include "bench/lite_peers.h"
#include "bench/process_timing.h"
#include "bench/timing.h"
#include "lite/interpreter.h"
#include "lite/model.h"
#include "lite/npy.h"
#include "lite/optimize.h"
#include "runtime/parallel.h"

namespace {

using sops::Tensor;
using sops_bench::HostArray;
using sops_bench::median;

constexpr const char* kModels[] = {"mlp",   "cnn",      "transformer", "bert",
                                   "llama", "vit_swin", "convgn"};
// Section 5 also runs these, from --peer-models (bench/peers/export_peer_models.py).
constexpr const char* kPeerOnlyModels[] = {"mobilenet_v2", "resnet18"};
constexpr double kStartGoalMs = 5.0;

// models/NAME/FILE; a NAME with a slash is a folder of its own (--extra).
std::string model_file(const std::string& name, const char* file) {
  if (name.find('/') != std::string::npos) return name + "/" + file;
  return "models/" + name + "/" + file;
}

const char* dtype_name(sops::ScalarType t) {
  switch (t) {
    case sops::ScalarType::Float:
      return "float32";
    case sops::ScalarType::Double:
      return "float64";
    case sops::ScalarType::Half:
      return "float16";
    case sops::ScalarType::Long:
      return "int64";
    case sops::ScalarType::Int:
      return "int32";
    case sops::ScalarType::Char:
      return "int8";
    case sops::ScalarType::Byte:
      return "uint8";
    case sops::ScalarType::Bool:
      return "bool";
    default:
      return "unsupported";
  }
}

// A contiguous cpu tensor (as read_npy makes) as the libtorch side takes it.
HostArray host_array(const Tensor& t) {
  HostArray a{dtype_name(t.scalar_type()), t.sizes().vec(), {}};
  a.bytes.resize(t.nbytes());
  if (t.nbytes()) std::memcpy(a.bytes.data(), t.const_data_ptr(), t.nbytes());
  return a;
}

double element(const void* base, sops::ScalarType t, int64_t i) {
  switch (t) {
    case sops::ScalarType::Float:
      return static_cast<const float*>(base)[i];
    case sops::ScalarType::Double:
      return static_cast<const double*>(base)[i];
    case sops::ScalarType::Long:
      return static_cast<double>(static_cast<const int64_t*>(base)[i]);
    case sops::ScalarType::Int:
      return static_cast<const int32_t*>(base)[i];
    case sops::ScalarType::Bool:
      return static_cast<const bool*>(base)[i];
    default:
      throw std::runtime_error(std::string("lite_bench: cannot compare ") + dtype_name(t));
  }
}

// The elements of `t` (any strides) in C order, as doubles.
std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(t.numel()));
  const int64_t dims = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(dims), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < dims; ++d) offset += index[d] * t.stride(d);
    out.push_back(element(t.const_data_ptr(), t.scalar_type(), offset));
    for (int64_t d = dims - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
  return out;
}

std::vector<double> values(const HostArray& a) {
  std::vector<double> out;
  if (a.dtype == "float32") {
    for (std::size_t i = 0; i < a.bytes.size() / 4; ++i) {
      float f;
      std::memcpy(&f, a.bytes.data() + 4 * i, 4);
      out.push_back(f);
    }
  } else if (a.dtype == "int64") {
    for (std::size_t i = 0; i < a.bytes.size() / 8; ++i) {
      int64_t v;
      std::memcpy(&v, a.bytes.data() + 8 * i, 8);
      out.push_back(static_cast<double>(v));
    }
  } else {
    throw std::runtime_error("lite_bench: cannot compare a libtorch " + a.dtype + " output");
  }
  return out;
}

// Max |a - b| over the elements; infinity when the counts differ.
double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

bool wanted(const std::vector<std::string>& only, const std::string& name) {
  return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
}

// Median and min of `n` spawns of `argv` (after one unmeasured spawn). Empty when a
// run fails; its stderr is printed then.
std::vector<double> time_starts(const std::vector<std::string>& argv, int64_t n,
                                const sops_bench::TempDir& tmp) {
  const std::string err = tmp.path() + "/stderr.txt";
  std::vector<double> ms;
  for (int64_t k = 0; k <= n; ++k) {
    const sops_bench::ProcessRun run = sops_bench::spawn_and_wait(argv, err);
    if (run.exit_code != 0) {
      std::printf("  %s exited with %d:\n", argv[0].c_str(), run.exit_code);
      std::ifstream in(err);
      std::string line;
      while (std::getline(in, line)) std::printf("    %s\n", line.c_str());
      return {};
    }
    if (k > 0) ms.push_back(run.ms);
  }
  return ms;
}

void print_start(const char* what, const std::vector<double>& ms, const char* note) {
  if (ms.empty()) return;
  std::printf("  %-58s %9.2f ms %9.2f ms%s\n", what, median(ms),
              *std::min_element(ms.begin(), ms.end()), note);
}

// In this process, warm: what lite_runtime does before its first operator runs
// (read the model, bind it, read the input), through the first node's observer call.
double in_process_first_node_us(const std::string& name) {
  const auto start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point first;
  const auto model = sops::lite::read_model_file(model_file(name, "model.sopsm"));
  const sops::lite::Program program(model);
  const std::vector<Tensor> inputs = {sops::lite::read_npy(model_file(name, "input0.npy"))};
  bool seen = false;
  program.run(inputs, [&](std::size_t, const std::vector<sops::Value>&) {
    if (!seen) first = std::chrono::steady_clock::now();
    seen = true;
  });
  return std::chrono::duration<double, std::micro>(first - start).count();
}

void bench_process_start(const std::string& lite_runtime, int64_t starts, int threads,
                         bool baseline) {
  std::printf(
      "1. process start to first operator, mlp: spawn to exit of the whole process "
      "(an upper bound: it includes the run, writing out0.npy and exit), "
      "%lld starts after one unmeasured\n",
      static_cast<long long>(starts));
  std::printf("  %-58s %12s %12s\n", "", "median", "min");
  const sops_bench::TempDir tmp("lite_bench_");
  const std::string t = std::to_string(threads);
  if (access("/bin/true", X_OK) == 0) {
    print_start("/bin/true (the floor: spawn, exec, exit)", time_starts({"/bin/true"}, starts, tmp),
                "");
  }
  const std::vector<std::string> lite = {lite_runtime,
                                         "run",
                                         model_file("mlp", "model.sopsm"),
                                         "--input",
                                         model_file("mlp", "input0.npy"),
                                         "--output-dir",
                                         tmp.path() + "/out",
                                         "--threads",
                                         t};
  char goal[64];
  std::snprintf(goal, sizeof goal, "   (goal <= %.0f ms)", kStartGoalMs);
  print_start("lite_runtime --help (exec, kernel registration, exit)",
              time_starts({lite_runtime, "--help"}, starts, tmp), "");
  print_start("lite_runtime run models/mlp/model.sopsm", time_starts(lite, starts, tmp), goal);
  if (baseline) {
    const std::vector<std::string> child = {"/proc/self/exe", "--child-libtorch",
                                            model_file("mlp", "torchscript.pt"),
                                            model_file("mlp", "input0.npy"), "--threads=" + t};
    print_start("libtorch: torch::jit::load + forward (this binary re-run)",
                time_starts(child, starts, tmp), "");
  }
  std::vector<double> us;
  for (int k = 0; k < 21; ++k) us.push_back(in_process_first_node_us("mlp"));
  std::printf(
      "  of which in-process work, warm (read model, bind, read input, first node): "
      "%.1f us\n",
      median(us));
}

double ms_since(std::chrono::steady_clock::time_point start) {
  const auto elapsed = std::chrono::steady_clock::now() - start;
  return std::chrono::duration<double, std::milli>(elapsed).count();
}

// Median ns of `f` over at least `min_samples` samples and about `budget_ms`.
template <class F>
double median_ns(int min_samples, double budget_ms, F&& f) {
  std::vector<double> ns;
  const auto start = std::chrono::steady_clock::now();
  while (static_cast<int>(ns.size()) < min_samples || ms_since(start) < budget_ms) {
    ns.push_back(f());
    if (ns.size() >= 10000) break;
  }
  return median(ns);
}

void bench_load(const std::vector<std::string>& models, bool baseline) {
  std::printf(
      "\n2. model load: ours = read_model_file + Program (bind); "
      "libtorch = torch::jit::load (medians)\n");
  std::printf("  %-14s %8s %8s %12s %12s %8s\n", "model", "nodes", "KiB", "libtorch us", "ours us",
              "speed");
  for (const std::string& name : models) {
    const std::string path = model_file(name, "model.sopsm");
    const auto m = sops::lite::read_model_file(path);
    // Like torchscript_load_ns: the clock stops before the program is freed.
    const double ours = median_ns(21, 300, [&] {
      const auto start = std::chrono::steady_clock::now();
      std::optional<sops::lite::Program> program(std::in_place, sops::lite::read_model_file(path));
      const auto stop = std::chrono::steady_clock::now();
      sops_bench::escape(&*program);
      return std::chrono::duration<double, std::nano>(stop - start).count();
    });
    const std::string pt = model_file(name, "torchscript.pt");
    const double theirs =
        baseline ? median_ns(11, 500, [&] { return sops_bench::torchscript_load_ns(pt); }) : -1;
    std::printf("  %-14s %8zu %8.1f ", name.c_str(), m->nodes.size(), m->size_bytes() / 1024.0);
    if (theirs > 0) {
      std::printf("%12.1f %12.1f %7.1fx\n", theirs / 1e3, ours / 1e3, theirs / ours);
    } else {
      std::printf("%12s %12.1f\n", "-", ours / 1e3);
    }
  }
}

// Calls that take about `ms` (from a warm-up that itself runs about that long).
template <class F>
int64_t calls_for_ms(double ms, F&& f) {
  int64_t calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (calls < 3 || elapsed < ms) {
    f();
    ++calls;
    elapsed = ms_since(start);
  }
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(ms / (elapsed / calls))));
}

// input0.npy, input1.npy, ... of models/NAME (bert takes its tokens and an attention mask).
std::vector<Tensor> read_inputs(const std::string& name) {
  std::vector<Tensor> inputs;
  for (int k = 0;; ++k) {
    const std::string file = "input" + std::to_string(k) + ".npy";
    if (!std::ifstream(model_file(name, file.c_str())).good()) break;
    inputs.push_back(sops::lite::read_npy(model_file(name, file.c_str())));
  }
  return inputs;
}

bool bench_inference(const std::string& name, int64_t rounds, int threads, bool baseline,
                     int profile) {
  const auto model = sops::lite::read_model_file(model_file(name, "model.sopsm"));
  // Every node allocating its results (Memory::Planned is the default now), beside ours
  // through the memory plan below.
  const sops::lite::Program program(model, sops::OperatorRegistry::global(), sops::lite::Limits(),
                                    sops::lite::Memory::Allocating);
  const std::vector<Tensor> inputs = read_inputs(name);
  const std::vector<double> expected =
      values(sops::lite::read_npy(model_file(name, "expected0.npy")));
  std::vector<Tensor> ours_out = program.run(inputs);
  const std::vector<double> ours_values = values(ours_out.at(0));

  std::unique_ptr<sops_bench::TorchScriptModel> theirs;
  if (baseline) {
    std::vector<sops_bench::HostArray> arrays;
    for (const Tensor& t : inputs) arrays.push_back(host_array(t));
    theirs = sops_bench::load_torchscript(model_file(name, "torchscript.pt"), arrays);
    theirs->run();
  }
  const std::vector<double> theirs_values =
      theirs ? values(theirs->outputs().at(0)) : std::vector<double>{};

  // Interleaved rounds: libtorch's sample, then ours, `rounds` times, each >= 50 ms.
  std::vector<sops_bench::Variant> variants;
  if (theirs) {
    const int64_t calls = calls_for_ms(50, [&] { theirs->run(); });
    variants.push_back(
        {"libtorch",
         [&, calls](int64_t) { return sops_bench::ns_per_call(calls, [&] { theirs->run(); }); },
         {}});
  }
  // Ours through the memory plan (Memory::Planned: the planned nodes' out= variants
  // writing into one arena), before ours (every node allocating its results, the default).
  const sops::lite::Program planned(model, sops::OperatorRegistry::global(), sops::lite::Limits(),
                                    sops::lite::Memory::Planned);
  std::vector<Tensor> planned_out = planned.run(inputs);
  const int64_t planned_calls = calls_for_ms(50, [&] { planned_out = planned.run(inputs); });
  variants.push_back({"ours, planned",
                      [&, planned_calls](int64_t) {
                        return sops_bench::ns_per_call(planned_calls, [&] {
                          planned_out = planned.run(inputs);
                          sops_bench::escape(&planned_out);
                        });
                      },
                      {}});
  // Ours with the load-time optimization off (lite/optimize.h), then ours (on, the default).
  const sops::lite::Program unoptimized(model, sops::OperatorRegistry::global(),
                                        sops::lite::Limits(), sops::lite::Memory::Allocating,
                                        sops::lite::Optimize::Off);
  std::vector<Tensor> unoptimized_out = unoptimized.run(inputs);
  const int64_t plain_calls = calls_for_ms(50, [&] { unoptimized_out = unoptimized.run(inputs); });
  variants.push_back({"ours, unoptimized",
                      [&, plain_calls](int64_t) {
                        return sops_bench::ns_per_call(plain_calls, [&] {
                          unoptimized_out = unoptimized.run(inputs);
                          sops_bench::escape(&unoptimized_out);
                        });
                      },
                      {}});
  const int64_t calls = calls_for_ms(50, [&] { ours_out = program.run(inputs); });
  variants.push_back({"ours",
                      [&, calls](int64_t) {
                        return sops_bench::ns_per_call(calls, [&] {
                          ours_out = program.run(inputs);
                          sops_bench::escape(&ours_out);
                        });
                      },
                      {}});
  for (int64_t r = 0; r < rounds; ++r) {
    for (sops_bench::Variant& v : variants) {
      // At 2+ threads a side's idle threads spin for a while after its last call.
      if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      v.samples.push_back(v.run(1));
    }
  }

  const double mine = median(variants.back().samples) / 1e3;
  const double ours_err = max_abs_diff(ours_values, expected);
  bool ok = ours_err < 1e-4;
  if (theirs) {
    const double base = median(variants[0].samples) / 1e3;
    const double diff = max_abs_diff(ours_values, theirs_values);
    ok = ok && diff < 1e-4;
    std::printf("  %-14s %12.2f %12.2f %7.2fx %12.2g %12.2g%s\n", name.c_str(), base, mine,
                base / mine, diff, ours_err, ok ? "" : "  MISMATCH");
  } else {
    std::printf("  %-14s %12s %12.2f %8s %12s %12.2g%s\n", name.c_str(), "-", mine, "", "-",
                ours_err, ok ? "" : "  MISMATCH");
  }
  const double with_plan = median(variants[variants.size() - 3].samples) / 1e3;
  std::printf("  %-14s %12s %12.2f %7.2fx  (ours through the memory plan; ratio: ours / it)\n", "",
              "", with_plan, mine / with_plan);
  const std::vector<double>& plain = variants[variants.size() - 2].samples;
  std::printf(
      "  %-14s %12s %12.2f %7.2fx  (ours unoptimized, lite/optimize.h off; ratio: ours / it; "
      "ours %.2f-%.2f, it %.2f-%.2f us over the rounds%s%s)\n",
      "", "", median(plain) / 1e3, mine / (median(plain) / 1e3),
      *std::min_element(variants.back().samples.begin(), variants.back().samples.end()) / 1e3,
      *std::max_element(variants.back().samples.begin(), variants.back().samples.end()) / 1e3,
      *std::min_element(plain.begin(), plain.end()) / 1e3,
      *std::max_element(plain.begin(), plain.end()) / 1e3,
      program.optimization() != nullptr ? "; " : "",
      program.optimization() != nullptr ? program.optimization()->summary().c_str() : "");
  if (profile > 0) {
    const std::vector<double> node_us = sops_bench::profile_nodes(program, inputs, 200);
    for (const sops_bench::OperatorTime& t : sops_bench::by_operator(*model, node_us)) {
      std::printf("      %-44s %3lld node%s %10.2f us\n", t.op.c_str(),
                  static_cast<long long>(t.nodes), t.nodes == 1 ? " " : "s", t.us);
    }
    if (profile > 1) {  // the slowest nodes, by name
      std::vector<std::size_t> order(node_us.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(),
                [&](std::size_t a, std::size_t b) { return node_us[a] > node_us[b]; });
      order.resize(std::min<std::size_t>(order.size(), 12));
      for (std::size_t i : order) {
        std::printf("      node %3zu %-38s %10.2f us\n", i, model->nodes[i].name.c_str(),
                    node_us[i]);
      }
    }
  }
  std::fflush(stdout);
  return ok;
}

// 4. models/NAME_dynamic (exported with a symbolic batch and sequence) against models/NAME
// (the same model exported at one size), both on NAME's inputs: what binding the symbols
// and computing shape arguments at run time cost. Returns false if their outputs differ.
bool bench_dynamic(const std::string& name, int64_t rounds, int threads) {
  const std::string dyn = name + "_dynamic";
  const sops::lite::Program fixed(sops::lite::read_model_file(model_file(name, "model.sopsm")));
  const sops::lite::Program dynamic(sops::lite::read_model_file(model_file(dyn, "model.sopsm")));
  const std::vector<Tensor> inputs = read_inputs(name);
  std::vector<Tensor> fixed_out = fixed.run(inputs);
  std::vector<Tensor> dynamic_out = dynamic.run(inputs);
  const double diff = max_abs_diff(values(fixed_out.at(0)), values(dynamic_out.at(0)));
  const auto sample = [&](const sops::lite::Program& p, std::vector<Tensor>& out) {
    const int64_t calls = calls_for_ms(50, [&] { out = p.run(inputs); });
    return [&, calls] {
      return sops_bench::ns_per_call(calls, [&] {
        out = p.run(inputs);
        sops_bench::escape(&out);
      });
    };
  };
  const auto run_fixed = sample(fixed, fixed_out);
  const auto run_dynamic = sample(dynamic, dynamic_out);
  std::vector<double> fixed_ns, dynamic_ns;
  for (int64_t r = 0; r < rounds; ++r) {
    if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    fixed_ns.push_back(run_fixed());
    if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    dynamic_ns.push_back(run_dynamic());
  }
  const double a = median(fixed_ns) / 1e3, b = median(dynamic_ns) / 1e3;
  const bool ok = diff < 1e-4;
  std::printf("  %-14s %-24s %12.2f %12.2f %7.3fx %12.2g%s\n", name.c_str(),
              sops::lite::TensorDesc::of(inputs.at(0)).str().c_str(), a, b, a / b, diff,
              ok ? "" : "  MISMATCH");
  std::fflush(stdout);
  return ok;
}

// --child-libtorch MODEL.pt INPUT.npy [--threads=N]: libtorch's process start.
int child_libtorch(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: lite_bench --child-libtorch MODEL.pt INPUT.npy [--threads=N]\n");
    return 2;
  }
  const int threads = static_cast<int>(sops_bench::flag(argc, argv, "--threads", 1));
  try {
    const std::vector<HostArray> inputs = {host_array(sops::lite::read_npy(argv[3]))};
    return sops_bench::torchscript_load_and_run_once(argv[2], inputs, threads);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lite_bench child: %s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--child-libtorch") == 0) return child_libtorch(argc, argv);

  const int64_t rounds = sops_bench::flag(argc, argv, "--rounds", 9);
  const int64_t threads = sops_bench::flag(argc, argv, "--threads", 1);
  const int64_t starts = sops_bench::flag(argc, argv, "--starts", 21);
  const int profile = static_cast<int>(sops_bench::flag(argc, argv, "--profile", 0));
  const bool peers_only = sops_bench::flag(argc, argv, "--peers-only", 0) != 0;
  const std::vector<std::string> only = sops_bench::list_flag(argc, argv, "--only");
  std::vector<std::string> models;
  for (const char* m : kModels) {
    if (wanted(only, m)) models.push_back(m);
  }
  sops_bench::PeerBenchOptions peers;
  peers.models = models;
  for (const char* m : kPeerOnlyModels) {
    if (wanted(only, m)) peers.models.push_back(m);
  }
  const auto text_flag = [&](const char* name) {
    const std::vector<std::string> v = sops_bench::list_flag(argc, argv, name);
    return v.empty() ? std::string() : v.back();
  };
  peers.peer_models = text_flag("--peer-models");
  peers.threads = static_cast<int>(threads);
  peers.rounds = rounds;
  peers.children = sops_bench::flag(argc, argv, "--children", 3);
  peers.child_ours = text_flag("--child-ours");
  peers.child_executorch = text_flag("--child-executorch");
  peers.child_onnxruntime = text_flag("--child-onnxruntime");
  // Folders of other models (model.sopsm, input0.npy, ..., expected0.npy; no TorchScript
  // baseline), timed after the example models.
  std::vector<std::string> extra;
  for (const std::string& dir : sops_bench::list_flag(argc, argv, "--extra")) {
    if (!dir.empty()) extra.push_back(dir.find('/') == std::string::npos ? "./" + dir : dir);
  }
  if (argc < 2 || argv[1][0] == '-' || rounds < 1 || threads < 1 || starts < 0 ||
      peers.children < 1 || peers.child_ours.empty()) {
    std::fprintf(stderr,
                 "usage: lite_bench LITE_RUNTIME --child-ours=BIN --child-executorch=BIN "
                 "--child-onnxruntime=BIN [--threads=N] [--rounds=N] [--starts=N] "
                 "[--only=mlp,cnn,transformer,bert,llama,vit_swin,convgn,mobilenet_v2,resnet18] "
                 "[--profile=1] [--no-baseline=1] [--peer-models=DIR] [--children=N] "
                 "[--peers-only=1] [--extra=DIR,...]\n"
                 "(tools/bazel run passes LITE_RUNTIME and the --child-* binaries)\n");
    return 2;
  }
  const std::string lite_runtime = argv[1];
  const bool baseline =
      sops_bench::libtorch_available() && sops_bench::flag(argc, argv, "--no-baseline", 0) == 0;
  sops_bench::prepare_process();
  try {
    sops::aten::register_aten_kernels();
    sops::set_num_threads(static_cast<int>(threads));
    sops_bench::libtorch_set_num_threads(static_cast<int>(threads));

    if (peers_only) return sops_bench::bench_peers(peers) == 0 ? 0 : 1;
    if (starts > 0) bench_process_start(lite_runtime, starts, static_cast<int>(threads), baseline);
    bench_load(models, baseline);

    std::printf(
        "\n3. inference, %lld thread%s on both sides: medians of %lld interleaved rounds "
        "of >= 50 ms; speed = libtorch time / ours (>1: we are faster)\n",
        static_cast<long long>(threads), threads == 1 ? "" : "s", static_cast<long long>(rounds));
    std::printf(
        "  (|ours-lt|: max |ours - libtorch| over the output; |ours-exp|: max |ours - "
        "expected0.npy|, eager PyTorch's)\n");
    std::printf("  %-14s %12s %12s %8s %12s %12s\n", "model", "libtorch us", "ours us", "speed",
                "|ours-lt|", "|ours-exp|");
    int wrong = 0;
    for (const std::string& name : models) {
      if (!bench_inference(name, rounds, static_cast<int>(threads), baseline, profile)) ++wrong;
    }
    for (const std::string& dir : extra) {
      if (!bench_inference(dir, rounds, static_cast<int>(threads), false, profile)) ++wrong;
    }
    bool dynamic_header = false;
    for (const std::string& name : models) {
      if (!std::ifstream(model_file(name + "_dynamic", "model.sopsm")).good()) continue;
      if (!dynamic_header) {
        std::printf(
            "\n4. dynamic against static exports, %lld thread%s: medians of %lld interleaved "
            "rounds of >= 50 ms on the static model's inputs; speed = static time / dynamic\n",
            static_cast<long long>(threads), threads == 1 ? "" : "s",
            static_cast<long long>(rounds));
        std::printf("  %-14s %-24s %12s %12s %8s %12s\n", "model", "first input", "static us",
                    "dynamic us", "speed", "|dyn-static|");
        dynamic_header = true;
      }
      if (!bench_dynamic(name, rounds, static_cast<int>(threads))) ++wrong;
    }
    wrong += sops_bench::bench_peers(peers);
    if (baseline) {
      std::printf(
          "\nlibtorch %s, same process: TorchScript (torch.jit.trace) through "
          "torch::jit::load, profiling executor and graph optimization off, eval(), "
          "NoGradGuard\n",
          sops_bench::libtorch_version());
    } else if (sops_bench::libtorch_available()) {
      std::printf("\nlibtorch baseline skipped (--no-baseline)\n");
    } else {
      std::printf("\nlibtorch baseline unavailable: %s\n", sops_bench::libtorch_version());
    }
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lite_bench: error: %s\n", e.what());
    return 1;
  }
}
