#include "lite/cli.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "lite/file_io.h"
#include "lite/interpreter.h"
#include "lite/memory_plan.h"
#include "lite/npy.h"
#include "lite/op_trace.h"
#include "lite/shapes.h"
#include "lite/sym_ops.h"
#include "runtime/parallel.h"

namespace sops::lite {

namespace {

constexpr const char* kUsage =
    "usage: lite_runtime <command> MODEL_FILE [options]\n"
    "\n"
    "commands:\n"
    "  run MODEL_FILE [--input A.npy ...] --output-dir DIR\n"
    "        run the model on one --input per model input (none for a model without\n"
    "        inputs); write its outputs to DIR/out0.npy, DIR/out1.npy, ...\n"
    "  ops MODEL_FILE\n"
    "        the model's operators, one namespace::name.overload a line, sorted (not the\n"
    "        sym:: scalar arithmetic of a dynamic model, which the interpreter does itself)\n"
    "  trace MODEL_FILE [--input A.npy ...] -o selected_operators.yaml\n"
    "        run the model recording every operator executed, including those called\n"
    "        from inside other kernels, and write them in PyTorch's selected_operators.yaml\n"
    "  shapes MODEL_FILE [--input A.npy ...]\n"
    "        run the graph on Meta tensors (the operators' shape functions; no data is\n"
    "        touched): every value's dtype and shape, and the peak activation memory; the\n"
    "        model's exported input shapes, or those of --input (which must match them).\n"
    "        A model exported with dynamic shapes: without --input, its symbols' ranges,\n"
    "        every value's symbolic shape and the peak at the symbols' upper bounds; with\n"
    "        --input (any sizes in range), the shapes and the peak at those sizes\n"
    "        Then the memory plan at those sizes (at the upper bounds): the one arena that\n"
    "        would hold every intermediate, their sum without reuse, and what is not planned\n"
    "\n"
    "options:\n"
    "  --threads N   threads for the kernels (default: $SOPS_NUM_THREADS, else all cores)\n"
    "  --no-optimize run every node as the model file has it: no batch norm folded into\n"
    "                its convolution, no activation fused into the product before it\n"
    "\n"
    "resource limits of run and trace (a model file is untrusted input): a node that\n"
    "would exceed one is refused before it runs. N is a count, or with K, M, G or T\n"
    "(2^10, 2^20, 2^30, 2^40); 0 means no limit.\n"
    "  --max-node-work N     elements one node may touch: those it reads (every element\n"
    "                        of an expanded view) and writes, and a product's multiply-adds\n"
    "                        (default: 4G, 2^32)\n"
    "  --max-tensor-bytes N  bytes of the largest tensor a node may make (default: 1G)\n"
    "  --max-memory-bytes N  bytes of inputs, intermediates and outputs alive at once,\n"
    "                        parameters aside (default: 2G)\n";

// The command line, or what is wrong with it (`usage_error`: parse stops at the first
// mistake, and the caller prints it with the usage).
struct Options {
  std::string command;
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir;
  std::string output_file;
  int threads = 0;
  Limits limits;
  Optimize optimize = Optimize::On;
  std::string usage_error;
};

// A limit's value: digits, then optionally K, M, G or T (binary: 2^10 ... 2^40).
bool parse_limit(const std::string& v, uint64_t* out) {
  std::size_t digits = 0;
  uint64_t n = 0;
  for (; digits < v.size() && v[digits] >= '0' && v[digits] <= '9'; ++digits) {
    if (__builtin_mul_overflow(n, uint64_t{10}, &n) ||
        __builtin_add_overflow(n, static_cast<uint64_t>(v[digits] - '0'), &n)) {
      return false;
    }
  }
  if (digits == 0 || v.size() - digits > 1) return false;
  if (digits < v.size()) {
    static constexpr std::string_view kSuffixes = "KMGT";
    const std::size_t power = kSuffixes.find(v.back());
    if (power == std::string_view::npos) return false;
    const unsigned shift = 10 * static_cast<unsigned>(power + 1);
    if (n > (UINT64_MAX >> shift)) return false;
    n <<= shift;
  }
  *out = n;
  return true;
}

Options parse(int argc, char** argv) {
  Options o;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  auto wrong = [&o](std::string message) {
    o.usage_error = std::move(message);
    return o;
  };
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string_view a = args[k];
    uint64_t* limit = a == "--max-node-work"      ? &o.limits.max_node_work
                      : a == "--max-tensor-bytes" ? &o.limits.max_tensor_bytes
                      : a == "--max-memory-bytes" ? &o.limits.max_memory_bytes
                                                  : nullptr;
    const bool takes_value = a == "--input" || a == "-i" || a == "--output-dir" || a == "-o" ||
                             a == "--output" || a == "--threads" || limit != nullptr;
    if (takes_value && k + 1 >= args.size()) return wrong(std::string(a) + " needs a value");
    if (a == "--input" || a == "-i") {
      o.inputs.emplace_back(args[++k]);
    } else if (a == "--output-dir") {
      o.output_dir = args[++k];
    } else if (a == "-o" || a == "--output") {
      o.output_file = args[++k];
    } else if (a == "--threads") {
      const std::string v(args[++k]);
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || n < 1 || n > 1024) {
        return wrong("--threads needs a positive number, got '" + v + "'");
      }
      o.threads = static_cast<int>(n);
    } else if (limit != nullptr) {
      const std::string v(args[++k]);
      if (!parse_limit(v, limit)) {
        return wrong(std::string(a) +
                     " needs a count (digits, optionally followed by K, M, G or T; 0: no limit), "
                     "got '" +
                     v + "'");
      }
    } else if (a == "--no-optimize") {
      o.optimize = Optimize::Off;
    } else if (a == "-h" || a == "--help") {
      o.command = "help";
      return o;
    } else if (!a.empty() && a[0] == '-') {
      return wrong("unknown option " + std::string(a));
    } else if (o.command.empty()) {
      o.command = a;
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      return wrong("unexpected argument '" + std::string(a) + "'");
    }
  }
  if (o.command.empty()) return wrong("no command given");
  static constexpr std::string_view kCommands[] = {"run", "ops", "trace", "shapes"};
  if (std::find(std::begin(kCommands), std::end(kCommands), o.command) == std::end(kCommands)) {
    return wrong("unknown command '" + o.command + "'");
  }
  if (o.model.empty()) return wrong(o.command + " needs a MODEL_FILE");
  if (o.command == "run" && o.output_dir.empty()) return wrong("run needs --output-dir DIR");
  if (o.command == "trace" && o.output_file.empty()) return wrong("trace needs -o FILE");
  return o;
}

