// What the boxed-registry tests share: two generated libraries (demo_ops, boxed_ops)
// registered into a fresh OperatorRegistry per test, tensors of floats, and the
// sops::Error a call throws.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "boxed_ops/Functions.h"
#include "boxed_ops/UnboxingFunctions.h"
#include "demo_ops/Functions.h"
#include "demo_ops/UnboxingFunctions.h"
#include "runtime/error.h"
#include "runtime/operator_registry.h"
#include "runtime/value.h"

namespace boxed_test {

using sops::OperatorRegistry;
using sops::Stack;
using sops::Tensor;
using sops::Value;

inline constexpr std::string_view kDemoYaml = "tests/foundation/testdata/demo_ops.yaml";
inline constexpr std::string_view kBoxedYaml = "tests/foundation/testdata/boxed_ops.yaml";

inline Tensor floats(std::initializer_list<float> values) {
  Tensor t = sops::empty({static_cast<int64_t>(values.size())}, sops::TensorOptions());
  float* data = t.data_ptr<float>();
  for (float v : values) *data++ = v;
  return t;
}

template <typename T>
std::vector<T> elements(const Tensor& t) {
  const T* data = t.data_ptr<T>();
  return std::vector<T>(data, data + t.numel());
}

inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

#define EXPECT_CONTAINS(text, part) \
  EXPECT_TRUE(contains((text), (part))) << "expected \"" << (part) << "\" in: " << (text)

// The sops::Error that f throws (a test failure if none).
template <typename F>
sops::Error error_of(F&& f) {
  try {
    f();
  } catch (const sops::Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a sops::Error";
  return sops::Error("no error");
}

// A registry holding demo_ops (add.Tensor, add_.Tensor, add.out, relu).
class DemoRegistry : public ::testing::Test {
 protected:
  void SetUp() override { demo::ops::register_demo_ops_kernels(registry_); }

  // Calls `name` on `stack` through the registry.
  void call(std::string_view name, Stack& stack) const {
    registry_.find_or_throw(name).call(stack);
  }

  OperatorRegistry registry_;
};

// A registry holding boxed_ops (relu, boxed::window, describe, pair, pair.out).
class BoxedRegistry : public DemoRegistry {
 protected:
  void SetUp() override { boxed::ops::register_boxed_ops_kernels(registry_); }
};

}  // namespace boxed_test
