// CPU kernel of _embedding_bag (forward): bags of rows of a 2-d weight, picked by 1-d
// indices, bag b starting at offsets[b]; each bag's rows summed (times per_sample_weights),
// averaged or maxed per column, rows equal to padding_idx skipped. Registered for meta
// tensors too (CPU and Meta): there only the checks and the output shapes happen.
//
// The four results are PyTorch's CPU kernel's, which computes them for the gradient:
// output [bags, D]; offset2bag, each index's bag ([n]; [0] where PyTorch's fast float32
// sum skips it); bag_size ([bags]: the bag lengths less the padded rows in mean and max
// mode, zeros in sum mode); max_indices (max: [bags, D], the row each maximum came from;
// otherwise a copy of bag_size). PyTorch's fast path (float32 weight with dense rows, no
// padding_idx) ends the last bag of include_last_offset at offsets[-1], its other path at
// the end of indices; sops does as each does.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "aten/ops/_embedding_bag_native.h"
#include "backends/cpu/cpu_utils.h"
#include "ops/util/nn_utils.h"
#include "runtime/element_cast.h"

namespace sops::aten::native {
namespace {

enum Mode : int64_t { kSum = 0, kMean = 1, kMax = 2 };

// "torch.FloatTensor" (bool: "CPUBoolType"), as PyTorch's argument-type messages name a
// dtype.
std::string legacy_name(ScalarType t) {
  if (t == ScalarType::Bool) return "CPUBoolType";
  return "torch." + std::string(ops_util::aten_name(t)) + "Tensor";
}

std::vector<int64_t> index_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<std::size_t>(t.numel()));
  const auto* base = static_cast<const char*>(t.data_ptr());
  const int64_t step = t.dim() == 0 ? 0 : t.stride(0) * static_cast<int64_t>(t.element_size());
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = load_as<int64_t>(base + static_cast<int64_t>(i) * step, t.scalar_type());
  return v;
}

void store_indices(const Tensor& t, const std::vector<int64_t>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (t.scalar_type() == ScalarType::Long) {
      t.data_ptr<int64_t>()[i] = v[i];
    } else {
      t.data_ptr<int32_t>()[i] = static_cast<int32_t>(v[i]);
    }
  }
}

// The bags as PyTorch computes them: bags[i] is index i's bag (ones at the bag starts,
// summed; the offsets of include_last_offset less the last), ends[b] where the fast path's
// bag b ends.
struct Bags {
  std::vector<int64_t> of_index, size, end;
};

Bags make_bags(const std::vector<int64_t>& offsets, int64_t n, int64_t bags) {
  Bags r;
  std::vector<int64_t> starts(static_cast<std::size_t>(n) + 1, 0);
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t o = offsets[static_cast<std::size_t>(b)];
    SOPS_CHECK_ARG(o >= 0 && o <= n, "offsets", "index out of range in self");
    starts[static_cast<std::size_t>(o)] += 1;
  }
  starts[0] -= 1;  // no bags: every index's bag is -1, as PyTorch's
  r.of_index.resize(static_cast<std::size_t>(n));
  int64_t running = 0;
  for (int64_t i = 0; i < n; ++i) {
    running += starts[static_cast<std::size_t>(i)];
    r.of_index[static_cast<std::size_t>(i)] = running;
  }
  for (int64_t b = 0; b < bags; ++b) {
    const std::size_t k = static_cast<std::size_t>(b);
    const int64_t next = k + 1 < offsets.size() ? offsets[k + 1] : n;
    r.size.push_back((b + 1 < bags ? offsets[k + 1] : n) - offsets[k]);
    r.end.push_back(std::min(std::max(next, offsets[k]), n));
  }
  return r;
}

