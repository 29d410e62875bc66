// Reader of the PyTorch oracle data in tests/golden/data/*.golden (format:
// tests/golden/README.md; the files are written by tools/golden/make_golden.py).
//
// Plain C++17 structs, no dependency on the operator runtime: a test turns a GoldenTensor
// into its own tensor type (dtype, sizes, strides, storage offset and the whole storage
// are given, so non-contiguous inputs are rebuilt exactly) and compares its result with
// GoldenExpect.
#ifndef STRUCTURED_OPS_TESTS_GOLDEN_GOLDEN_H_
#define STRUCTURED_OPS_TESTS_GOLDEN_GOLDEN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace golden {

// dtype names: float32 float64 int64 int32 int16 int8 uint8 bool float16 bfloat16
// (int16 only appears as a promoted result, e.g. int8 + uint8).
bool is_known_dtype(const std::string& dtype);
bool is_floating_dtype(const std::string& dtype);  // float32 float64 float16 bfloat16
// The seven dtypes every compute op is exercised with.
const std::vector<std::string>& supported_dtypes();

struct GoldenTensor {
  // A `none` line in a `tensors` list: an absent element of a Tensor?[] argument (no
  // other field is set).
  bool absent = false;
  std::string dtype;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;  // in elements, same length as sizes
  int64_t offset = 0;            // storage offset, in elements
  // The whole storage behind the tensor (it may hold elements the view does not see).
  // storage[i] is every element as a double: exact for the floating dtypes, bool and
  // integers up to 2^53. storage_int holds the exact integers for integral and bool
  // dtypes (same length as storage) and is empty for floating dtypes.
  std::vector<double> storage;
  std::vector<int64_t> storage_int;

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  int64_t numel() const;
  bool is_contiguous() const;  // row-major contiguous (size-1 dims' strides ignored)
  // Largest storage index the tensor reaches plus one (offset if it has no elements).
  int64_t storage_extent() const;
  // Values in logical row-major order, gathered through sizes/strides/offset.
  std::vector<double> logical_values() const;
  std::vector<int64_t> logical_values_int() const;  // integral/bool dtypes only
};

enum class ScalarKind { kInt, kDouble, kBool };

struct GoldenScalar {
  ScalarKind kind = ScalarKind::kInt;
  int64_t i = 0;   // kInt
  double d = 0;    // kDouble
  bool b = false;  // kBool
  double to_double() const;
};

enum class ArgKind {
  kTensor,        // arg <name> tensor ...
  kTensors,       // arg <name> tensors <k>, then k "tensor ..." lines
  kScalar,        // arg <name> scalar int|double|bool <v>
  kInt,           // arg <name> int <v>            (int, SymInt)
  kInts,          // arg <name> ints <n> <v...>    (int[], SymInt[])
  kFloat,         // arg <name> float <v>          (float)
  kFloats,        // arg <name> floats <n> <v...>  (float[])
  kBool,          // arg <name> bool 0|1
  kDType,         // arg <name> dtype <dtype>      (ScalarType)
  kMemoryFormat,  // arg <name> memory_format contiguous|channels_last|channels_last_3d|preserve
  kStr,           // arg <name> str <token>     (str, str?: one token, no spaces)
  kLayout,        // arg <name> layout strided     (Layout)
  kDevice,        // arg <name> device cpu         (Device)
  kNone,          // arg <name> none               (an optional argument that is absent)
  kGenerator,     // arg <name> generator <seed>   (Generator: a new one seeded with <seed>)
};
const char* arg_kind_name(ArgKind kind);

struct GoldenArg {
  std::string name;
  ArgKind kind = ArgKind::kNone;
  GoldenTensor tensor;                // kTensor
  std::vector<GoldenTensor> tensors;  // kTensors
  GoldenScalar scalar;                // kScalar
  int64_t int_value = 0;              // kInt
  std::vector<int64_t> ints;          // kInts
  double float_value = 0;             // kFloat
  std::vector<double> floats;         // kFloats
  bool bool_value = false;            // kBool
  std::string dtype;                  // kDType
  std::string memory_format;          // kMemoryFormat
  std::string str_value;              // kStr
  std::string layout;                 // kLayout: "strided"
  std::string device;                 // kDevice: "cpu"
  uint64_t seed = 0;                  // kGenerator
};

enum class ExpectKind {
  kTensor,  // a result tensor (a new one, or the mutated self / out of inplace / out= ops)
  kView,    // a view of `self`: same storage, with the given sizes/strides/offset
  kError,   // PyTorch raised; `error` is a substring of its message
  kList,    // a Tensor[] result: `elements`, each a kTensor or kView expectation
  kTuple,   // several returned tensors (`expect tuple <k>` and k "tensor ..." lines): each
            // is one of `elements`; the fields below repeat elements[0]
  kScalar,  // a Scalar result (`expect scalar int|double|bool <v>`): `scalar`
};

