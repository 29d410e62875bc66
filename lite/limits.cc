#include "lite/limits.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>

#include "lite/model.h"
#include "runtime/storage.h"

namespace sops::lite {

namespace {

constexpr uint64_t kMax = UINT64_MAX;

uint64_t add(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? kMax : r;
}

uint64_t mul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kMax : r;
}

uint64_t logical_bytes(const Tensor& t) { return mul(saturating_numel(t), t.element_size()); }

// The operator's name without namespace and overload: "aten::addmm.out" -> "addmm".
std::string_view base_name(std::string_view op) {
  const std::size_t colons = op.find("::");
  if (colons != std::string_view::npos) op.remove_prefix(colons + 2);
  return op.substr(0, op.find('.'));
}

// "float32 [4, 32]"
std::string describe(const Tensor& t) { return TensorDesc::of(t).str(); }

std::string how_to_raise(std::string_view flag, std::string_view field) {
  return detail::str(" (raise it with lite_runtime ", flag, " N, or Limits::", field,
                     "; 0 means no limit)");
}

}  // namespace

uint64_t saturating_numel(const Tensor& t) {
  uint64_t n = 1;
  for (const int64_t s : t.sizes()) {
    if (s <= 0) return 0;
    n = mul(n, static_cast<uint64_t>(s));
  }
  return n;
}

uint64_t span_bytes(const Tensor& t) {
  if (saturating_numel(t) == 0) return 0;
  uint64_t elements = 1;
  const auto sizes = t.sizes();
  const auto strides = t.strides();
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    const int64_t stride = strides[d];
    const uint64_t reach =
        stride < 0 ? 0 - static_cast<uint64_t>(stride) : static_cast<uint64_t>(stride);
    elements = add(elements, mul(static_cast<uint64_t>(sizes[d] - 1), reach));
  }
  return mul(elements, t.element_size());
}

LiveBytes::LiveBytes(std::vector<const StorageImpl*> constants) : constants_(std::move(constants)) {
  std::sort(constants_.begin(), constants_.end());
}

void LiveBytes::add(const Value& v) {
  for_each_tensor(v, [this](const Tensor& t) { add(t); });
}

void LiveBytes::remove(const Value& v) {
  for_each_tensor(v, [this](const Tensor& t) { remove(t); });
}

void LiveBytes::add(const Tensor& t) {
  const StorageImpl* s = t.storage().impl();
  if (s == nullptr || std::binary_search(constants_.begin(), constants_.end(), s)) return;
  Held& h = held_[s];
  if (h.refs++ == 0) {
    // The storage's size, or what this view of it spans if that is more (a storage
    // size a kernel computed from crafted sizes must not make the count wrap).
    h.bytes = std::max<uint64_t>(s->nbytes(), span_bytes(t));
    total_ += h.bytes;
  }
}

void LiveBytes::remove(const Tensor& t) {
  const auto it = held_.find(t.storage().impl());
  if (it == held_.end()) return;
  if (--it->second.refs == 0) {
    total_ -= it->second.bytes;
    held_.erase(it);
  }
}

uint64_t LiveBytes::total() const { return total_ > kMax ? kMax : static_cast<uint64_t>(total_); }

