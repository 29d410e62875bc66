// NumPy .npy files in and out of sops tensors: what `lite_runtime run` reads its
// inputs from and writes its outputs to.
//
// Reads format versions 1.0, 2.0 and 3.0, C order, little-endian (or one-byte) dtypes:
// float32, float64, float16, int64, int32, int8, uint8, bool. Writes version 1.0 with
// numpy.save's header, byte for byte. Anything else (a Fortran-ordered
// or big-endian array, an object array, a truncated file) is a sops::Error naming the
// file and saying what to do.
#pragma once

#include <string>

#include "runtime/tensor.h"

namespace sops::lite {

// A contiguous CPU tensor holding the array in `path`.
Tensor read_npy(const std::string& path);
// The same, from a whole .npy file in memory; `source` names it in messages.
Tensor parse_npy(const std::string& source, const std::string& bytes);

// Writes `t` (any strides; cpu) to `path` as a .npy file.
void write_npy(const std::string& path, const Tensor& t);
// The .npy file of `t`, as bytes.
std::string format_npy(const Tensor& t);

}  // namespace sops::lite
