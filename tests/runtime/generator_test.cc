// Generator: PyTorch's cpu generator semantics. Oracles: the C++ standard's MT19937
// ([rand.predef]: the 10000th output of a default-constructed std::mt19937 is
// 4123659995), std::mt19937 itself, and draws of PyTorch 2.13 written out below.
#include "runtime/generator.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/array_ref.h"
#include "runtime/error.h"

namespace {

using sops::Generator;

std::vector<uint32_t> draws(const Generator& g, int n) {
  std::vector<uint32_t> out;
  for (int i = 0; i < n; ++i) out.push_back(g.random());
  return out;
}

// Whether f throws a sops::Error whose what() contains `part`.
template <typename F>
::testing::AssertionResult throws_containing(F&& f, const std::string& part) {
  try {
    f();
  } catch (const sops::Error& e) {
    if (std::string(e.what()).find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "message '" << e.what() << "' lacks '" << part << "'";
  }
  return ::testing::AssertionFailure() << "no sops::Error thrown";
}

TEST(Generator, TenThousandthDrawOfSeed5489IsTheStandardsValue) {
  const Generator g = sops::make_cpu_generator(5489);
  for (int i = 0; i < 9999; ++i) g.random();
  EXPECT_EQ(g.random(), 4123659995u);
}

TEST(Generator, StreamIsStdMt19937SeededWithTheLow32Bits) {
  for (const uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}, (uint64_t{1} << 32) + 7,
                              sops::kDefaultRngSeed, ~uint64_t{0}}) {
    std::mt19937 expected(static_cast<uint32_t>(seed));
    const Generator g = sops::make_cpu_generator(seed);
    for (int i = 0; i < 2000; ++i) {  // across three twists of the 624-word state
      ASSERT_EQ(g.random(), expected()) << "seed " << seed << ", draw " << i;
    }
    EXPECT_EQ(g.current_seed(), seed);
  }
}

TEST(Generator, DrawsMatchPyTorch) {
  // torch.randint(0, 1000, (10,), generator=torch.Generator().manual_seed(42)) in
  // PyTorch 2.13 takes random() % 1000 per element.
  const std::vector<uint32_t> torch_randint_42 = {542, 67, 876, 414, 26, 335, 620, 924, 950, 113};
  const Generator g = sops::make_cpu_generator(42);
  for (const uint32_t v : torch_randint_42) EXPECT_EQ(g.random() % 1000, v);

  // torch.randint(0, 2**40, (4,), generator=...manual_seed(42)) takes random64() % 2**40.
  const std::vector<uint64_t> torch_randint64_42 = {441507790259, 395924837646, 458615280711,
                                                    810017303572};
  g.manual_seed(42);
  for (const uint64_t v : torch_randint64_42) EXPECT_EQ(g.random64() % (uint64_t{1} << 40), v);

  // torch.randint(0, 1000, (10,), generator=torch.Generator()): a new generator's seed.
  const std::vector<uint32_t> torch_randint_default = {710, 284, 837, 820, 749,
                                                       299, 754, 334, 739, 609};
  const Generator fresh = sops::make_cpu_generator();
  EXPECT_EQ(fresh.current_seed(), 67280421310721u);
  for (const uint32_t v : torch_randint_default) EXPECT_EQ(fresh.random() % 1000, v);
}

TEST(Generator, DefaultGeneratorIsOneProcessWideCpuGeneratorWithPyTorchsSeed) {
  const Generator& g = sops::default_cpu_generator();
  ASSERT_TRUE(g.defined());
  EXPECT_EQ(g.current_seed(), 67280421310721u);
  EXPECT_EQ(sops::kDefaultRngSeed, 67280421310721u);
  EXPECT_TRUE(g.device().is_cpu());
  EXPECT_EQ(&sops::default_cpu_generator(), &g);
}

TEST(Generator, SameSeedGivesTheSameSequenceAndManualSeedRestarts) {
  const Generator a = sops::make_cpu_generator(123);
  const Generator b = sops::make_cpu_generator(123);
  const std::vector<uint32_t> first = draws(a, 50);
  EXPECT_EQ(draws(b, 50), first);
  EXPECT_NE(draws(sops::make_cpu_generator(124), 50), first);

  a.manual_seed(7);
  EXPECT_EQ(a.current_seed(), 7u);
  EXPECT_EQ(draws(a, 50), draws(sops::make_cpu_generator(7), 50));
  a.manual_seed(123);
  EXPECT_EQ(draws(a, 50), first);
}

TEST(Generator, CopiesShareAndAdvanceOneStream) {
  const Generator g = sops::make_cpu_generator(99);
  const Generator copy = g;  // NOLINT: the copy is the point
  const std::vector<uint32_t> expected = draws(sops::make_cpu_generator(99), 4);
  EXPECT_EQ(g.random(), expected[0]);
  EXPECT_EQ(copy.random(), expected[1]);
  EXPECT_EQ(g.random(), expected[2]);
  EXPECT_TRUE(copy == g);
  EXPECT_EQ(&copy.mutex(), &g.mutex());
  copy.manual_seed(5);
  EXPECT_EQ(g.current_seed(), 5u);
}

TEST(Generator, CloneIsIndependent) {
  const Generator g = sops::make_cpu_generator(11);
  g.random();
  const Generator c = g.clone();
  EXPECT_TRUE(c != g);
  EXPECT_EQ(c.current_seed(), 11u);
  const uint32_t from_clone = c.random();
  EXPECT_EQ(g.random(), from_clone);  // same position, separate streams
  c.random();
  c.random();
  EXPECT_EQ(g.random(), draws(sops::make_cpu_generator(11), 3)[2]);
}

