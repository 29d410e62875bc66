#include "runtime/scalar.h"

#include <sstream>

namespace sops {

Scalar Scalar::operator-() const {
  switch (kind_) {
    case Kind::Bool:
      raise(Error("negation of a bool Scalar is not supported; use logical not instead"));
    case Kind::Integral:
      SOPS_CHECK(v_.i != std::numeric_limits<int64_t>::min(), "negating ", v_.i,
                 " overflows int64");
      return Scalar(-v_.i);
    case Kind::Floating:
      break;
  }
  return Scalar(-v_.d);
}

bool Scalar::equal(const Scalar& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::Bool:
      return v_.b == other.v_.b;
    case Kind::Integral:
      return v_.i == other.v_.i;
    case Kind::Floating:
      break;
  }
  return v_.d == other.v_.d;
}

std::string Scalar::str() const {
  switch (kind_) {
    case Kind::Bool:
      return v_.b ? "true" : "false";
    case Kind::Integral:
      return std::to_string(v_.i);
    case Kind::Floating:
      break;
  }
  std::ostringstream os;
  os.precision(17);
  os << v_.d;
  return os.str();
}

void Scalar::throw_overflow(ScalarType target) {
  raise(Error(
      detail::str("value cannot be converted to type ", to_string(target), " without overflow")));
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) { return os << s.str(); }

}  // namespace sops
