// irange(end) and irange(begin, end): integer ranges for range-based for loops,
// `for (const auto i : sops::irange(t.dim()))`. An end below begin is an empty range.
#pragma once

#include <iterator>
#include <type_traits>

namespace sops {

template <typename I>
class IntegerRange {
  static_assert(std::is_integral_v<I>, "irange needs an integer type");

 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = I;
    using difference_type = std::make_signed_t<I>;
    using pointer = const I*;
    using reference = I;

    constexpr explicit iterator(I value) : value_(value) {}
    constexpr I operator*() const { return value_; }
    constexpr iterator& operator++() {
      ++value_;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator before = *this;
      ++value_;
      return before;
    }
    constexpr bool operator==(const iterator& other) const { return value_ == other.value_; }
    constexpr bool operator!=(const iterator& other) const { return value_ != other.value_; }

   private:
    I value_;
  };

  constexpr IntegerRange(I begin, I end) : begin_(begin), end_(end < begin ? begin : end) {}
  constexpr iterator begin() const { return iterator(begin_); }
  constexpr iterator end() const { return iterator(end_); }
  constexpr bool empty() const { return begin_ == end_; }

 private:
  I begin_;
  I end_;
};

template <typename B, typename E,
          typename = std::enable_if_t<std::is_integral_v<B> && std::is_integral_v<E>>>
constexpr IntegerRange<std::common_type_t<B, E>> irange(B begin, E end) {
  using I = std::common_type_t<B, E>;
  return IntegerRange<I>(static_cast<I>(begin), static_cast<I>(end));
}

template <typename E, typename = std::enable_if_t<std::is_integral_v<E>>>
constexpr IntegerRange<E> irange(E end) {
  return IntegerRange<E>(E(0), end);
}

}  // namespace sops
