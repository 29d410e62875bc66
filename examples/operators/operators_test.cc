// Every operator of the example through each of its C++ entry points: the dispatcher
// API (my_ops/Functions.h: functional, inplace, out=, outf), the static CPU entry points
// (my_ops/CPUFunctions.h) and Meta tensors (shapes only), and the errors a caller sees.
// The expected values are PyTorch's for the same calls (torch.add(a, b, alpha=s) for
// scaled_add, (x * x).sum(dim, keepdim) for sum_of_squares, torch.aminmax, clamp_,
// torch.arange).
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "my_ops/CPUFunctions.h"
#include "my_ops/Functions.h"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  failures += ok ? 0 : 1;
}

template <typename T = float>
sops::Tensor tensor(std::vector<int64_t> sizes, std::vector<T> values) {
  sops::Tensor t = sops::empty(sizes, sops::TensorOptions(sops::CppTypeToScalarType<T>::value));
  for (std::size_t i = 0; i < values.size(); ++i) t.data_ptr<T>()[i] = values[i];
  return t;
}

template <typename T = float>
std::vector<T> values(const sops::Tensor& t) {
  return std::vector<T>(t.data_ptr<T>(), t.data_ptr<T>() + t.numel());
}

std::vector<int64_t> sizes(const sops::Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

// The message of the sops::Error that f throws, or "".
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const sops::Error& e) {
    return e.what();
  }
  return "";
}

const sops::TensorOptions kMeta = sops::TensorOptions().device(sops::kMeta);

}  // namespace

int main() {
  namespace ops = my::ops;
  using Floats = std::vector<float>;
  using Sizes = std::vector<int64_t>;
  const sops::Tensor a = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  const sops::Tensor row = tensor({3}, {10, 20, 30});

  // 1. Elementwise: a + 0.5 * row, broadcast over a's rows.
  const Floats expected = {6, 12, 18, 9, 15, 21};
  expect(values(ops::scaled_add(a, row, 0.5)) == expected, "scaled_add: functional, broadcast");
  expect(values(ops::cpu::scaled_add(a, row, 0.5)) == expected,
         "scaled_add: static CPU entry point");
  sops::Tensor out = sops::empty({2, 3});
  ops::scaled_add_out(out, a, row, 0.5);
  expect(values(out) == expected, "scaled_add_out");
  ops::scaled_add_outf(a, row, 0.5, out);
  expect(values(out) == expected, "scaled_add_outf");
  sops::Tensor inplace = tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  ops::scaled_add_(inplace, row, 0.5);
  expect(values(inplace) == expected, "scaled_add_: inplace");
  const sops::Tensor ints = tensor<int64_t>({3}, {1, 2, 3});
  expect(ops::scaled_add(ints, row).scalar_type() == sops::ScalarType::Float,
         "scaled_add: int64 + float32 is float32");
  const sops::Tensor meta_sum =
      ops::scaled_add(sops::empty({4, 1, 3}, kMeta), sops::empty({2, 3}, kMeta));
  expect(sizes(meta_sum) == Sizes{4, 2, 3}, "scaled_add: Meta shapes");
  const std::string mismatch = error_of([&] { ops::scaled_add(a, tensor({2}, {1, 2})); });
  expect(mismatch.find("scaled_add") != std::string::npos,
         "scaled_add: shapes that do not broadcast are an error naming the operator");

  // 2. Reduction: [[1,2,3],[4,5,6]] squared, summed.
  expect(values(ops::sum_of_squares(a, {1})) == Floats{14, 77}, "sum_of_squares over dim 1");
  expect(sizes(ops::sum_of_squares(a, {1}, true)) == Sizes{2, 1}, "sum_of_squares keepdim");
  expect(values(ops::sum_of_squares(a, {-2})) == Floats{17, 29, 45}, "sum_of_squares over dim -2");
  expect(values(ops::sum_of_squares(a, {})) == Floats{91}, "sum_of_squares over every dim");
  sops::Tensor transposed = sops::empty_strided({3, 2}, {1, 3});  // a.t()
  for (int i = 0; i < 6; ++i) transposed.data_ptr<float>()[i] = static_cast<float>(i + 1);
  expect(values(ops::sum_of_squares(transposed, {0})) == Floats{14, 77},
         "sum_of_squares of a transposed (non-contiguous) tensor");
  sops::Tensor sums = sops::empty({2});
  ops::sum_of_squares_out(sums, a, {1});
  expect(values(sums) == Floats{14, 77}, "sum_of_squares_out");
  expect(sizes(ops::sum_of_squares(sops::empty({5, 7}, kMeta), {0})) == Sizes{7},
         "sum_of_squares: Meta shapes");
  expect(error_of([&] { ops::sum_of_squares(a, {1, -1}); }) ==
             "sum_of_squares.dim: argument 'dim': dimension 1 appears more than once",
         "sum_of_squares: a repeated dim is an error naming the operator and argument");

  // 3. Composite: sum over dim 1 of (a - row)^2.
  expect(values(ops::squared_distance(a, row, 1)) == Floats{1134, 837}, "squared_distance");
  expect(sizes(ops::squared_distance(sops::empty({4, 3}, kMeta), sops::empty({3}, kMeta), 1)) ==
             Sizes{4},
         "squared_distance on Meta tensors");

  // 4. Tuple return.
  const auto [lo, hi] = ops::min_max(tensor({4}, {3, -1, 7, 2}));
  expect(lo.item<float>() == -1 && hi.item<float>() == 7, "min_max");
  expect(error_of([&] { ops::min_max(sops::empty({0})); }) ==
             "min_max: argument 'self': expected a non-empty tensor: an empty one has no minimum",
         "min_max of an empty tensor is an error");

  // 5. Inplace, unstructured.
  sops::Tensor x = tensor({4}, {-2, 0.5, 3, 1});
  sops::Tensor& same = ops::clip_(x, 0, 1);
  expect(&same == &x && values(x) == Floats{0, 0.5, 1, 1}, "clip_ writes into self and returns it");
  expect(error_of([&] { ops::clip_(x, 1, 0); }).find("expected low <= high") != std::string::npos,
         "clip_: low > high is an error");

  // 6. Factory.
  expect(values(ops::ramp(4)) == Floats{0, 1, 2, 3}, "ramp: float32 by default");
  const sops::Tensor longs = ops::ramp(3, sops::ScalarType::Long);
  expect(longs.scalar_type() == sops::ScalarType::Long &&
             values<int64_t>(longs) == std::vector<int64_t>{0, 1, 2},
         "ramp with dtype");

  std::printf("%s\n", failures == 0 ? "all passed" : "FAILED");
  return failures == 0 ? 0 : 1;
}
