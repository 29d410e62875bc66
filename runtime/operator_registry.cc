#include "runtime/operator_registry.h"

#include <algorithm>
#include <utility>

#include "runtime/error.h"

namespace sops {

// ---------------------------------------------------------------------------------
// Schemas

namespace {

using Tag = Value::Tag;
using Kind = TypeSchema::Kind;

bool accepts_element(Kind kind, Tag tag) {
  switch (kind) {
    case Kind::Tensor:
      return tag == Tag::Tensor;
    case Kind::Int:
      return tag == Tag::Int;
    case Kind::Float:
      return tag == Tag::Double || tag == Tag::Int;
    case Kind::Bool:
      return tag == Tag::Bool;
    case Kind::Str:
      return tag == Tag::String;
    case Kind::Scalar:
      return tag == Tag::Scalar || tag == Tag::Int || tag == Tag::Double || tag == Tag::Bool;
    case Kind::ScalarType:
      return tag == Tag::ScalarType || tag == Tag::Int;
    case Kind::Layout:
      return tag == Tag::Layout || tag == Tag::Int;
    case Kind::Device:
      return tag == Tag::Device || tag == Tag::String;
    case Kind::MemoryFormat:
      return tag == Tag::MemoryFormat || tag == Tag::Int;
    case Kind::Generator:
      return tag == Tag::Generator;
    case Kind::Other:
      return true;
  }
  return false;
}

bool accepts_list(const TypeSchema& t, Tag tag) {
  switch (t.kind) {
    case Kind::Int:
      return tag == Tag::IntList || (t.size > 0 && tag == Tag::Int);
    case Kind::Float:
      return tag == Tag::DoubleList || tag == Tag::IntList;
    case Kind::Bool:
      return tag == Tag::BoolList;
    case Kind::Tensor:
      return tag == Tag::TensorList || (t.elem_optional && tag == Tag::OptionalTensorList);
    case Kind::Scalar:
      return tag == Tag::ScalarList;
    case Kind::Other:
      return true;
    default:
      return false;
  }
}

template <typename T>
std::vector<T> list_of(const void* data, std::size_t n) {
  const T* p = static_cast<const T*>(data);
  return std::vector<T>(p, p + n);
}

// "Tensor" with alias "a!" -> "Tensor(a!)"; "Tensor?" -> "Tensor(a!)?".
std::string annotated(const TypeSchema& type, std::string_view alias) {
  std::string text(type.text);
  if (alias.empty()) return text;
  const auto suffix = text.find_first_of("?[");
  text.insert(suffix == std::string::npos ? text.size() : suffix, "(" + std::string(alias) + ")");
  return text;
}

}  // namespace

bool TypeSchema::accepts(const Value& v) const {
  const Tag tag = v.tag();
  if (tag == Tag::None) return optional || kind == Kind::Other;
  return list ? accepts_list(*this, tag) : accepts_element(kind, tag);
}

Value DefaultValue::to_value() const {
  switch (kind) {
    case Kind::None:
      return Value();
    case Kind::Int:
      return Value(i);
    case Kind::Double:
      return Value(d);
    case Kind::Bool:
      return Value(i != 0);
    case Kind::String:
      return Value(string());
    case Kind::IntList:
      return Value(list_of<int64_t>(data, n));
    case Kind::DoubleList:
      return Value(list_of<double>(data, n));
    case Kind::BoolList:
      return Value(list_of<bool>(data, n));
    case Kind::ScalarType:
      return Value(static_cast<ScalarType>(i));
    case Kind::Layout:
      return Value(static_cast<Layout>(i));
    case Kind::Device:
      return Value(Device(static_cast<DeviceType>(i), device_index));
    case Kind::MemoryFormat:
      return Value(static_cast<MemoryFormat>(i));
  }
  return Value();
}

std::string FunctionSchema::str() const {
  std::string out(full_name);
  out += '(';
  bool kwargs = false;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const ArgumentSchema& a = arguments[i];
    if (i != 0) out += ", ";
    if (a.kwarg_only && !kwargs) {
      out += "*, ";
      kwargs = true;
    }
    out += annotated(a.type, a.alias) + " " + std::string(a.name);
    if (a.has_default) out += "=" + std::string(a.default_text);
  }
  out += ") -> ";
  const bool parenthesize = returns.size() != 1 || !returns[0].name.empty();
  if (parenthesize) out += '(';
  for (std::size_t i = 0; i < returns.size(); ++i) {
    if (i != 0) out += ", ";
    out += annotated(returns[i].type, returns[i].alias);
    if (!returns[i].name.empty()) out += " " + std::string(returns[i].name);
  }
  if (parenthesize) out += ')';
  return out;
}

int64_t FunctionSchema::argument_index(std::string_view arg_name) const {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].name == arg_name) return static_cast<int64_t>(i);
  }
  return -1;
}

// ---------------------------------------------------------------------------------
// Calls

