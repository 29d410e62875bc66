#include "lite/optimize.h"

#include <cmath>
#include <sstream>
#include <string_view>

#include "runtime/error.h"

namespace sops::lite {

namespace {

// Where each slot is read: how many times, by which node first and by which last.
struct Readers {
  std::vector<uint32_t> count;
  std::vector<std::size_t> first;
  std::vector<std::size_t> node;
  std::vector<bool> is_output;
};

Readers find_readers(const Model& m) {
  Readers r;
  r.count.assign(m.num_values, 0);
  r.first.assign(m.num_values, 0);
  r.node.assign(m.num_values, 0);
  r.is_output.assign(m.num_values, false);
  auto read = [&](uint32_t s, std::size_t i) {
    if (s == kNoSlot || s >= m.num_values) return;
    if (r.count[s]++ == 0) r.first[s] = i;
    r.node[s] = i;
  };
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    for (const Arg& a : m.nodes[i].args) {
      if (a.tag == Arg::Tag::Slot) read(a.slot, i);
      for (uint32_t s : a.slots) read(s, i);  // tensor lists and SymInt[] elements
    }
  }
  for (const Output& o : m.outputs) r.is_output[o.slot] = true;
  return r;
}

// The one node that reads `slot`, if exactly one node reads it once and it is no output.
bool sole_reader(const Readers& r, uint32_t slot, std::size_t* node) {
  if (slot >= r.count.size() || r.count[slot] != 1 || r.is_output[slot]) return false;
  *node = r.node[slot];
  return true;
}

bool unread(const Readers& r, uint32_t slot) {
  return slot < r.count.size() && r.count[slot] == 0 && !r.is_output[slot];
}

const std::string& op_name(const Model& m, std::size_t i) { return m.operators[m.nodes[i].op]; }

bool reads_first(const Node& n, uint32_t slot) {
  return !n.args.empty() && n.args[0].tag == Arg::Tag::Slot && n.args[0].slot == slot &&
         n.outs.size() >= 1;
}

bool is_floating(ScalarType t) { return t == ScalarType::Float || t == ScalarType::Double; }

// A constant tensor argument, or nullptr (None gives `*none = true`).
const Tensor* constant_arg(const Node& n, std::size_t a, const std::vector<Tensor>& constants,
                           bool* none = nullptr) {
  if (none != nullptr) *none = false;
  if (a >= n.args.size()) return nullptr;
  const Arg& arg = n.args[a];
  if (arg.tag == Arg::Tag::None && none != nullptr) {
    *none = true;
    return nullptr;
  }
  if (arg.tag != Arg::Tag::Slot || arg.slot >= constants.size()) return nullptr;
  const Tensor& t = constants[arg.slot];
  return t.defined() ? &t : nullptr;
}

// A number argument (Int or Double), or false.
bool number_arg(const Node& n, std::size_t a, double* out) {
  if (a >= n.args.size()) return false;
  const Arg& arg = n.args[a];
  if (arg.tag == Arg::Tag::Double) {
    *out = arg.d;
  } else if (arg.tag == Arg::Tag::Int) {
    *out = static_cast<double>(arg.i);
  } else {
    return false;
  }
  return true;
}

// The activation node `n` computes on its first argument, if it is one this pass fuses and
// its other arguments are constants.
bool activation_of(const Model& m, std::size_t i, Epilogue* e) {
  const Node& n = m.nodes[i];
  const std::string_view op = op_name(m, i);
  if (n.outs.size() != 1 || n.unpack) return false;
  if (op == "aten::relu" && n.args.size() == 1) {
    *e = {Activation::Relu, 0, 0};
    return true;
  }
  if (op == "aten::hardswish" && n.args.size() == 1) {
    *e = {Activation::Hardswish, 0, 0};
    return true;
  }
  if (op == "aten::silu" && n.args.size() == 1) {
    *e = {Activation::Silu, 0, 0};
    return true;
  }
  if (op == "aten::sigmoid" && n.args.size() == 1) {
    *e = {Activation::Sigmoid, 0, 0};
    return true;
  }
  if (op == "aten::gelu") {
    std::string_view approximate = "none";
    if (n.args.size() >= 2) {
      if (n.args[1].tag != Arg::Tag::String) return false;
      approximate = n.args[1].s;
    }
    if (approximate != "none" && approximate != "tanh") return false;
    *e = {approximate == "none" ? Activation::Gelu : Activation::GeluTanh, 0, 0};
    return true;
  }
  if (op == "aten::hardtanh" || op == "aten::clamp") {
    // hardtanh's bounds default to -1 and 1; clamp's absent (None) ones are unbounded.
    const bool hardtanh = op == "aten::hardtanh";
    double lo = hardtanh ? -1.0 : -INFINITY, hi = hardtanh ? 1.0 : INFINITY;
    for (std::size_t a = 1; a < n.args.size(); ++a) {
      double v = 0;
      if (!hardtanh && n.args[a].tag == Arg::Tag::None) continue;
      if (!number_arg(n, a, &v) || std::isnan(v)) return false;
      (a == 1 ? lo : hi) = v;
    }
    if (n.args.size() > 3 || lo > hi) return false;  // clamp with lo > hi: PyTorch's rule
    *e = {Activation::Clamp, lo, hi};
    return true;
  }
  return false;
}

// x * sigmoid(x) on slot `x`: exactly two nodes read it, an aten::sigmoid and an
// aten::mul.Tensor of x and the sigmoid's result (in either order), which nothing else
// reads. Fills the step (its epilogue Silu) and the mul's result slot.
bool silu_of(const Model& m, const Readers& r, uint32_t x, OptimizedStep::Step* step,
             uint32_t* result) {
  if (x >= r.count.size() || r.count[x] != 2 || r.is_output[x]) return false;
  const std::size_t sig = r.first[x], mul = r.node[x];
  const Node& s = m.nodes[sig];
  const Node& p = m.nodes[mul];
  if (op_name(m, sig) != "aten::sigmoid" || s.args.size() != 1 || !reads_first(s, x) ||
      s.outs.size() != 1 || s.unpack || op_name(m, mul) != "aten::mul.Tensor" ||
      p.args.size() != 2 || p.outs.size() != 1 || p.unpack) {
    return false;
  }
  std::size_t reader = 0;
  if (!sole_reader(r, s.outs[0], &reader) || reader != mul) return false;
  const auto is = [&](const Arg& a, uint32_t slot) {
    return a.tag == Arg::Tag::Slot && a.slot == slot;
  };
  uint32_t mul_x = 0;
  if (is(p.args[0], x) && is(p.args[1], s.outs[0])) {
    mul_x = 0;
  } else if (is(p.args[1], x) && is(p.args[0], s.outs[0])) {
    mul_x = 1;
  } else {
    return false;
  }
  step->epilogue = {Activation::Silu, 0, 0};
  step->node = sig;
  step->mul = mul;
  step->mul_x = mul_x;
  *result = p.outs[0];
  return true;
}

// x + other with aten::add.Tensor, alpha 1, where only this node reads x and `other` is
// ready before node `head` runs (an input, a constant, or made by an earlier node):
// fills the step (add, the node, other) and the add's result slot.
bool add_of(const Model& m, const Readers& r, const std::vector<std::size_t>& made_by,
            std::size_t head, uint32_t x, OptimizedStep::Step* step, uint32_t* result) {
  std::size_t a = 0;
  if (!sole_reader(r, x, &a) || op_name(m, a) != "aten::add.Tensor") return false;
  const Node& n = m.nodes[a];
  if (n.args.size() < 2 || n.args.size() > 3 || n.outs.size() != 1 || n.unpack) return false;
  double alpha = 1;
  if (n.args.size() == 3 && (!number_arg(n, 2, &alpha) || alpha != 1)) return false;
  const Arg& a0 = n.args[0];
  const Arg& a1 = n.args[1];
  if (a0.tag != Arg::Tag::Slot || a1.tag != Arg::Tag::Slot) return false;
  const uint32_t other = a0.slot == x ? a1.slot : a0.slot;
  if ((a0.slot != x && a1.slot != x) || other == x || other >= made_by.size()) return false;
  if (made_by[other] != SIZE_MAX && made_by[other] >= head) return false;
  step->add = true;
  step->node = a;
  step->other = other;
  *result = n.outs[0];
  return true;
}

// A view of its first argument that keeps its elements (an element-wise function
// applied before it or after it gives the same values).
bool is_reshaping_view(std::string_view op) {
  return op == "aten::view" || op == "aten::_unsafe_view" || op == "aten::reshape";
}

// out[j] = in[j] * scale, rounded once from float64 (a whole model's weights pass here
// while it loads: ResNet18's 11M).
template <typename T>
void scale_run(const T* in, int64_t n, double scale, T* out) {
  for (int64_t j = 0; j < n; ++j) out[j] = static_cast<T>(static_cast<double>(in[j]) * scale);
}

// Convolution node `c`'s weight and bias with eval batch norm node `bn` folded in, or
// false when they cannot be: `replace` gets (1, weight) and (2, bias).
bool fold_batch_norm(const Node& c, const Node& bn, const std::vector<Tensor>& constants,
                     std::vector<std::pair<uint32_t, Tensor>>* replace) {
  // convolution(input, weight, bias?, stride, padding, dilation, transposed, output_padding,
  // groups); _native_batch_norm_legit_no_training(input, weight?, bias?, running_mean,
  // running_var, momentum, eps).
  if (c.args.size() != 9 || c.args[6].tag != Arg::Tag::Bool || c.args[6].i != 0) return false;
  bool no_bias = false, no_gamma = false, no_beta = false;
  const Tensor* w = constant_arg(c, 1, constants);
  const Tensor* b = constant_arg(c, 2, constants, &no_bias);
  const Tensor* gamma = constant_arg(bn, 1, constants, &no_gamma);
  const Tensor* beta = constant_arg(bn, 2, constants, &no_beta);
  const Tensor* mean = constant_arg(bn, 3, constants);
  const Tensor* var = constant_arg(bn, 4, constants);
  double eps = 0;
  if (bn.args.size() != 7 || !number_arg(bn, 6, &eps) || w == nullptr || mean == nullptr ||
      var == nullptr || (b == nullptr && !no_bias) || (gamma == nullptr && !no_gamma) ||
      (beta == nullptr && !no_beta)) {
    return false;
  }
  if (!is_floating(w->scalar_type()) || w->dim() < 3 || !w->is_contiguous()) return false;
  const int64_t oc = w->size(0);
  for (const Tensor* t : {b, gamma, beta, mean, var}) {
    if (t != nullptr && (t->dim() != 1 || t->size(0) != oc || !is_floating(t->scalar_type()) ||
                         !t->is_contiguous())) {
      return false;
    }
  }
  auto at = [](const Tensor* t, int64_t k, double none) {
    if (t == nullptr) return none;
    return t->scalar_type() == ScalarType::Float ? static_cast<double>(t->data_ptr<float>()[k])
                                                 : t->data_ptr<double>()[k];
  };
  const int64_t per_channel = w->numel() / std::max<int64_t>(oc, 1);
  Tensor w2 = empty(w->sizes(), w->options());
  Tensor b2 = empty({oc}, w->options());
  for (int64_t k = 0; k < oc; ++k) {
    const double scale = at(gamma, k, 1.0) / std::sqrt(at(var, k, 0.0) + eps);
    const double shift = (at(b, k, 0.0) - at(mean, k, 0.0)) * scale + at(beta, k, 0.0);
    if (w->scalar_type() == ScalarType::Float) {
      scale_run(w->data_ptr<float>() + k * per_channel, per_channel, scale,
                w2.data_ptr<float>() + k * per_channel);
      b2.data_ptr<float>()[k] = static_cast<float>(shift);
    } else {
      scale_run(w->data_ptr<double>() + k * per_channel, per_channel, scale,
                w2.data_ptr<double>() + k * per_channel);
      b2.data_ptr<double>()[k] = shift;
    }
  }
  replace->emplace_back(1, std::move(w2));
  replace->emplace_back(2, std::move(b2));
  return true;
}

}  // namespace

