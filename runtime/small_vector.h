// SmallVector<T, N>: a vector of trivially copyable T that keeps up to N elements
// inline (no heap allocation) and spills to the heap beyond. DimVector holds sizes
// and strides, so a tensor of up to 5 dimensions allocates nothing for its shape.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>

#include "runtime/array_ref.h"

namespace sops {

template <typename T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable types");
  static_assert(N > 0, "SmallVector needs an inline capacity");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(std::size_t n, T value = T()) { resize(n, value); }
  SmallVector(ArrayRef<T> a) { assign(a); }  // NOLINT: implicit like std::vector from a list
  SmallVector(std::initializer_list<T> list) { assign(ArrayRef<T>(list)); }
  SmallVector(const SmallVector& other) { assign(other); }
  SmallVector(SmallVector&& other) noexcept { steal(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other);
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      heap_.reset();
      steal(other);
    }
    return *this;
  }
  SmallVector& operator=(ArrayRef<T> a) {
    assign(a);
    return *this;
  }

  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  operator ArrayRef<T>() const { return ArrayRef<T>(data(), size_); }  // NOLINT
  ArrayRef<T> ref() const { return ArrayRef<T>(data(), size_); }

  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    std::size_t cap = std::max(n, capacity_ * 2);
    auto fresh = std::make_unique<T[]>(cap);
    if (size_ != 0) std::memcpy(fresh.get(), data(), size_ * sizeof(T));
    heap_ = std::move(fresh);
    capacity_ = cap;
  }
  void resize(std::size_t n, T value = T()) {
    reserve(n);
    T* d = data();
    for (std::size_t i = size_; i < n; ++i) d[i] = value;
    size_ = n;
  }
  // As resize, leaving the elements from the old size on uninitialized: for a
  // caller that writes all of them next (no fill loop, no memset call).
  void resize_for_overwrite(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity_) reserve(size_ + 1);
    data()[size_++] = value;
  }
  void pop_back() { --size_; }
  // Inserts value before position i.
  void insert(std::size_t i, T value) {
    push_back(value);
    T* d = data();
    for (std::size_t j = size_ - 1; j > i; --j) d[j] = d[j - 1];
    d[i] = value;
  }
  void erase(std::size_t i) {
    T* d = data();
    for (std::size_t j = i; j + 1 < size_; ++j) d[j] = d[j + 1];
    --size_;
  }
  void assign(ArrayRef<T> a) {
    if (a.data() == data()) return;
    size_ = 0;
    reserve(a.size());
    if (!a.empty()) std::memmove(data(), a.data(), a.size() * sizeof(T));
    size_ = a.size();
  }

 private:
  void steal(SmallVector& other) {
    if (other.heap_) {
      heap_ = std::move(other.heap_);
      capacity_ = other.capacity_;
    } else {
      capacity_ = N;
      if (other.size_ != 0) std::memcpy(inline_, other.inline_, other.size_ * sizeof(T));
    }
    size_ = other.size_;
    other.size_ = 0;
    other.capacity_ = N;
  }

  std::size_t size_ = 0;
  std::size_t capacity_ = N;
  std::unique_ptr<T[]> heap_;
  T inline_[N];
};

template <typename T, std::size_t N>
bool operator==(const SmallVector<T, N>& a, const SmallVector<T, N>& b) {
  return a.ref().equals(b.ref());
}
template <typename T, std::size_t N>
bool operator!=(const SmallVector<T, N>& a, const SmallVector<T, N>& b) {
  return !(a == b);
}

template <typename T, std::size_t N>
std::ostream& operator<<(std::ostream& os, const SmallVector<T, N>& v) {
  return os << v.ref();
}

inline constexpr std::size_t kDimVectorInlineSize = 5;
using DimVector = SmallVector<int64_t, kDimVectorInlineSize>;

}  // namespace sops
