#include "tests/ops/op_test_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <sstream>

namespace sops::optest {
namespace {

bool is_randn(const golden::GoldenCase& c) {
  const std::string suffix = "_randn";
  return c.id.size() >= suffix.size() &&
         c.id.compare(c.id.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The elements of t in row-major order of its sizes, as T.
template <typename T>
std::vector<T> logical_values(const Tensor& t) {
  std::vector<T> out;
  const int64_t n = t.numel();
  if (n == 0) return out;
  const int64_t ndim = t.dim();
  std::vector<int64_t> index(static_cast<std::size_t>(ndim), 0);
  const char* base = static_cast<const char*>(t.const_data_ptr());
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t d = 0; d < ndim; ++d) offset += index[static_cast<std::size_t>(d)] * t.stride(d);
    out.push_back(
        load_as<T>(base + offset * static_cast<int64_t>(t.element_size()), t.scalar_type()));
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < t.size(d)) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

bool same_double(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

class ThrowingAllocator final : public Allocator {
 public:
  DataPtr allocate(std::size_t nbytes) override {
    throw Error("test: a meta call allocated " + std::to_string(nbytes) + " bytes of cpu memory");
  }
};

ThrowingAllocator& throwing_allocator() {
  static ThrowingAllocator a;
  return a;
}

class CountingAllocator final : public Allocator {
 public:
  DataPtr allocate(std::size_t nbytes) override {
    ++count;
    return cpu_allocator()->allocate(nbytes);
  }
  int count = 0;
};

CountingAllocator& counting_allocator() {
  static CountingAllocator a;
  return a;
}

}  // namespace

std::vector<golden::GoldenCase> cases_of(const std::string& file, const std::string& op) {
  std::vector<golden::GoldenCase> out;
  for (golden::GoldenCase& c : golden::load_golden(golden::golden_data_path(file))) {
    if (c.op == op) out.push_back(std::move(c));
  }
  return out;
}

ScalarType dtype_of(const std::string& name) { return parse_scalar_type(name); }

bool expects_unrepresentable(const golden::GoldenCase& c) {
  if (c.is_error() || c.expect.kind == golden::ExpectKind::kScalar) return false;
  if (dtype_of(c.expect.dtype) == ScalarType::Undefined) return true;
  bool has_int8 = false;
  bool has_uint8 = false;
  for (const golden::GoldenArg& a : c.args) {
    if (a.name == "out") continue;
    std::vector<const golden::GoldenTensor*> ts;
    if (a.kind == golden::ArgKind::kTensor) ts.push_back(&a.tensor);
    for (const auto& t : a.tensors) ts.push_back(&t);
    for (const golden::GoldenTensor* t : ts) {
      has_int8 = has_int8 || t->dtype == "int8";
      has_uint8 = has_uint8 || t->dtype == "uint8";
    }
  }
  return has_int8 && has_uint8;
}

Tensor to_tensor(const golden::GoldenTensor& g, Device device) {
  const ScalarType dtype = dtype_of(g.dtype);
  SOPS_CHECK(dtype != ScalarType::Undefined, "test: no sops dtype for ", g.dtype);
  const int64_t m = static_cast<int64_t>(g.storage.size());
  Tensor base = sops::empty({m}, TensorOptions(dtype).device(device));
  if (device.is_cpu()) {
    char* p = static_cast<char*>(base.data_ptr());
    const std::size_t size = base.element_size();
    for (std::size_t i = 0; i < g.storage.size(); ++i) {
      if (g.storage_int.empty()) {
        store_as<double>(p + i * size, dtype, g.storage[i]);
      } else {
        store_as<int64_t>(p + i * size, dtype, g.storage_int[i]);
      }
    }
  }
  return base.as_strided(g.sizes, g.strides, g.offset);
}

std::vector<Tensor> to_tensors(const std::vector<golden::GoldenTensor>& gs, Device device) {
  std::vector<Tensor> out;
  for (const auto& g : gs) out.push_back(to_tensor(g, device));
  return out;
}

Scalar to_scalar(const golden::GoldenScalar& s) {
  switch (s.kind) {
    case golden::ScalarKind::kInt:
      return Scalar(s.i);
    case golden::ScalarKind::kDouble:
      return Scalar(s.d);
    case golden::ScalarKind::kBool:
      return Scalar(s.b);
  }
  return Scalar();
}

Tensor tensor_arg(const golden::GoldenCase& c, const std::string& name, Device device) {
  return to_tensor(c.arg(name).tensor, device);
}

std::optional<Tensor> optional_tensor_arg(const golden::GoldenCase& c, const std::string& name,
                                          Device device) {
  const golden::GoldenArg& a = c.arg(name);
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return to_tensor(a.tensor, device);
}

Scalar scalar_arg(const golden::GoldenCase& c, const std::string& name) {
  return to_scalar(c.arg(name).scalar);
}

std::optional<double> optional_float_arg(const golden::GoldenCase& c, const std::string& name) {
  const golden::GoldenArg& a = c.arg(name);
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return a.float_value;
}

std::optional<ScalarType> optional_dtype_arg(const golden::GoldenCase& c, const std::string& name) {
  const golden::GoldenArg& a = c.arg(name);
  if (a.kind == golden::ArgKind::kNone) return std::nullopt;
  return dtype_of(a.dtype);
}

std::optional<MemoryFormat> optional_memory_format_arg(const golden::GoldenCase& c,
                                                       const std::string& name) {
  const golden::GoldenArg* a = c.find_arg(name);
  if (a == nullptr || a->kind == golden::ArgKind::kNone) return std::nullopt;
  const std::string& f = a->memory_format;
  if (f == "contiguous") return MemoryFormat::Contiguous;
  if (f == "channels_last") return MemoryFormat::ChannelsLast;
  if (f == "channels_last_3d") return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Preserve;
}

::testing::AssertionResult matches(const Tensor& actual, const golden::GoldenCase& c,
                                   bool check_strides) {
  return matches(actual, c, c.expect.result(0), check_strides);
}

::testing::AssertionResult matches(const Tensor& actual, const golden::GoldenCase& c,
                                   const golden::GoldenExpect& e, bool check_strides) {
  if (!actual.defined()) return ::testing::AssertionFailure() << c.where() << ": undefined result";
  if (actual.scalar_type() != dtype_of(e.dtype)) {
    return ::testing::AssertionFailure()
           << c.where() << ": dtype " << actual.scalar_type() << ", expected " << e.dtype;
  }
  if (actual.sizes() != IntArrayRef(e.sizes)) {
    return ::testing::AssertionFailure()
           << c.where() << ": sizes " << actual.sizes() << ", expected " << IntArrayRef(e.sizes);
  }
  if (check_strides && actual.numel() > 1) {
    // The memory layout: strides of dimensions of size 1 are never used (PyTorch's own
    // contiguity checks skip them too), so they may differ.
    for (int64_t d = 0; d < actual.dim(); ++d) {
      if (actual.size(d) != 1 && actual.stride(d) != e.strides[static_cast<std::size_t>(d)]) {
        return ::testing::AssertionFailure() << c.where() << ": strides " << actual.strides()
                                             << ", expected " << IntArrayRef(e.strides);
      }
    }
  }
  if (!e.values_checked) return ::testing::AssertionSuccess();
  if (!e.values_int.empty() || (e.numel() == 0 && !is_floating_point(actual.scalar_type()))) {
    const std::vector<int64_t> got = logical_values<int64_t>(actual);
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] != e.values_int[i]) {
        return ::testing::AssertionFailure() << c.where() << ": element " << i << " is " << got[i]
                                             << ", expected " << e.values_int[i];
      }
    }
    return ::testing::AssertionSuccess();
  }
  const std::vector<double> got = logical_values<double>(actual);
  const bool randn = is_randn(c);
  const double rtol = actual.scalar_type() == ScalarType::Double ? 1e-12 : 1e-5;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double want = e.values[i];
    bool ok = randn ? std::fabs(got[i] - want) <= rtol * (1.0 + std::fabs(want))
                    : same_double(got[i], want);
    if (!ok && c.has_tolerance && std::isfinite(got[i]) && std::isfinite(want)) {
      // The case's own tolerance (transcendental math): NaN and infinities stay exact.
      ok = std::fabs(got[i] - want) <= c.atol + c.rtol * std::fabs(want);
    }
    if (!ok) {
      std::ostringstream os;
      os.precision(17);
      os << c.where() << ": element " << i << " is " << got[i] << ", expected " << want;
      if (c.has_tolerance) os << " (tol: rtol " << c.rtol << ", atol " << c.atol << ")";
      return ::testing::AssertionFailure() << os.str();
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_result(const Tensor& a, const Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) {
    return ::testing::AssertionFailure() << a << " differs from " << b;
  }
  const std::vector<double> x = logical_values<double>(a);
  const std::vector<double> y = logical_values<double>(b);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!same_double(x[i], y[i])) {
      return ::testing::AssertionFailure() << "element " << i << ": " << x[i] << " vs " << y[i];
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult matches_meta(const Tensor& actual, const golden::GoldenCase& c) {
  return matches_meta(actual, c, c.expect.result(0));
}

::testing::AssertionResult matches_meta(const Tensor& actual, const golden::GoldenCase& c,
                                        const golden::GoldenExpect& e) {
  if (!actual.defined() || !actual.is_meta()) {
    return ::testing::AssertionFailure() << c.where() << ": expected a meta result, got " << actual;
  }
  if (actual.scalar_type() != dtype_of(e.dtype) || actual.sizes() != IntArrayRef(e.sizes)) {
    return ::testing::AssertionFailure() << c.where() << ": meta result " << actual << ", expected "
                                         << e.dtype << " " << IntArrayRef(e.sizes);
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult matches_scalar(const Scalar& got, const golden::GoldenScalar& want) {
  switch (want.kind) {
    case golden::ScalarKind::kBool:
      if (got.is_boolean() && got.to<bool>() == want.b) return ::testing::AssertionSuccess();
      break;
    case golden::ScalarKind::kInt:
      if (got.is_integral(/*include_bool=*/false) && got.to<int64_t>() == want.i)
        return ::testing::AssertionSuccess();
      break;
    case golden::ScalarKind::kDouble: {
      const double v = got.is_floating_point() ? got.to<double>() : 0;
      if (got.is_floating_point() && (v == want.d || (std::isnan(v) && std::isnan(want.d))))
        return ::testing::AssertionSuccess();
      break;
    }
  }
  return ::testing::AssertionFailure()
         << "got the Scalar " << got << ", expected " << want.to_double();
}

::testing::AssertionResult matches_returned(const Value& got, const golden::GoldenScalar& want) {
  if (got.is_int()) {
    if (want.kind == golden::ScalarKind::kInt && got.to_int() == want.i)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "got the int " << got.to_int() << ", expected " << want.to_double();
  }
  if (got.is_bool()) {
    if (want.kind == golden::ScalarKind::kBool && got.to_bool() == want.b)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "got the bool " << got.to_bool() << ", expected " << want.to_double();
  }
  return matches_scalar(got.to_scalar(), want);
}

bool error_matches(const std::string& ours, const std::string& expected) {
  if (ours.find(expected) != std::string::npos) return true;
  static const std::pair<const char*, const char*> kNames[] = {
      {"Float", "float32"}, {"Double", "float64"}, {"Long", "int64"},
      {"Int", "int32"},     {"Char", "int8"},      {"Byte", "uint8"},
      {"Bool", "bool"},     {"Half", "float16"},   {"BFloat16", "bfloat16"}};
  std::string e = expected;
  for (const auto& [aten, ours_name] : kNames) {
    e = std::regex_replace(e, std::regex(std::string("\\b") + aten + "\\b"), ours_name);
  }
  return lower(ours).find(lower(e)) != std::string::npos;
}

::testing::AssertionResult throws_error(const std::function<void()>& f, const std::string& expected,
                                        const std::string& op) {
  try {
    f();
  } catch (const Error& e) {
    if (!error_matches(e.what(), expected)) {
      return ::testing::AssertionFailure()
             << "error \"" << e.what() << "\" does not contain \"" << expected << "\"";
    }
    if (!op.empty() && e.op() != op) {
      return ::testing::AssertionFailure() << "error \"" << e.what() << "\" names operator '"
                                           << e.op() << "', expected '" << op << "'";
    }
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-sops exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw (expected \"" << expected << "\")";
}

NoCpuAllocations::NoCpuAllocations()
    : previous_(set_allocator(DeviceType::CPU, &throwing_allocator())) {}
NoCpuAllocations::~NoCpuAllocations() { set_allocator(DeviceType::CPU, previous_); }

CountCpuAllocations::CountCpuAllocations()
    : previous_(set_allocator(DeviceType::CPU, &counting_allocator())) {
  counting_allocator().count = 0;
}
CountCpuAllocations::~CountCpuAllocations() { set_allocator(DeviceType::CPU, previous_); }
int CountCpuAllocations::count() const { return counting_allocator().count; }

Tensor clone(const Tensor& t) { return clone_as(t, t.scalar_type()); }

Tensor clone_as(const Tensor& t, ScalarType dtype) {
  Tensor out = sops::empty(t.sizes(), t.options().dtype(dtype));
  const std::vector<double> v = logical_values<double>(t);
  const std::vector<int64_t> vi =
      is_floating_point(t.scalar_type()) ? std::vector<int64_t>() : logical_values<int64_t>(t);
  char* p = static_cast<char*>(out.data_ptr());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (vi.empty()) {
      store_as<double>(p + i * out.element_size(), dtype, v[i]);
    } else {
      store_as<int64_t>(p + i * out.element_size(), dtype, vi[i]);
    }
  }
  return out;
}

Value to_value(const golden::GoldenCase& c, const golden::GoldenArg& a, const ArgumentSchema& s,
               Device device) {
  switch (a.kind) {
    case golden::ArgKind::kTensor:
      return Value(to_tensor(a.tensor, device));
    case golden::ArgKind::kTensors: {
      if (s.type.elem_optional) {
        std::vector<std::optional<Tensor>> ts;
        for (const auto& g : a.tensors) {
          ts.push_back(g.absent ? std::nullopt : std::optional<Tensor>(to_tensor(g, device)));
        }
        return Value(std::move(ts));
      }
      return Value(to_tensors(a.tensors, device));
    }
    case golden::ArgKind::kScalar:
      return Value(to_scalar(a.scalar));
    case golden::ArgKind::kInt:
      return Value(a.int_value);
    case golden::ArgKind::kInts:
      return Value(a.ints);
    case golden::ArgKind::kFloat:
      return Value(a.float_value);
    case golden::ArgKind::kFloats:
      return Value(a.floats);
    case golden::ArgKind::kBool:
      return Value(a.bool_value);
    case golden::ArgKind::kDType:
      return Value(dtype_of(a.dtype));
    case golden::ArgKind::kMemoryFormat:
      return Value(*optional_memory_format_arg(c, a.name));
    case golden::ArgKind::kStr:
      return Value(a.str_value);
    case golden::ArgKind::kLayout:
      return Value(Layout::Strided);
    // The case's device (cpu) is the meta device on a meta run, as an absent one is.
    case golden::ArgKind::kDevice:
      return Value(device);
    case golden::ArgKind::kNone:
      // Factories make meta tensors when asked for the meta device.
      if (device.is_meta() && s.type.kind == TypeSchema::Kind::Device) return Value(device);
      return Value();
    // A new generator on each call: every call draws PyTorch's numbers for that seed.
    case golden::ArgKind::kGenerator:
      return Value(make_cpu_generator(a.seed));
  }
  return Value();
}

Stack stack_of(const golden::GoldenCase& c, const FunctionSchema& schema, Device device) {
  Stack stack;
  for (const ArgumentSchema& s : schema.arguments) {
    const golden::GoldenArg* a = c.find_arg(std::string(s.name));
    if (a == nullptr) break;
    stack.push_back(to_value(c, *a, s, device));
  }
  return stack;
}

int64_t written_argument(const FunctionSchema& schema) {
  for (std::size_t i = 0; i < schema.arguments.size(); ++i) {
    const ArgumentSchema& a = schema.arguments[i];
    if (!a.is_write()) continue;
    for (const ReturnSchema& r : schema.returns) {
      if (r.alias == a.alias) return static_cast<int64_t>(i);
    }
  }
  return -1;
}

}  // namespace sops::optest