std::string GraphOptimization::summary() const {
  std::ostringstream os;
  os << folded_batch_norms << " batch norm" << (folded_batch_norms == 1 ? "" : "s") << " folded, "
     << fused_activations << " activation" << (fused_activations == 1 ? "" : "s") << " fused, "
     << fused_adds << " add" << (fused_adds == 1 ? "" : "s") << " fused";
  return os.str();
}

GraphOptimization optimize_graph(const Model& m, const std::vector<Tensor>& constants) {
  GraphOptimization g;
  g.steps.resize(m.nodes.size());
  if (m.is_dynamic()) return g;  // (its graphs hold scalar slots; not yet looked at)
  const Readers readers = find_readers(m);
  std::vector<std::size_t> made_by(m.num_values, SIZE_MAX);  // inputs, constants: none
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    for (uint32_t s : m.nodes[i].outs) {
      if (s < m.num_values) made_by[s] = i;
    }
  }
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const Node& head = m.nodes[i];
    const std::string_view op = op_name(m, i);
    const bool conv = op == "aten::convolution";
    if (!(conv || op == "aten::addmm" || op == "aten::mm") || head.outs.size() != 1 ||
        head.unpack || g.steps[i].kind != OptimizedStep::Kind::Same) {
      continue;
    }
    OptimizedStep fused;
    fused.kind = OptimizedStep::Kind::Fused;
    std::vector<std::pair<std::size_t, uint32_t>> forwards;  // (node, from)
    uint32_t value = head.outs[0];                           // the chain's value so far
    std::size_t next = 0;
    // Batch norm right after the convolution.
    if (conv && sole_reader(readers, value, &next) &&
        op_name(m, next) == "aten::_native_batch_norm_legit_no_training" &&
        reads_first(m.nodes[next], value) && m.nodes[next].outs.size() == 3 &&
        !m.nodes[next].unpack && unread(readers, m.nodes[next].outs[1]) &&
        unread(readers, m.nodes[next].outs[2]) &&
        fold_batch_norm(head, m.nodes[next], constants, &fused.replace)) {
      forwards.emplace_back(next, value);
      value = m.nodes[next].outs[0];
      ++g.folded_batch_norms;
    }
    // Activations, each on the chain's value or on one reshaping view of it (which then
    // runs as it is, on the activated data).
    for (;;) {
      uint32_t x = value;  // what the activation reads
      if (sole_reader(readers, value, &next) && is_reshaping_view(op_name(m, next)) &&
          reads_first(m.nodes[next], value) && m.nodes[next].outs.size() == 1 &&
          !m.nodes[next].unpack) {
        x = m.nodes[next].outs[0];
      }
      OptimizedStep::Step step;
      uint32_t result = 0;
      if (sole_reader(readers, x, &next) && reads_first(m.nodes[next], x) &&
          activation_of(m, next, &step.epilogue)) {
        step.node = next;
        forwards.emplace_back(next, x);
        result = m.nodes[next].outs[0];
      } else if (silu_of(m, readers, x, &step, &result)) {
        forwards.emplace_back(step.node, x);
        forwards.emplace_back(step.mul, x);
      } else if (x == value && add_of(m, readers, made_by, i, x, &step, &result)) {
        forwards.emplace_back(step.node, x);
      } else {
        break;
      }
      fused.epilogues.push_back(step);
      value = result;
    }
    if (forwards.empty()) continue;
    for (const OptimizedStep::Step& e : fused.epilogues) {
      ++(e.add ? g.fused_adds : g.fused_activations);
    }
    for (const auto& [node, from] : forwards) {
      g.steps[node].kind = OptimizedStep::Kind::Forward;
      g.steps[node].from = from;
    }
    g.steps[i] = std::move(fused);
  }
  return g;
}

}  // namespace sops::lite