template <typename T>
void embedding_bag_kernel(const Tensor& weight, const std::vector<int64_t>& idx,
                          const std::vector<int64_t>& offsets, const Tensor* psw, int64_t mode,
                          int64_t padding_idx, bool fast, Bags& bags, const Tensor& output,
                          std::vector<int64_t>& max_indices) {
  const int64_t n = static_cast<int64_t>(idx.size());
  const int64_t rows = weight.size(0), dim = weight.size(1);
  const int64_t nb = output.size(0);
  const T* w = weight.data_ptr<T>();
  const int64_t ws0 = weight.stride(0), ws1 = weight.stride(1);
  T* out = output.data_ptr<T>();
  std::fill(out, out + nb * dim, T(0));
  const T* scale = psw != nullptr ? psw->data_ptr<T>() : nullptr;
  const int64_t scale_stride = psw != nullptr ? psw->stride(0) : 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = idx[static_cast<std::size_t>(i)];
    if (fast) {
      SOPS_CHECK_ARG(r >= 0 && r < rows, "indices", "Index ", i, " of input takes value ", r,
                     " which is not in the valid range [0, ", rows, ")");
    } else {
      SOPS_CHECK_ARG(r >= 0 && r < rows, "indices",
                     "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to "
                     "be ",
                     r);
    }
  }
  // Each index of a bag in order: the fast path's bags run from offsets[b] to end[b], the
  // other path's take each index to bags.of_index[i].
  auto each = [&](auto&& visit) {
    if (fast) {
      for (int64_t b = 0; b < nb; ++b) {
        for (int64_t i = offsets[static_cast<std::size_t>(b)];
             i < bags.end[static_cast<std::size_t>(b)]; ++i)
          visit(i, b);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        // No bags (bag -1): PyTorch's general path writes out of bounds; sops skips them.
        const int64_t b = bags.of_index[static_cast<std::size_t>(i)];
        if (b >= 0 && b < nb) visit(i, b);
      }
    }
  };
  std::vector<bool> seen(static_cast<std::size_t>(nb), false);
  each([&](int64_t i, int64_t b) {
    const int64_t r = idx[static_cast<std::size_t>(i)];
    if (r == padding_idx) {
      bags.size[static_cast<std::size_t>(b)] -= 1;
      return;
    }
    const T* row = w + r * ws0;
    T* o = out + b * dim;
    if (mode == kMax) {
      const bool first = !seen[static_cast<std::size_t>(b)];
      seen[static_cast<std::size_t>(b)] = true;
      for (int64_t d = 0; d < dim; ++d) {
        if (first || row[d * ws1] > o[d]) {
          o[d] = row[d * ws1];
          max_indices[static_cast<std::size_t>(b * dim + d)] = r;
        }
      }
    } else if (scale != nullptr) {
      const T s = scale[i * scale_stride];
      for (int64_t d = 0; d < dim; ++d) o[d] += s * row[d * ws1];
    } else {
      for (int64_t d = 0; d < dim; ++d) o[d] += row[d * ws1];
    }
  });
  if (mode == kMean) {
    for (int64_t b = 0; b < nb; ++b) {
      const T count = static_cast<T>(std::max<int64_t>(bags.size[static_cast<std::size_t>(b)], 1));
      for (int64_t d = 0; d < dim; ++d) out[b * dim + d] /= count;
    }
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag_cpu(
    const Tensor& weight, const Tensor& indices_in, const Tensor& offsets_in,
    bool /*scale_grad_by_freq*/, int64_t mode, bool /*sparse*/,
    const std::optional<Tensor>& per_sample_weights, bool include_last_offset,
    int64_t padding_idx) {
  SOPS_CHECK_ARG(indices_in.dim() == 1 || indices_in.dim() == 2, "indices",
                 "input has to be a 1D or 2D Tensor, but got Tensor of dimension ",
                 indices_in.dim());
  // PyTorch's kernel takes 2-d indices without meaning them (its bags count rows, its
  // loops elements); sops refuses them.
  SOPS_CHECK_ARG(indices_in.dim() == 1, "indices",
                 "_embedding_bag: expected 1-D indices (with offsets), but got indices of "
                 "dimension ",
                 indices_in.dim());
  SOPS_CHECK_ARG(offsets_in.dim() == 1, "offsets",
                 "offsets has to be a 1D Tensor, but got Tensor of dimension ", offsets_in.dim());
  SOPS_CHECK_ARG(weight.dim() == 2, "weight",
                 "weight has to be a 2D Tensor, but got Tensor of dimension ", weight.dim());
  const ScalarType index_type = promote_types(indices_in.scalar_type(), offsets_in.scalar_type());
  SOPS_CHECK_ARG(index_type == ScalarType::Long || index_type == ScalarType::Int, "indices",
                 "Expected tensor for argument #1 'indices' to have one of the following scalar "
                 "types: Long, Int; but got ",
                 legacy_name(index_type), " instead (while checking arguments for embedding_bag)");
  const ScalarType wt = weight.scalar_type();
  SOPS_CHECK_ARG(wt == ScalarType::Float || wt == ScalarType::Double, "weight",
                 "Expected tensor for argument #1 'weight' to have one of the following scalar "
                 "types: Half, BFloat16, Float, Double; but got ",
                 legacy_name(wt), " instead (while checking arguments for embedding_bag)");
  const Tensor* psw = ops_util::defined_or_null(per_sample_weights);
  if (psw != nullptr) {
    SOPS_CHECK_ARG(mode == kSum, "per_sample_weights",
                   "embedding_bag: per_sample_weights only supported with mode='sum'");
    SOPS_CHECK_ARG(psw->scalar_type() == wt, "per_sample_weights",
                   "Expected tensor for argument #1 'weight' to have the same type as tensor for "
                   "argument #1 'per_sample_weights'; but type ",
                   legacy_name(wt), " does not equal ", legacy_name(psw->scalar_type()),
                   " (while checking arguments for embedding_bag)");
    SOPS_CHECK_ARG(psw->dim() == 1, "per_sample_weights",
                   "Expected per_sample_weights.value().dim() == 1 to be true, but got false.");
    SOPS_CHECK_ARG(psw->numel() == indices_in.numel(), "per_sample_weights",
                   "Expected per_sample_weights.value().numel() == indices.numel() to be true, "
                   "but got false.");
  }
  SOPS_CHECK_ARG(!include_last_offset || offsets_in.size(0) >= 1, "offsets",
                 "include_last_offset: number of offset should be at least 1");
  SOPS_CHECK_ARG(mode >= kSum && mode <= kMax, "mode", "`mode` must be sum, mean, or max.");
  const int64_t n = indices_in.size(0);
  const int64_t nb = offsets_in.size(0) - (include_last_offset ? 1 : 0);
  const int64_t dim = weight.size(1);
  // PyTorch's fast path (fbgemm) of sum and mean: float32 rows of stride 1, no padding_idx.
  const bool fast = mode != kMax && wt == ScalarType::Float && weight.stride(1) == 1 &&
                    padding_idx < 0 && (psw == nullptr || psw->stride(0) == 1);
  const auto index_options = indices_in.options().dtype(index_type);
  Tensor output = empty({nb, dim}, weight.options());
  Tensor offset2bag = empty({mode == kSum && fast ? 0 : n}, index_options);
  Tensor bag_size = empty({nb}, index_options);
  DimVector max_sizes{nb};
  if (mode == kMax) max_sizes.push_back(dim);
  Tensor max_indices = empty(max_sizes, index_options);
  if (weight.is_meta()) return {output, offset2bag, bag_size, max_indices};
  const std::vector<int64_t> idx = index_values(indices_in);
  const std::vector<int64_t> offsets = index_values(offsets_in);
  if (!offsets.empty()) {
    SOPS_CHECK_ARG(offsets.front() == 0, "offsets",
                   "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to "
                   "start from position 0. However, got ",
                   offsets.front());
    SOPS_CHECK_ARG(offsets.back() <= n, "offsets",
                   "offsets[-1] can not be greater than input's length ", n,
                   " but got offsets[-1] of ", offsets.back());
  }
  Bags bags = make_bags(offsets, n, nb);
  std::vector<int64_t> max_at(static_cast<std::size_t>(mode == kMax ? nb * dim : 0), 0);
  SOPS_DISPATCH_FLOATING_TYPES(wt, "embedding_bag", [&] {
    embedding_bag_kernel<scalar_t>(weight, idx, offsets, psw, mode, padding_idx, fast, bags, output,
                                   max_at);
  });
  if (offset2bag.numel() > 0) store_indices(offset2bag, bags.of_index);
  if (mode == kSum) std::fill(bags.size.begin(), bags.size.end(), 0);
  store_indices(bag_size, bags.size);
  store_indices(max_indices, mode == kMax ? max_at : bags.size);
  return {output, offset2bag, bag_size, max_indices};
}

}  // namespace sops::aten::native
