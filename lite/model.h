// A lite model as read from a model file (lite/FORMAT.md): the graph, its constants'
// bytes and its inputs and outputs, checked but not yet bound to any operator.
// Version 2 adds dynamic shapes: named symbols with their ranges, input dimensions that
// are symbols, scalar (SymInt, SymFloat, SymBool) value slots, `sym::` scalar operators,
// SymInt[] arguments that mix constants and slots, and each value's symbolic shape.
//
//   std::shared_ptr<const sops::lite::Model> m = sops::lite::read_model_file("mlp.sopsm");
//
// Reading checks every rule of FORMAT.md (magic, version, every count against the bytes
// left, every slot defined once and before use, dtype codes, tensor sizes against the
// data blob) and throws sops::lite::ModelError, naming the file, the byte offset and the
// rule, on the first one broken. Nothing is allocated from a count before the count is
// checked against the bytes left, so the memory a damaged file makes the reader take
// stays proportional to the file's size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/error.h"
#include "runtime/native_types.h"
#include "runtime/scalar_type.h"
#include "runtime/tensor.h"

namespace sops::lite {

inline constexpr char kModelMagic[8] = {'S', 'O', 'P', 'S', 'L', 'I', 'T', 'E'};
// The newest version this reader reads; it reads every version from 1 on.
inline constexpr uint32_t kModelFormatVersion = 2;
// Version 2's limits and its unbounded upper bound (torch.export's int_oo).
inline constexpr std::size_t kMaxSymbols = 1024;
inline constexpr int64_t kUnbounded = INT64_MAX;
inline constexpr std::size_t kModelHeaderSize = 32;
inline constexpr std::size_t kModelDataAlignment = 64;
inline constexpr int kMaxTensorDims = 16;
inline constexpr std::size_t kMaxStringBytes = 65536;
// A slot in a `Tensor?[]` argument that means None.
inline constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

// A model file that breaks a rule of FORMAT.md, or cannot be read.
class ModelError : public Error {
 public:
  using Error::Error;
};

// A symbolic dimension of a version-2 model: its name and the range torch.export
// recorded for it ([min, max], max kUnbounded when it has none).
struct Symbol {
  std::string name;
  int64_t min = 0;
  int64_t max = kUnbounded;

  bool bounded() const { return max != kUnbounded; }
  // "[2, 64]"; "[2, unbounded)" without an upper bound.
  std::string range() const;
};

// A dtype and a shape. A size >= 0 is that exact size; in a version-2 model's inputs a
// size < 0 names symbol -1 - size (symbol_at, size_of_symbol), bound when the model runs.
struct TensorDesc {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;

  // The dtype and sizes of a defined tensor.
  static TensorDesc of(const Tensor& t);

  // Whether every size is exact (no symbol).
  bool is_static() const;
  // numel() and nbytes() of a static desc.
  int64_t numel() const;
  std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * element_size(dtype); }
  // "float32 [4, 32]" (a symbol as "s0", "s1", ...: use the overload below for names).
  std::string str() const;
  // "int64 [batch, seq]": symbols by their names in `symbols`.
  std::string str(const std::vector<Symbol>& symbols) const;

  // The symbol a size names, and the size that names symbol k.
  static int64_t symbol_at(int64_t size) { return -1 - size; }
  static int64_t size_of_symbol(int64_t k) { return -1 - k; }
};

