// Whole files out, with errors that name the file: what the command line writes (the
// .npy outputs, a trace's yaml). C stdio, not iostreams: the lite runtime under
// --config=mobile is smaller without file streams.
#pragma once

#include <string>
#include <string_view>

namespace sops::lite {

// Creates or truncates `path` and writes `bytes` to it. Raises sops::Error
// "<path>: cannot write <what>: <reason>" if it cannot.
void write_file(const std::string& path, std::string_view bytes, std::string_view what);

}  // namespace sops::lite
