#include "lite/npy.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <string_view>
#include <vector>

#include "lite/file_io.h"
#include "lite/tensor_copy.h"
#include "runtime/error.h"

namespace sops::lite {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// numpy's `descr` for each dtype we read and write ('<' little-endian, '|' one byte).
struct NpyType {
  std::string_view descr;
  ScalarType dtype;
};
constexpr NpyType kTypes[] = {
    {"<f4", ScalarType::Float}, {"<f8", ScalarType::Double}, {"<f2", ScalarType::Half},
    {"<i8", ScalarType::Long},  {"<i4", ScalarType::Int},    {"|i1", ScalarType::Char},
    {"|u1", ScalarType::Byte},  {"|b1", ScalarType::Bool},
};

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  raise(Error(detail::str(source, ": ", what)));
}

// The value of `'key': ` in numpy's header dict, up to the next top-level ',' or '}'.
std::string_view dict_value(const std::string& source, std::string_view header,
                            std::string_view key) {
  const std::string quoted = "'" + std::string(key) + "'";
  const std::size_t k = header.find(quoted);
  if (k == std::string_view::npos)
    fail(source, "the .npy header has no '" + std::string(key) + "'");
  std::size_t p = header.find(':', k + quoted.size());
  if (p == std::string_view::npos)
    fail(source, "the .npy header is malformed near '" + std::string(key) + "'");
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  std::size_t e = p;
  int depth = 0;
  while (e < header.size()) {
    const char c = header[e];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
    ++e;
  }
  if (e >= header.size() && depth != 0) fail(source, "the .npy header is malformed");
  while (e > p && header[e - 1] == ' ') --e;
  return header.substr(p, e - p);
}

ScalarType parse_descr(const std::string& source, std::string_view v) {
  if (v.size() < 3 || (v.front() != '\'' && v.front() != '"') || v.back() != v.front()) {
    fail(source, "the .npy header's descr " + std::string(v) + " is not a plain dtype string");
  }
  std::string d(v.substr(1, v.size() - 2));
  if (d.size() == 3 && d[0] == '=') d[0] = '<';  // native order: these machines are little-endian
  if (d.size() == 3 && (d[1] == 'b' || d[1] == 'u' || d[1] == 'i') && d[2] == '1') d[0] = '|';
  for (const NpyType& t : kTypes) {
    if (t.descr == d) return t.dtype;
  }
  if (!d.empty() && d[0] == '>') {
    fail(source, "the array is big-endian (" + d +
                     "); save it little-endian (a.astype(a.dtype.newbyteorder('<')))");
  }
  fail(source,
       "dtype " + d +
           " is not supported (float32, float64, float16, int64, int32, int8, uint8, bool)");
}

std::vector<int64_t> parse_shape(const std::string& source, std::string_view v) {
  if (v.size() < 2 || v.front() != '(' || v.back() != ')') {
    fail(source, "the .npy header's shape " + std::string(v) + " is not a tuple");
  }
  std::vector<int64_t> sizes;
  std::size_t p = 1;
  const std::size_t end = v.size() - 1;
  while (p < end) {
    while (p < end && (v[p] == ' ' || v[p] == ',')) ++p;
    if (p >= end) break;
    int64_t s = 0;
    std::size_t digits = 0;
    while (p < end && v[p] >= '0' && v[p] <= '9') {
      if (s > (int64_t{1} << 48))
        fail(source, "the .npy shape " + std::string(v) + " is too large");
      s = s * 10 + (v[p] - '0');
      ++p;
      ++digits;
    }
    if (digits == 0)
      fail(source, "the .npy header's shape " + std::string(v) + " is not a tuple of sizes");
    sizes.push_back(s);
    if (sizes.size() > 64) fail(source, "the .npy array has more than 64 dimensions");
  }
  return sizes;
}

void append_le(std::string& out, uint32_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xFF));
}

}  // namespace

