// insertion_sort: sorting short ranges, such as the few dimensions of a tensor or the
// few dozen operators a model calls.
//
// Stable, in place, and one small loop per comparator: std::sort and std::stable_sort
// bring introsort, heap and merge code with them (2.6 KB for the two dimension sorts
// of the lite runtime under --config=mobile) that ranges this short never need.
// Quadratic: not for ranges of more than about a hundred elements.
#pragma once

#include <iterator>
#include <utility>

namespace sops {

// Sorts [first, last) by `less`, keeping the order of equal elements.
template <typename It, typename Less>
void insertion_sort(It first, It last, Less less) {
  if (first == last) return;
  for (It i = std::next(first); i != last; ++i) {
    auto value = std::move(*i);
    It j = i;
    for (; j != first && less(value, *std::prev(j)); --j) *j = std::move(*std::prev(j));
    *j = std::move(value);
  }
}

}  // namespace sops
