// The types that signatures generated from native_functions.yaml name: PyTorch's names
// for the enums, Reduction's values, Stream, and the aliases. A namespace below plays a
// generated library (a Types.h of `using ::sops::NAME;` lines and declarations with the
// generator's spelling of yaml defaults), so that this file stops compiling when a name
// the generator relies on goes missing.
#include "runtime/native_types.h"

#include <array>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/error.h"

namespace generated_lib {

using ::sops::ArrayRef;
using ::sops::Device;
using ::sops::DeviceIndex;
using ::sops::DimVector;
using ::sops::Generator;
using ::sops::IntArrayRef;
using ::sops::IOptTensorListRef;
using ::sops::Layout;
using ::sops::MemoryFormat;
using ::sops::QScheme;
using ::sops::Reduction;
using ::sops::Scalar;
using ::sops::ScalarType;
using ::sops::Storage;
using ::sops::Stream;
using ::sops::SymBool;
using ::sops::SymInt;
using ::sops::Tensor;

// `int reduction=Mean`
int64_t loss(const Tensor& self, int64_t reduction = Reduction::Mean) {
  (void)self;
  return reduction;
}
// `Generator? generator=None`
bool takes_generator(::std::optional<Generator> generator = ::std::nullopt) {
  return generator.has_value();
}
// `ScalarType dtype=cfloat`, `ScalarType dtype=short`, `Layout layout=sparse_csr`,
// `QScheme qscheme=per_tensor_affine`, `SymBool flag=False`, `DeviceIndex index=-1`
std::string defaults(ScalarType a = ScalarType::ComplexFloat, ScalarType b = ScalarType::Short,
                     ScalarType c = ScalarType::ComplexDouble, Layout layout = Layout::SparseCsr,
                     QScheme qscheme = QScheme::PER_TENSOR_AFFINE, SymBool flag = false,
                     DeviceIndex index = -1) {
  std::ostringstream os;
  os << a << ' ' << b << ' ' << c << ' ' << layout << ' ' << qscheme << ' ' << flag << ' ' << index;
  return os.str();
}
// `Tensor?[] indices`, `float[]? scales=None`, `bool[3] output_mask=[True, True, True]`,
// `str[] names=[]`, `Scalar[] values`, `ScalarType[] dtypes`, `Stream s`, `Storage source`,
// `Storage? storage=None`, `DimVector sizes`.
std::size_t lists(IOptTensorListRef indices, ArrayRef<Scalar> values, ArrayRef<ScalarType> dtypes,
                  ::std::optional<ArrayRef<double>> scales = ::std::nullopt,
                  ArrayRef<bool> output_mask = {true, true, true},
                  ArrayRef<::std::string_view> names = {}) {
  return indices.size() + values.size() + dtypes.size() + (scales ? scales->size() : 0) +
         output_mask.size() + names.size();
}
Device stream_device(Stream s) { return s.device(); }
bool storage_defined(Storage source, ::std::optional<Storage> storage = ::std::nullopt) {
  return source.defined() && !storage.has_value();
}
std::size_t rank(DimVector sizes) { return sizes.size(); }

}  // namespace generated_lib

