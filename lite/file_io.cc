#include "lite/file_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "runtime/error.h"

namespace sops::lite {

std::string read_file(const std::string& path, std::string_view noun,
                      FunctionRef<void*(std::size_t size)> allocate) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return detail::str("cannot open the ", noun, ": ", std::strerror(errno));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
  struct stat st{};
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    return detail::str("not a ", noun, " (not a regular file)");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void* buffer = allocate(size);
  if (size != 0 && std::fread(buffer, 1, size, f) != size) {
    return detail::str("cannot read the ", noun,
                       std::ferror(f) ? std::string(": ") + std::strerror(errno)
                                      : std::string(" (it shrank while read)"));
  }
  return {};
}

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
