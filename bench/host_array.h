// An array in host memory as every side of a benchmark sees it (libtorch, ExecuTorch,
// ONNX Runtime, ours), and a reader of .npy files into one: header-only and free of
// every runtime, so a peer's child process (peer_child.cc) links that peer alone.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sops_bench {

// A NumPy dtype name ("float32", "int64", ...), its sizes and its C-order bytes.
struct HostArray {
  std::string dtype;
  std::vector<int64_t> sizes;
  std::vector<unsigned char> bytes;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

// Bytes per element of the dtypes the benchmarks exchange; 0 for any other.
inline std::size_t host_itemsize(const std::string& dtype) {
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "float64" || dtype == "int64") return 8;
  if (dtype == "bool" || dtype == "uint8" || dtype == "int8") return 1;
  return 0;
}

// Reads a little-endian, C-order .npy file (format 1.0-3.0) of float32, float64,
// int64, int32, int8, uint8 or bool. Throws std::runtime_error naming the file.
inline HostArray read_npy_host(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    throw std::runtime_error(path + ": not a .npy file");
  }
  uint32_t header_len = 0;
  unsigned char len_bytes[4] = {0, 0, 0, 0};
  const int len_size = magic[6] == 1 ? 2 : 4;
  if (!in.read(reinterpret_cast<char*>(len_bytes), len_size)) {
    throw std::runtime_error(path + ": truncated header");
  }
  for (int i = len_size - 1; i >= 0; --i) header_len = header_len << 8 | len_bytes[i];
  std::string header(header_len, '\0');
  if (!in.read(header.data(), header_len)) throw std::runtime_error(path + ": truncated header");
  const auto field = [&](const char* key) {
    const std::size_t at = header.find(key);
    if (at == std::string::npos) throw std::runtime_error(path + ": header lacks " + key);
    return at + std::strlen(key);
  };
  if (header.compare(field("'fortran_order':"), 6, " False") != 0) {
    throw std::runtime_error(path + ": Fortran order is not supported; save it C-ordered");
  }
  std::size_t d = header.find('\'', field("'descr':")) + 1;
  const std::string descr = header.substr(d, header.find('\'', d) - d);
  static const char* const kNames[][2] = {{"<f4", "float32"}, {"<f8", "float64"}, {"<i8", "int64"},
                                          {"<i4", "int32"},   {"|i1", "int8"},    {"|u1", "uint8"},
                                          {"|b1", "bool"}};
  HostArray a;
  for (const auto& n : kNames) {
    if (descr == n[0]) a.dtype = n[1];
  }
  if (a.dtype.empty()) throw std::runtime_error(path + ": unsupported dtype " + descr);
  std::size_t p = header.find('(', field("'shape':")) + 1;
  const std::size_t close = header.find(')', p);
  while (p < close) {
    const std::size_t next = std::min(header.find(',', p), close);
    const std::string item = header.substr(p, next - p);
    if (item.find_first_not_of(' ') != std::string::npos) a.sizes.push_back(std::stoll(item));
    p = next + 1;
  }
  a.bytes.resize(static_cast<std::size_t>(a.numel()) * host_itemsize(a.dtype));
  if (!in.read(reinterpret_cast<char*>(a.bytes.data()),
               static_cast<std::streamsize>(a.bytes.size()))) {
    throw std::runtime_error(path + ": holds fewer bytes than its shape says");
  }
  return a;
}

// The elements of a float32/float64/int64/int32/bool array, as doubles.
inline std::vector<double> host_values(const HostArray& a) {
  std::vector<double> out(static_cast<std::size_t>(a.numel()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const unsigned char* p = a.bytes.data() + i * host_itemsize(a.dtype);
    if (a.dtype == "float32") {
      float v;
      std::memcpy(&v, p, 4);
      out[i] = v;
    } else if (a.dtype == "float64") {
      std::memcpy(&out[i], p, 8);
    } else if (a.dtype == "int64") {
      int64_t v;
      std::memcpy(&v, p, 8);
      out[i] = static_cast<double>(v);
    } else if (a.dtype == "int32") {
      int32_t v;
      std::memcpy(&v, p, 4);
      out[i] = v;
    } else if (a.dtype == "bool" || a.dtype == "uint8") {
      out[i] = *p;
    } else {
      throw std::runtime_error("cannot compare a " + a.dtype + " output");
    }
  }
  return out;
}

}  // namespace sops_bench
