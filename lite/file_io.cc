#include "lite/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/error.h"

namespace sops::lite {

void write_file(const std::string& path, std::string_view bytes, std::string_view what) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f != nullptr;
  if (ok) ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int error = ok ? 0 : errno;
  if (f != nullptr && std::fclose(f) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    raise(Error(detail::str(path, ": cannot write ", what, ": ", std::strerror(error))));
  }
}

}  // namespace sops::lite