namespace {

// The node's inputs and the results that are new tensors (not views of an input), with
// their positions among the results.
struct Results {
  std::vector<std::pair<std::size_t, Tensor>> fresh;
  std::size_t tensors = 0;  // every tensor result, views included
};

Results fresh_results(const NodeMeasure& m) {
  std::vector<const StorageImpl*> read;
  for (const NodeInput& in : m.inputs) read.push_back(in.tensor.storage().impl());
  std::sort(read.begin(), read.end());
  Results r;
  for (const Value& v : m.outputs) {
    for_each_tensor(v, [&](const Tensor& t) {
      const StorageImpl* s = t.storage().impl();
      if (s == nullptr || !std::binary_search(read.begin(), read.end(), s)) {
        r.fresh.emplace_back(r.tensors, t);
      }
      ++r.tensors;
    });
  }
  return r;
}

const Tensor* input_named(const NodeMeasure& m, std::string_view name) {
  for (const NodeInput& in : m.inputs) {
    if (in.name == name) return &in.tensor;
  }
  return nullptr;
}

uint64_t size_from_end(const Tensor* t, int64_t k) {
  if (t == nullptr || t->dim() < k) return 1;
  const int64_t s = t->sizes()[static_cast<std::size_t>(t->dim() - k)];
  return s > 0 ? static_cast<uint64_t>(s) : 0;
}

const Value* argument(const NodeMeasure& m, std::string_view name) {
  if (m.schema == nullptr || m.args == nullptr) return nullptr;
  const int64_t i = m.schema->argument_index(name);
  if (i < 0 || static_cast<std::size_t>(i) >= m.args->size()) return nullptr;
  return &(*m.args)[static_cast<std::size_t>(i)];
}

// The multiply-adds of a contraction and the window reads of a pooling, which the
// elements of its inputs and outputs do not count: an mm of two [2^15, 2^15] views of
// one element each reads 2^31 elements but multiplies 2^45 times. `out` is the first
// result's element count.
uint64_t inner_work(const NodeMeasure& m, uint64_t out) {
  const std::string_view op = base_name(m.op);
  auto k_of = [&](std::string_view arg) { return size_from_end(input_named(m, arg), 1); };
  if (op == "mm" || op == "bmm" || op == "matmul" || op == "mv" || op == "dot" || op == "vdot") {
    return mul(out, k_of("self"));
  }
  if (op == "linear") return mul(out, k_of("input"));
  if (op == "addmm" || op == "_addmm_activation") return mul(out, k_of("mat1"));
  if (op == "addmv") return mul(out, k_of("mat"));
  if (op == "baddbmm") return mul(out, k_of("batch1"));
  if (op == "addbmm") {
    const Tensor* b = input_named(m, "batch1");
    return mul(mul(out, k_of("batch1")), b != nullptr && b->dim() == 3 ? size_from_end(b, 3) : 1);
  }
  if (op == "_cdist_forward" || op == "cdist") return mul(out, k_of("x1"));
  if (op.find("scaled_dot_product") != std::string_view::npos) {
    const Tensor* q = input_named(m, "query");
    const uint64_t s = size_from_end(input_named(m, "key"), 2);
    return mul(add(q != nullptr ? saturating_numel(*q) : 0, out), s);
  }
  if (op.find("conv") != std::string_view::npos) {  // convolution, conv2d, conv_transpose2d, ...
    const Tensor* w = input_named(m, "weight");
    const Tensor* x = input_named(m, "input");
    if (w == nullptr || w->dim() == 0) return 0;
    const uint64_t rows = w->sizes()[0] > 0 ? static_cast<uint64_t>(w->sizes()[0]) : 1;
    const uint64_t per = saturating_numel(*w) / rows;  // C_in/groups x kernel (or transposed)
    return mul(std::max(out, x != nullptr ? saturating_numel(*x) : 0), per);
  }
  if (op.find("pool") != std::string_view::npos && op.find("adaptive") == std::string_view::npos) {
    const Value* kernel = argument(m, "kernel_size");
    if (kernel == nullptr || kernel->get_if<std::vector<int64_t>>() == nullptr) return 0;
    const std::vector<int64_t>& k = kernel->to_int_list();
    // A single size stands for every spatial dimension of a 1-, 2- or 3-d pooling.
    const std::size_t dims = k.size() != 1                             ? 1
                             : op.find("3d") != std::string_view::npos ? 3
                             : op.find("2d") != std::string_view::npos ? 2
                                                                       : 1;
    uint64_t window = 1;
    for (const int64_t s : k) {
      for (std::size_t d = 0; d < dims; ++d) window = mul(window, s > 0 ? s : 1);
    }
    return mul(out, window);
  }
  return 0;
}

}  // namespace

std::vector<std::pair<std::size_t, Tensor>> NodeMeasure::fresh_outputs() const {
  return fresh_results(*this).fresh;
}

uint64_t NodeMeasure::work() const {
  // The SymInt queries (sym_size.int, sym_numel, sym_stride.int, sym_storage_offset,
  // sym_is_contiguous) read a tensor's sizes and strides, none of its elements.
  if (base_name(op).substr(0, 4) == "sym_") return 0;
  uint64_t read = 0;
  for (const NodeInput& in : inputs) read = add(read, saturating_numel(in.tensor));
  if (!outputs_known) return read;
  const Results r = fresh_results(*this);
  if (r.tensors > 0 && r.fresh.empty()) return 0;  // a view: nothing read, nothing made
  uint64_t made = 0;
  for (const auto& [k, t] : r.fresh) made = add(made, saturating_numel(t));
  uint64_t first = 0;
  for (const Value& v : outputs) {
    bool found = false;
    for_each_tensor(v, [&](const Tensor& t) {
      if (!found) first = saturating_numel(t);
      found = true;
    });
    if (found) break;
  }
  return add(add(read, made), inner_work(*this, first));
}

