// Two generated libraries linked into one program, both declaring `relu` (demo_ops and
// clashing_ops): the program starts (a throw from a static initializer would end it
// before main()), and a call of the operator they share is an error naming the
// operator, both libraries and both yamls, with the fix. Their other operators work.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "clashing_ops/Functions.h"
#include "demo_ops/Functions.h"
#include "runtime/dispatcher.h"
#include "runtime/tensor.h"
#include "tests/runtime/test_util.h"

namespace {

sops::Tensor floats(std::vector<float> values) {
  const auto n = static_cast<int64_t>(values.size());
  return sops::testing::make<float>(std::move(values), {n});
}

std::vector<float> elements(const sops::Tensor& t) { return sops::testing::values<float>(t); }

std::string error_of_relu(sops::Tensor (*relu)(const sops::Tensor&)) {
  return sops::testing::error_message([&] { relu(floats({-1, 1})); });
}

TEST(LibraryClash, CallingTheSharedOperatorNamesBothLibrariesAndYamls) {
  for (auto relu : {&demo::ops::relu, &clashing::ops::relu}) {
    const std::string what = error_of_relu(relu);
    EXPECT_EQ(what.rfind("relu: registered by two libraries: library '", 0), 0u) << what;
    EXPECT_NE(what.find("'demo_ops' (from tests/foundation/testdata/demo_ops.yaml)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("'clashing_ops' (from tests/foundation/testdata/clashing_ops.yaml)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("declare one library's operators in a namespace of its own (e.g. "
                        "`func: my_ops::relu(...)` in its yaml), or link only one of them"),
              std::string::npos)
        << what;
  }
  EXPECT_THROW(sops::Dispatcher::singleton().find("relu"), sops::Error);
}

TEST(LibraryClash, TheOtherOperatorsOfBothLibrariesWork) {
  EXPECT_EQ(elements(demo::ops::add(floats({1, 2}), floats({10, 20}))),
            (std::vector<float>{11, 22}));
  EXPECT_EQ(elements(clashing::ops::negate(floats({1, -2}))), (std::vector<float>{-1, 2}));
}

}  // namespace
