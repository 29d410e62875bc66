// Program::bind_symbols (lite/interpreter.h): the inputs of a run checked against the
// model's, and a dynamic model's symbols bound from their shapes (lite/FORMAT.md,
// "Binding at run time"). Every error names the input and what it must be; a dynamic
// model's also the dimension, the symbol, its range and how to serve the size.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "lite/interpreter.h"

namespace sops::lite {

namespace {

bool matches(const Tensor& t, const TensorDesc& d) {
  return t.defined() && t.scalar_type() == d.dtype &&
         std::equal(t.sizes().begin(), t.sizes().end(), d.sizes.begin(), d.sizes.end());
}

std::string describe(const Tensor& t) {
  return t.defined() ? TensorDesc::of(t).str() : "undefined";
}

}  // namespace

std::vector<int64_t> Program::bind_symbols(const std::vector<Tensor>& inputs) const {
  const Model& m = *model_;
  const auto& want = m.inputs;
  if (inputs.size() != want.size()) {
    std::ostringstream os;
    os << m.source << " takes " << want.size() << " input" << (want.size() == 1 ? "" : "s") << " (";
    for (std::size_t k = 0; k < want.size(); ++k) {
      os << (k ? ", " : "") << want[k].name << ": " << want[k].desc.str(m.symbols);
    }
    os << ") but " << inputs.size() << (inputs.size() == 1 ? " was" : " were") << " given";
    raise(Error(os.str()));
  }
  if (m.is_dynamic()) return bind_dynamic(inputs);
  for (std::size_t k = 0; k < want.size(); ++k) {
    if (!matches(inputs[k], want[k].desc)) {
      raise(Error(detail::str(m.source, ": input ", k, " ('", want[k].name, "') must be ",
                              want[k].desc.str(), " (the shape the model was exported for) but is ",
                              describe(inputs[k]))));
    }
  }
  return {};
}

std::vector<int64_t> Program::bind_dynamic(const std::vector<Tensor>& inputs) const {
  const Model& m = *model_;
  std::vector<int64_t> values(m.symbols.size(), 0);
  // Where each symbol was bound: (input, dimension); input SIZE_MAX while unbound.
  struct From {
    std::size_t input = SIZE_MAX;
    std::size_t dim = 0;
  };
  std::vector<From> from(m.symbols.size());
  for (std::size_t k = 0; k < m.inputs.size(); ++k) {
    const Input& in = m.inputs[k];
    const Tensor& t = inputs[k];
    if (!t.defined() || t.scalar_type() != in.desc.dtype ||
        t.dim() != static_cast<int64_t>(in.desc.sizes.size())) {
      raise(Error(detail::str(m.source, ": input ", k, " ('", in.name, "') must be ",
                              in.desc.str(m.symbols), " but is ", describe(t))));
    }
    for (std::size_t d = 0; d < in.desc.sizes.size(); ++d) {
      const int64_t want = in.desc.sizes[d];
      const int64_t seen = t.sizes()[d];
      if (want >= 0) {
        if (seen != want) {
          raise(Error(detail::str(m.source, ": input '", in.name, "' dimension ", d, " is ", seen,
                                  ", but the model takes exactly ", want, " there (input ", k,
                                  " must be ", in.desc.str(m.symbols), ")")));
        }
        continue;
      }
      const auto s = static_cast<std::size_t>(TensorDesc::symbol_at(want));
      const Symbol& sym = m.symbols[s];
      if (from[s].input == SIZE_MAX) {
        if (seen < sym.min || seen > sym.max) {
          raise(Error(detail::str(
              m.source, ": input '", in.name, "' dimension ", d, " is ", seen, ": symbol '",
              sym.name, "' must be in ", sym.range(), "; re-export with a ",
              seen < sym.min ? "smaller min=" : "larger max=", " to serve it")));
        }
        values[s] = seen;
        from[s] = {k, d};
      } else if (seen != values[s]) {
        raise(Error(detail::str(m.source, ": input '", in.name, "' dimension ", d, " is ", seen,
                                ", but symbol '", sym.name, "' is ", values[s], " (from input '",
                                m.inputs[from[s].input].name, "' dimension ", from[s].dim, ")")));
      }
    }
  }
  return values;
}

}  // namespace sops::lite