// One argument of a node, as the file holds it (FORMAT.md's `arg`).
struct Arg {
  enum class Tag : uint8_t {
    None = 0,
    Slot = 1,
    Int = 2,
    Double = 3,
    Bool = 4,
    String = 5,
    IntList = 6,
    DoubleList = 7,
    BoolList = 8,
    TensorList = 9,
    OptionalTensorList = 10,
    ScalarType = 11,
    Layout = 12,
    Device = 13,
    MemoryFormat = 14,
    SymIntList = 15,  // version 2
  };
  Tag tag = Tag::None;
  int64_t i = 0;              // Int, Bool, ScalarType/Layout/MemoryFormat (enum value), Device type
  double d = 0;               // Double
  uint32_t slot = 0;          // Slot
  int8_t device_index = -1;   // Device
  std::string s;              // String
  std::vector<int64_t> ints;  // IntList, BoolList (0/1); SymIntList's constants (0 for a slot)
  std::vector<double> doubles;  // DoubleList
  // TensorList, OptionalTensorList (kNoSlot: None); SymIntList: each element's SymInt
  // slot, or kNoSlot where the element is the constant in `ints`.
  std::vector<uint32_t> slots;
};

struct Constant {
  std::string name;
  uint32_t slot = 0;
  TensorDesc desc;
  const std::byte* data = nullptr;  // inside Model::bytes(), 64-byte aligned
};

struct Input {
  std::string name;
  uint32_t slot = 0;
  TensorDesc desc;
};

struct Node {
  std::string name;
  uint32_t op = 0;  // index into Model::operators
  std::vector<Arg> args;
  bool unpack = false;  // the one Tensor[] return fills `outs`
  std::vector<uint32_t> outs;
};

struct Output {
  std::string name;
  uint32_t slot = 0;
};

// A value's symbolic shape as torch.export recorded it ("[batch, seq, 64]"), for
// `lite_runtime shapes`; never parsed.
struct ValueInfo {
  uint32_t slot = 0;
  std::string shape;
};

class Model {
 public:
  // `source` names the model in messages (its file name).
  std::string source;
  uint32_t version = 1;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<std::string> operators;
  std::vector<Symbol> symbols;  // version 2
  uint32_t num_values = 0;
  std::vector<Constant> constants;
  std::vector<Input> inputs;
  std::vector<Node> nodes;
  std::vector<Output> outputs;
  std::vector<ValueInfo> value_info;  // version 2

  // Whether some input dimension is a symbol (the model serves many shapes).
  bool is_dynamic() const { return !symbols.empty(); }
  // An input's desc with its symbols replaced by `values` (one per symbol).
  TensorDesc concrete(const TensorDesc& desc, const std::vector<int64_t>& values) const;

  // The file's bytes (64-byte aligned), which constants point into; tensors made from
  // the constants share them, so they may outlive the model.
  const std::shared_ptr<const std::byte>& bytes() const { return bytes_; }
  std::size_t size_bytes() const { return size_; }
  // The value of a metadata key, or "".
  std::string_view metadata_value(std::string_view key) const;

  // A 64-byte-aligned buffer of `size` bytes (at least one), for read_model.
  static std::shared_ptr<std::byte> allocate_bytes(std::size_t size);

 private:
  friend std::shared_ptr<const Model> read_model(std::string source,
                                                 std::shared_ptr<const std::byte> bytes,
                                                 std::size_t size);
  std::shared_ptr<const std::byte> bytes_;
  std::size_t size_ = 0;
};

// Node `index` of `model`, for the errors raised while binding or running it (through a
// PrefixScope): "model.sopsm: node 'add_1' (aten::add.Tensor): ".
struct NodeWhere {
  const Model& model;
  std::size_t index;

  static void describe(const void* data, std::string& out);
};

// Parses a whole model file: `size` bytes at `bytes` (from Model::allocate_bytes).
// `source` names it in messages.
std::shared_ptr<const Model> read_model(std::string source, std::shared_ptr<const std::byte> bytes,
                                        std::size_t size);
// The same for bytes held anywhere (copied into an aligned buffer first).
std::shared_ptr<const Model> read_model(std::string source, const void* data, std::size_t size);
// Reads and parses the file at `path`; messages name the file by `path`.
std::shared_ptr<const Model> read_model_file(const std::string& path);

// The dtype of a FORMAT.md dtype code (PyTorch's ScalarType numbers), or false.
bool dtype_from_code(uint8_t code, ScalarType* out);

}  // namespace sops::lite
