// lite/model.h's types: descriptions, symbols and the model's helpers (the reader is
// model_reader.cc).
#include <algorithm>
#include <new>
#include <sstream>

#include "lite/model.h"

namespace sops::lite {

TensorDesc TensorDesc::of(const Tensor& t) {
  TensorDesc d;
  d.dtype = t.scalar_type();
  d.sizes.assign(t.sizes().begin(), t.sizes().end());
  return d;
}

bool TensorDesc::is_static() const {
  return std::all_of(sizes.begin(), sizes.end(), [](int64_t s) { return s >= 0; });
}

int64_t TensorDesc::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes) {
    if (s >= 0) n *= s;  // the reader checked that the exact sizes' product fits
  }
  return n;
}

std::string TensorDesc::str() const { return str({}); }

std::string TensorDesc::str(const std::vector<Symbol>& symbols) const {
  std::ostringstream os;
  os << dtype << " [";
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    os << (k ? ", " : "");
    if (sizes[k] >= 0) {
      os << sizes[k];
      continue;
    }
    const int64_t symbol = symbol_at(sizes[k]);
    if (symbol < static_cast<int64_t>(symbols.size())) {
      os << symbols[static_cast<std::size_t>(symbol)].name;
    } else {
      os << "s" << symbol;
    }
  }
  os << "]";
  return os.str();
}

std::string Symbol::range() const {
  return bounded() ? detail::str("[", min, ", ", max, "]") : detail::str("[", min, ", unbounded)");
}

TensorDesc Model::concrete(const TensorDesc& desc, const std::vector<int64_t>& values) const {
  TensorDesc d = desc;
  for (int64_t& s : d.sizes) {
    if (s < 0) s = values.at(static_cast<std::size_t>(TensorDesc::symbol_at(s)));
  }
  return d;
}

std::string_view Model::metadata_value(std::string_view key) const {
  for (const auto& [k, v] : metadata) {
    if (k == key) return v;
  }
  return {};
}

std::shared_ptr<std::byte> Model::allocate_bytes(std::size_t size) {
  constexpr std::align_val_t kAlign{kModelDataAlignment};
  auto* p = static_cast<std::byte*>(::operator new[](size == 0 ? 1 : size, kAlign));
  return std::shared_ptr<std::byte>(p, [](std::byte* q) { ::operator delete[](q, kAlign); });
}

bool dtype_from_code(uint8_t code, ScalarType* out) {
  switch (code) {  // PyTorch's ScalarType numbers (FORMAT.md)
    case 0:
      *out = ScalarType::Byte;
      return true;
    case 1:
      *out = ScalarType::Char;
      return true;
    case 3:
      *out = ScalarType::Int;
      return true;
    case 4:
      *out = ScalarType::Long;
      return true;
    case 5:
      *out = ScalarType::Half;
      return true;
    case 6:
      *out = ScalarType::Float;
      return true;
    case 7:
      *out = ScalarType::Double;
      return true;
    case 11:
      *out = ScalarType::Bool;
      return true;
    case 15:
      *out = ScalarType::BFloat16;
      return true;
    default:
      return false;
  }
}

void NodeWhere::describe(const void* data, std::string& out) {
  const auto& w = *static_cast<const NodeWhere*>(data);
  const Node& node = w.model.nodes[w.index];
  out += w.model.source + ": node '" + node.name + "' (" + w.model.operators[node.op] + "): ";
}

}  // namespace sops::lite
