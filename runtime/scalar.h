// Scalar: a number that is not a tensor (alpha in add, the value in fill_): a bool,
// an int64 or a double, built implicitly from any C++ bool, integer or floating
// value. Its type category (bool < integral < floating) drives type promotion: a
// Scalar takes part in result_type as a "wrapped number" (see type_promotion.h).
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include "runtime/element_cast.h"
#include "runtime/error.h"
#include "runtime/half.h"
#include "runtime/scalar_type.h"

namespace sops {

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Integral, Floating };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool) { v_.b = v; }  // NOLINT: implicit by design
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                                         int> = 0>
  Scalar(T v) : kind_(Kind::Integral) {  // NOLINT
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      SOPS_CHECK(v <= static_cast<T>(std::numeric_limits<int64_t>::max()), "integer ", v,
                 " does not fit in a Scalar (int64)");
    }
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(Kind::Floating) {  // NOLINT
    v_.d = static_cast<double>(v);
  }
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}      // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool is_boolean() const { return kind_ == Kind::Bool; }
  bool is_integral(bool include_bool) const {
    return kind_ == Kind::Integral || (include_bool && kind_ == Kind::Bool);
  }
  bool is_floating_point() const { return kind_ == Kind::Floating; }
  // The dtype a tensor made from this scalar has: bool, int64 or float64.
  ScalarType type() const {
    switch (kind_) {
      case Kind::Bool:
        return ScalarType::Bool;
      case Kind::Integral:
        return ScalarType::Long;
      case Kind::Floating:
        break;
    }
    return ScalarType::Double;
  }

  // The value as a T. Throws sops::Error when it does not fit ("value cannot be
  // converted to type int8 without overflow"); floating targets accept inf and NaN.
  template <typename T>
  T to() const {
    switch (kind_) {
      case Kind::Bool:
        return convert<T>(v_.b);
      case Kind::Integral:
        check_fits<T>(v_.i);
        return convert<T>(v_.i);
      case Kind::Floating:
        break;
    }
    check_fits<T>(v_.d);
    return convert<T>(v_.d);
  }
  // The value as a T, with C++'s conversion rules and no range check.
  template <typename T>
  T to_unchecked() const {
    switch (kind_) {
      case Kind::Bool:
        return convert<T>(v_.b);
      case Kind::Integral:
        return convert<T>(v_.i);
      case Kind::Floating:
        break;
    }
    return convert<T>(v_.d);
  }

  double to_double() const { return to<double>(); }
  int64_t to_long() const { return to<int64_t>(); }
  bool to_bool() const { return to<bool>(); }

  // ATen spellings, so ported kernels read unchanged.
  double toDouble() const { return to_double(); }
  int64_t toLong() const { return to_long(); }
  bool toBool() const { return to_bool(); }
  bool isFloatingPoint() const { return is_floating_point(); }
  bool isIntegral(bool include_bool) const { return is_integral(include_bool); }
  bool isBoolean() const { return is_boolean(); }

  Scalar operator-() const;
  // Same kind and same value (a NaN equals nothing).
  bool equal(const Scalar& other) const;
  // "true", "3", "2.5".
  std::string str() const;

 private:
  template <typename T, typename V>
  static void check_fits(V v) {
    if constexpr (std::is_same_v<T, bool>) {
      return;
    } else if constexpr (std::is_integral_v<T>) {
      using L = std::numeric_limits<T>;
      bool fits;
      if constexpr (std::is_floating_point_v<V>) {
        // [min, max + 1), both ends exact powers of two (or 0) in double.
        fits =
            v >= static_cast<double>(L::min()) && v < static_cast<double>(L::max() / 2 + 1) * 2.0;
      } else {
        fits = (L::is_signed || v >= 0) &&
               (!L::is_signed
                    ? static_cast<uint64_t>(v) <= static_cast<uint64_t>(L::max())
                    : v >= static_cast<int64_t>(L::min()) && v <= static_cast<int64_t>(L::max()));
      }
      if (!fits) throw_overflow(scalar_type_of<T>);
    } else {
      // Floating target: only finite values beyond its range overflow.
      if constexpr (std::is_floating_point_v<V>) {
        const double d = static_cast<double>(v);
        const double max = static_cast<double>(max_of<T>());
        if (d == d && d != std::numeric_limits<double>::infinity() &&
            d != -std::numeric_limits<double>::infinity() && (d > max || d < -max)) {
          throw_overflow(scalar_type_of<T>);
        }
      }
    }
  }
  template <typename T>
  static float max_of() {
    if constexpr (std::is_same_v<T, Half>) {
      return 65504.0f;
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      return 3.38953139e38f;
    } else if constexpr (std::is_same_v<T, float>) {
      return std::numeric_limits<float>::max();
    } else {
      return std::numeric_limits<float>::infinity();  // double: never overflows
    }
  }
  [[noreturn]] static void throw_overflow(ScalarType target);

  Kind kind_;
  union {
    bool b;
    int64_t i;
    double d;
  } v_;
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

}  // namespace sops
