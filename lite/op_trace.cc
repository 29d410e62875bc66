#include "lite/op_trace.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <sstream>
#include <utility>

#include "runtime/call_observer.h"
#include "runtime/error.h"
#include "runtime/small_sort.h"

namespace sops::lite {

namespace {

std::mutex g_mutex;
// While an OperatorTrace lives: each operator called, once. (A model calls a few dozen
// operators: vectors searched in order, here and below.)
std::optional<std::vector<std::string>> g_recorded;

void record(std::string_view op, int /*depth*/) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_recorded && std::find(g_recorded->begin(), g_recorded->end(), op) == g_recorded->end()) {
    g_recorded->emplace_back(op);
  }
}

// A YAML single-quoted scalar ('' stands for ').
std::string yaml_quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

}  // namespace

OperatorTrace::OperatorTrace() {
  std::lock_guard<std::mutex> lock(g_mutex);
  SOPS_CHECK(!g_recorded, "OperatorTrace: another trace is recording");
  g_recorded.emplace();
  set_call_observer(&record);
}

OperatorTrace::~OperatorTrace() {
  set_call_observer(nullptr);
  std::lock_guard<std::mutex> lock(g_mutex);
  g_recorded.reset();
}

std::vector<TracedOperator> OperatorTrace::operators(const Program& program,
                                                     const OperatorRegistry& registry) const {
  std::vector<TracedOperator> result;
  auto add = [&result](std::string name, bool is_root) {
    for (TracedOperator& t : result) {
      if (t.name == name) {
        t.is_root = t.is_root || is_root;
        return;
      }
    }
    result.push_back({std::move(name), is_root});
  };
  for (std::size_t i = 0; i < program.model().nodes.size(); ++i) {
    // (A `sym::` node is scalar arithmetic the interpreter does: no operator to select.)
    if (program.calls_operator(i)) add(std::string(program.op(i).name()), /*is_root=*/true);
  }
  // The dispatcher names operators without their namespace ("add.Tensor"): each
  // registered name's (name without namespace, full name), split once.
  std::vector<std::pair<std::string_view, std::string_view>> by_base;
  for (const std::string_view full : registry.operator_names()) {
    const std::size_t sep = full.find("::");
    if (sep != std::string_view::npos) by_base.emplace_back(full.substr(sep + 2), full);
  }
  auto qualified = [&by_base](const std::string& op) -> std::string {
    if (op.find("::") != std::string::npos) return op;
    for (const auto& [base, full] : by_base) {
      if (base == op) return std::string(full);
    }
    return "aten::" + op;
  };
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const std::string& op : *g_recorded) add(qualified(op), /*is_root=*/false);
  insertion_sort(result.begin(), result.end(),
                 [](const TracedOperator& a, const TracedOperator& b) { return a.name < b.name; });
  return result;
}

std::string OperatorTrace::selected_operators_yaml(const Program& program,
                                                   std::string_view debug_info,
                                                   const OperatorRegistry& registry) const {
  std::ostringstream os;
  os << "# The operators `lite_runtime trace` saw " << debug_info
     << " run, including those called from inside\n"
        "# other operators' kernels: PyTorch's selected_operators.yaml format.\n"
        "include_all_non_op_selectives: false\n"
        "include_all_operators: false\n"
        "operators:\n";
  for (const TracedOperator& op : operators(program, registry)) {
    os << "  " << op.name << ":\n"
       << "    is_root_operator: " << (op.is_root ? "true" : "false") << "\n"
       << "    is_used_for_training: false\n"
       << "    include_all_overloads: false\n"
       << "    debug_info:\n"
       << "    - " << yaml_quoted(debug_info) << "\n";
  }
  os << "kernel_metadata: {}\n"
        "et_kernel_metadata: {}\n"
        "custom_classes: []\n"
        "build_features: []\n";
  return os.str();
}

}  // namespace sops::lite