Tensor parse_npy(const std::string& source, const std::string& bytes) {
  if (bytes.size() < 10 || std::string_view(bytes).substr(0, 6) != kMagic) {
    fail(source, "not a .npy file (it does not start with \\x93NUMPY)");
  }
  const auto major = static_cast<uint8_t>(bytes[6]);
  std::size_t header_len = 0;
  std::size_t header_start = 0;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(source, "the .npy file is truncated in its header");
    for (int k = 3; k >= 0; --k)
      header_len = (header_len << 8) | static_cast<uint8_t>(bytes[8 + k]);
    header_start = 12;
  } else {
    fail(source, ".npy format version " + std::to_string(major) + " is not supported (1, 2 or 3)");
  }
  if (header_len > bytes.size() - header_start)
    fail(source, "the .npy file is truncated in its header");
  const std::string_view header = std::string_view(bytes).substr(header_start, header_len);
  const ScalarType dtype = parse_descr(source, dict_value(source, header, "descr"));
  const std::string_view fortran = dict_value(source, header, "fortran_order");
  if (fortran == "True") {
    fail(source, "the array is in Fortran order; save np.ascontiguousarray(a) instead");
  } else if (fortran != "False") {
    fail(source, "the .npy header's fortran_order is " + std::string(fortran));
  }
  const std::string_view shape_text = dict_value(source, header, "shape");
  const std::vector<int64_t> sizes = parse_shape(source, shape_text);

  // The sizes' product with sizes of 0 counted as 1, as a model's tensor_desc
  // (FORMAT.md): the strides of an empty (0, 2**40, 2**40) array overflow as surely as
  // its elements would.
  uint64_t span = 1;
  uint64_t numel = 1;
  for (int64_t s : sizes) {
    const auto u = static_cast<uint64_t>(s);
    if (u > 1 && span > (uint64_t{1} << 50) / u) {
      fail(source, "the .npy array's shape " + std::string(shape_text) +
                       " is too large (more than 2**50 elements, sizes of 0 counted as 1)");
    }
    if (u > 1) span *= u;
    numel *= u;
  }
  const uint64_t nbytes = numel * element_size(dtype);
  const std::size_t data_start = header_start + header_len;
  const std::size_t have = bytes.size() - data_start;
  if (have != nbytes) {
    fail(source, "the .npy array needs " + std::to_string(nbytes) +
                     " bytes of data but the file has " + std::to_string(have) +
                     (have < nbytes ? " (truncated?)" : ""));
  }
  Tensor t = empty(sizes, TensorOptions(dtype));
  if (nbytes != 0) std::memcpy(t.data_ptr(), bytes.data() + data_start, nbytes);
  if (dtype == ScalarType::Bool) {
    const auto* p = static_cast<const uint8_t*>(t.data_ptr());
    for (uint64_t k = 0; k < numel; ++k) {
      if (p[k] > 1) fail(source, "the bool array holds a byte that is neither 0 nor 1");
    }
  }
  return t;
}

Tensor read_npy(const std::string& path) {
  std::string bytes;
  const std::string problem = read_file(path, ".npy file", [&](std::size_t size) -> void* {
    bytes.resize(size);
    return bytes.data();
  });
  if (!problem.empty()) fail(path, problem);
  return parse_npy(path, bytes);
}

namespace {

// The file up to the data: magic, version 1.0, header length and numpy.save's header.
std::string npy_preamble(const Tensor& t) {
  SOPS_CHECK(t.defined() && t.device().is_cpu(), "write_npy: needs a defined cpu tensor, got ", t);
  std::string_view descr;
  for (const NpyType& n : kTypes) {
    if (n.dtype == t.scalar_type()) descr = n.descr;
  }
  SOPS_CHECK(!descr.empty(), "write_npy: numpy has no dtype for ", t.scalar_type());
  std::ostringstream h;
  h << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (int64_t d = 0; d < t.dim(); ++d)
    h << t.size(d) << (t.dim() == 1 || d + 1 < t.dim() ? "," : "") << (d + 1 < t.dim() ? " " : "");
  h << "), }";
  std::string header = h.str();
  // numpy's padding: spaces and a final newline up to a multiple of 64, and 64 more
  // spaces when the header already ends there.
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header.push_back('\n');

  std::string out(kMagic);
  out.push_back('\x01');
  out.push_back('\x00');
  append_le(out, static_cast<uint32_t>(header.size()), 2);
  out += header;
  return out;
}

}  // namespace

std::string format_npy(const Tensor& t) {
  std::string out = npy_preamble(t);
  // The elements in row-major order, whatever the strides.
  const std::size_t start = out.size();
  out.resize(start + row_major_nbytes(t, "write_npy"));
  copy_row_major(t, out.data() + start);
  return out;
}

void write_npy(const std::string& path, const Tensor& t) {
  // One buffer from malloc, not a std::string: an output far larger than its storage
  // (an expanded view) that does not fit in memory is a clean error, with or without
  // a sanitizer's allocator (whose operator new ends the process instead of throwing).
  const std::string preamble = npy_preamble(t);
  const std::size_t nbytes = row_major_nbytes(t, "write_npy");
  if (nbytes > std::numeric_limits<std::size_t>::max() - preamble.size()) {
    raise(Error(detail::str("write_npy: ", nbytes, " bytes of data do not fit in memory")));
  }
  const std::size_t size = preamble.size() + nbytes;
  const std::unique_ptr<char, void (*)(void*)> buffer(static_cast<char*>(std::malloc(size)),
                                                      &std::free);
  if (buffer == nullptr) {
    raise(Error(detail::str("write_npy: out of memory: the file takes ", size, " bytes")));
  }
  std::memcpy(buffer.get(), preamble.data(), preamble.size());
  copy_row_major(t, buffer.get() + preamble.size());
  write_file(path, std::string_view(buffer.get(), size), "the .npy file");
}

}  // namespace sops::lite