// The --input files, which must be one per model input (a model without inputs takes none).
std::vector<Tensor> read_inputs(const Options& o, const Model& model) {
  if (o.inputs.empty() && !model.inputs.empty()) {
    std::string wanted;
    for (const Input& in : model.inputs) {
      wanted += (wanted.empty() ? "" : ", ") + in.name + ": " + in.desc.str(model.symbols);
    }
    raise(Error(detail::str(o.model, " takes ", model.inputs.size(), " input",
                            model.inputs.size() == 1 ? "" : "s", " (", wanted,
                            "): give one --input FILE.npy per input, in this order")));
  }
  std::vector<Tensor> inputs;
  for (const std::string& path : o.inputs) inputs.push_back(read_npy(path));
  return inputs;
}

// The model's own input shapes (for `shapes` without --input), as Meta tensors.
std::vector<Tensor> exported_inputs(const Model& model) {
  std::vector<Tensor> inputs;
  for (const Input& in : model.inputs) {
    inputs.push_back(empty(in.desc.sizes, TensorOptions(in.desc.dtype).device(kMeta)));
  }
  return inputs;
}

// "output 1 ('logits'): " before an error writing that output.
struct OutputWhere {
  std::size_t index;
  const std::string& name;
  static void describe(const void* data, std::string& out) {
    const auto& w = *static_cast<const OutputWhere*>(data);
    out += "output " + std::to_string(w.index) + " ('" + w.name + "'): ";
  }
};