struct GoldenExpect {
  ExpectKind kind = ExpectKind::kTensor;
  std::string dtype;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;     // PyTorch's output strides
  int64_t offset = 0;               // kView only: the view's storage offset
  bool values_checked = true;       // false for "values any" (empty: contents unspecified)
  std::vector<double> values;       // logical row-major order, numel() of them
  std::vector<int64_t> values_int;  // exact values for integral/bool dtypes
  std::string error;                // kError
  GoldenScalar scalar;              // kScalar
  // kList: one per tensor of the result, in order; kTuple: one kTensor per return.
  std::vector<GoldenExpect> elements;

  int64_t numel() const;
  // The expectation of return i: elements[i] for a tuple, else (i == 0) this one.
  const GoldenExpect& result(std::size_t i) const {
    return kind == ExpectKind::kTuple ? elements.at(i) : *this;
  }
  // How many returned tensors are expected (0 for an error).
  std::size_t result_count() const {
    return kind == ExpectKind::kTuple ? elements.size() : kind == ExpectKind::kError ? 0 : 1;
  }
};

struct GoldenCase {
  std::string file;             // the file it came from (as given to the loader)
  int line = 0;                 // line of its "case" line
  std::string op;               // full op name, e.g. add.Tensor, add_.Tensor, add.out, relu, mm
  std::string id;               // unique with op within a file
  std::vector<GoldenArg> args;  // in schema order, every argument given
  // "tol <rtol> <atol>": a floating result may differ from PyTorch's by
  // atol + rtol * |expected| (NaN, inf and -inf still exact). Absent: bit for bit.
  bool has_tolerance = false;
  double rtol = 0;
  double atol = 0;
  // "seed <n>": the default generator is seeded with n before each call (the random
  // operators: PyTorch's result came after torch.manual_seed(n)).
  std::optional<uint64_t> seed;
  GoldenExpect expect;

  const GoldenArg* find_arg(const std::string& name) const;  // nullptr if absent
  const GoldenArg& arg(const std::string& name) const;       // throws if absent
  bool is_error() const { return expect.kind == ExpectKind::kError; }
  std::string where() const;  // "file:line: op id", for test messages
};

// The facts of a file's family, from its header's "family <fact> ..." lines (written by
// tools/golden/make_golden.py from the family's FamilyInfo in tools/golden/families/, the
// one place they are kept). A file either gives all five or none (declared() is false).
struct GoldenFamily {
  std::string name;              // family name <name>: the file is <name>.golden
  std::vector<std::string> ops;  // family ops <n> <op...>: every op of the file, each with a case
  bool factory = false;          // family factory 0|1: no tensor input besides `out`
  // family broadcast none|any|<arg>: no broadcasting case is required; some case's tensor
  // input (not `out`) differs in shape from the result; the named argument does.
  std::string broadcast = "none";
  bool size0 = true;  // family size0 0|1: a case of size 0 is required
  // family unsupported <n> <dtype...> because <why> (optional): dtypes PyTorch takes that
  // the library does not yet; the family need not cover them.
  std::vector<std::string> unsupported;
  std::string unsupported_why;
  // family source table|opinfo (optional, default table): opinfo files hold the cases
  // PyTorch's OpInfo samples make (tools/golden/opinfo.py); they cover what those samples
  // cover, so only their ops are checked, not the dtypes, sizes and layouts of a table.
  std::string source = "table";

  bool declared() const { return !name.empty(); }
};

struct GoldenFile {
  std::string path;
  std::string header;  // the first line ("# made by ... regenerate: ...")
  GoldenFamily family;
  std::vector<GoldenCase> cases;
};

// Parse a .golden file / text. A malformed input throws std::runtime_error whose message
// starts with "<name>:<line>: ".
GoldenFile load_golden_file(const std::string& path);
std::vector<GoldenCase> load_golden(const std::string& path);
GoldenFile parse_golden(const std::string& text, const std::string& name);

// Every data file in the data directory (add.golden, ...), sorted.
const std::vector<std::string>& golden_file_names();
// Where a data file is at test time: $TEST_SRCDIR/_main/tests/golden/data/<file> under
// Bazel (tests depending on //tests/golden:golden get the files as runfiles); without
// TEST_SRCDIR, $RUNFILES_DIR/_main/..., else tests/golden/data/<file> relative to the
// working directory (a run from the repository root).
std::string golden_data_path(const std::string& file);

}  // namespace golden

#endif  // STRUCTURED_OPS_TESTS_GOLDEN_GOLDEN_H_