namespace {

std::string argument_names(const FunctionSchema& s) {
  std::string names;
  for (const ArgumentSchema& a : s.arguments) {
    if (!names.empty()) names += ", ";
    names += a.name;
  }
  return names;
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

void RegisteredOperator::check_arguments(Stack& stack) const {
  const FunctionSchema& s = schema();
  const std::size_t expected = s.arguments.size();
  const std::size_t given = stack.size();
  if (SOPS_UNLIKELY(given > expected)) {
    raise(Error(detail::str("expected at most ", plural(expected, "argument"), " (",
                            argument_names(s), ") but got ", given, "; schema: ", s.str()),
                {}, std::string(s.full_name)));
  }
  for (std::size_t i = given; i < expected; ++i) {
    const ArgumentSchema& a = s.arguments[i];
    if (SOPS_UNLIKELY(!a.has_default)) {
      raise(Error(detail::str("missing argument '", a.name, "' (position ", i + 1, "): expected ",
                              plural(expected, "argument"), " (", argument_names(s), ") but got ",
                              given, "; schema: ", s.str()),
                  std::string(a.name), std::string(s.full_name)));
    }
    stack.push_back(a.default_value.to_value());
  }
  for (std::size_t i = 0; i < expected; ++i) {
    const ArgumentSchema& a = s.arguments[i];
    if (SOPS_UNLIKELY(!a.type.accepts(stack[i]))) {
      raise(Error(detail::str("expected a value of type ", a.type.text, " (position ", i + 1,
                              ") but got ", stack[i].type_name()),
                  std::string(a.name), std::string(s.full_name)));
    }
  }
}

void RegisteredOperator::call(Stack& stack) const {
  check_arguments(stack);
  const OperatorScope scope(kernel_.schema->full_name);
  kernel_.fn(stack);
}

// ---------------------------------------------------------------------------------
// The registry

OperatorRegistry& OperatorRegistry::global() {
  static OperatorRegistry registry;
  return registry;
}

namespace {

[[noreturn]] void throw_duplicate(std::string_view op, const KernelLibrary& first,
                                  const KernelLibrary& second) {
  raise(Error(duplicate_operator_message(op, first, second,
                                         "is its register_<library>_kernels() called twice, or "
                                         "is the operator declared twice?"),
              {}, std::string(op)));
}

}  // namespace

void OperatorRegistry::register_kernels(const KernelLibrary& library,
                                        std::initializer_list<ArrayRef<Kernel>> tables) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t rows = 0;
  for (const ArrayRef<Kernel>& table : tables) rows += table.size();
  libraries_.push_back(std::make_unique<KernelLibrary>(library));
  const KernelLibrary* owner = libraries_.back().get();
  operators_.reserve(operators_.size() + rows);
  // Insert every row; on a clash, take this library's rows out again: all or nothing.
  std::vector<std::string_view> inserted;
  inserted.reserve(rows);
  auto undo = [&] {
    for (const std::string_view name : inserted) operators_.erase(name);
    libraries_.pop_back();
  };
  for (const ArrayRef<Kernel>& table : tables) {
    for (const Kernel& k : table) {
      if (k.schema == nullptr || k.fn == nullptr) {
        undo();
        raise(Error(detail::str("register_kernels(", library.name,
                                "): a row of its table has no schema or no kernel")));
      }
      const auto [it, fresh] =
          operators_.emplace(k.schema->full_name, RegisteredOperator(k, owner));
      if (!fresh) {
        const KernelLibrary first = *it->second.library_;  // a copy: undo() may free it
        undo();
        throw_duplicate(k.schema->full_name, first, library);
      }
      inserted.push_back(k.schema->full_name);
    }
  }
}

const RegisteredOperator* OperatorRegistry::find(std::string_view full_name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = operators_.find(full_name);
  return it == operators_.end() ? nullptr : &it->second;
}

const RegisteredOperator& OperatorRegistry::find_or_throw(std::string_view full_name) const {
  if (const RegisteredOperator* op = find(full_name)) return *op;
  // Close names: the other overloads of the same name.
  const std::string_view base = full_name.substr(0, full_name.find('.'));
  std::string close;
  for (const std::string_view name : operator_names()) {
    if (name.substr(0, name.find('.')) != base) continue;
    close += close.empty() ? "" : ", ";
    close += name;
  }
  std::string message = "unknown operator '" + std::string(full_name) + "'";
  message += close.empty()
                 ? ": no library registered it (names are `namespace::name.overload`, e.g. "
                   "\"aten::add.Tensor\"; was the library's register_<library>_kernels() called?)"
                 : "; registered overloads: " + close;
  raise(Error(std::move(message)));
}

std::vector<std::string_view> OperatorRegistry::operator_names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string_view> names;
  names.reserve(operators_.size());
  for (const auto& entry : operators_) names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  return names;
}

std::size_t OperatorRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return operators_.size();
}

}  // namespace sops
