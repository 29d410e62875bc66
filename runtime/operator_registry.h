// The operator registry: boxed kernels by name, for interpreters.
//
// Separate from the unboxed dispatcher (runtime/dispatcher.h): a lite runtime links
// this registry, the values (runtime/value.h) and its kernels, not the dispatcher.
//
// Every entry is keyed `namespace::name.overload` ("aten::add.Tensor"; "aten::relu"
// for a default overload) and carries its schema already structured: the generator
// writes each FunctionSchema as constant data, so registering parses nothing and
// allocates one hash-map node per operator. A library registers its whole table with
// one named, generated call (static initializers get dropped by linkers):
//
//   #include "my_ops/UnboxingFunctions.h"
//   my::ops::register_my_ops_kernels();                  // into OperatorRegistry::global()
//
//   sops::Stack stack{a, b, 1};                          // arguments, in schema order
//   sops::OperatorRegistry::global().find("aten::add.Tensor")->call(stack);
//   sops::Tensor sum = std::move(stack[0]).to_tensor();  // the returns, in order
//
// `call` checks the values: too many, too few (trailing arguments with defaults may be
// left out and are filled in), or of the wrong type are errors naming the operator
// and the argument. Registering an operator a second time, from the same or another
// library, is an error naming the operator, both libraries and the yaml each came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/array_ref.h"
#include "runtime/device.h"
#include "runtime/kernel_library.h"
#include "runtime/native_types.h"
#include "runtime/scalar_type.h"
#include "runtime/value.h"

namespace sops {

// A schema type, structured: `int[2]?` is {Int, list, size 2, optional};
// `Tensor?[]` is {Tensor, elem_optional, list}.
struct TypeSchema {
  enum class Kind : uint8_t {
    Tensor,
    Int,
    Float,
    Bool,
    Str,
    Scalar,
    ScalarType,
    Layout,
    Device,
    MemoryFormat,
    Generator,
    Other,  // a type values cannot hold (Stream, Storage, Dimname, ...)
  };
  // (Ordered so that the flags share one word: generated tables hold one per argument.)
  Kind kind = Kind::Other;
  bool elem_optional = false;  // the elements of a list are optional (`Tensor?[]`)
  bool list = false;
  bool optional = false;
  int32_t size = 0;       // a list's fixed length (`int[2]`), 0 if any
  std::string_view text;  // as the schema spells it ("SymInt[1]?")

  // Whether a value can be passed for this type (an int for a float or Scalar, ...).
  bool accepts(const Value& v) const;
};

// A default value, as constant data (a Value is made from it only when a caller leaves
// the argument out). 32 bytes: generated tables hold one per argument.
struct DefaultValue {
  enum class Kind : uint8_t {
    None,
    Int,
    Double,
    Bool,
    String,
    IntList,
    DoubleList,
    BoolList,
    ScalarType,
    Layout,
    Device,
    MemoryFormat,
  };
  Kind kind = Kind::None;
  int16_t device_index = -1;  // Device
  union {
    int64_t i = 0;  // Int, Bool; the enum value of ScalarType / Layout / MemoryFormat / DeviceType
    double d;       // Double
  };
  const void* data = nullptr;  // String: its characters; lists: const int64_t* / double* / bool*
  std::size_t n = 0;           // String: its length; lists: their length

  constexpr DefaultValue() = default;

  static constexpr DefaultValue none() { return {}; }
  static constexpr DefaultValue of_int(int64_t v) { return {Kind::Int, v}; }
  static constexpr DefaultValue of_double(double v) { return DefaultValue(v); }
  static constexpr DefaultValue of_bool(bool v) { return {Kind::Bool, v ? 1 : 0}; }
  static constexpr DefaultValue of_string(std::string_view v) {
    return {Kind::String, 0, v.data(), v.size()};
  }
  static constexpr DefaultValue of_ints(const int64_t* v, std::size_t n) {
    return {Kind::IntList, 0, v, n};
  }
  static constexpr DefaultValue of_doubles(const double* v, std::size_t n) {
    return {Kind::DoubleList, 0, v, n};
  }
  static constexpr DefaultValue of_bools(const bool* v, std::size_t n) {
    return {Kind::BoolList, 0, v, n};
  }
  static constexpr DefaultValue of(ScalarType v) {
    return {Kind::ScalarType, static_cast<int64_t>(v)};
  }
  static constexpr DefaultValue of(Layout v) { return {Kind::Layout, static_cast<int64_t>(v)}; }
  static constexpr DefaultValue of(MemoryFormat v) {
    return {Kind::MemoryFormat, static_cast<int64_t>(v)};
  }
  static constexpr DefaultValue of(Device v) {
    DefaultValue r{Kind::Device, static_cast<int64_t>(v.type())};
    r.device_index = v.index();
    return r;
  }

