// Whole files in and out, with errors that name the file: the model and .npy files the
// command line reads, the .npy outputs and a trace's yaml it writes. C stdio, not
// iostreams: the lite runtime under --config=mobile is smaller without file streams.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "runtime/function_ref.h"

namespace sops::lite {

// Reads the regular file `path` whole into the buffer allocate(size) returns. Returns ""
// or what went wrong, for the caller to raise as its own error after "<path>: ":
// "cannot open the <noun>: <reason>", "not a <noun> (not a regular file)",
// "cannot read the <noun>: <reason>" (or " (it shrank while read)").
std::string read_file(const std::string& path, std::string_view noun,
                      FunctionRef<void*(std::size_t size)> allocate);

// Creates or truncates `path` and writes `bytes` to it. Raises sops::Error
// "<path>: cannot write <what>: <reason>" if it cannot.
void write_file(const std::string& path, std::string_view bytes, std::string_view what);

}  // namespace sops::lite
