#include "lite/op_trace.h"

#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "runtime/call_observer.h"
#include "runtime/error.h"

namespace sops::lite {

namespace {

std::mutex g_mutex;
std::optional<std::set<std::string>> g_recorded;  // while an OperatorTrace lives

void record(std::string_view op, int /*depth*/) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_recorded) g_recorded->emplace(op);
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

std::map<std::string, TracedOperator> OperatorTrace::operators(const Program& program,
                                                               const OperatorRegistry& registry) const {
  std::map<std::string, TracedOperator> result;
  for (std::size_t i = 0; i < program.model().nodes.size(); ++i) {
    result[std::string(program.op(i).name())].is_root = true;
  }
  // The dispatcher names operators without their namespace ("add.Tensor").
  std::map<std::string_view, std::string_view> qualified;
  for (std::string_view full : registry.operator_names()) {
    const std::size_t sep = full.find("::");
    if (sep != std::string_view::npos) qualified.emplace(full.substr(sep + 2), full);
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const std::string& op : *g_recorded) {
    const auto it = qualified.find(op);
    const std::string name = it != qualified.end() ? std::string(it->second)
                             : op.find("::") != std::string::npos ? op
                                                                  : "aten::" + op;
    result.emplace(name, TracedOperator{});
  }
  return result;
}

std::string OperatorTrace::selected_operators_yaml(const Program& program, std::string_view debug_info,
                                                   const OperatorRegistry& registry) const {
  std::ostringstream os;
  os << "# The operators `lite_runtime trace` saw " << debug_info
     << " run, including those called from inside\n"
        "# other operators' kernels: PyTorch's selected_operators.yaml format.\n"
        "include_all_non_op_selectives: false\n"
        "include_all_operators: false\n"
        "operators:\n";
  for (const auto& [name, op] : operators(program, registry)) {
    os << "  " << name << ":\n"
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
