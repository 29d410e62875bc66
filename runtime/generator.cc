#include "runtime/generator.h"

#include <array>
#include <cstring>
#include <random>

#include "runtime/error.h"

namespace sops {
namespace detail {

// MT19937 (Matsumoto and Nishimura, 1998) with std::mt19937's seeding, kept here rather
// than as a std::mt19937 so that its state has a fixed binary form for get_state.
class Mt19937 {
 public:
  static constexpr uint32_t kN = 624;
  static constexpr uint32_t kM = 397;

  explicit Mt19937(uint32_t seed) {
    words_[0] = seed;
    for (uint32_t i = 1; i < kN; ++i) {
      words_[i] = 1812433253u * (words_[i - 1] ^ (words_[i - 1] >> 30)) + i;
    }
    index_ = kN;
  }

  uint32_t operator()() {
    if (index_ >= kN) twist();
    uint32_t y = words_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  std::array<uint32_t, kN>& words() { return words_; }
  uint32_t& index() { return index_; }

 private:
  void twist() {
    for (uint32_t i = 0; i < kN; ++i) {
      const uint32_t y = (words_[i] & 0x80000000u) | (words_[(i + 1) % kN] & 0x7fffffffu);
      words_[i] = words_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1u) != 0 ? 0x9908b0dfu : 0u);
    }
    index_ = 0;
  }

  std::array<uint32_t, kN> words_;
  uint32_t index_;  // next word to temper; kN: twist first
};

}  // namespace detail

namespace {

using detail::Mt19937;

// The state's bytes: a tag, the seed, the engine's position and words, then each
// cached normal sample as a presence byte and its bits. Integers are little-endian.
constexpr uint32_t kStateTag = 0x31475053u;  // "SPG1"
constexpr std::size_t kStateBytes = 4 + 8 + 4 + 4 * Mt19937::kN + (1 + 4) + (1 + 8);

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>& out) : out_(out) {}
  void u8(uint8_t v) { out_.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }

 private:
  std::vector<uint8_t>& out_;
};

class ByteReader {
 public:
  explicit ByteReader(const std::vector<uint8_t>& in) : in_(in) {}
  uint8_t u8() { return in_[pos_++]; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(in_[pos_++]) << (8 * i);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in_[pos_++]) << (8 * i);
    return v;
  }

 private:
  const std::vector<uint8_t>& in_;
  std::size_t pos_ = 0;
};

template <typename To, typename From>
To bit_cast(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &v, sizeof(To));
  return to;
}

}  // namespace

struct Generator::State {
  explicit State(uint64_t s) : engine(static_cast<uint32_t>(s)), seed(s) {}
  State(const State& other)
      : engine(other.engine),
        seed(other.seed),
        next_float_normal(other.next_float_normal),
        next_double_normal(other.next_double_normal) {}

  detail::Mt19937 engine;
  uint64_t seed;
  std::optional<float> next_float_normal;
  std::optional<double> next_double_normal;
  std::mutex mutex;
};

Generator::State& Generator::state() const {
  SOPS_CHECK(state_ != nullptr,
             "this Generator is undefined (default-constructed); make one with "
             "sops::make_cpu_generator(seed) or pass std::nullopt for the default generator");
  return *state_;
}

Device Generator::device() const {
  state();
  return Device(DeviceType::CPU);
}

void Generator::manual_seed(uint64_t seed) const {
  State& s = state();
  s.engine = Mt19937(static_cast<uint32_t>(seed));
  s.seed = seed;
  s.next_float_normal.reset();
  s.next_double_normal.reset();
}

uint64_t Generator::current_seed() const { return state().seed; }

uint64_t Generator::seed() const {
  std::random_device device;
  const uint64_t seed = (static_cast<uint64_t>(device()) << 32) | device();
  manual_seed(seed);
  return seed;
}

uint32_t Generator::random() const { return state().engine(); }

uint64_t Generator::random64() const {
  Mt19937& engine = state().engine;
  const uint64_t hi = engine();
  const uint64_t lo = engine();
  return (hi << 32) | lo;
}

std::vector<uint8_t> Generator::get_state() const {
  State& s = state();
  std::vector<uint8_t> bytes;
  bytes.reserve(kStateBytes);
  ByteWriter w(bytes);
  w.u32(kStateTag);
  w.u64(s.seed);
  w.u32(s.engine.index());
  for (const uint32_t word : s.engine.words()) w.u32(word);
  w.u8(s.next_float_normal.has_value() ? 1 : 0);
  w.u32(bit_cast<uint32_t>(s.next_float_normal.value_or(0.0f)));
  w.u8(s.next_double_normal.has_value() ? 1 : 0);
  w.u64(bit_cast<uint64_t>(s.next_double_normal.value_or(0.0)));
  SOPS_INTERNAL_ASSERT(bytes.size() == kStateBytes, "Generator state of ", bytes.size(), " bytes");
  return bytes;
}

void Generator::set_state(const std::vector<uint8_t>& bytes) const {
  State& s = state();
  SOPS_CHECK_ARG(bytes.size() == kStateBytes, "state", "expected a Generator state of ",
                 kStateBytes, " bytes (as get_state() returns), got ", bytes.size(), " bytes");
  ByteReader r(bytes);
  SOPS_CHECK_ARG(r.u32() == kStateTag, "state",
                 "not a sops Generator state (it does not start as get_state()'s do)");
  Mt19937 engine(0);
  const uint64_t seed = r.u64();
  const uint32_t index = r.u32();
  SOPS_CHECK_ARG(index <= Mt19937::kN, "state", "corrupt Generator state: engine position ", index,
                 " is past ", Mt19937::kN);
  engine.index() = index;
  for (uint32_t& word : engine.words()) word = r.u32();
  const uint8_t has_float = r.u8();
  const float next_float = bit_cast<float>(r.u32());
  const uint8_t has_double = r.u8();
  const double next_double = bit_cast<double>(r.u64());
  SOPS_CHECK_ARG(has_float <= 1 && has_double <= 1, "state",
                 "corrupt Generator state: a cached-sample flag is neither 0 nor 1");
  s.engine = engine;
  s.seed = seed;
  s.next_float_normal = has_float != 0 ? std::optional<float>(next_float) : std::nullopt;
  s.next_double_normal = has_double != 0 ? std::optional<double>(next_double) : std::nullopt;
}

std::optional<float> Generator::next_float_normal_sample() const {
  return state().next_float_normal;
}

std::optional<double> Generator::next_double_normal_sample() const {
  return state().next_double_normal;
}

void Generator::set_next_float_normal_sample(std::optional<float> sample) const {
  state().next_float_normal = sample;
}

void Generator::set_next_double_normal_sample(std::optional<double> sample) const {
  state().next_double_normal = sample;
}

Generator Generator::clone() const { return Generator(std::make_shared<State>(state())); }

std::mutex& Generator::mutex() const { return state().mutex; }

Generator make_cpu_generator(uint64_t seed) {
  return Generator(std::make_shared<Generator::State>(seed));
}

const Generator& default_cpu_generator() {
  static const Generator generator = make_cpu_generator(kDefaultRngSeed);
  return generator;
}

Generator get_generator_or_default(const std::optional<Generator>& generator,
                                   std::string_view argument) {
  if (!generator.has_value()) return default_cpu_generator();
  SOPS_CHECK_ARG(generator->defined(), argument,
                 "expected a defined Generator, got a default-constructed one (pass "
                 "std::nullopt to use the default generator)");
  SOPS_CHECK_ARG(generator->device().is_cpu(), argument, "expected a cpu Generator, got one for ",
                 generator->device());
  return *generator;
}

}  // namespace sops
