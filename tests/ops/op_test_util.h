// Helpers for the operator tests: golden tensors -> sops tensors (cpu or meta), results
// compared with PyTorch's (exact, NaN equal to NaN, -0.0 distinct from 0.0; a tolerance
// only for `_randn` cases), PyTorch's error messages matched against ours.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/native_types.h"
#include "runtime/operator_registry.h"
#include "runtime/sops.h"
#include "runtime/value.h"
#include "tests/golden/golden.h"

namespace sops::optest {

// The golden file's cases of operator `op` (full name, e.g. "add.Tensor").
std::vector<golden::GoldenCase> cases_of(const std::string& file, const std::string& op);

// A golden dtype name as a sops dtype; Undefined for one sops lacks (int16).
ScalarType dtype_of(const std::string& name);
// Whether PyTorch's result has a dtype sops cannot represent (int16 from int8 + uint8):
// sops must raise a clear error instead.
// Also true when two tensor arguments are int8 and uint8 (their common dtype is int16,
// even when the result is cast to an out or self of another dtype).
bool expects_unrepresentable(const golden::GoldenCase& c);

// The tensor exactly as given: its whole storage, sizes, strides and offset. On meta,
// the same layout over a storage of the same size, with no data.
Tensor to_tensor(const golden::GoldenTensor& g, Device device = Device(DeviceType::CPU));
std::vector<Tensor> to_tensors(const std::vector<golden::GoldenTensor>& gs,
                               Device device = Device(DeviceType::CPU));
Scalar to_scalar(const golden::GoldenScalar& s);
// Typed accessors of a case's arguments.
Tensor tensor_arg(const golden::GoldenCase& c, const std::string& name,
                  Device device = Device(DeviceType::CPU));
std::optional<Tensor> optional_tensor_arg(const golden::GoldenCase& c, const std::string& name,
                                          Device device = Device(DeviceType::CPU));
Scalar scalar_arg(const golden::GoldenCase& c, const std::string& name);
std::optional<double> optional_float_arg(const golden::GoldenCase& c, const std::string& name);
std::optional<ScalarType> optional_dtype_arg(const golden::GoldenCase& c, const std::string& name);
std::optional<MemoryFormat> optional_memory_format_arg(const golden::GoldenCase& c,
                                                       const std::string& name);

// Argument `a` of case c as a boxed value of schema type `s`, its tensors on `device`
// (cpu, or meta for a meta run, where a Device argument and a factory's absent one are
// meta too).
Value to_value(const golden::GoldenCase& c, const golden::GoldenArg& a, const ArgumentSchema& s,
               Device device);
// The case's arguments in schema order; trailing ones the case leaves out get defaults.
Stack stack_of(const golden::GoldenCase& c, const FunctionSchema& schema, Device device);
// The index of the schema's first written argument that it returns (out=, inplace self), or
// -1 (a functional op, or one that only updates an argument in place, as batch norm's
// running statistics).
int64_t written_argument(const FunctionSchema& schema);

// A result against the expectation: dtype, sizes, values (and, when asked, strides of the
// dimensions whose size is not 1).
::testing::AssertionResult matches(const Tensor& actual, const golden::GoldenCase& c,
                                   bool check_strides = false);
// The same against one expected tensor `e` of the case (one return of a tuple).
::testing::AssertionResult matches(const Tensor& actual, const golden::GoldenCase& c,
                                   const golden::GoldenExpect& e, bool check_strides = false);
// Two results of ours: same dtype, sizes and bit-identical values.
::testing::AssertionResult same_result(const Tensor& a, const Tensor& b);
// A meta result against the expectation: a meta tensor of the right dtype and sizes.
::testing::AssertionResult matches_meta(const Tensor& actual, const golden::GoldenCase& c);
::testing::AssertionResult matches_meta(const Tensor& actual, const golden::GoldenCase& c,
                                        const golden::GoldenExpect& e);

// A Scalar result (_local_scalar_dense): PyTorch's kind (bool, integral or floating) and
// value, NaN equal to NaN.
::testing::AssertionResult matches_scalar(const Scalar& got, const golden::GoldenScalar& want);
// A one-value result (`expect scalar`): an int Value for a SymInt return (sym_size.int),
// a bool Value for a SymBool one (sym_is_contiguous), otherwise a Scalar
// (_local_scalar_dense). The kind must be the one the schema returns: the lite runtime
// stores a SymInt in an int slot.
::testing::AssertionResult matches_returned(const Value& got, const golden::GoldenScalar& want);

// Whether our message contains PyTorch's substring `expected`: exactly, or ignoring
// case with ATen's dtype names (Float, Long, ...) read as ours (float32, int64, ...).
bool error_matches(const std::string& ours, const std::string& expected);
// Runs f, which must throw a sops::Error matching `expected` (and naming `op` when
// non-empty).
::testing::AssertionResult throws_error(const std::function<void()>& f, const std::string& expected,
                                        const std::string& op = {});

// Throws from allocate(): installed for cpu while meta calls run, it proves that they
// allocate (and so touch) no cpu memory.
class NoCpuAllocations {
 public:
  NoCpuAllocations();
  ~NoCpuAllocations();
  NoCpuAllocations(const NoCpuAllocations&) = delete;
  NoCpuAllocations& operator=(const NoCpuAllocations&) = delete;

 private:
  Allocator* previous_;
};

// Counts cpu allocations while alive (passing them on to the cpu allocator).
class CountCpuAllocations {
 public:
  CountCpuAllocations();
  ~CountCpuAllocations();
  CountCpuAllocations(const CountCpuAllocations&) = delete;
  CountCpuAllocations& operator=(const CountCpuAllocations&) = delete;
  int count() const;

 private:
  Allocator* previous_;
};

// A copy of t (same sizes and dtype, contiguous): an independent "self" for inplace runs.
Tensor clone(const Tensor& t);
// The same, converted to `dtype` element by element (bool as 0/1).
Tensor clone_as(const Tensor& t, ScalarType dtype);

}  // namespace sops::optest