namespace {

using sops::Layout;
using sops::QScheme;
using sops::Reduction;
using sops::Stream;

template <typename T>
std::string printed(const T& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

TEST(NativeTypes, GeneratedDefaultsCompileAndMeanWhatPyTorchMeans) {
  const sops::Tensor t = sops::empty({2}, sops::kFloat);
  EXPECT_EQ(generated_lib::loss(t), 1);
  EXPECT_FALSE(generated_lib::takes_generator());
  EXPECT_TRUE(generated_lib::takes_generator(sops::make_cpu_generator(1)));
  EXPECT_EQ(generated_lib::defaults(),
            "complex64 int16 complex128 SparseCsr per_tensor_affine 0 -1");
  const std::vector<std::optional<sops::Tensor>> indices = {t, std::nullopt};
  EXPECT_EQ(generated_lib::lists(indices, {1, 2.5}, {sops::kFloat}), 2u + 2 + 1 + 3);
  const std::vector<double> scales = {2.0, 3.0};
  EXPECT_EQ(generated_lib::lists({}, {}, {}, scales, {}, {"a", "b"}), 4u);
  EXPECT_EQ(generated_lib::stream_device(sops::default_stream(sops::kCPU)),
            sops::Device(sops::kCPU));
  EXPECT_TRUE(generated_lib::storage_defined(t.unsafe_get_impl()->storage()));
  EXPECT_EQ(generated_lib::rank({2, 3, 4}), 3u);
}

TEST(NativeTypes, ReductionHasPyTorchsValues) {
  constexpr int64_t mean = Reduction::Mean;  // converts implicitly, as a default must
  static_assert(mean == 1);
  static_assert(Reduction::None == 0 && Reduction::Sum == 2);
  static_assert(std::is_same_v<std::underlying_type_t<Reduction::Value>, int64_t>);
  EXPECT_EQ(sops::to_string(Reduction::None), "none");
  EXPECT_EQ(sops::to_string(Reduction::Mean), "mean");
  EXPECT_EQ(sops::to_string(Reduction::Sum), "sum");
  EXPECT_EQ(sops::check_reduction(0), Reduction::None);
  EXPECT_EQ(sops::check_reduction(2), Reduction::Sum);
  EXPECT_TRUE(sops::is_valid_reduction(1));
  EXPECT_FALSE(sops::is_valid_reduction(-1));
}

TEST(NativeTypes, InvalidReductionThrowsNamingTheValue) {
  for (const int64_t bad : {int64_t{3}, int64_t{-1}}) {
    try {
      sops::check_reduction(bad);
      FAIL() << "no throw for " << bad;
    } catch (const sops::Error& e) {
      EXPECT_EQ(e.argument(), "reduction");
      EXPECT_EQ(e.message(),
                "expected reduction 0 (none), 1 (mean) or 2 (sum), got " + std::to_string(bad));
    }
  }
  try {
    sops::check_reduction(7, "mode");
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "mode");
  }
}

TEST(NativeTypes, LayoutsHavePyTorchsNames) {
  // c10's operator<<(std::ostream&, Layout).
  const std::vector<std::pair<Layout, std::string>> names = {
      {sops::kStrided, "Strided"},     {sops::kSparse, "Sparse"},
      {sops::kSparseCsr, "SparseCsr"}, {sops::kSparseCsc, "SparseCsc"},
      {sops::kSparseBsr, "SparseBsr"}, {sops::kSparseBsc, "SparseBsc"},
      {sops::kMkldnn, "Mkldnn"},       {sops::kJagged, "Jagged"},
  };
  for (const auto& [layout, name] : names) {
    EXPECT_EQ(sops::to_string(layout), name);
    EXPECT_EQ(printed(layout), name);
  }
}

TEST(NativeTypes, QSchemesHavePyTorchsNames) {
  // str(torch.per_tensor_affine) is "torch.per_tensor_affine", ...
  const std::vector<std::pair<QScheme, std::string>> names = {
      {QScheme::PER_TENSOR_AFFINE, "per_tensor_affine"},
      {QScheme::PER_CHANNEL_AFFINE, "per_channel_affine"},
      {QScheme::PER_TENSOR_SYMMETRIC, "per_tensor_symmetric"},
      {QScheme::PER_CHANNEL_SYMMETRIC, "per_channel_symmetric"},
      {QScheme::PER_CHANNEL_AFFINE_FLOAT_QPARAMS, "per_channel_affine_float_qparams"},
  };
  for (const auto& [scheme, name] : names) {
    EXPECT_EQ(sops::to_string(scheme), name);
    EXPECT_EQ(printed(scheme), name);
  }
  EXPECT_EQ(sops::kPerChannelAffineFloatQParams, QScheme::PER_CHANNEL_AFFINE_FLOAT_QPARAMS);
}

TEST(NativeTypes, StreamIsAValueOfDeviceAndId) {
  const Stream s(sops::Device(sops::kCUDA, 1), 3);
  EXPECT_EQ(s.device(), sops::Device(sops::kCUDA, 1));
  EXPECT_EQ(s.device_type(), sops::kCUDA);
  EXPECT_EQ(s.device_index(), 1);
  EXPECT_EQ(s.id(), 3);
  EXPECT_EQ(Stream(sops::kCPU).id(), 0);
  EXPECT_EQ(sops::default_stream(sops::kCPU), Stream(sops::kCPU, 0));
  EXPECT_NE(sops::default_stream(sops::kCPU), Stream(sops::kCPU, 1));
  EXPECT_NE(sops::default_stream(sops::kCPU), sops::default_stream(sops::kMeta));
  EXPECT_EQ(printed(s), "stream 3 on device cuda:1");  // c10::Stream's operator<<
  std::unordered_set<Stream> set = {s, s, sops::default_stream(sops::kCPU)};
  EXPECT_EQ(set.size(), 2u);
  static_assert(!std::is_convertible_v<sops::Device, Stream>, "a Device is not a Stream");
}

TEST(NativeTypes, Aliases) {
  static_assert(std::is_same_v<sops::DeviceIndex, sops::Device::Index>);
  static_assert(std::is_same_v<sops::SymBool, bool>);
  static_assert(
      std::is_same_v<sops::IOptTensorListRef, sops::ArrayRef<std::optional<sops::Tensor>>>);
  EXPECT_EQ(sops::Device(sops::kCUDA, sops::DeviceIndex{2}).index(), 2);
}

TEST(NativeTypes, ListArgumentsBindToVectorsArraysAndBraces) {
  const std::vector<double> doubles = {0.5, 1.5};
  const sops::ArrayRef<double> d = doubles;
  EXPECT_EQ(d.size(), 2u);
  const std::optional<sops::ArrayRef<double>> maybe = d;
  EXPECT_EQ(maybe->back(), 1.5);
  const std::array<bool, 3> mask = {true, false, true};
  const sops::ArrayRef<bool> m = mask;
  EXPECT_FALSE(m[1]);
  const std::vector<sops::Scalar> scalars = {1, 2.5, true};
  EXPECT_EQ(sops::ArrayRef<sops::Scalar>(scalars)[1].to<double>(), 2.5);
  const std::vector<sops::ScalarType> dtypes = {sops::kFloat, sops::kLong};
  EXPECT_EQ(sops::ArrayRef<sops::ScalarType>(dtypes), sops::ArrayRef<sops::ScalarType>(dtypes));
  const std::vector<std::string_view> names = {"N", "C"};
  EXPECT_EQ(sops::ArrayRef<std::string_view>(names)[1], "C");
  const sops::IOptTensorListRef none = {};
  EXPECT_TRUE(none.empty());
}

TEST(NativeTypes, StorageIsAValue) {
  const sops::Storage empty;
  EXPECT_FALSE(empty.defined());
  const sops::Tensor t = sops::empty({4}, sops::kFloat);
  const std::optional<sops::Storage> s = t.unsafe_get_impl()->storage();
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->is_alias_of(t.unsafe_get_impl()->storage()));
  EXPECT_EQ(s->nbytes(), 16u);
}

}  // namespace
