// Reads lite/FORMAT.md. Every read goes through Cursor, which checks the bytes left
// first; every count is checked against the bytes left before anything is reserved
// (each counted item takes at least one byte), and reserves are capped, so a damaged
// count fails cleanly and memory stays proportional to the file's size. Version 2's
// additions (symbols, symbolic input sizes, SymInt[] arguments, `sym::` operators,
// value_info) are read only from version-2 files: a version-1 file reads as it always did.
#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <new>
#include <sstream>
#include <vector>

#include "lite/file_io.h"
#include "lite/model.h"
#include "lite/model_reader_v2.h"
#include "lite/reader_cursor.h"
#include "lite/sym_ops.h"

namespace sops::lite {

namespace reader {

void Cursor::fail_with(std::size_t offset, bool damaged,
                       std::initializer_list<sops::detail::MessagePart> parts) const {
  std::string message = sops::detail::str(model_.source, ": byte ", offset, ": ") +
                        sops::detail::join(parts.begin(), parts.size());
  if (damaged) {
    message +=
        " (the file is damaged, or was not written by lite/python/export_model.py; see "
        "lite/FORMAT.md)";
  }
  raise(ModelError(std::move(message)));
}

}  // namespace reader

namespace {

using reader::capped;
using reader::check_sym_node;
using reader::check_symbols_bound;
using reader::Cursor;
using reader::read_symbols;
using reader::read_value_info;
using reader::SlotTable;

// A tensor_desc; `num_symbols` > 0 lets a size < 0 name one of that many symbols (a
// version-2 input), whose size is not known until a run binds it.
TensorDesc read_desc(Cursor& in, const char* what, std::size_t num_symbols = 0) {
  TensorDesc d;
  const std::size_t at = in.pos();
  const uint8_t code = in.u8(what);
  if (!dtype_from_code(code, &d.dtype)) in.fail_at(at, what, ": unknown dtype code ", int(code));
  const std::size_t ndim_at = in.pos();
  const uint8_t ndim = in.u8(what);
  if (ndim > kMaxTensorDims) {
    in.fail_at(ndim_at, what, " has ", int(ndim), " dimensions (at most ", kMaxTensorDims, ")");
  }
  in.need(std::size_t{ndim} * 8, what);
  // The sizes' product, sizes of 0 counted as 1, times the element size fits in 63 bits
  // (FORMAT.md): what strides and byte counts are computed in.
  const uint64_t limit =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / element_size(d.dtype);
  uint64_t span = 1;
  d.sizes.reserve(ndim);
  for (int k = 0; k < ndim; ++k) {
    const std::size_t size_at = in.pos();
    const int64_t s = in.i64(what);
    if (s < 0 && num_symbols == 0) in.fail_at(size_at, what, " has a negative size ", s);
    if (s < 0) {
      const int64_t symbol = TensorDesc::symbol_at(s);
      if (static_cast<uint64_t>(symbol) >= num_symbols) {
        in.fail_at(size_at, what, "'s size ", s, " names symbol ", symbol, " but the model has ",
                   num_symbols);
      }
      d.sizes.push_back(s);
      continue;
    }
    if (s > 1 && span > limit / static_cast<uint64_t>(s)) {
      in.fail_at(size_at, what, " is too large: its size overflows");
    }
    if (s > 1) span *= static_cast<uint64_t>(s);
    d.sizes.push_back(s);
  }
  return d;
}

Arg read_arg(Cursor& in, SlotTable& slots, uint32_t version) {
  Arg a;
  const std::size_t at = in.pos();
  const uint8_t tag = in.u8("an argument's tag");
  const Arg::Tag last = version >= 2 ? Arg::Tag::SymIntList : Arg::Tag::MemoryFormat;
  if (tag > static_cast<uint8_t>(last)) in.fail_at(at, "unknown argument tag ", int(tag));
  a.tag = static_cast<Arg::Tag>(tag);
  switch (a.tag) {
    case Arg::Tag::None:
      break;
    case Arg::Tag::Slot:
      a.slot = slots.use("a tensor argument");
      break;
    case Arg::Tag::Int:
      a.i = in.i64("an int argument");
      break;
    case Arg::Tag::Double:
      a.d = in.f64("a float argument");
      break;
    case Arg::Tag::Bool: {
      const uint8_t b = in.u8("a bool argument");
      if (b > 1) in.fail_at(at + 1, "a bool argument is ", int(b), " (0 or 1)");
      a.i = b;
      break;
    }
    case Arg::Tag::String:
      a.s = in.str("a str argument");
      break;
    case Arg::Tag::IntList: {
      const uint32_t n = in.count("an int[] argument", 8);
      a.ints.reserve(n);
      for (uint32_t k = 0; k < n; ++k) a.ints.push_back(in.i64("an int[] element"));
      break;
    }
    case Arg::Tag::DoubleList: {
      const uint32_t n = in.count("a float[] argument", 8);
      a.doubles.reserve(n);
      for (uint32_t k = 0; k < n; ++k) a.doubles.push_back(in.f64("a float[] element"));
      break;
    }
    case Arg::Tag::BoolList: {
      const uint32_t n = in.count("a bool[] argument", 1);
      a.ints.reserve(capped(n));
      for (uint32_t k = 0; k < n; ++k) {
        const uint8_t b = in.u8("a bool[] element");
        if (b > 1) in.fail_at(in.pos() - 1, "a bool[] element is ", int(b), " (0 or 1)");
        a.ints.push_back(b);
      }
      break;
    }
    case Arg::Tag::TensorList: {
      const uint32_t n = in.count("a Tensor[] argument", 4);
      a.slots.reserve(n);
      for (uint32_t k = 0; k < n; ++k) a.slots.push_back(slots.use("a Tensor[] element"));
      break;
    }
    case Arg::Tag::OptionalTensorList: {
      const uint32_t n = in.count("a Tensor?[] argument", 4);
      a.slots.reserve(n);
      for (uint32_t k = 0; k < n; ++k) {
        const std::size_t el = in.pos();
        const uint32_t s = in.u32("a Tensor?[] element");
        if (s != kNoSlot) slots.check_use(el, s, "a Tensor?[] element");
        a.slots.push_back(s);
      }
      break;
    }
    case Arg::Tag::ScalarType: {
      const uint8_t code = in.u8("a ScalarType argument");
      ScalarType t;
      if (!dtype_from_code(code, &t)) in.fail_at(at + 1, "unknown dtype code ", int(code));
      a.i = static_cast<int64_t>(t);
      break;
    }
    case Arg::Tag::Layout: {
      const uint8_t l = in.u8("a Layout argument");
      if (l != 0) in.fail_at(at + 1, "layout code ", int(l), " is not strided (0)");
      a.i = static_cast<int64_t>(Layout::Strided);
      break;
    }
    case Arg::Tag::Device: {
      const uint8_t type = in.u8("a Device argument");
      if (type > 2) in.fail_at(at + 1, "device type code ", int(type), " (0 cpu, 1 cuda, 2 meta)");
      a.i = type;
      a.device_index = static_cast<int8_t>(in.u8("a Device argument's index"));
      if (a.device_index < -1) in.fail_at(at + 2, "device index ", int(a.device_index));
      break;
    }
    case Arg::Tag::MemoryFormat: {
      const uint8_t m = in.u8("a MemoryFormat argument");
      if (m > 3) in.fail_at(at + 1, "memory format code ", int(m), " (0 to 3)");
      a.i = m;
      break;
    }
    case Arg::Tag::SymIntList: {  // each element: a kind byte, then an i64 or a slot
      const uint32_t n = in.count("a SymInt[] argument", 1 + 4);
      a.ints.reserve(capped(n));
      a.slots.reserve(capped(n));
      for (uint32_t k = 0; k < n; ++k) {
        const std::size_t el = in.pos();
        const uint8_t kind = in.u8("a SymInt[] element's kind");
        if (kind == 0) {
          a.ints.push_back(in.i64("a SymInt[] element"));
          a.slots.push_back(kNoSlot);
        } else if (kind == 1) {
          a.ints.push_back(0);
          a.slots.push_back(slots.use("a SymInt[] element"));
        } else {
          in.fail_at(el, "a SymInt[] element's kind is ", int(kind), " (0 a constant, 1 a slot)");
        }
      }
      break;
    }
  }
  return a;
}

}  // namespace

std::shared_ptr<const Model> read_model(std::string source, std::shared_ptr<const std::byte> bytes,
                                        std::size_t size) {
  auto model = std::make_shared<Model>();
  model->source = std::move(source);
  model->bytes_ = bytes;
  model->size_ = size;
  const std::byte* data = bytes.get();

  // The header.
  Cursor head(*model, data, 0, size);
  if (std::memcmp(data, kModelMagic, std::min(size, sizeof(kModelMagic))) != 0) {
    head.fail("not a lite model: it does not start with \"SOPSLITE\"");
  }
  head.need(kModelHeaderSize, "the header");
  Cursor h(*model, data, sizeof(kModelMagic), size);
  const uint32_t version = h.u32("the version");
  if (version < 1 || version > kModelFormatVersion) {
    h.fail_plain(8, "format version ", version, "; this runtime reads versions 1 to ",
                 kModelFormatVersion,
                 " (export the model again with this release's lite/python/export_model.py)");
  }
  model->version = version;
  const uint32_t flags = h.u32("the flags");
  if (flags != 0) h.fail_at(12, "flags are ", flags, " (0 in version ", version, ")");
  const uint64_t data_offset = h.u64("the data offset");
  const uint64_t data_size = h.u64("the data size");
  if (data_offset % kModelDataAlignment != 0 || data_offset < kModelHeaderSize) {
    h.fail_at(16, "the data offset ", data_offset, " is not a multiple of 64 past the header");
  }
  if (data_offset > size || data_size != size - data_offset) {
    h.fail_at(24, "the data blob (", data_size, " bytes from byte ", data_offset,
              ") does not end the file's ", size, " bytes (is the file truncated?)");
  }

  // The sections, which end at or before data_offset.
  Cursor in(*model, data, kModelHeaderSize, static_cast<std::size_t>(data_offset));
  const uint32_t n_meta = in.count("metadata", 8);
  model->metadata.reserve(capped(n_meta));
  for (uint32_t k = 0; k < n_meta; ++k) {
    std::string key = in.str("a metadata key");
    std::string value = in.str("a metadata value");
    model->metadata.emplace_back(std::move(key), std::move(value));
  }

  const uint32_t n_ops = in.count("operators", 4);
  model->operators.reserve(capped(n_ops));
  for (uint32_t k = 0; k < n_ops; ++k) {
    const std::size_t at = in.pos();
    std::string name = in.str("an operator name");
    if (name.find("::") == std::string::npos || name.size() < 4) {
      in.fail_at(at, "operator name \"", name, "\" is not namespace::name[.overload]");
    }
    if (version >= 2 && is_sym_op_name(name) && find_sym_op(name) == nullptr) {
      in.fail_at(at, "operator \"", name, "\" is not a scalar operator this runtime knows (",
                 sym_op_names(), ")");
    }
    model->operators.push_back(std::move(name));
  }

  std::vector<std::size_t> symbol_offsets;
  if (version >= 2) read_symbols(in, *model, symbol_offsets);

  // Slots are defined by constants, inputs and nodes: each takes at least four bytes.
  const std::size_t values_at = in.pos();
  model->num_values = in.u32("the value count");
  if (model->num_values > in.left() / 4) {
    in.fail_at(values_at, "value count ", model->num_values, " is more than the file can define");
  }
  SlotTable slots(in, model->num_values);

  const uint32_t n_constants = in.count("constants", 4 + 4 + 2 + 16);
  model->constants.reserve(capped(n_constants));
  for (uint32_t k = 0; k < n_constants; ++k) {
    Constant c;
    c.name = in.str("a constant's name");
    c.slot = slots.define("a constant");
    c.desc = read_desc(in, "a constant");
    const std::size_t offset_at = in.pos();
    const uint64_t offset = in.u64("a constant's offset");
    const uint64_t nbytes = in.u64("a constant's size");
    if (offset % kModelDataAlignment != 0) {
      in.fail_at(offset_at, "constant '", c.name, "' starts at byte ", offset,
                 " of the data blob, not a multiple of 64");
    }
    if (offset > data_size || nbytes > data_size - offset) {
      in.fail_at(offset_at, "constant '", c.name, "' (", nbytes, " bytes from byte ", offset,
                 ") does not fit in the ", data_size, "-byte data blob");
    }
    if (nbytes != c.desc.nbytes()) {
      in.fail_at(offset_at + 8, "constant '", c.name, "' is ", c.desc.str(), ", ", c.desc.nbytes(),
                 " bytes, but the file gives it ", nbytes);
    }
    c.data = data + data_offset + offset;
    if (c.desc.dtype == ScalarType::Bool) {  // a bool byte other than 0 or 1 is undefined
      for (uint64_t b = 0; b < nbytes; ++b) {
        if (static_cast<uint8_t>(c.data[b]) > 1) {
          in.fail_at(offset_at, "constant '", c.name, "' is bool but its byte ", b, " is ",
                     int(static_cast<uint8_t>(c.data[b])), " (0 or 1)");
        }
      }
    }
    model->constants.push_back(std::move(c));
  }

  const uint32_t n_inputs = in.count("inputs", 4 + 4 + 2);
  model->inputs.reserve(capped(n_inputs));
  for (uint32_t k = 0; k < n_inputs; ++k) {
    Input i;
    i.name = in.str("an input's name");
    i.slot = slots.define("an input");
    i.desc = read_desc(in, "an input", model->symbols.size());
    model->inputs.push_back(std::move(i));
  }
  check_symbols_bound(in, *model, symbol_offsets);

  const uint32_t n_nodes = in.count("nodes", 4 + 4 + 4 + 1 + 4);
  model->nodes.reserve(capped(n_nodes));
  std::vector<bool> defined_by_node(model->num_values, false);  // for value_info
  std::vector<std::size_t> arg_at;
  for (uint32_t k = 0; k < n_nodes; ++k) {
    Node node;
    node.name = in.str("a node's name");
    const std::size_t op_at = in.pos();
    node.op = in.u32("a node's operator");
    if (node.op >= model->operators.size()) {
      in.fail_at(op_at, "node '", node.name, "' calls operator ", node.op, " of ",
                 model->operators.size());
    }
    const std::size_t args_at = in.pos();
    const uint32_t nargs = in.count("a node's arguments", 1);
    node.args.reserve(capped(nargs));
    arg_at.clear();
    for (uint32_t a = 0; a < nargs; ++a) {
      arg_at.push_back(in.pos());
      node.args.push_back(read_arg(in, slots, version));
    }
    const std::size_t unpack_at = in.pos();
    const uint8_t unpack = in.u8("a node's unpack flag");
    if (unpack > 1) in.fail_at(unpack_at, "node '", node.name, "' has unpack flag ", int(unpack));
    node.unpack = unpack == 1;
    const std::size_t outs_at = in.pos();
    const uint32_t nouts = in.count("a node's outputs", 4);
    node.outs.reserve(nouts);
    for (uint32_t o = 0; o < nouts; ++o) {
      node.outs.push_back(slots.define("a node output"));
      defined_by_node[node.outs.back()] = true;
    }
    const std::string& op = model->operators[node.op];
    if (version >= 2 && is_sym_op_name(op)) {
      check_sym_node(in, node, *find_sym_op(op), args_at, arg_at, unpack_at, outs_at);
    }
    model->nodes.push_back(std::move(node));
  }

  const uint32_t n_outputs = in.count("outputs", 8);
  model->outputs.reserve(capped(n_outputs));
  for (uint32_t k = 0; k < n_outputs; ++k) {
    Output o;
    o.name = in.str("an output's name");
    o.slot = slots.use("a model output");
    model->outputs.push_back(std::move(o));
  }
  if (const int64_t s = slots.first_undefined(); s >= 0) {
    in.fail("value slot ", s, " of ", model->num_values, " is never defined");
  }
  if (version >= 2) read_value_info(in, *model, defined_by_node);
  return model;
}

std::shared_ptr<const Model> read_model(std::string source, const void* data, std::size_t size) {
  std::shared_ptr<std::byte> bytes = Model::allocate_bytes(size);
  if (size != 0) std::memcpy(bytes.get(), data, size);
  return read_model(std::move(source), std::move(bytes), size);
}

std::shared_ptr<const Model> read_model_file(const std::string& path) {
  std::shared_ptr<std::byte> bytes;
  std::size_t size = 0;
  const std::string problem = read_file(path, "model file", [&](std::size_t n) -> void* {
    bytes = Model::allocate_bytes(n);
    size = n;
    return bytes.get();
  });
  if (!problem.empty()) raise(ModelError(detail::str(path, ": ", problem)));
  return read_model(path, std::move(bytes), size);
}

}  // namespace sops::lite
