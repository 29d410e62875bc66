// The CPU reduction engine under sum, mean, amax, amin and any: it maps an input and
// the set of reduced dimensions to loops that run at memory speed.
//
// make_reduce_plan splits the input's dimensions into kept ones (one output element
// each) and reduced ones, and merges reduced dimensions that are contiguous with each
// other. run_reduction then picks one of three loops:
//   - inner: the reduced elements of each output are one unit-stride run (sum over the
//     last dimension, or over everything): Reducer::run reduces the run with vector
//     accumulators; a single output splits its run over the threads;
//   - outer: the innermost kept dimension is unit-stride in input and output (sum over
//     dimension 0): rows of the input are folded into a row of accumulators, vectorized
//     across the kept dimension;
//   - general: anything else, one strided walk per output element.
// Outputs are split over sops::parallel_for when there are enough elements.
//
// A Reducer (In and Out the input's and output's element types) provides:
//   using acc_t;                                  the accumulator
//   acc_t identity() const;
//   acc_t run(const In* p, int64_t n, int64_t stride) const;   n elements, step `stride`
//   acc_t combine(acc_t a, acc_t b) const;
//   void fold_row(acc_t* acc, const In* row, int64_t n) const;  acc[j] = combine(acc[j], row[j])
//   Out finish(acc_t a) const;
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/parallel.h"
#include "runtime/small_sort.h"
#include "runtime/small_vector.h"
#include "runtime/tensor.h"

namespace sops::aten::cpu_reduce {

struct ReducePlan {
  // Kept dimensions, outermost first: sizes and strides (elements) in input and output.
  DimVector kept_sizes, kept_in, kept_out;
  // Reduced dimensions after merging, outermost first; the last is the innermost run.
  DimVector red_sizes, red_in;
  int64_t out_numel = 1;
  int64_t red_numel = 1;
};

// `mask` bit d: dimension d of self is reduced. `out` has keepdim's or the squeezed shape.
inline ReducePlan make_reduce_plan(const Tensor& self, uint64_t mask, const Tensor& out,
                                   bool keepdim) {
  ReducePlan plan;
  struct Dim {
    int64_t size, stride;
  };
  std::vector<Dim> reduced;
  int64_t out_d = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if ((mask >> d) & 1u) {
      if (self.size(d) != 1) reduced.push_back({self.size(d), self.stride(d)});
      if (keepdim) ++out_d;
    } else {
      const int64_t od = out_d++;
      if (self.size(d) == 1) continue;
      plan.kept_sizes.push_back(self.size(d));
      plan.kept_in.push_back(self.stride(d));
      plan.kept_out.push_back(out.stride(od));
      plan.out_numel *= self.size(d);
    }
  }
  // Largest stride first, then merge neighbours that are contiguous with each other.
  insertion_sort(reduced.begin(), reduced.end(),
                 [](const Dim& a, const Dim& b) { return a.stride > b.stride; });
  for (const Dim& r : reduced) {
    plan.red_numel *= r.size;
    if (!plan.red_sizes.empty() && plan.red_in.back() == r.stride * r.size) {
      plan.red_sizes.back() *= r.size;
      plan.red_in.back() = r.stride;
    } else {
      plan.red_sizes.push_back(r.size);
      plan.red_in.push_back(r.stride);
    }
  }
  if (plan.red_sizes.empty()) {  // nothing to reduce: a run of one element
    plan.red_sizes.push_back(1);
    plan.red_in.push_back(1);
  }
  for (const int64_t s : plan.kept_sizes) {
    if (s == 0) plan.out_numel = 0;
  }
  return plan;
}

namespace detail {

// Offsets (elements) in input and output of output element `index` (row-major over the
// kept dimensions).
inline void kept_offsets(const ReducePlan& plan, int64_t index, int64_t& in, int64_t& out) {
  in = 0;
  out = 0;
  for (std::size_t d = plan.kept_sizes.size(); d-- > 0;) {
    const int64_t i = index % plan.kept_sizes[d];
    index /= plan.kept_sizes[d];
    in += i * plan.kept_in[d];
    out += i * plan.kept_out[d];
  }
}

// The reduction of every reduced element under input offset `base`.
template <typename In, typename Reducer>
typename Reducer::acc_t reduce_at(const ReducePlan& plan, const In* in, const Reducer& r) {
  using acc_t = typename Reducer::acc_t;
  const std::size_t nd = plan.red_sizes.size();
  const int64_t inner = plan.red_sizes[nd - 1];
  const int64_t inner_stride = plan.red_in[nd - 1];
  if (nd == 1) return r.run(in, inner, inner_stride);
  acc_t acc = r.identity();
  DimVector index(nd - 1, 0);
  int64_t offset = 0;
  while (true) {
    acc = r.combine(acc, r.run(in + offset, inner, inner_stride));
    std::size_t d = nd - 1;
    while (d-- > 0) {
      offset += plan.red_in[d];
      if (++index[d] < plan.red_sizes[d]) break;
      offset -= plan.red_in[d] * plan.red_sizes[d];
      index[d] = 0;
      if (d == 0) return acc;
    }
  }
}

}  // namespace detail

