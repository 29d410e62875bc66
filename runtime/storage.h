// Storage: the shared, reference-counted buffer under one or more tensors (a tensor
// and its views share one). Copying a Storage shares the buffer. It knows its size
// in bytes, its device and the allocator it came from, so it can grow in place for
// resize_: every tensor sharing it sees the new memory.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/allocator.h"
#include "runtime/device.h"

namespace sops {

class StorageImpl {
 public:
  StorageImpl(DataPtr data, std::size_t nbytes, Allocator* allocator, bool resizable)
      : data_(std::move(data)), nbytes_(nbytes), allocator_(allocator), resizable_(resizable) {}
  // The data lies in the same heap block, right after this object (see
  // Storage::allocate): the block must hold kCpuAlignment - 1 + nbytes more bytes.
  struct TrailingData {};
  StorageImpl(TrailingData, std::size_t nbytes, Allocator* allocator, bool resizable);

  void* data() const { return data_.get(); }
  // The allocation itself: its context and deleter say which allocator made it.
  const DataPtr& data_ptr() const { return data_; }
  std::size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }
  Allocator* allocator() const { return allocator_; }
  bool resizable() const { return resizable_ && allocator_ != nullptr; }

  // Reallocates to new_nbytes, keeping the first min(old, new) bytes.
  void resize(std::size_t new_nbytes);

 private:
  DataPtr data_;
  std::size_t nbytes_;
  Allocator* allocator_;  // nullptr for memory that came from outside (from_blob)
  bool resizable_;
};

class Storage {
 public:
  // No buffer (the storage of an undefined tensor).
  Storage() = default;

  // nbytes bytes from `allocator`. Small buffers of the built-in cpu_allocator()
  // share one heap block with the storage's bookkeeping (one malloc instead of two);
  // they are still 64-byte aligned, report cpu_allocator() and grow through it.
  static Storage allocate(std::size_t nbytes, Allocator* allocator, bool resizable = true);
  // Wraps memory allocated elsewhere; it cannot grow.
  static Storage wrap(DataPtr data, std::size_t nbytes);

  bool defined() const { return impl_ != nullptr; }
  void* data() const { return impl_ ? impl_->data() : nullptr; }
  std::size_t nbytes() const { return impl_ ? impl_->nbytes() : 0; }
  Device device() const { return impl_ ? impl_->device() : Device(DeviceType::CPU); }
  bool resizable() const { return impl_ && impl_->resizable(); }
  Allocator* allocator() const { return impl_ ? impl_->allocator() : nullptr; }
  // Grows or shrinks the buffer (throws sops::Error when it is not resizable).
  void resize(std::size_t new_nbytes) const;

  bool is_alias_of(const Storage& other) const { return impl_ && impl_ == other.impl_; }
  long use_count() const { return impl_.use_count(); }
  StorageImpl* impl() const { return impl_.get(); }

 private:
  explicit Storage(std::shared_ptr<StorageImpl> impl) : impl_(std::move(impl)) {}

  std::shared_ptr<StorageImpl> impl_;
};

}  // namespace sops
