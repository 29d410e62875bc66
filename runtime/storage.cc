#include "runtime/storage.h"

#include <algorithm>

#include "runtime/error.h"

namespace sops {

void StorageImpl::resize(std::size_t new_nbytes) {
  SOPS_CHECK(resizable(), "trying to resize storage that is not resizable (memory from "
             "outside sops cannot grow)");
  if (new_nbytes == nbytes_) return;
  DataPtr fresh = allocator_->allocate(new_nbytes);
  const std::size_t keep = std::min(nbytes_, new_nbytes);
  if (keep != 0 && data_.get() != nullptr && fresh.get() != nullptr) {
    allocator_->copy_data(fresh.get(), data_.get(), keep);
  }
  data_ = std::move(fresh);
  nbytes_ = new_nbytes;
}

Storage Storage::allocate(std::size_t nbytes, Allocator* allocator, bool resizable) {
  SOPS_INTERNAL_ASSERT(allocator != nullptr);
  return Storage(
      std::make_shared<StorageImpl>(allocator->allocate(nbytes), nbytes, allocator, resizable));
}

Storage Storage::wrap(DataPtr data, std::size_t nbytes) {
  return Storage(std::make_shared<StorageImpl>(std::move(data), nbytes, nullptr, false));
}

void Storage::resize(std::size_t new_nbytes) const {
  SOPS_CHECK(impl_ != nullptr, "cannot resize an undefined storage");
  impl_->resize(new_nbytes);
}

}  // namespace sops