template <typename In, typename Out, typename Reducer>
void run_reduction(const ReducePlan& plan, const In* in, Out* out, const Reducer& r) {
  using acc_t = typename Reducer::acc_t;
  if (plan.out_numel == 0) return;
  if (plan.red_numel == 0) {
    parallel_for(0, plan.out_numel, kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        int64_t in_off, out_off;
        detail::kept_offsets(plan, o, in_off, out_off);
        out[out_off] = r.finish(r.identity());
      }
    });
    return;
  }
  const std::size_t nd = plan.red_sizes.size();
  // One output from one run: split the run over the threads, one part each.
  if (plan.out_numel == 1 && nd == 1) {
    const int64_t n = plan.red_sizes[0];
    const int64_t stride = plan.red_in[0];
    const int64_t parts = std::clamp<int64_t>(n / kGrainSize, 1, get_num_threads());
    const int64_t len = (n + parts - 1) / parts;
    // Not std::vector: acc_t may be bool, whose vector packs bits (a data race here).
    std::unique_ptr<acc_t[]> partial(new acc_t[static_cast<std::size_t>(parts)]);
    parallel_for(0, parts, 1, [&](int64_t b, int64_t e) {
      for (int64_t p = b; p < e; ++p) {
        const int64_t begin = p * len;
        const int64_t count = std::min(n, begin + len) - begin;
        partial[static_cast<std::size_t>(p)] = r.run(in + begin * stride, count, stride);
      }
    });
    acc_t acc = r.identity();
    for (int64_t p = 0; p < parts; ++p) acc = r.combine(acc, partial[static_cast<std::size_t>(p)]);
    int64_t in_off, out_off;
    detail::kept_offsets(plan, 0, in_off, out_off);
    out[out_off] = r.finish(acc);
    return;
  }
  // Outer: the innermost kept dimension unit-stride on both sides, reduced rows folded.
  const std::size_t nk = plan.kept_sizes.size();
  if (nk > 0 && plan.kept_in[nk - 1] == 1 && plan.kept_out[nk - 1] == 1 &&
      plan.red_in[nd - 1] != 1) {
    const int64_t width = plan.kept_sizes[nk - 1];
    const int64_t rows = plan.out_numel / width;
    // Columns split into blocks, so that one output row can use every thread.
    const int64_t block = 256;
    const int64_t blocks_per_row = (width + block - 1) / block;
    const int64_t grain =
        std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, plan.red_numel * block));
    parallel_for(0, rows * blocks_per_row, grain, [&](int64_t b, int64_t e) {
      std::unique_ptr<acc_t[]> acc(new acc_t[static_cast<std::size_t>(block)]);
      for (int64_t t = b; t < e; ++t) {
        const int64_t row = t / blocks_per_row;
        const int64_t j0 = (t % blocks_per_row) * block;
        const int64_t n = std::min(block, width - j0);
        int64_t in_off, out_off;
        detail::kept_offsets(plan, row * width, in_off, out_off);
        std::fill(acc.get(), acc.get() + n, r.identity());
        // Every reduced position, outermost first.
        DimVector index(nd, 0);
        int64_t offset = 0;
        while (true) {
          r.fold_row(acc.get(), in + in_off + j0 + offset, n);
          std::size_t d = nd;
          bool done = true;
          while (d-- > 0) {
            offset += plan.red_in[d];
            if (++index[d] < plan.red_sizes[d]) {
              done = false;
              break;
            }
            offset -= plan.red_in[d] * plan.red_sizes[d];
            index[d] = 0;
          }
          if (done) break;
        }
        for (int64_t j = 0; j < n; ++j)
          out[out_off + j0 + j] = r.finish(acc[static_cast<std::size_t>(j)]);
      }
    });
    return;
  }
  // Inner and general: one reduction per output element.
  const int64_t grain = std::max<int64_t>(1, kGrainSize / plan.red_numel);
  parallel_for(0, plan.out_numel, grain, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      int64_t in_off, out_off;
      detail::kept_offsets(plan, o, in_off, out_off);
      out[out_off] = r.finish(detail::reduce_at(plan, in + in_off, r));
    }
  });
}

}  // namespace sops::aten::cpu_reduce
