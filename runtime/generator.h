// Generator: a random number generator for cpu kernels, like PyTorch's at::Generator
// over its CPUGeneratorImpl. A Generator is a handle: copies share one state and
// advance one stream. A default-constructed Generator is undefined (the value of an
// absent `Generator?` argument is std::nullopt, not this).
//
// The engine is MT19937 seeded with the low 32 bits of the seed, as PyTorch's cpu
// generator (and std::mt19937) does, so a seed gives PyTorch's stream of raw numbers:
// random() is one 32-bit draw, random64() two of them (the first is the high half).
//
// Kernels draw while holding mutex(), as in PyTorch:
//
//   Generator gen = sops::get_generator_or_default(generator);
//   std::lock_guard<std::mutex> lock(gen.mutex());
//   ... gen.random() ...
//
// The methods themselves do not lock: a generator shared between threads needs the
// lock around every use, manual_seed and set_state included.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/device.h"

namespace sops {

// PyTorch's default_rng_seed_val: the seed of a new generator and of the default one.
inline constexpr uint64_t kDefaultRngSeed = 67280421310721ULL;

class Generator {
 public:
  // An undefined generator: every method but defined() and == throws sops::Error.
  Generator() = default;

  bool defined() const { return state_ != nullptr; }
  // Where the generator's numbers are meant for; always cpu.
  Device device() const;

  // Restarts the stream from `seed` (PyTorch's manual_seed / set_current_seed); also
  // forgets the cached normal samples.
  void manual_seed(uint64_t seed) const;
  // The seed the stream started from.
  uint64_t current_seed() const;
  // Reseeds from a non-deterministic source and returns the new seed.
  uint64_t seed() const;

  // The next 32 random bits.
  uint32_t random() const;
  // The next 64 random bits: two draws, the first in the high half (PyTorch's order).
  uint64_t random64() const;

  // The whole state (engine, seed, cached normal samples) as opaque bytes, and back.
  // set_state throws sops::Error, and changes nothing, unless `state` came from
  // get_state() of some sops Generator.
  std::vector<uint8_t> get_state() const;
  void set_state(const std::vector<uint8_t>& state) const;

  // The second sample of a Box-Muller pair, kept for the next normal draw (PyTorch's
  // next_{float,double}_normal_sample); empty after manual_seed.
  std::optional<float> next_float_normal_sample() const;
  std::optional<double> next_double_normal_sample() const;
  void set_next_float_normal_sample(std::optional<float> sample) const;
  void set_next_double_normal_sample(std::optional<double> sample) const;

  // An independent generator whose state is a copy of this one's.
  Generator clone() const;

  // The lock kernels hold while drawing.
  std::mutex& mutex() const;

  // Whether both handles share one state (both undefined counts).
  bool operator==(const Generator& other) const { return state_ == other.state_; }
  bool operator!=(const Generator& other) const { return state_ != other.state_; }

 private:
  struct State;
  friend Generator make_cpu_generator(uint64_t seed);

  explicit Generator(std::shared_ptr<State> state) : state_(std::move(state)) {}
  State& state() const;

  std::shared_ptr<State> state_;
};

// A new cpu generator whose stream starts from `seed`.
Generator make_cpu_generator(uint64_t seed = kDefaultRngSeed);

// The process-wide cpu generator that kernels use when given none; created on first
// use with kDefaultRngSeed. (PyTorch 2.x seeds its default generator
// non-deterministically at startup; sops keeps runs reproducible instead.)
const Generator& default_cpu_generator();

// What a kernel draws from for a `Generator? generator` argument: the given generator,
// or default_cpu_generator() when there is none. Throws sops::Error naming `argument`
// when the given one is undefined or not a cpu generator.
Generator get_generator_or_default(const std::optional<Generator>& generator,
                                   std::string_view argument = "generator");

}  // namespace sops
