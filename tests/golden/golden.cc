#include "tests/golden/golden.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace golden {
namespace {

struct DTypeInfo {
  const char* name;
  bool floating;
  int64_t min;  // integral range (bool: 0..1)
  int64_t max;
};

const DTypeInfo kDTypes[] = {
    {"float32", true, 0, 0},
    {"float64", true, 0, 0},
    {"float16", true, 0, 0},
    {"bfloat16", true, 0, 0},
    {"int64", false, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()},
    {"int32", false, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
    {"int16", false, std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()},
    {"int8", false, -128, 127},
    {"uint8", false, 0, 255},
    {"bool", false, 0, 1},
};

const DTypeInfo* find_dtype(const std::string& name) {
  for (const auto& d : kDTypes) {
    if (name == d.name) return &d;
  }
  return nullptr;
}

const char* const kMemoryFormats[] = {"contiguous", "channels_last", "channels_last_3d",
                                      "preserve"};

// One line split into whitespace-separated tokens, read front to back. Every failure
// throws with "<name>:<line>: ".
class Line {
 public:
  Line(const std::string& name, int number, const std::string& text)
      : name_(name), number_(number), text_(text) {
    std::istringstream in(text);
    std::string tok;
    while (in >> tok) tokens_.push_back(tok);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(name_ + ":" + std::to_string(number_) + ": " + message + " (line: \"" +
                             excerpt() + "\")");
  }

  bool done() const { return pos_ >= tokens_.size(); }
  size_t position() const { return pos_; }

  std::string next(const char* what) {
    if (done()) fail(std::string("line ends where ") + what + " was expected");
    return tokens_[pos_++];
  }

  void keyword(const char* kw) {
    std::string tok = next(kw);
    if (tok != kw) fail("expected '" + std::string(kw) + "' but found '" + tok + "'");
  }

  int64_t integer(const char* what) {
    std::string tok = next(what);
    int64_t v = 0;
    if (!parse_int(tok, &v)) fail(std::string("bad integer for ") + what + ": '" + tok + "'");
    return v;
  }

  int64_t count(const char* what) {
    int64_t n = integer(what);
    if (n < 0) fail(std::string("negative count for ") + what);
    if (static_cast<size_t>(n) > tokens_.size() - pos_ && what != std::string("tensors"))
      fail(std::string("count ") + std::to_string(n) + " for " + what + " but only " +
           std::to_string(tokens_.size() - pos_) + " tokens follow");
    return n;
  }

  double real(const char* what) {
    std::string tok = next(what);
    double v = 0;
    if (!parse_double(tok, &v)) fail(std::string("bad number for ") + what + ": '" + tok + "'");
    return v;
  }

  std::vector<int64_t> ints(const char* what) {
    int64_t n = count(what);
    std::vector<int64_t> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(integer(what));
    return out;
  }

  // The rest of the line after the current token, verbatim (trailing blanks dropped).
  std::string rest_verbatim(const std::string& after_prefix) const {
    size_t at = text_.find(after_prefix);
    if (at == std::string::npos) return "";
    std::string r = text_.substr(at + after_prefix.size());
    size_t b = r.find_first_not_of(" \t");
    size_t e = r.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : r.substr(b, e - b + 1);
  }

  void finish() const {
    if (!done()) fail("unexpected trailing token '" + tokens_[pos_] + "'");
  }

  static bool parse_int(const std::string& tok, int64_t* out) {
    if (tok.empty()) return false;
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(tok.c_str(), &end, 10);
    if (errno == ERANGE || end != tok.c_str() + tok.size()) return false;
    *out = static_cast<int64_t>(v);
    return true;
  }

  static bool parse_double(const std::string& tok, double* out) {
    if (tok.empty()) return false;
    if (tok == "nan" || tok == "-nan") {
      *out = tok[0] == '-' ? -std::numeric_limits<double>::quiet_NaN()
                           : std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    if (tok == "inf") {
      *out = std::numeric_limits<double>::infinity();
      return true;
    }
    if (tok == "-inf") {
      *out = -std::numeric_limits<double>::infinity();
      return true;
    }
    // Plain decimal numbers only (strtod alone would also take hex floats and "infinity").
    for (char c : tok) {
      if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
        return false;
    }
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(tok.c_str(), &end);
    // ERANGE on underflow still gives the correctly rounded subnormal/zero: accept it,
    // but not overflow to infinity.
    if (end != tok.c_str() + tok.size()) return false;
    if (errno == ERANGE && (v == std::numeric_limits<double>::infinity() ||
                            v == -std::numeric_limits<double>::infinity()))
      return false;
    *out = v;
    return true;
  }

 private:
  std::string excerpt() const { return text_.size() > 120 ? text_.substr(0, 117) + "..." : text_; }

  std::string name_;
  int number_;
  std::string text_;
  std::vector<std::string> tokens_;
  size_t pos_ = 0;
};

int64_t product(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

std::string dtype_token(Line& line) {
  std::string d = line.next("a dtype");
  if (!find_dtype(d)) line.fail("unknown dtype '" + d + "'");
  return d;
}

// Reads n values of `dtype` into doubles (+ exact ints for integral dtypes).
void read_values(Line& line, const std::string& dtype, int64_t n, std::vector<double>* out,
                 std::vector<int64_t>* out_int) {
  const DTypeInfo* info = find_dtype(dtype);
  out->reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (info->floating) {
      out->push_back(line.real("a value"));
    } else {
      int64_t v = line.integer("a value");
      if (v < info->min || v > info->max)
        line.fail("value " + std::to_string(v) + " out of range for " + dtype);
      out_int->push_back(v);
      out->push_back(static_cast<double>(v));
    }
  }
}

void read_geometry(Line& line, std::vector<int64_t>* sizes, std::vector<int64_t>* strides) {
  line.keyword("sizes");
  *sizes = line.ints("sizes");
  for (int64_t s : *sizes) {
    if (s < 0) line.fail("negative size " + std::to_string(s));
  }
  line.keyword("strides");
  *strides = line.ints("strides");
  if (strides->size() != sizes->size())
    line.fail(std::to_string(strides->size()) + " strides for " + std::to_string(sizes->size()) +
              " sizes");
  for (int64_t s : *strides) {
    if (s < 0) line.fail("negative stride " + std::to_string(s));
  }
}

// "<dtype> sizes <n> .. strides <n> .. offset <k> storage <m> v.."; the line is
// positioned after the word "tensor".
GoldenTensor read_tensor(Line& line) {
  GoldenTensor t;
  t.dtype = dtype_token(line);
  read_geometry(line, &t.sizes, &t.strides);
  line.keyword("offset");
  t.offset = line.integer("offset");
  if (t.offset < 0) line.fail("negative offset");
  line.keyword("storage");
  int64_t m = line.count("storage");
  read_values(line, t.dtype, m, &t.storage, &t.storage_int);
  line.finish();
  if (t.storage_extent() > m)
    line.fail("storage of " + std::to_string(m) + " elements does not cover the tensor (needs " +
              std::to_string(t.storage_extent()) + ")");
  return t;
}

GoldenExpect read_expect_tensor(Line& line, ExpectKind kind);

// "int <v>", "double <v>" or "bool 0|1": a Scalar argument or result.
GoldenScalar read_scalar(Line& line) {
  GoldenScalar scalar;
  const std::string sk = line.next("int, double or bool");
  if (sk == "int") {
    scalar.kind = ScalarKind::kInt;
    scalar.i = line.integer("an int scalar");
  } else if (sk == "double") {
    scalar.kind = ScalarKind::kDouble;
    scalar.d = line.real("a double scalar");
  } else if (sk == "bool") {
    scalar.kind = ScalarKind::kBool;
    const int64_t v = line.integer("a bool scalar");
    if (v != 0 && v != 1) line.fail("bool scalar must be 0 or 1");
    scalar.b = v == 1;
  } else {
    line.fail("scalar kind must be int, double or bool, not '" + sk + "'");
  }
  return scalar;
}

// The rest of an expectation whose kind word has been read.
GoldenExpect read_expect_kind(Line& line, const std::string& kind) {
  GoldenExpect e;
  if (kind == "list") {  // a Tensor[] result: "tensor"/"view" lines follow
    e.kind = ExpectKind::kList;
    const int64_t k = line.integer("list length");
    if (k < 0) line.fail("negative list length");
    e.elements.resize(static_cast<size_t>(k));
    line.finish();
    return e;
  }
  if (kind == "tuple") {  // several returns: "tensor" lines follow
    e.kind = ExpectKind::kTuple;
    const int64_t k = line.integer("a tuple size");
    if (k < 1) line.fail("expect tuple of no tensors");
    e.elements.resize(static_cast<size_t>(k));
    line.finish();
    return e;
  }
  if (kind == "scalar") {
    e.kind = ExpectKind::kScalar;
    e.scalar = read_scalar(line);
    line.finish();
    return e;
  }
  if (kind == "error") {
    e.kind = ExpectKind::kError;
    e.error = line.rest_verbatim("error");
    if (e.error.empty()) line.fail("expect error without a message substring");
    return e;
  }
  if (kind == "tensor") return read_expect_tensor(line, ExpectKind::kTensor);
  if (kind != "view") {
    line.fail("expect must be 'tensor', 'view', 'list', 'tuple', 'scalar' or 'error', not '" +
              kind + "'");
  }
  return read_expect_tensor(line, ExpectKind::kView);
}

GoldenExpect read_expect(Line& line) {
  return read_expect_kind(line, line.next("tensor, view, list, tuple, scalar or error"));
}

GoldenExpect read_expect_tensor(Line& line, ExpectKind kind) {
  GoldenExpect e;
  e.kind = kind;
  e.dtype = dtype_token(line);
  read_geometry(line, &e.sizes, &e.strides);
  if (e.kind == ExpectKind::kView) {
    line.keyword("offset");
    e.offset = line.integer("offset");
    if (e.offset < 0) line.fail("negative offset");
  }
  line.keyword("values");
  std::string n_tok = line.next("a value count or 'any'");
  if (n_tok == "any") {
    e.values_checked = false;
  } else {
    int64_t n = 0;
    if (!Line::parse_int(n_tok, &n) || n < 0) line.fail("bad value count '" + n_tok + "'");
    if (n != product(e.sizes))
      line.fail(std::to_string(n) + " values for sizes of " + std::to_string(product(e.sizes)) +
                " elements");
    read_values(line, e.dtype, n, &e.values, &e.values_int);
  }
  line.finish();
  return e;
}

GoldenArg read_arg(Line& line) {
  GoldenArg a;
  a.name = line.next("an argument name");
  std::string kind = line.next("an argument kind");
  if (kind == "tensor") {
    a.kind = ArgKind::kTensor;
    a.tensor = read_tensor(line);
    return a;
  }
  if (kind == "tensors") {
    a.kind = ArgKind::kTensors;
    int64_t k = line.count("tensors");
    a.tensors.resize(static_cast<size_t>(k));  // filled by the following lines
  } else if (kind == "scalar") {
    a.kind = ArgKind::kScalar;
    a.scalar = read_scalar(line);
  } else if (kind == "int") {
    a.kind = ArgKind::kInt;
    a.int_value = line.integer("an int");
  } else if (kind == "ints") {
    a.kind = ArgKind::kInts;
    a.ints = line.ints("ints");
  } else if (kind == "float") {
    a.kind = ArgKind::kFloat;
    a.float_value = line.real("a float");
  } else if (kind == "floats") {
    a.kind = ArgKind::kFloats;
    int64_t n = line.count("floats");
    for (int64_t i = 0; i < n; ++i) a.floats.push_back(line.real("a float"));
  } else if (kind == "bool") {
    a.kind = ArgKind::kBool;
    int64_t v = line.integer("a bool");
    if (v != 0 && v != 1) line.fail("bool must be 0 or 1");
    a.bool_value = v == 1;
  } else if (kind == "dtype") {
    a.kind = ArgKind::kDType;
    a.dtype = dtype_token(line);
  } else if (kind == "memory_format") {
    a.kind = ArgKind::kMemoryFormat;
    a.memory_format = line.next("a memory format");
    bool known = false;
    for (const char* m : kMemoryFormats) known = known || a.memory_format == m;
    if (!known) line.fail("unknown memory format '" + a.memory_format + "'");
  } else if (kind == "str") {
    a.kind = ArgKind::kStr;
    a.str_value = line.next("a string");
  } else if (kind == "layout") {
    a.kind = ArgKind::kLayout;
    a.layout = line.next("a layout");
    if (a.layout != "strided") line.fail("unknown layout '" + a.layout + "' (only 'strided')");
  } else if (kind == "device") {
    a.kind = ArgKind::kDevice;
    a.device = line.next("a device");
    if (a.device != "cpu") line.fail("unknown device '" + a.device + "' (only 'cpu')");
  } else if (kind == "none") {
    a.kind = ArgKind::kNone;
  } else if (kind == "generator") {
    a.kind = ArgKind::kGenerator;
    const int64_t seed = line.integer("a generator seed");
    if (seed < 0) line.fail("negative generator seed");
    a.seed = static_cast<uint64_t>(seed);
  } else {
    line.fail("unknown argument kind '" + kind + "'");
  }
  line.finish();
  return a;
}

// The facts a header's "family" lines give, in the order make_golden.py writes them; the
// last two, unsupported and source, are optional.
const char* const kFamilyFacts[] = {"name", "ops", "factory", "broadcast", "size0"};
const char* const kAllFamilyFacts[] = {"name",  "ops",         "factory", "broadcast",
                                       "size0", "unsupported", "source"};

bool read_flag(Line& line, const char* what) {
  int64_t v = line.integer(what);
  if (v != 0 && v != 1) line.fail(std::string(what) + " must be 0 or 1");
  return v == 1;
}

// One "family <fact> ..." line of the header into `family`; `seen` collects the facts read.
void read_family_fact(Line& line, GoldenFamily& family, std::set<std::string>& seen) {
  const std::string fact =
      line.next("a family fact (name, ops, factory, broadcast, size0, unsupported or source)");
  if (std::find(std::begin(kAllFamilyFacts), std::end(kAllFamilyFacts), fact) ==
      std::end(kAllFamilyFacts))
    line.fail("unknown family fact '" + fact +
              "' (name, ops, factory, broadcast, size0, unsupported or source)");
  if (!seen.insert(fact).second) line.fail("second 'family " + fact + "' line");
  if (fact == "name") {
    family.name = line.next("a family name");
  } else if (fact == "ops") {
    const int64_t n = line.count("ops");
    if (n == 0) line.fail("a family has at least one op");
    for (int64_t i = 0; i < n; ++i) {
      std::string op = line.next("an op name");
      if (std::find(family.ops.begin(), family.ops.end(), op) != family.ops.end())
        line.fail("op " + op + " twice in the family's ops");
      family.ops.push_back(std::move(op));
    }
  } else if (fact == "factory") {
    family.factory = read_flag(line, "factory");
  } else if (fact == "broadcast") {
    family.broadcast = line.next("none, any or an argument name");
  } else if (fact == "size0") {
    family.size0 = read_flag(line, "size0");
  } else if (fact == "unsupported") {
    const int64_t n = line.count("unsupported");
    for (int64_t i = 0; i < n; ++i) family.unsupported.push_back(line.next("a dtype name"));
    if (line.done() || line.next("because") != "because")
      line.fail("family unsupported: the dtypes are followed by `because <why>`");
    family.unsupported_why = line.rest_verbatim(" because ");
    if (family.unsupported_why.empty())
      line.fail("family unsupported needs a reason after `because`");
    while (!line.done()) line.next("the reason");
  } else {
    family.source = line.next("table or opinfo");
    if (family.source != "table" && family.source != "opinfo")
      line.fail("family source must be table or opinfo, not '" + family.source + "'");
  }
  line.finish();
}

bool is_comment_or_blank(const std::string& text) {
  size_t b = text.find_first_not_of(" \t\r");
  return b == std::string::npos || text[b] == '#';
}

}  // namespace

bool is_known_dtype(const std::string& dtype) { return find_dtype(dtype) != nullptr; }

bool is_floating_dtype(const std::string& dtype) {
  const DTypeInfo* d = find_dtype(dtype);
  return d != nullptr && d->floating;
}

const std::vector<std::string>& supported_dtypes() {
  static const std::vector<std::string> v = {"float32", "float64", "int64", "int32",
                                             "int8",    "uint8",   "bool"};
  return v;
}

int64_t GoldenTensor::numel() const { return product(sizes); }

bool GoldenTensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (sizes[i] == 0) return true;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

int64_t GoldenTensor::storage_extent() const {
  if (numel() == 0) return offset;
  int64_t last = offset;
  for (size_t i = 0; i < sizes.size(); ++i) last += (sizes[i] - 1) * strides[i];
  return last + 1;
}

namespace {
template <typename T>
std::vector<T> gather(const GoldenTensor& t, const std::vector<T>& storage) {
  std::vector<T> out;
  int64_t n = t.numel();
  if (n == 0) return out;
  out.reserve(static_cast<size_t>(n));
  std::vector<int64_t> index(t.sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t at = t.offset;
    for (size_t d = 0; d < index.size(); ++d) at += index[d] * t.strides[d];
    out.push_back(storage.at(static_cast<size_t>(at)));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < t.sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}
}  // namespace

std::vector<double> GoldenTensor::logical_values() const { return gather(*this, storage); }

std::vector<int64_t> GoldenTensor::logical_values_int() const {
  if (is_floating_dtype(dtype))
    throw std::logic_error("logical_values_int() of a " + dtype + " tensor");
  return gather(*this, storage_int);
}

double GoldenScalar::to_double() const {
  switch (kind) {
    case ScalarKind::kInt:
      return static_cast<double>(i);
    case ScalarKind::kDouble:
      return d;
    case ScalarKind::kBool:
      return b ? 1.0 : 0.0;
  }
  return 0;
}

const char* arg_kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::kTensor:
      return "tensor";
    case ArgKind::kTensors:
      return "tensors";
    case ArgKind::kScalar:
      return "scalar";
    case ArgKind::kInt:
      return "int";
    case ArgKind::kInts:
      return "ints";
    case ArgKind::kFloat:
      return "float";
    case ArgKind::kFloats:
      return "floats";
    case ArgKind::kBool:
      return "bool";
    case ArgKind::kDType:
      return "dtype";
    case ArgKind::kMemoryFormat:
      return "memory_format";
    case ArgKind::kStr:
      return "str";
    case ArgKind::kLayout:
      return "layout";
    case ArgKind::kDevice:
      return "device";
    case ArgKind::kNone:
      return "none";
    case ArgKind::kGenerator:
      return "generator";
  }
  return "?";
}

int64_t GoldenExpect::numel() const { return product(sizes); }

const GoldenArg* GoldenCase::find_arg(const std::string& name) const {
  for (const auto& a : args) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const GoldenArg& GoldenCase::arg(const std::string& name) const {
  const GoldenArg* a = find_arg(name);
  if (a == nullptr) throw std::out_of_range(where() + ": no argument '" + name + "'");
  return *a;
}

std::string GoldenCase::where() const {
  return file + ":" + std::to_string(line) + ": " + op + " " + id;
}

GoldenFile parse_golden(const std::string& text, const std::string& name) {
  GoldenFile file;
  file.path = name;
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  bool in_case = false;
  bool have_expect = false;
  size_t pending_tensors = 0;   // "tensor" lines still owed to the last "tensors" arg
  size_t pending_elements = 0;  // "tensor"/"view" lines still owed to an "expect list"
  size_t pending_results = 0;   // "tensor" lines still owed to an "expect tuple"
  std::set<std::pair<std::string, std::string>> seen;
  std::set<std::string> family_facts;  // the "family" lines of the header
  GoldenCase current;
  // A header with family lines gives all of them (checked at its end: the first case).
  auto check_family = [&](int at) {
    if (family_facts.empty()) return;
    std::string missing;
    for (const char* fact : kFamilyFacts) {
      if (!family_facts.count(fact)) missing += std::string(missing.empty() ? "" : ", ") + fact;
    }
    if (!missing.empty())
      throw std::runtime_error(name + ":" + std::to_string(at) +
                               ": the header's family lines lack 'family " + missing + "'");
  };

  while (std::getline(in, raw)) {
    ++number;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (number == 1 && raw.rfind("#", 0) == 0) file.header = raw;
    if (is_comment_or_blank(raw)) continue;
    Line line(name, number, raw);
    std::string word = line.next("a keyword");

    if (pending_elements > 0) {
      if (word != "tensor" && word != "view")
        line.fail("expected a 'tensor' or 'view' line of the expected list (" +
                  std::to_string(pending_elements) + " more)");
      auto& list = current.expect.elements;
      list[list.size() - pending_elements] = read_expect_kind(line, word);
      --pending_elements;
      continue;
    }

    if (pending_tensors > 0) {
      if (word != "tensor" && word != "none")
        line.fail("expected a 'tensor' or 'none' line of argument '" + current.args.back().name +
                  "' (" + std::to_string(pending_tensors) + " more)");
      auto& list = current.args.back().tensors;
      if (word == "none") {
        line.finish();
        list[list.size() - pending_tensors].absent = true;
      } else {
        list[list.size() - pending_tensors] = read_tensor(line);
      }
      --pending_tensors;
      continue;
    }

    if (pending_results > 0) {
      if (word != "tensor")
        line.fail("expected a 'tensor' line of the expected tuple (" +
                  std::to_string(pending_results) + " more)");
      GoldenExpect& e = current.expect;
      GoldenExpect& element = e.elements[e.elements.size() - pending_results];
      element = read_expect_tensor(line, ExpectKind::kTensor);
      if (--pending_results == 0) {
        // The top-level fields repeat the first return's (for readers of one result).
        const GoldenExpect& first = e.elements[0];
        e.dtype = first.dtype;
        e.sizes = first.sizes;
        e.strides = first.strides;
        e.values_checked = first.values_checked;
        e.values = first.values;
        e.values_int = first.values_int;
      }
      continue;
    }

    if (word == "family") {
      if (in_case || !file.cases.empty())
        line.fail("'family' after the first case (the family lines belong to the header)");
      read_family_fact(line, file.family, family_facts);
      continue;
    }

    if (word == "case") {
      if (file.cases.empty() && !in_case) check_family(number);
      if (in_case)
        line.fail("'case' inside case " + current.op + " " + current.id + " (missing 'end')");
      current = GoldenCase();
      current.file = name;
      current.line = number;
      current.op = line.next("an op name");
      current.id = line.next("a case id");
      line.finish();
      if (!seen.insert({current.op, current.id}).second)
        line.fail("duplicate case " + current.op + " " + current.id);
      in_case = true;
      have_expect = false;
    } else if (!in_case) {
      line.fail("'" + word + "' outside a case (expected 'case')");
    } else if (word == "arg") {
      if (have_expect) line.fail("'arg' after 'expect'");
      GoldenArg a = read_arg(line);
      if (current.find_arg(a.name)) line.fail("duplicate argument '" + a.name + "'");
      pending_tensors = a.kind == ArgKind::kTensors ? a.tensors.size() : 0;
      current.args.push_back(std::move(a));
    } else if (word == "tol") {
      if (have_expect) line.fail("'tol' after 'expect'");
      if (current.has_tolerance) line.fail("second 'tol' in case " + current.op + " " + current.id);
      current.rtol = line.real("rtol");
      current.atol = line.real("atol");
      line.finish();
      if (!(current.rtol >= 0 && current.atol >= 0 && std::isfinite(current.rtol) &&
            std::isfinite(current.atol)))
        line.fail("tol needs finite, non-negative rtol and atol");
      current.has_tolerance = true;
    } else if (word == "seed") {
      if (have_expect) line.fail("'seed' after 'expect'");
      if (current.seed.has_value())
        line.fail("second 'seed' in case " + current.op + " " + current.id);
      const int64_t seed = line.integer("a seed");
      line.finish();
      if (seed < 0) line.fail("negative seed");
      current.seed = static_cast<uint64_t>(seed);
    } else if (word == "expect") {
      if (have_expect) line.fail("second 'expect' in case " + current.op + " " + current.id);
      current.expect = read_expect(line);
      const size_t owed = current.expect.elements.size();
      pending_elements = current.expect.kind == ExpectKind::kList ? owed : 0;
      pending_results = current.expect.kind == ExpectKind::kTuple ? owed : 0;
      have_expect = true;
    } else if (word == "end") {
      line.finish();
      if (!have_expect)
        line.fail("case " + current.op + " " + current.id + " has no 'expect' line");
      if (current.has_tolerance &&
          (current.expect.kind == ExpectKind::kError || !is_floating_dtype(current.expect.dtype)))
        line.fail("'tol' in case " + current.op + " " + current.id +
                  ", which does not expect a floating result");
      file.cases.push_back(std::move(current));
      current = GoldenCase();
      in_case = false;
    } else {
      line.fail("unknown keyword '" + word + "'");
    }
  }
  if (file.cases.empty() && !in_case) check_family(number);
  if (pending_tensors > 0 || pending_elements > 0 || pending_results > 0 || in_case) {
    throw std::runtime_error(name + ":" + std::to_string(number) + ": end of file inside case " +
                             current.op + " " + current.id + " (started at line " +
                             std::to_string(current.line) + ")");
  }
  return file;
}

GoldenFile load_golden_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ":0: cannot open golden file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_golden(text.str(), path);
}

std::vector<GoldenCase> load_golden(const std::string& path) {
  return load_golden_file(path).cases;
}

const std::vector<std::string>& golden_file_names() {
  // Every data file there is (one place: the directory), sorted.
  static const std::vector<std::string> v = [] {
    namespace fs = std::filesystem;
    std::vector<std::string> names;
    const fs::path dir = fs::path(golden_data_path("add.golden")).parent_path();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.path().extension() == ".golden") names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }();
  return v;
}

std::string golden_data_path(const std::string& file) {
  const std::string rel = "tests/golden/data/" + file;
  for (const char* var : {"TEST_SRCDIR", "RUNFILES_DIR"}) {
    const char* dir = std::getenv(var);
    if (dir != nullptr && *dir != '\0') return std::string(dir) + "/_main/" + rel;
  }
  return rel;
}

}  // namespace golden