int run_command(const Options& o) {
  if (o.threads > 0) set_num_threads(o.threads);
  const std::shared_ptr<const Model> model = read_model_file(o.model);

  if (o.command == "ops") {
    std::vector<std::string_view> ops;
    for (const std::string& op : model->operators) {
      if (model->version < 2 || !is_sym_op_name(op)) ops.push_back(op);
    }
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    for (const std::string_view op : ops) std::cout << op << "\n";
    return 0;
  }

  const Program program(model, OperatorRegistry::global(), o.limits, Memory::Allocating,
                        o.optimize);
  if (o.command == "shapes") {
    // The peak, then the memory plan at the same sizes (a dynamic model's at the upper
    // bounds, where an arena serves every size in range; none without a bound).
    if (o.inputs.empty() && model->is_dynamic()) {
      const ShapeReport report = compute_symbolic_shapes(program);
      std::cout << format_shapes(report);
      if (report.unbounded.empty()) {
        std::string where = " at the upper bounds (";
        for (std::size_t k = 0; k < report.symbols.size(); ++k) {
          where += (k ? ", " : "") + report.symbols[k].name + "=" +
                   std::to_string(report.symbol_values[k]);
        }
        where += ")";
        std::cout << format_memory_plan(plan_memory(program, inputs_at_bounds(*model)),
                                        report.peak_bytes, where);
      }
      return 0;
    }
    const std::vector<Tensor> inputs =
        o.inputs.empty() ? exported_inputs(*model) : read_inputs(o, *model);
    const ShapeReport report = compute_shapes(program, inputs);
    std::cout << format_shapes(report)
              << format_memory_plan(plan_memory(program, inputs), report.peak_bytes, "");
    return 0;
  }

  const std::vector<Tensor> inputs = read_inputs(o, *model);
  if (o.command == "trace") {
    const OperatorTrace trace;
    program.run(inputs);
    const std::string name = o.model.substr(o.model.find_last_of('/') + 1);  // the file's name
    write_file(o.output_file, trace.selected_operators_yaml(program, name), "the trace");
    return 0;
  }

  // run
  const std::vector<Tensor> outputs = program.run(inputs);
  std::error_code ec;
  std::filesystem::create_directories(o.output_dir, ec);
  if (ec) {
    raise(Error(detail::str(o.output_dir, ": cannot create the output folder: ", ec.message())));
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const char* slash = o.output_dir.back() == '/' ? "" : "/";
    const std::string path = o.output_dir + slash + "out" + std::to_string(k) + ".npy";
    const OutputWhere where{k, model->outputs[k].name};
    const PrefixScope scope(&OutputWhere::describe, &where);
    write_npy(path, outputs[k]);
  }
  return 0;
}

#if !SOPS_EXCEPTIONS
void print_fatal_error(const Error& error) {
  std::cerr << "lite_runtime: error: " << error.what() << "\n";
}

// The new-handler: out of memory is an error like the others. Building its message
// allocates too; if that fails, a fixed message, written without allocating.
void out_of_memory() {
  static std::atomic_flag reporting = ATOMIC_FLAG_INIT;
  if (reporting.test_and_set()) {
    static constexpr char kMessage[] = "lite_runtime: error: out of memory\n";
    std::fwrite(kMessage, 1, sizeof(kMessage) - 1, stderr);
    std::_Exit(1);
  }
  raise(Error("out of memory"));
}
#endif

}  // namespace

int run_cli(int argc, char** argv, void (*register_kernels)(OperatorRegistry& registry)) {
  const Options options = parse(argc, argv);
  if (!options.usage_error.empty()) {
    std::cerr << "lite_runtime: error: " << options.usage_error << "\n\n" << kUsage;
    return 2;
  }
  if (options.command == "help") {
    std::cout << kUsage;
    return 0;
  }
#if SOPS_EXCEPTIONS
  try {
    register_kernels(OperatorRegistry::global());
    return run_command(options);
  } catch (const std::bad_alloc&) {
    std::cerr << "lite_runtime: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "lite_runtime: error: " << e.what() << "\n";
  }
  return 1;
#else
  // Built without exceptions, an error ends the process where it is raised (runtime/
  // error.h), printed as above; running out of memory raises one too.
  set_fatal_error_handler(&print_fatal_error);
  std::set_new_handler(&out_of_memory);
  register_kernels(OperatorRegistry::global());
  return run_command(options);
#endif
}

}  // namespace sops::lite