std::string NodeMeasure::exceeded(const Limits& limits, uint64_t live_bytes) const {
  const uint64_t w = work();
  if (limits.max_node_work != 0) {
    if (w > limits.max_node_work) {
      return detail::str("its work, ", w, w == kMax ? " or more" : "",
                         " elements touched (every element it reads and writes, and the "
                         "multiply-adds of a product), exceeds the node work limit of ",
                         limits.max_node_work, " elements",
                         how_to_raise("--max-node-work", "max_node_work"));
    }
  }
  if (limits.max_tensor_bytes != 0) {
    // An input that shows more elements than its storage holds (an expanded view) may be
    // made contiguous by the kernel; a view node reads nothing.
    const bool is_view = outputs_known && w == 0;
    for (const NodeInput& in : inputs) {
      if (is_view || in.constant) continue;
      const uint64_t bytes = logical_bytes(in.tensor);
      if (bytes > span_bytes(in.tensor) && bytes > limits.max_tensor_bytes) {
        return detail::str("input '", in.name, "' (", describe(in.tensor), ", an expanded view of ",
                           bytes, " bytes if made contiguous) exceeds the tensor size limit of ",
                           limits.max_tensor_bytes, " bytes",
                           how_to_raise("--max-tensor-bytes", "max_tensor_bytes"));
      }
    }
  }
  if (!outputs_known) {
    if (limits.max_memory_bytes != 0 && live_bytes > limits.max_memory_bytes) {
      return detail::str("the memory held before it runs, ", live_bytes,
                         " bytes, exceeds the memory limit of ", limits.max_memory_bytes, " bytes",
                         how_to_raise("--max-memory-bytes", "max_memory_bytes"));
    }
    return {};
  }
  return outputs_exceed(limits, live_bytes);
}

std::string NodeMeasure::outputs_exceed(const Limits& limits, uint64_t live_bytes) const {
  if (limits.max_tensor_bytes != 0) {
    for (const auto& [k, t] : fresh_results(*this).fresh) {
      const uint64_t bytes = std::max(span_bytes(t), logical_bytes(t));
      if (bytes > limits.max_tensor_bytes) {
        return detail::str("output ", k, " (", describe(t), ", ", bytes,
                           bytes == kMax ? " or more" : "",
                           " bytes) exceeds the tensor size limit of ", limits.max_tensor_bytes,
                           " bytes", how_to_raise("--max-tensor-bytes", "max_tensor_bytes"));
      }
    }
  }
  if (limits.max_memory_bytes != 0 && live_bytes > limits.max_memory_bytes) {
    return detail::str(
        "the memory held once it has run, ", live_bytes, live_bytes == kMax ? " or more" : "",
        " bytes (inputs, outputs and the intermediates still needed), exceeds the "
        "memory limit of ",
        limits.max_memory_bytes, " bytes", how_to_raise("--max-memory-bytes", "max_memory_bytes"));
  }
  return {};
}

bool data_dependent(std::string_view op, const Stack& args) {
  const std::string_view name = base_name(op);
  // Result shapes that follow the values (PyTorch's meta kernels refuse these too).
  static constexpr std::string_view kAlways[] = {
      "_local_scalar_dense", "item",     "nonzero",           "nonzero_numpy", "argwhere",
      "masked_select",       "unique",   "_unique",           "_unique2",      "unique_dim",
      "unique_consecutive",  "bincount", "repeat_interleave", "_assert_async",
  };
  if (std::find(std::begin(kAlways), std::end(kAlways), name) != std::end(kAlways)) return true;
  // Indexing with a boolean (or uint8) mask is nonzero in disguise.
  if (name == "index" || name == "index_put" || name == "_index_put_impl" ||
      name == "_unsafe_index" || name == "_unsafe_index_put") {
    bool mask = false;
    for (const Value& v : args) {
      if (const auto* list = v.get_if<std::vector<std::optional<Tensor>>>()) {
        for (const std::optional<Tensor>& t : *list) {
          if (t.has_value() && t->defined() &&
              (t->scalar_type() == ScalarType::Bool || t->scalar_type() == ScalarType::Byte)) {
            mask = true;
          }
        }
      }
    }
    return mask;
  }
  return false;
}

}  // namespace sops::lite
