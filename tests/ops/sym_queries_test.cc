// sym_size.int, sym_stride.int, sym_numel, sym_storage_offset and sym_is_contiguous: the
// SymInt queries of a graph exported with symbolic dimensions. Each is called through the
// C++ API (Functions.h) and boxed through the registry, as the lite runtime calls them,
// on tensors whose metadata is worked out by hand below: contiguous, transposed, sliced
// (a storage offset), expanded (stride 0), channels-last, zero-dim and meta. PyTorch's
// own answers on more layouts are the golden file sym_queries.golden.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aten/Functions.h"
#include "aten/UnboxingFunctions.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"
#include "tests/ops/op_test_util.h"

namespace sops::optest {
namespace {

const OperatorRegistry& registry() {
  static OperatorRegistry* r = [] {
    auto* registry = new OperatorRegistry();
    aten::register_aten_kernels(*registry);
    return registry;
  }();
  return *r;
}

// The boxed call: `name`'s kernel on `args`; the one returned Value.
Value call_boxed(const std::string& name, std::vector<Value> args) {
  Stack stack(args.begin(), args.end());
  registry().find_or_throw(name).call(stack);
  EXPECT_EQ(stack.size(), 1u) << name << " returns one value";
  return stack.empty() ? Value() : stack[0];
}

// A tensor's metadata, as a person reads it off its construction.
struct Expected {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t numel;
  int64_t offset;
  bool contiguous;      // contiguous_format (and preserve_format)
  bool channels_last;   // channels_last
  bool channels_last3;  // channels_last_3d
};

// Every query of `t`, static and boxed, against `e`: each dimension by its index and by
// its negative index, each memory format.
void check_queries(const Tensor& t, const Expected& e) {
  const int64_t n = static_cast<int64_t>(e.sizes.size());
  ASSERT_EQ(t.dim(), n);
  for (int64_t d = 0; d < n; ++d) {
    SCOPED_TRACE("dim " + std::to_string(d));
    const int64_t size = e.sizes[static_cast<std::size_t>(d)];
    const int64_t stride = e.strides[static_cast<std::size_t>(d)];
    for (const int64_t dim : {d, d - n}) {
      EXPECT_EQ(aten::sym_size(t, dim), size);
      EXPECT_EQ(aten::sym_stride(t, dim), stride);
      const Value boxed_size = call_boxed("aten::sym_size.int", {Value(t), Value(dim)});
      ASSERT_TRUE(boxed_size.is_int()) << "a SymInt is returned as an int Value";
      EXPECT_EQ(boxed_size.to_int(), size);
      const Value boxed_stride = call_boxed("aten::sym_stride.int", {Value(t), Value(dim)});
      ASSERT_TRUE(boxed_stride.is_int());
      EXPECT_EQ(boxed_stride.to_int(), stride);
    }
  }
  EXPECT_EQ(aten::sym_numel(t), e.numel);
  EXPECT_EQ(aten::sym_storage_offset(t), e.offset);
  const Value numel = call_boxed("aten::sym_numel", {Value(t)});
  ASSERT_TRUE(numel.is_int());
  EXPECT_EQ(numel.to_int(), e.numel);
  const Value offset = call_boxed("aten::sym_storage_offset", {Value(t)});
  ASSERT_TRUE(offset.is_int());
  EXPECT_EQ(offset.to_int(), e.offset);

  // The default memory format is contiguous_format, filled in by the C++ API and by the
  // registry alike.
  EXPECT_EQ(aten::sym_is_contiguous(t), e.contiguous);
  const Value by_default = call_boxed("aten::sym_is_contiguous", {Value(t)});
  ASSERT_TRUE(by_default.is_bool()) << "a SymBool is returned as a bool Value";
  EXPECT_EQ(by_default.to_bool(), e.contiguous);
  const std::pair<MemoryFormat, bool> formats[] = {
      {MemoryFormat::Contiguous, e.contiguous},
      {MemoryFormat::Preserve, e.contiguous},
      {MemoryFormat::ChannelsLast, e.channels_last},
      {MemoryFormat::ChannelsLast3d, e.channels_last3},
  };
  for (const auto& [format, want] : formats) {
    SCOPED_TRACE("memory_format " + std::to_string(static_cast<int>(format)));
    EXPECT_EQ(aten::sym_is_contiguous(t, format), want);
    const Value boxed = call_boxed("aten::sym_is_contiguous", {Value(t), Value(format)});
    ASSERT_TRUE(boxed.is_bool());
    EXPECT_EQ(boxed.to_bool(), want);
  }
}

// A float tensor of `sizes`, row-major or in `format`.
Tensor make(std::vector<int64_t> sizes, std::optional<MemoryFormat> format = std::nullopt,
            Device device = Device(DeviceType::CPU)) {
  return aten::empty(sizes, ScalarType::Float, std::nullopt, device, std::nullopt, format);
}

TEST(SymQueriesTest, Contiguous) {
  // (2, 3, 4) row-major: strides 3*4, 4, 1.
  check_queries(make({2, 3, 4}), {{2, 3, 4}, {12, 4, 1}, 24, 0, true, false, false});
}

TEST(SymQueriesTest, Transposed) {
  // permute(2, 1, 0) of (2, 3, 4): sizes reversed, strides (1, 4, 12); not row-major.
  const Tensor t = aten::permute(make({2, 3, 4}), {2, 1, 0});
  check_queries(t, {{4, 3, 2}, {1, 4, 12}, 24, 0, false, false, false});
}

TEST(SymQueriesTest, SlicedHasAStorageOffset) {
  // Rows 1:3 of dim 1 of (2, 3, 4): starts one row of 4 in; (2, 2, 4) with (12, 4, 1) has a
  // gap between its two blocks, so it is not row-major.
  const Tensor rows = aten::slice(make({2, 3, 4}), 1, 1, 3, 1);
  check_queries(rows, {{2, 2, 4}, {12, 4, 1}, 16, 4, false, false, false});
  // Block 1 of dim 0: one whole (3, 4) block at offset 12, row-major again.
  const Tensor block = aten::slice(make({2, 3, 4}), 0, 1, 2, 1);
  check_queries(block, {{1, 3, 4}, {12, 4, 1}, 12, 12, true, false, false});
  // Every other column from column 1: stride 2, offset 1.
  const Tensor cols = aten::slice(make({3, 5}), 1, 1, 5, 2);
  check_queries(cols, {{3, 2}, {5, 2}, 6, 1, false, false, false});
}

TEST(SymQueriesTest, ExpandedHasStrideZero) {
  const Tensor t = aten::expand(make({1, 3}), {4, 3}, false);
  check_queries(t, {{4, 3}, {0, 1}, 12, 0, false, false, false});
}

TEST(SymQueriesTest, ChannelsLast) {
  // (N, C, H, W) = (2, 3, 4, 5) stored N, H, W, C: C moves fastest (stride 1), then W
  // (3), H (3 * 5), N (3 * 5 * 4).
  check_queries(make({2, 3, 4, 5}, MemoryFormat::ChannelsLast),
                {{2, 3, 4, 5}, {60, 1, 15, 3}, 120, 0, false, true, false});
  // (2, 3, 2, 4, 5) stored N, D, H, W, C: strides C 1, W 3, H 15, D 60, N 120.
  check_queries(make({2, 3, 2, 4, 5}, MemoryFormat::ChannelsLast3d),
                {{2, 3, 2, 4, 5}, {120, 1, 60, 15, 3}, 240, 0, false, false, true});
  // A row-major 4-d tensor is not channels-last; with C = H = W = 1 it is both, as the
  // strides of size-1 dimensions do not matter.
  check_queries(make({2, 3, 4, 5}), {{2, 3, 4, 5}, {60, 20, 5, 1}, 120, 0, true, false, false});
  check_queries(make({2, 1, 1, 1}), {{2, 1, 1, 1}, {1, 1, 1, 1}, 2, 0, true, true, false});
}

TEST(SymQueriesTest, EmptyTensorsAreRowMajorWhateverTheirStrides) {
  // PyTorch calls every tensor without elements contiguous, even a (0, 3, 2, 2) one made
  // channels-last (strides C 1, W 3, H 3 * 2, N 3 * 2 * 2), which is channels-last too.
  check_queries(make({0, 3, 2, 2}, MemoryFormat::ChannelsLast),
                {{0, 3, 2, 2}, {12, 1, 6, 3}, 0, 0, true, true, false});
  // Row-major strides count a size-0 dimension as 1.
  check_queries(make({2, 0, 3}), {{2, 0, 3}, {3, 3, 1}, 0, 0, true, false, false});
}

TEST(SymQueriesTest, ZeroDim) {
  // No dimensions: one element, row-major; sym_size and sym_stride have nothing to ask.
  check_queries(make({}), {{}, {}, 1, 0, true, false, false});
}

TEST(SymQueriesTest, MetaTensorsAnswerWithoutData) {
  NoCpuAllocations no_cpu;
  const Tensor t = aten::permute(make({2, 3, 4}, std::nullopt, Device(kMeta)), {0, 2, 1});
  check_queries(t, {{2, 4, 3}, {12, 1, 4}, 24, 0, false, false, false});
}

// The error of calling `name` (C++ API `f`, boxed with `args`): it names the operator and
// the argument `dim`, and says what is wrong.
void expect_dim_error(const std::string& name, const std::function<void()>& f,
                      std::vector<Value> args, const std::string& message) {
  for (int boxed = 0; boxed < 2; ++boxed) {
    SCOPED_TRACE(boxed ? "boxed" : "C++ API");
    try {
      if (boxed) {
        call_boxed("aten::" + name, args);
      } else {
        f();
      }
      ADD_FAILURE() << name << " did not throw";
    } catch (const Error& e) {
      EXPECT_EQ(e.op(), name);
      EXPECT_EQ(e.argument(), "dim");
      EXPECT_EQ(e.message(), message);
      EXPECT_EQ(std::string(e.what()), name + ": argument 'dim': " + message);
    }
  }
}

TEST(SymQueriesTest, DimOutOfRangeNamesTheOperatorAndTheArgument) {
  const Tensor t = make({2, 3, 4});
  const std::string range = "Dimension out of range (expected to be in range of [-3, 2], but got ";
  expect_dim_error(
      "sym_size.int", [&] { aten::sym_size(t, 3); }, {Value(t), Value(int64_t{3})}, range + "3)");
  expect_dim_error(
      "sym_size.int", [&] { aten::sym_size(t, -4); }, {Value(t), Value(int64_t{-4})},
      range + "-4)");
  expect_dim_error(
      "sym_stride.int", [&] { aten::sym_stride(t, 3); }, {Value(t), Value(int64_t{3})},
      range + "3)");
  expect_dim_error(
      "sym_stride.int", [&] { aten::sym_stride(t, -4); }, {Value(t), Value(int64_t{-4})},
      range + "-4)");
}

TEST(SymQueriesTest, AZeroDimTensorHasNoDimensionToAskAbout) {
  const Tensor t = make({});
  for (const int64_t dim : {int64_t{0}, int64_t{-1}}) {
    const std::string message =
        "Dimension specified as " + std::to_string(dim) + " but tensor has no dimensions";
    expect_dim_error(
        "sym_size.int", [&] { aten::sym_size(t, dim); }, {Value(t), Value(dim)}, message);
    expect_dim_error(
        "sym_stride.int", [&] { aten::sym_stride(t, dim); }, {Value(t), Value(dim)}, message);
  }
}

TEST(SymQueriesTest, TheSchemasArePyTorchs) {
  // The lite runtime reads the return type off the schema to size its value slots.
  EXPECT_EQ(registry().find_or_throw("aten::sym_size.int").schema().str(),
            "aten::sym_size.int(Tensor self, int dim) -> SymInt");
  EXPECT_EQ(registry().find_or_throw("aten::sym_stride.int").schema().str(),
            "aten::sym_stride.int(Tensor self, int dim) -> SymInt");
  EXPECT_EQ(registry().find_or_throw("aten::sym_numel").schema().str(),
            "aten::sym_numel(Tensor self) -> SymInt");
  EXPECT_EQ(registry().find_or_throw("aten::sym_storage_offset").schema().str(),
            "aten::sym_storage_offset(Tensor self) -> SymInt");
  EXPECT_EQ(registry().find_or_throw("aten::sym_is_contiguous").schema().str(),
            "aten::sym_is_contiguous(Tensor self, MemoryFormat memory_format=contiguous_format) "
            "-> SymBool");
}

}  // namespace
}  // namespace sops::optest
