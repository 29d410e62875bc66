// The model reader's byte cursor and slot table (lite/model_reader.cc and
// model_reader_v2.cc): every read checks the bytes left first, and every failure is a
// ModelError naming the file, the byte offset and the rule. Private to the reader.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "lite/model.h"
#include "runtime/error.h"

namespace sops::lite::reader {

class Cursor {
 public:
  Cursor(const Model& model, const std::byte* data, std::size_t begin, std::size_t end)
      : model_(model), data_(data), pos_(begin), end_(end) {}

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return end_ - pos_; }

  template <typename... Args>
  [[noreturn]] void fail(const Args&... args) const {
    fail_with(pos_, /*damaged=*/true, {args...});
  }
  template <typename... Args>
  [[noreturn]] void fail_at(std::size_t offset, const Args&... args) const {
    fail_with(offset, /*damaged=*/true, {args...});
  }
  // Without the "damaged" hint (for what a good file can break, such as its version).
  template <typename... Args>
  [[noreturn]] void fail_plain(std::size_t offset, const Args&... args) const {
    fail_with(offset, /*damaged=*/false, {args...});
  }
  // The one function that builds the reader's messages: each failure above is its
  // parts and a call (runtime/error.h's MessagePart).
  [[noreturn]] void fail_with(std::size_t offset, bool damaged,
                              std::initializer_list<sops::detail::MessagePart> parts) const;

  void need(std::size_t n, const char* what) const {
    if (n > left()) fail(what, " needs ", n, " bytes but ", left(), " are left");
  }
  template <typename T>
  T fixed(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, data_ + pos_, sizeof(T));  // the format and the targets are little-endian
    pos_ += sizeof(T);
    return v;
  }
  uint8_t u8(const char* what) { return fixed<uint8_t>(what); }
  uint32_t u32(const char* what) { return fixed<uint32_t>(what); }
  uint64_t u64(const char* what) { return fixed<uint64_t>(what); }
  int64_t i64(const char* what) { return fixed<int64_t>(what); }
  double f64(const char* what) { return fixed<double>(what); }

  // A count of items of at least `min_item_bytes` bytes each.
  uint32_t count(const char* what, std::size_t min_item_bytes) {
    const std::size_t at = pos_;
    const uint32_t n = u32(what);
    if (static_cast<uint64_t>(n) * min_item_bytes > left()) {
      fail_at(at, what, " count ", n, " is more than the ", left(), " bytes left can hold");
    }
    return n;
  }
  std::string str(const char* what) {
    const std::size_t at = pos_;
    const uint32_t n = u32(what);
    if (n > kMaxStringBytes)
      fail_at(at, what, " is ", n, " bytes long (at most ", kMaxStringBytes, ")");
    need(n, what);
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }

 private:
  const Model& model_;
  const std::byte* data_;
  std::size_t pos_;
  std::size_t end_;
};

// How many items to reserve for a count: a count is checked against the bytes left,
// but an item in memory (a Node, an Arg) is larger than its bytes in the file, so the
// reserve is capped and a long list grows as it is read.
inline std::size_t capped(uint32_t n) { return std::min<std::size_t>(n, 1024); }

// Where each slot is defined, to check "once, and before it is read".
class SlotTable {
 public:
  SlotTable(Cursor& in, uint32_t n) : in_(in), defined_(n, false) {}

  uint32_t define(const char* what) {
    const std::size_t at = in_.pos();
    const uint32_t s = in_.u32(what);
    check_range(at, s, what);
    if (defined_[s]) in_.fail_at(at, what, " defines value slot ", s, " a second time");
    defined_[s] = true;
    return s;
  }
  uint32_t use(const char* what) {
    const std::size_t at = in_.pos();
    const uint32_t s = in_.u32(what);
    check_use(at, s, what);
    return s;
  }
  void check_use(std::size_t at, uint32_t s, const char* what) const {
    check_range(at, s, what);
    if (!defined_[s]) in_.fail_at(at, what, " reads value slot ", s, " before it is defined");
  }
  // The first slot nothing defines, or -1.
  int64_t first_undefined() const {
    for (std::size_t s = 0; s < defined_.size(); ++s) {
      if (!defined_[s]) return static_cast<int64_t>(s);
    }
    return -1;
  }

 private:
  void check_range(std::size_t at, uint32_t s, const char* what) const {
    if (s >= defined_.size()) {
      in_.fail_at(at, what, " names value slot ", s, " but the model has ", defined_.size());
    }
  }
  Cursor& in_;
  std::vector<bool> defined_;
};

}  // namespace sops::lite::reader