  // The String default's text.
  std::string_view string() const { return {static_cast<const char*>(data), n}; }
  Value to_value() const;

 private:
  constexpr DefaultValue(Kind k, int64_t v, const void* list = nullptr, std::size_t size = 0)
      : kind(k), i(v), data(list), n(size) {}
  constexpr explicit DefaultValue(double v) : kind(Kind::Double), d(v) {}
};

struct ArgumentSchema {
  std::string_view name;
  TypeSchema type;
  std::string_view alias;  // the alias annotation without parentheses ("a!"), or empty
  DefaultValue default_value;
  std::string_view default_text;  // as the schema spells it ("1", "None", "[0,1]")
  bool kwarg_only = false;
  bool is_out = false;
  bool has_default = false;

  bool is_write() const { return !alias.empty() && alias.back() == '!'; }
};

struct ReturnSchema {
  std::string_view name;  // empty unless the schema names it
  TypeSchema type;
  std::string_view alias;
};

struct FunctionSchema {
  std::string_view full_name;  // "aten::add.Tensor"
  std::string_view ns;         // "aten"
  std::string_view name;       // "add"
  std::string_view overload;   // "Tensor"; empty for the default overload
  ArrayRef<ArgumentSchema> arguments;
  ArrayRef<ReturnSchema> returns;
  // PyTorch's `generated` tag: `autogen:` wrote this variant and its kernel (an out=
  // variant's runs the functional kernel, then copies into `out`), unless a backend gave
  // its own. An interpreter that could call either may prefer the functional variant.
  bool generated = false;

  // The schema as text: "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor".
  std::string str() const;
  // The index of the argument `name`, or -1.
  int64_t argument_index(std::string_view arg_name) const;
};

// A boxed kernel: pops its operator's arguments off the stack and pushes its returns.
// It trusts the stack: OperatorRegistry's entries check it first.
using BoxedKernelFunction = void (*)(Stack& stack);

// One row of a library's generated table.
struct Kernel {
  const FunctionSchema* schema;
  BoxedKernelFunction fn;
};

class OperatorRegistry;

// A registered operator: its schema, its kernel and the library that registered it.
class RegisteredOperator {
 public:
  const FunctionSchema& schema() const { return *kernel_.schema; }
  std::string_view name() const { return kernel_.schema->full_name; }
  const KernelLibrary& library() const { return *library_; }
  BoxedKernelFunction kernel() const { return kernel_.fn; }

  // Calls the kernel on `stack`, which holds this call's arguments and nothing else:
  // missing trailing arguments that have defaults are filled in, every value is checked
  // against its argument's type, and errors name the operator (and the argument).
  // Afterwards the stack holds the returns.
  void call(Stack& stack) const;
  // Only the checks and default filling of call(), without calling the kernel.
  void check_arguments(Stack& stack) const;

 private:
  friend class OperatorRegistry;
  RegisteredOperator(Kernel kernel, const KernelLibrary* library)
      : kernel_(kernel), library_(library) {}

  Kernel kernel_;
  const KernelLibrary* library_;
};

class OperatorRegistry {
 public:
  OperatorRegistry() = default;
  OperatorRegistry(const OperatorRegistry&) = delete;
  OperatorRegistry& operator=(const OperatorRegistry&) = delete;

  // The process-wide registry that generated `register_<lib>_kernels()` fill by default.
  static OperatorRegistry& global();

  // Registers every kernel of `kernels` for `library` (whose strings, like the tables',
  // must outlive the registry: the generator writes them as constants). All or
  // nothing: an operator already registered (or twice in the table) throws sops::Error
  // naming it and both libraries, and registers none of the table.
  void register_kernels(const KernelLibrary& library, ArrayRef<Kernel> kernels) {
    register_kernels(library, {kernels});
  }
  // The same for a library whose table is in several parts (one per generated shard).
  void register_kernels(const KernelLibrary& library,
                        std::initializer_list<ArrayRef<Kernel>> tables);

  // The operator "namespace::name.overload" ("aten::relu" for a default overload), or
  // nullptr. `find_or_throw` throws a sops::Error naming it (and close names) instead.
  const RegisteredOperator* find(std::string_view full_name) const;
  const RegisteredOperator& find_or_throw(std::string_view full_name) const;
  // Every registered operator's name, sorted.
  std::vector<std::string_view> operator_names() const;
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  // Nodes are stable: RegisteredOperator pointers stay valid while the registry lives.
  std::unordered_map<std::string_view, RegisteredOperator> operators_;
  std::vector<std::unique_ptr<KernelLibrary>> libraries_;
};

}  // namespace sops
