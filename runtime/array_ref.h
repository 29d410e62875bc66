// ArrayRef<T>: a non-owning view of a contiguous array (pointer + length), the type
// of sizes and strides arguments (IntArrayRef). It never owns: binding one to a
// temporary initializer list outlives the list only within the full expression.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <type_traits>
#include <vector>

#include "runtime/error.h"

namespace sops {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = std::size_t;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T* data, std::size_t length) : data_(data), length_(length) {}
  constexpr ArrayRef(const T* begin, const T* end)
      : data_(begin), length_(static_cast<std::size_t>(end - begin)) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), length_(v.size()) {  // NOLINT
    static_assert(!std::is_same_v<T, bool>,
                  "std::vector<bool> packs bits and has no bool array to view; use a "
                  "std::array<bool, N> or a bool[] for an ArrayRef<bool>");
  }
  template <std::size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), length_(N) {}  // NOLINT
  template <std::size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), length_(N) {}  // NOLINT
  constexpr ArrayRef(const std::initializer_list<T>& list)       // NOLINT
      : data_(std::begin(list) == std::end(list) ? nullptr : std::begin(list)),
        length_(list.size()) {}

  constexpr const T* data() const { return data_; }
  constexpr std::size_t size() const { return length_; }
  constexpr bool empty() const { return length_ == 0; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + length_; }
  constexpr const T& operator[](std::size_t i) const { return data_[i]; }
  const T& at(std::size_t i) const {
    SOPS_CHECK(i < length_, "ArrayRef index ", i, " out of range for length ", length_);
    return data_[i];
  }
  const T& front() const { return at(0); }
  const T& back() const { return at(length_ - 1); }

  // Elements [start, start + n).
  ArrayRef slice(std::size_t start, std::size_t n) const {
    SOPS_CHECK(start + n <= length_, "ArrayRef slice [", start, ", ", start + n,
               ") out of range for length ", length_);
    return ArrayRef(data_ + start, n);
  }
  // Elements [start, size()).
  ArrayRef slice(std::size_t start) const { return slice(start, length_ - start); }

  bool equals(ArrayRef other) const {
    if (length_ != other.length_) return false;
    for (std::size_t i = 0; i < length_; ++i) {
      if (!(data_[i] == other.data_[i])) return false;
    }
    return true;
  }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

 private:
  const T* data_ = nullptr;
  std::size_t length_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.equals(b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !a.equals(b);
}
template <typename T, typename A>
bool operator==(ArrayRef<T> a, const std::vector<T, A>& b) {
  return a.equals(b);
}
template <typename T, typename A>
bool operator!=(ArrayRef<T> a, const std::vector<T, A>& b) {
  return !a.equals(b);
}

// Prints "[2, 3]", the way shapes appear in error messages.
template <typename T>
std::ostream& operator<<(std::ostream& os, ArrayRef<T> a) {
  os << '[';
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i != 0) os << ", ";
    os << a[i];
  }
  return os << ']';
}

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace sops