TEST(Generator, UndefinedGeneratorThrowsInsteadOfCrashing) {
  const Generator g;
  EXPECT_FALSE(g.defined());
  EXPECT_TRUE(g == Generator());
  EXPECT_TRUE(throws_containing([&] { g.random(); }, "undefined"));
  EXPECT_TRUE(throws_containing([&] { g.manual_seed(1); }, "undefined"));
  EXPECT_TRUE(throws_containing([&] { g.get_state(); }, "undefined"));
  EXPECT_TRUE(throws_containing([&] { g.mutex(); }, "undefined"));
}

TEST(Generator, StateRoundTrips) {
  const Generator g = sops::make_cpu_generator(2024);
  draws(g, 700);  // mid-way through the second block of 624 words
  g.set_next_double_normal_sample(0.25);
  const std::vector<uint8_t> state = g.get_state();
  const std::vector<uint32_t> next = draws(g, 1000);
  g.set_next_double_normal_sample(std::nullopt);

  g.set_state(state);
  EXPECT_EQ(g.next_double_normal_sample(), std::optional<double>(0.25));
  EXPECT_EQ(g.next_float_normal_sample(), std::nullopt);
  EXPECT_EQ(draws(g, 1000), next);

  // Onto another generator: same stream from there on, and the seed comes along.
  const Generator other = sops::make_cpu_generator(1);
  other.set_state(state);
  EXPECT_EQ(other.current_seed(), 2024u);
  EXPECT_EQ(draws(other, 1000), next);
  EXPECT_EQ(other.get_state(), g.get_state());
}

TEST(Generator, ManualSeedForgetsCachedNormalSamples) {
  const Generator g = sops::make_cpu_generator(3);
  g.set_next_float_normal_sample(1.5f);
  g.set_next_double_normal_sample(-2.0);
  EXPECT_EQ(g.next_float_normal_sample(), std::optional<float>(1.5f));
  g.manual_seed(3);
  EXPECT_EQ(g.next_float_normal_sample(), std::nullopt);
  EXPECT_EQ(g.next_double_normal_sample(), std::nullopt);
}

TEST(Generator, BadStateThrowsAndChangesNothing) {
  const Generator g = sops::make_cpu_generator(8);
  const std::vector<uint8_t> good = g.get_state();
  try {
    g.set_state(std::vector<uint8_t>(10, 0));
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "state");
    EXPECT_NE(e.message().find(std::to_string(good.size()) + " bytes"), std::string::npos)
        << e.what();
    EXPECT_NE(e.message().find("got 10 bytes"), std::string::npos) << e.what();
  }
  std::vector<uint8_t> not_ours = good;
  not_ours[0] ^= 0xff;
  EXPECT_TRUE(throws_containing([&] { g.set_state(not_ours); }, "not a sops Generator state"));
  std::vector<uint8_t> bad_position = good;
  bad_position[15] = 0xff;  // the engine position's high byte, after tag and seed
  EXPECT_TRUE(throws_containing([&] { g.set_state(bad_position); }, "corrupt"));
  EXPECT_EQ(g.get_state(), good);
  EXPECT_EQ(draws(g, 5), draws(sops::make_cpu_generator(8), 5));
}

TEST(Generator, SeedPicksAFreshSeedAndRestartsFromIt) {
  const Generator g = sops::make_cpu_generator(1);
  const uint64_t s = g.seed();
  EXPECT_EQ(g.current_seed(), s);
  EXPECT_EQ(draws(g, 20), draws(sops::make_cpu_generator(s), 20));
}

TEST(Generator, DrawsUnderTheLockFromManyThreadsTakeEachValueOnce) {
  const Generator g = sops::make_cpu_generator(77);
  constexpr int kThreads = 4;
  constexpr int kEach = 2000;
  std::vector<std::vector<uint32_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        std::lock_guard<std::mutex> lock(g.mutex());
        got[static_cast<std::size_t>(t)].push_back(g.random());
      }
    });
  }
  for (std::thread& th : threads) th.join();
  std::vector<uint32_t> all;
  for (const auto& v : got) all.insert(all.end(), v.begin(), v.end());
  std::vector<uint32_t> expected = draws(sops::make_cpu_generator(77), kThreads * kEach);
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
}

// A kernel's view of a `Generator? generator=None` argument.
uint32_t draw_like_a_kernel(std::optional<Generator> generator = std::nullopt) {
  const Generator g = sops::get_generator_or_default(generator);
  std::lock_guard<std::mutex> lock(g.mutex());
  return g.random();
}

TEST(Generator, GetGeneratorOrDefault) {
  EXPECT_TRUE(sops::get_generator_or_default(std::nullopt) == sops::default_cpu_generator());
  const Generator g = sops::make_cpu_generator(42);
  EXPECT_TRUE(sops::get_generator_or_default(g) == g);
  EXPECT_EQ(draw_like_a_kernel(g) % 1000, 542u);  // PyTorch's first draw for seed 42
  // The default generator advances; put it back so other tests see it untouched.
  const std::vector<uint8_t> saved = sops::default_cpu_generator().get_state();
  const uint32_t first = draw_like_a_kernel();
  sops::default_cpu_generator().set_state(saved);
  EXPECT_EQ(draw_like_a_kernel(), first);
  sops::default_cpu_generator().set_state(saved);

  try {
    sops::get_generator_or_default(Generator());
    FAIL() << "no throw";
  } catch (const sops::Error& e) {
    EXPECT_EQ(e.argument(), "generator");
    EXPECT_NE(e.message().find("default-constructed"), std::string::npos) << e.what();
  }
}

TEST(Generator, ListsOfGeneratorsCompile) {
  const std::vector<Generator> gens = {sops::make_cpu_generator(1), sops::make_cpu_generator(2)};
  const sops::ArrayRef<Generator> list = gens;
  EXPECT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].current_seed(), 2u);
}

}  // namespace
